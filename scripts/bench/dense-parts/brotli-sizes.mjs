// Prints the brotli size of every file in a folder, as a static host would send it
// (quality 11, as scripts/bench/browser/server.mjs serves; BROTLI_QUALITY overrides for quick
// sweeps), one `name size` line per file. Used by examples/bench_dense_parts.rs.
//
//   node brotli-sizes.mjs DIR
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: brotli-sizes.mjs DIR');
  process.exit(2);
}
const quality = Number(process.env.BROTLI_QUALITY ?? 11);
const lines = [];
for (const name of readdirSync(dir).sort()) {
  const bytes = readFileSync(join(dir, name));
  const packed = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  lines.push(`${name} ${packed.length}`);
}
process.stdout.write(lines.join('\n') + '\n');
