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
//   /api/llm/...                  with `llmUpstream`: a same-origin proxy to an LLM server, as a
//                                 site's keyless proxy sits (scripts/llm-server)
//   anything else                 with `siteDir`: a built static site, served as a static host
//                                 does (folder/index.html, x.html, a redirect to add the folder's
//                                 "/", 404.html)
//
// Each root is optional. With `isolate: true` every response carries COOP/COEP, so pages are
// cross-origin isolated (SharedArrayBuffer, hence onnxruntime-web's threads). With `link`
// (link.mjs) every request waits a round trip and every body goes through the link's shared
// pacer. `caching: "revalidate"` sends ETag + `Cache-Control: no-cache` and answers
// If-None-Match with 304, as common static hosts do; the default, "no-store", keeps every
// request a download.

import { createServer, request as httpRequest } from "node:http";
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import zlib from "node:zlib";
import { promisify } from "node:util";

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

export const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml",
  ".svg": "image/svg+xml",
  ".wasm": "application/wasm",
  ".onnx": "application/octet-stream",
  ".lcm": "application/octet-stream",
  ".bin": "application/octet-stream",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};
/** Types a static host compresses (wasm and onnx compress well too; images and fonts are
 * compressed already). */
const COMPRESSIBLE = new Set(Object.keys(TYPES).filter((ext) => ![".png", ".ico", ".woff2"].includes(ext)));

export const LLM_PREFIX = "/api/llm/";

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

const epochNow = () => performance.timeOrigin + performance.now();

