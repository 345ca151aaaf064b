// A static server for the browser tests on 127.0.0.1, with a request log and faults chosen
// by the URL, so every test is isolated by its own URLs (and so its own Cache API keys).
//
//   /pkg/...                      the built package (pkg/)
//   /page/...                     the test page
//   /<scenario>/bundle/<file>     the sample bundle; <scenario> is dash-separated flags:
//       slowmodelN   model and tokenizer answer after N ms
//       notext       every text shard, and every chunk shard by number (format 5: metadata
//                    and text in one file), is a 404
//       badwords     every word-table shard of the model has one byte flipped
//       badterms     every term shard of the keyword index has one byte flipped
//       baddense     every part of the dense index in parts has one byte flipped
//   /<scenario>/bundle-parts/<file>   the same site built with its dense index in parts
//                                 (`lectern build --dense-parts always`), the same flags
//   /<scenario>/bundle-i18n/[zh-CN/]<file>   tests/fixtures/i18n-site, every locale: English
//                                 (the default) here, Simplified Chinese in zh-CN/
//   /variant/tokenizer-changed.json   the bundle's tokenizer plus one byte (another fingerprint)
//   /__log                        JSON list of requests served so far ({path, status})

import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import path from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".ts": "text/plain",
};

export async function startServer({ pkgDir, pageDir, bundleDir }) {
  const log = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    const send = (status, body, type = "text/plain") => {
      log.push({ path: url.pathname, status });
      res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store", "Access-Control-Allow-Origin": "*" });
      res.end(body);
    };
    try {
      if (url.pathname === "/__log") return send(200, JSON.stringify(log), TYPES[".json"]);
      const file = await resolve(url.pathname);
      if (!file) return send(404, "not found");
      if (file.delay) await new Promise((r) => setTimeout(r, file.delay));
      if (file.status) return send(file.status, "not found");
      const body = file.append ? Buffer.concat([await readFile(file.path), Buffer.from(file.append)]) : await readFile(file.path);
      if (file.flip) body[body.length >> 1] ^= 0x10;
      send(200, body, TYPES[path.extname(file.path)] ?? "application/octet-stream");
    } catch (e) {
      send(e.code === "ENOENT" || e.code === "EISDIR" ? 404 : 500, String(e.message));
    }
  });

  async function resolve(pathname) {
    const parts = pathname.split("/").filter(Boolean);
    if (parts.some((p) => p === ".." || p.startsWith("."))) return null;
    if (parts[0] === "pkg") return { path: path.join(pkgDir, ...parts.slice(1)) };
    if (parts[0] === "page") return { path: path.join(pageDir, ...(parts.length > 1 ? parts.slice(1) : ["index.html"])) };
    if (parts[0] === "variant" && parts[1] === "tokenizer-changed.json") {
      const manifest = JSON.parse(await readFile(path.join(bundleDir, "manifest.json"), "utf8"));
      return { path: path.join(bundleDir, manifest.model.tokenizer.name), append: "\n" };
    }
    if (parts[1] === "bundle-i18n" && (parts.length === 3 || parts.length === 4)) {
      return { path: path.join(path.dirname(bundleDir), "bundle-i18n", ...parts.slice(2)) };
    }
    if (parts.length === 3 && (parts[1] === "bundle" || parts[1] === "bundle-parts")) {
      const flags = parts[0].split("-");
      const name = parts[2];
      const dir = parts[1] === "bundle" ? bundleDir : path.join(path.dirname(bundleDir), "bundle-parts");
      const file = { path: path.join(dir, name) };
      for (const flag of flags) {
        const slow = /^slowmodel(\d+)$/.exec(flag);
        if (slow && /^(model|tokenizer)\./.test(name)) file.delay = Number(slow[1]);
        if (flag === "notext" && /^(text|chunks)\./.test(name)) file.status = 404;
        if (flag === "badwords" && name.startsWith("words.")) file.flip = true;
        if (flag === "badterms" && name.startsWith("terms.")) file.flip = true;
        if (flag === "baddense" && name.startsWith("dense-part.")) file.flip = true;
      }
      return file;
    }
    return null;
  }

  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    log,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }),
  };
}
