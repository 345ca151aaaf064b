#!/usr/bin/env node
// Runs the `lectern` CLI compiled to wasm32-wasip1 with Node's WASI: the portable build for
// platforms with no prebuilt binary. The whole file system is visible to it as on the host
// (preopened at "/"), and it starts in the caller's working directory ($PWD).
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const { WASI } = require("node:wasi");

async function main() {
  const root = path.parse(process.cwd()).root;
  // The guest sees the drive of the working directory (POSIX: the whole tree) at "/": host
  // paths on it become guest paths (C:\site -> /site); others pass unchanged.
  const guest = (p) =>
    path.isAbsolute(p) && p.toUpperCase().startsWith(root.toUpperCase()) ? `/${p.slice(root.length).split(path.sep).join("/")}` : p;
  const env = { ...process.env, PWD: guest(process.cwd()) };
  if (env.LECTERN_MODEL_DIR) env.LECTERN_MODEL_DIR = guest(env.LECTERN_MODEL_DIR);
  const wasi = new WASI({
    version: "preview1",
    args: ["lectern", ...process.argv.slice(2).map(guest)],
    env,
    preopens: { "/": root },
    returnOnExit: true,
  });
  const module = await WebAssembly.compile(fs.readFileSync(path.join(__dirname, "lectern.wasm")));
  const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
  process.exitCode = wasi.start(instance);
}

main().catch((e) => {
  console.error(`lectern (wasm32-wasi): ${e.message}`);
  process.exitCode = 1;
});