async function isFile(file) {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

export async function startServer({ pageDir, pkgDir, variants = {}, bundleDir, tjsDir, ortDir, hfDir, modelDir, cacheDir, isolate = false, siteDir, llmUpstream, link, caching = "no-store" }) {
  await mkdir(cacheDir, { recursive: true });
  const log = [];
  /** Sockets that have not carried a request yet: their first pays the handshake's round trip. */
  const freshSockets = new WeakSet();
  /** path on disk -> {bytes, gzip, br, mtimeMs} */
  const files = new Map();

  async function load(file) {
    const st = await stat(file);
    if (!st.isFile()) throw Object.assign(new Error("not a file"), { code: "EISDIR" });
    const known = files.get(file);
    if (known && known.mtimeMs === st.mtimeMs && known.bytes.length === st.size) return known;
    const bytes = await readFile(file);
    const etag = `"${createHash("sha256").update(bytes).digest("hex").slice(0, 24)}"`;
    const entry = { bytes, etag, mtimeMs: st.mtimeMs, ...(COMPRESSIBLE.has(path.extname(file)) ? await encoded(cacheDir, bytes) : {}) };
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
    if (root === "models" && rest[0] === "all-minilm-l6-v2" && hfDir && modelDir) {
      const name = rest.slice(1).join("/");
      if (name === "config.json" || name === "tokenizer_config.json") return path.join(hfDir, name);
      if (name === "tokenizer.json") return path.join(modelDir, "tokenizer.json");
      if (name === "onnx/model_quantized.onnx") return path.join(modelDir, "model-int8.onnx");
      if (name === "model-compact.lcm") return path.join(modelDir, "model-compact.lcm");
    }
    return null;
  }

  /** A path of the static site: {file}, {redirect} (a folder without its "/") or null. */
  async function resolveSite(pathname) {
    if (!siteDir) return null;
    let clean;
    try {
      clean = path.posix.normalize(decodeURIComponent(pathname));
    } catch {
      return null;
    }
    if (clean.split("/").some((p) => p === ".." || p.startsWith("."))) return null;
    const base = path.join(siteDir, clean);
    if (!clean.endsWith("/") && (await isFile(path.join(base, "index.html")))) return { redirect: `${pathname}/` };
    for (const file of [base, path.join(base, "index.html"), `${base}.html`]) if (await isFile(file)) return { file };
    return null;
  }

  /** Streams an LLM server's answer to `res` through the link. */
  function proxyLlm(req, res, url, entry) {
    const target = new URL(url.pathname.slice(LLM_PREFIX.length - 1) + url.search, llmUpstream);
    const out = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, async (up) => {
      Object.assign(entry, { status: up.statusCode, tHead: epochNow() });
      log.push(entry);
      res.writeHead(up.statusCode, up.headers);
      try {
        for await (const chunk of up) {
          entry.raw += chunk.length;
          entry.sent += link ? await link.send(res, chunk) : (res.write(chunk), chunk.length);
        }
      } catch {
        // The client or the upstream went away: end what can be ended.
      }
      entry.tEnd = epochNow();
      res.end();
    });
    out.on("error", (e) => {
      if (res.headersSent) return res.destroy();
      res.writeHead(502, { "Content-Type": "text/plain" });
      res.end(`LLM upstream: ${e.message}`);
    });
    res.on("close", () => out.destroy());
    req.pipe(out);
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    const t0 = epochNow();
    const fresh = freshSockets.delete(req.socket);
    const control = url.pathname.startsWith("/__");
    if (link && !control) await link.delay(fresh);
    const headers = { "Cache-Control": caching === "revalidate" ? "no-cache" : "no-store", Vary: "Accept-Encoding" };
    if (isolate) {
      Object.assign(headers, {
        "Cross-Origin-Opener-Policy": "same-origin",
        "Cross-Origin-Embedder-Policy": "require-corp",
        "Cross-Origin-Resource-Policy": "same-origin",
      });
    }
    const entry = {
      path: url.pathname,
      status: 0,
      raw: 0,
      sent: 0,
      encoding: "identity",
      acceptEncoding: req.headers["accept-encoding"] ?? "",
      purpose: req.headers["sec-purpose"] ?? req.headers.purpose ?? null, // "prefetch" for <link rel=prefetch>
      t0,
      newConnection: fresh,
    };
    const send = async (status, body, type, encoding) => {
      const empty = req.method === "HEAD" || status === 304;
      Object.assign(entry, { status, sent: empty ? 0 : body.length, tHead: epochNow() });
      if (encoding) {
        entry.encoding = encoding;
        headers["Content-Encoding"] = encoding;
      }
      if (!control) log.push(entry);
      if (status === 304) {
        res.writeHead(304, headers);
      } else {
        res.writeHead(status, { ...headers, "Content-Type": type, "Content-Length": body.length });
        if (!empty) {
          if (link && !control) entry.sent = await link.send(res, body);
          else res.write(body);
        }
      }
      entry.tEnd = epochNow();
      res.end();
    };
    try {
      if (llmUpstream && url.pathname.startsWith(LLM_PREFIX)) return proxyLlm(req, res, url, entry);
      if (url.pathname === "/__log") return send(200, Buffer.from(JSON.stringify(log)), TYPES[".json"]);
      if (url.pathname === "/__reset") {
        log.length = 0;
        return send(200, Buffer.from("[]"), TYPES[".json"]);
      }
      let file = resolve(url.pathname);
      let status = 200;
      if (!file) {
        const site = await resolveSite(url.pathname);
        if (site?.redirect) {
          Object.assign(entry, { status: 301, tHead: epochNow(), tEnd: epochNow() });
          log.push(entry);
          res.writeHead(301, { ...headers, Location: site.redirect + url.search });
          return res.end();
        }
        file = site?.file;
        if (!file && siteDir && (await isFile(path.join(siteDir, "404.html")))) {
          file = path.join(siteDir, "404.html");
          status = 404;
        }
      }
      if (!file) return await send(404, Buffer.from("not found"), "text/plain");
      const f = await load(file);
      entry.raw = f.bytes.length;
      entry.gzip = f.gzip?.length;
      entry.br = f.br?.length;
      const accept = String(req.headers["accept-encoding"] ?? "");
      const type = TYPES[path.extname(file)] ?? "application/octet-stream";
      const encoding = f.br && /\bbr\b/.test(accept) ? "br" : f.gzip && /\bgzip\b/.test(accept) ? "gzip" : null;
      if (caching === "revalidate" && status === 200) {
        headers.ETag = f.etag.replace(/"$/, `-${encoding ?? "id"}"`);
        if (req.headers["if-none-match"] === headers.ETag) return await send(304, null, type);
      }
      return await send(status, encoding ? f[encoding] : f.bytes, type, encoding);
    } catch (e) {
      if (res.headersSent) return res.destroy();
      const missing = e.code === "ENOENT" || e.code === "EISDIR" || e.code === "ENOTDIR";
      await send(missing ? 404 : 500, Buffer.from(String(e.message)), "text/plain");
    }
  });
  server.on("connection", (socket) => freshSockets.add(socket));
  // A host keeps idle connections open longer than Node's 5 s default.
  server.keepAliveTimeout = 120_000;

  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    log,
    /** Loads (and precompresses) files ahead of the first request, so no timing pays for it. */
    warm: (paths) => Promise.all(paths.map((p) => load(resolve(p)))),
    /** The same for files on disk (e.g. every file of the site). */
    warmFiles: async (files) => {
      // One at a time: brotli q11 of a large file is heavy, and the machine is shared.
      for (const f of files) await load(f);
    },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}
