// The README is published with the package (npm shows it): every relative link and every
// `src/…` path it names must be a file the package contains (`npm pack --dry-run`, the
// listing npm/pack.mjs stages from), and every in-page link must name a heading.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const PACKAGE = path.join(__dirname, "..");
const README = fs.readFileSync(path.join(PACKAGE, "README.md"), "utf8");

function packedFiles() {
  const win = process.platform === "win32";
  const out = execFileSync(win ? "npm.cmd" : "npm", ["pack", "--dry-run", "--json", "--loglevel=error"], { cwd: PACKAGE, encoding: "utf8", shell: win });
  return JSON.parse(out)[0].files.map((f) => f.path);
}

/** github-slugger's anchor of a heading, as GitHub and npm render it. */
const slug = (heading) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");

test("the README links only files the package contains, and headings that exist", () => {
  const files = packedFiles();
  const prose = README.replace(/```[\s\S]*?```/g, "");
  const targets = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  assert.ok(targets.length > 0);
  const anchors = [...README.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]));
  const broken = [];
  for (const target of targets) {
    if (/^(https?:|mailto:)/.test(target)) continue;
    const [file, anchor] = target.split("#");
    if (!file) {
      if (!anchors.includes(anchor)) broken.push(`${target}: no such heading`);
      continue;
    }
    const packed = path.posix.normalize(file);
    if (packed.startsWith("..") || !files.includes(packed)) broken.push(`${target}: not in the package`);
  }
  // Paths of the package's own files named in code spans.
  for (const [, named] of prose.matchAll(/`(src\/[^`\s]*)`/g)) {
    if (!files.some((f) => f === named || f.startsWith(named.endsWith("/") ? named : `${named}/`))) broken.push(`\`${named}\`: not in the package`);
  }
  assert.deepEqual(broken, []);
});
