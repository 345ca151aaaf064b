// node --test npm/: the launcher's choice of binary, with stand-in processes and packages.
"use strict";

const assert = require("node:assert/strict");
const path = require("node:path");
const test = require("node:test");
const { resolveCli, currentPlatform, libcOf } = require(".");

const proc = (platform, arch, glibc) => ({
  platform,
  arch,
  env: {},
  execPath: "/usr/bin/node",
  report: {
    getReport: () => (glibc ? { header: { glibcVersionRuntime: "2.36" } } : { header: {}, sharedObjects: ["/lib/ld-musl-x86_64.so.1"] }),
  },
});
/** A require.resolve that knows only the given packages, installed under /nm. */
const installed = (...names) => (request) => {
  const name = request.replace(/\/package\.json$/, "");
  if (!names.includes(name)) throw Object.assign(new Error(`Cannot find module '${request}'`), { code: "MODULE_NOT_FOUND" });
  return path.join("/nm", name, "package.json");
};
const MODEL = "@lectern/model-all-minilm-l6-v2";

test("platforms: os, cpu and libc pick the package", () => {
  assert.equal(currentPlatform(proc("linux", "x64", true)).name, "linux-x64-gnu");
  assert.equal(currentPlatform(proc("linux", "x64", false)).name, "linux-x64-musl");
  assert.equal(currentPlatform(proc("darwin", "arm64")).name, "darwin-arm64");
  assert.equal(currentPlatform(proc("win32", "x64")).name, "win32-x64-msvc");
  assert.equal(currentPlatform(proc("freebsd", "x64")), null);
  assert.equal(libcOf(proc("darwin", "x64")), null);
});

test("the native package runs with the installed model", () => {
  const cli = resolveCli({ proc: proc("linux", "x64", true), resolve: installed(MODEL, "@lectern/cli-linux-x64-gnu") });
  assert.equal(cli.file, "/nm/@lectern/cli-linux-x64-gnu/bin/lectern");
  assert.equal(cli.env.LECTERN_MODEL_DIR, `/nm/${MODEL}`);
  assert.equal(cli.via, "@lectern/cli-linux-x64-gnu");
  const win = resolveCli({ proc: proc("win32", "x64"), resolve: installed(MODEL, "@lectern/cli-win32-x64-msvc") });
  assert.equal(path.basename(win.file), "lectern.exe");
});

test("no binary for the platform: the wasi package if installed, else an error naming the platforms", () => {
  const bsd = proc("freebsd", "x64");
  const wasi = resolveCli({ proc: bsd, resolve: installed(MODEL, "@lectern/cli-wasm32-wasi") });
  assert.deepEqual([wasi.file, wasi.args.at(-1), wasi.via], ["/usr/bin/node", "/nm/@lectern/cli-wasm32-wasi/run.js", "@lectern/cli-wasm32-wasi"]);
  assert.throws(() => resolveCli({ proc: bsd, resolve: installed(MODEL) }), /no prebuilt binary for freebsd-x64 \(prebuilt: linux-x64-gnu, .*win32-x64-msvc\).*npm install @lectern\/cli-wasm32-wasi/);
  assert.throws(() => resolveCli({ proc: proc("linux", "arm64", true), resolve: installed(MODEL) }), /its package @lectern\/cli-linux-arm64-gnu is not installed/);
});

test("a missing model package is named", () => {
  assert.throws(() => resolveCli({ proc: proc("linux", "x64", true), resolve: installed("@lectern/cli-linux-x64-gnu") }), /npm install @lectern\/model-all-minilm-l6-v2/);
  const own = resolveCli({ proc: proc("linux", "x64", true), env: { LECTERN_MODEL_DIR: "/m" }, resolve: installed("@lectern/cli-linux-x64-gnu") });
  assert.equal(own.env.LECTERN_MODEL_DIR, "/m");
});
