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
  const wasi = new WASI({
    version: "preview1",
    args: ["lectern", ...process.argv.slice(2)],
    env: { ...process.env, PWD: process.cwd().split(path.sep).join("/").slice(root.length - 1) },
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
