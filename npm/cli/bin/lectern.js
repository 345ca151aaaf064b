#!/usr/bin/env node
// `npx lectern …`: runs the `lectern` binary installed for this platform with the
// installed model, passing arguments, output and exit code through.
"use strict";

const { spawnSync } = require("node:child_process");
const { resolveCli } = require("..");

let cli;
try {
  cli = resolveCli();
} catch (e) {
  console.error(`lectern: ${e.message}`);
  process.exit(1);
}
const result = spawnSync(cli.file, [...cli.args, ...process.argv.slice(2)], { stdio: "inherit", env: cli.env });
if (result.error) {
  console.error(`lectern: could not run ${cli.file} (${cli.via}): ${result.error.message}`);
  process.exit(1);
}
// Killed by a signal: exit as a shell reports it (Ctrl+C: 130).
if (result.signal) process.exit(128 + (require("node:os").constants.signals[result.signal] ?? 0));
process.exit(result.status ?? 1);
