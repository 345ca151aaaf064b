// The e2e tests' web server on 127.0.0.1: the built example site, served statically the way
// a static host does (folder/index.html, 404.html), plus a same-origin reverse proxy at
// /api/llm/ to the LLM server — as a site's real keyless proxy would sit. The proxy can be
// pointed at another upstream or taken down, per test.
//
//   const site = await startSiteServer({ root: "www/example/build" });
//   site.setUpstream("http://127.0.0.1:4321");   // null: the LLM is down (502 from the proxy);
//                                                // "unreachable": connections to the proxy drop
//   site.setDelay(/model\./, 4000)               // files matching answer 4 s late (null: none)
//   site.setHeaders({ "content-security-policy": "…" })  // extra headers on every file served
//   site.requests()                              // [{path, status}] served so far

import { createServer, request as httpRequest } from "node:http";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".xml": "application/xml",
  ".onnx": "application/octet-stream",
  ".lcm": "application/octet-stream",
  ".bin": "application/octet-stream",
};

export const LLM_PREFIX = "/api/llm";

async function isFile(p) {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

export async function startSiteServer({ root }) {
  let upstream = null;
  let delay = null;
  let extraHeaders = {};
  const log = [];

  async function resolveFile(pathname) {
    const clean = path.posix.normalize(decodeURIComponent(pathname));
    if (clean.split("/").includes("..")) return null;
    const base = path.join(root, clean);
    for (const candidate of [base, path.join(base, "index.html"), `${base}.html`]) {
      if (await isFile(candidate)) return candidate;
    }
    return null;
  }

  function proxy(req, res, url) {
    if (upstream === "unreachable") {
      // The endpoint itself cannot be reached: the connection drops (a network error).
      log.push({ path: url.pathname, status: 0 });
      req.socket.destroy();
      return;
    }
    if (!upstream) {
      // The proxy is up but the LLM behind it is down: 502, as a real proxy answers.
      log.push({ path: url.pathname, status: 502 });
      res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "Bad gateway: the LLM upstream is down.", type: "server_error" } }));
      return;
    }
    const target = new URL(url.pathname.slice(LLM_PREFIX.length) + url.search, upstream);
    const out = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (up) => {
      log.push({ path: url.pathname, status: up.statusCode });
      res.writeHead(up.statusCode, up.headers);
      up.pipe(res);
      up.on("error", () => res.destroy());
      up.on("aborted", () => res.destroy());
    });
    out.on("error", () => {
      if (!res.headersSent) req.socket.destroy();
      else res.destroy();
    });
    res.on("close", () => out.destroy());
    req.pipe(out);
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    if (url.pathname.startsWith(`${LLM_PREFIX}/`)) return proxy(req, res, url);
    try {
      const file = await resolveFile(url.pathname);
      if (!file) {
        log.push({ path: url.pathname, status: 404 });
        const notFound = path.join(root, "404.html");
        res.writeHead(404, { "content-type": TYPES[".html"] });
        return res.end((await isFile(notFound)) ? await readFile(notFound) : "not found");
      }
      // Docusaurus's folder URLs end with "/": redirect like a static host does.
      if (file.endsWith(`${path.sep}index.html`) && !url.pathname.endsWith("/") && !url.pathname.endsWith("index.html")) {
        log.push({ path: url.pathname, status: 301 });
        res.writeHead(301, { location: `${url.pathname}/${url.search}` });
        return res.end();
      }
      if (delay && delay.pattern.test(url.pathname)) await new Promise((r) => setTimeout(r, delay.ms));
      const body = await readFile(file);
      log.push({ path: url.pathname, status: 200, bytes: body.length, type: TYPES[path.extname(file)] ?? "" });
      res.writeHead(200, { ...extraHeaders, "content-type": TYPES[path.extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
      res.end(body);
    } catch (e) {
      res.writeHead(500);
      res.end(String(e.message));
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    endpointPath: `${LLM_PREFIX}/v1/chat/completions`,
    setUpstream(url) {
      upstream = url;
    },
    setDelay(pattern, ms) {
      delay = pattern ? { pattern, ms } : null;
    },
    setHeaders(headers) {
      extraHeaders = headers ?? {};
    },
    requests: () => log.slice(),
    clearRequests: () => log.splice(0),
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}
