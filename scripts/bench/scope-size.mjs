#!/usr/bin/env node
// What recording each chunk's docs instance costs a bundle (issue 26, point 2; BENCHMARKS.md
// "Docs version and instance scope"): for each bundle folder given, the chunk table (loaded
// with the manifest, before the first result) and the metadata shards (fetched per result),
// raw, gzip -9 and brotli q11, with and without the instance. "Without" is the same files
// with the instance fields taken out (`instances` and `instance_runs` of the chunk table,
// `instance` of each chunk's metadata): the bytes a bundle written before them has, since
// the writer's JSON is otherwise unchanged.
//
//   node scripts/bench/scope-size.mjs BUNDLE_DIR...
import { readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const sizes = (text) => {
  const bytes = Buffer.from(text);
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
};
const sum = (list) => list.reduce((a, s) => ({ raw: a.raw + s.raw, gzip: a.gzip + s.gzip, brotli: a.brotli + s.brotli }), { raw: 0, gzip: 0, brotli: 0 });
const show = (before, after) =>
  ["raw", "gzip", "brotli"].map((k) => `${before[k]} → ${after[k]} (${after[k] - before[k] >= 0 ? "+" : ""}${after[k] - before[k]})`).join(" | ");

console.log("| bundle | chunks | instances | chunk table: raw \\| gzip \\| brotli, before → after (bytes) | metadata shards, all: raw \\| gzip \\| brotli |");
console.log("|---|---|---|---|---|");
for (const dir of process.argv.slice(2)) {
  const read = (name) => readFileSync(path.join(dir, name), "utf8");
  const manifest = JSON.parse(read("manifest.json"));
  const tableText = read(manifest.files.chunk_table.name);
  const table = JSON.parse(tableText);
  if (!table.instance_runs) throw new Error(`${dir}: its chunk table records no instance (a bundle written before them)`);
  const { instances, instance_runs, ...without } = table;
  const tableBefore = sizes(JSON.stringify(without));
  const tableAfter = sizes(tableText);
  const metaBefore = [];
  const metaAfter = [];
  if (!manifest.files.chunks) throw new Error(`${dir}: a bundle of format 5 (chunk shards by number): this measure reads the metadata files of format 4`);
  for (const page of manifest.files.chunks) {
    for (const shard of JSON.parse(read(page.name))) {
      const text = read(shard.meta.name);
      metaAfter.push(sizes(text));
      metaBefore.push(sizes(JSON.stringify(JSON.parse(text).map(({ instance, ...rest }) => rest))));
    }
  }
  console.log(`| ${path.basename(dir)} | ${table.chunks} | ${instances.length} (${instance_runs.length} runs) | ${show(tableBefore, tableAfter)} | ${show(sum(metaBefore), sum(metaAfter))} |`);
}
