// The bench's static server on 127.0.0.1: both stacks from one origin, compressed as a static
// host would serve them (brotli q11 or gzip -9, precompressed once and kept on disk by content
// hash, chosen by Accept-Encoding), with a log of every response's raw and sent bytes.
//
//   /page/...                     the bench pages and workers (page/)
//   /pkg/...                      Lectern's package (pkg/ of the repo)
//   /pkg-<name>/...               variants of the package (e.g. built with +relaxed-simd)
//   /bundle/...                   the sample bundle (`lectern build www/example`)
//   /tjs/...                      @huggingface/transformers' dist/
//   /ort/...                      onnxruntime-web's dist/ (the version transformers.js pins)
//   /models/all-minilm-l6-v2/...  the same model as a Hugging Face folder for transformers.js:
//                                 config.json, tokenizer_config.json (hf-model/), tokenizer.json
//                                 and onnx/model_quantized.onnx (= the repo's model-int8.onnx)
//   /__log                        JSON list of responses so far; /__reset empties it
//
// With `isolate: true` every response carries COOP/COEP, so pages are cross-origin isolated
// (SharedArrayBuffer, hence onnxruntime-web's threads).

import { createServer } from "node:http";
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import zlib from "node:zlib";
import { promisify } from "node:util";

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".onnx": "application/octet-stream",
  ".bin": "application/octet-stream",
};
/** Types a static host compresses (all of them here: wasm and onnx compress well too). */
const COMPRESSIBLE = new Set(Object.keys(TYPES));

/** Encoded variants, by content hash, kept in `cacheDir` so a rerun costs nothing. */
const inFlight = new Map();
function encoded(cacheDir, bytes) {
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 32);
  if (!inFlight.has(hash)) inFlight.set(hash, encode(cacheDir, hash, bytes));
  return inFlight.get(hash);
}

async function encode(cacheDir, hash, bytes) {
  const out = {};
  for (const [enc, fn, opts] of [
    ["gzip", gzip, { level: 9 }],
    ["br", brotli, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }],
  ]) {
    const file = path.join(cacheDir, `${hash}.${enc}`);
    try {
      out[enc] = await readFile(file);
    } catch {
      out[enc] = await fn(bytes, opts);
      const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      await writeFile(tmp, out[enc]);
      await rename(tmp, file);
    }
  }
  return out;
}

export async function startServer({ pageDir, pkgDir, variants = {}, bundleDir, tjsDir, ortDir, hfDir, modelDir, cacheDir, isolate = false }) {
  await mkdir(cacheDir, { recursive: true });
  const log = [];
  /** path on disk -> {bytes, gzip, br, mtimeMs} */
  const files = new Map();

  async function load(file) {
    const st = await stat(file);
    if (!st.isFile()) throw Object.assign(new Error("not a file"), { code: "EISDIR" });
    const known = files.get(file);
    if (known && known.mtimeMs === st.mtimeMs && known.bytes.length === st.size) return known;
    const bytes = await readFile(file);
    const entry = { bytes, mtimeMs: st.mtimeMs, ...(COMPRESSIBLE.has(path.extname(file)) ? await encoded(cacheDir, bytes) : {}) };
    files.set(file, entry);
    return entry;
  }

  function resolve(pathname) {
    const parts = pathname.split("/").filter(Boolean).map(decodeURIComponent);
    if (parts.length === 1 && parts[0] === "page") parts.push("index.html");
    if (parts.length < 2 || parts.some((p) => p === ".." || p.startsWith(".") || p.includes("/"))) return null;
    const [root, ...rest] = parts;
    const dirs = { page: pageDir, pkg: pkgDir, bundle: bundleDir, tjs: tjsDir, ort: ortDir };
    for (const [name, dir] of Object.entries(variants)) dirs[`pkg-${name}`] = dir;
    if (dirs[root]) return path.join(dirs[root], ...rest);
    if (root === "models" && rest[0] === "all-minilm-l6-v2") {
      const name = rest.slice(1).join("/");
      if (name === "config.json" || name === "tokenizer_config.json") return path.join(hfDir, name);
      if (name === "tokenizer.json") return path.join(modelDir, "tokenizer.json");
      if (name === "onnx/model_quantized.onnx") return path.join(modelDir, "model-int8.onnx");
    }
    return null;
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    const headers = { "Cache-Control": "no-store", Vary: "Accept-Encoding" };
    if (isolate) {
      Object.assign(headers, {
        "Cross-Origin-Opener-Policy": "same-origin",
        "Cross-Origin-Embedder-Policy": "require-corp",
        "Cross-Origin-Resource-Policy": "same-origin",
      });
    }
    const entry = { path: url.pathname, status: 0, raw: 0, sent: 0, encoding: "identity", acceptEncoding: req.headers["accept-encoding"] ?? "" };
    const send = (status, body, type, encoding) => {
      Object.assign(entry, { status, sent: body.length });
      if (encoding) {
        entry.encoding = encoding;
        headers["Content-Encoding"] = encoding;
      }
      if (!url.pathname.startsWith("/__")) log.push(entry);
      res.writeHead(status, { ...headers, "Content-Type": type, "Content-Length": body.length });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    try {
      if (url.pathname === "/__log") return send(200, Buffer.from(JSON.stringify(log)), TYPES[".json"]);
      if (url.pathname === "/__reset") {
        log.length = 0;
        return send(200, Buffer.from("[]"), TYPES[".json"]);
      }
      const file = resolve(url.pathname);
      if (!file) return send(404, Buffer.from("not found"), "text/plain");
      const f = await load(file);
      entry.raw = f.bytes.length;
      entry.gzip = f.gzip?.length;
      entry.br = f.br?.length;
      const accept = String(req.headers["accept-encoding"] ?? "");
      const type = TYPES[path.extname(file)] ?? "application/octet-stream";
      if (f.br && /\bbr\b/.test(accept)) return send(200, f.br, type, "br");
      if (f.gzip && /\bgzip\b/.test(accept)) return send(200, f.gzip, type, "gzip");
      return send(200, f.bytes, type);
    } catch (e) {
      const missing = e.code === "ENOENT" || e.code === "EISDIR" || e.code === "ENOTDIR";
      send(missing ? 404 : 500, Buffer.from(String(e.message)), "text/plain");
    }
  });

  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    log,
    /** Loads (and precompresses) files ahead of the first request, so no timing pays for it. */
    warm: (paths) => Promise.all(paths.map((p) => load(resolve(p)))),
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}
