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
//   site.setFault(/\/text\./, "truncate")          // damages matching files on the wire (below)
//   site.requests()                              // [{path, status, at}] served so far
//   site.usageEvents()                           // [{status, body}] posted to /api/proxy/v1/events
//   site.storedEvents()                          // the JSON Lines the proxy wrote for them
//
// /api/proxy/v1/events is the reference proxy's usage-event sink itself
// (proxy/cloudflare-worker: createProxy, this site's origin allowed, a KV namespace that
// keeps what it is given, EVENTS_STORE_TEXT on), so what the widget sends is judged and
// stored exactly as a deployed proxy would.
//   site.setHandler(fn)                          // /api/llm/… answered by fn(Request for /…) -> Response
//                                                // (e.g. the reference proxy's handler, run
//                                                // in-process: tests/e2e/limits.test.mjs); null: the plain forward
//
// A fault (setFault(pattern, kind, {times, onePath}); setFault(null) clears them all; several
// may be set, the first that matches a path applies, each `times` times or for good, and with
// `onePath` only to the first path it matched):
//   "404"       answers 404 Not Found
//   "abort"     drops the connection before answering (the browser sees a network error)
//   "cut"       sends the headers and the first half of the body, then drops the connection
//   "truncate"  a complete response holding the first half of the file (a wrong size)
//   "corrupt"   the whole file with bytes flipped in its middle (a wrong checksum)
//   "garbage"   a complete response of text that is no format the runtime reads

import { createServer, request as httpRequest } from "node:http";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { createProxy } from "../../proxy/cloudflare-worker/src/proxy.mjs";

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
/** The proxy's events route as this site serves it: <PROXY_PREFIX>/v1/events. */
export const PROXY_PREFIX = "/api/proxy";

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
  let faults = [];
  let handler = null;
  const log = [];
  const posted = []; // what reached the events route: {status, body}
  const stored = []; // what the proxy wrote into its KV namespace (JSON Lines per batch)
  const eventsProxy = createProxy();
  const eventsKv = { put: async (_key, value) => void stored.push(value) };

  /** Hands a request on /api/proxy/… to the reference proxy (its events route). */
  async function toEventsProxy(req, res, url, origin) {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    headers.set("cf-connecting-ip", "127.0.0.1");
    const env = { UPSTREAM_URL: "http://127.0.0.1:9/v1/chat/completions", API_KEY: "e2e-stand-in", ALLOWED_ORIGINS: origin, EVENTS_KV: eventsKv, EVENTS_STORE_TEXT: "true", EVENTS_PER_MINUTE: "600" };
    const init = { method: req.method, headers, body: req.method === "GET" || req.method === "HEAD" ? undefined : body };
    const response = await eventsProxy.fetch(new Request(`https://proxy.test${url.pathname.slice(PROXY_PREFIX.length)}`, init), env, {});
    posted.push({ status: response.status, body: body.toString("utf8") });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  }

  /** The fault for `pathname`, used up once (null: serve it as it is). */
  function takeFault(pathname) {
    const fault = faults.find((f) => f.pattern.test(pathname) && (!f.onePath || f.path === undefined || f.path === pathname));
    if (!fault) return null;
    if (fault.onePath) fault.path = pathname;
    if (fault.times !== undefined && --fault.times <= 0) faults = faults.filter((f) => f !== fault);
    return fault.kind;
  }

  /** Answers with `body` damaged by `kind` (see the header). */
  function sendFaulty(req, res, kind, body, headers, pathname) {
    log.push({ path: pathname, status: kind === "404" ? 404 : 200, fault: kind, at: Date.now() });
    if (kind === "404") {
      res.writeHead(404, { "content-type": "text/plain" });
      return res.end("not found");
    }
    if (kind === "abort") return req.socket.destroy();
    const half = body.subarray(0, Math.max(1, body.length >> 1));
    if (kind === "cut") {
      res.writeHead(200, { ...headers, "content-length": body.length });
      res.write(half);
      // Let the first half reach the browser before the connection drops.
      return setTimeout(() => req.socket.destroy(), 50);
    }
    let damaged = half;
    if (kind === "corrupt") {
      damaged = Buffer.from(body);
      for (let i = damaged.length >> 1; i < Math.min(damaged.length, (damaged.length >> 1) + 16); i++) damaged[i] ^= 0x5a;
    } else if (kind === "garbage") {
      damaged = Buffer.from("<!doctype html><title>Oops</title> this is not what was asked for");
    } else if (kind !== "truncate") {
      throw new Error(`no fault ${kind}`);
    }
    res.writeHead(200, headers);
    res.end(damaged);
  }

  async function resolveFile(pathname) {
    const clean = path.posix.normalize(decodeURIComponent(pathname));
    if (clean.split("/").includes("..")) return null;
    const base = path.join(root, clean);
    for (const candidate of [base, path.join(base, "index.html"), `${base}.html`]) {
      if (await isFile(candidate)) return candidate;
    }
    return null;
  }

  /** Answers with `handler` (a fetch handler, as a Worker's): the request as a Request, its
   * Response streamed back as it comes. */
  async function handleWith(req, res, url) {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const body = ["GET", "HEAD"].includes(req.method) ? undefined : Buffer.concat(chunks);
    // The handler sees the path behind /api/llm, as the plain forward's upstream does.
    const target = new URL(url.pathname.slice(LLM_PREFIX.length) + url.search, origin);
    const response = await handler(new Request(target, { method: req.method, headers, body }));
    log.push({ path: url.pathname, status: response.status, at: Date.now() });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return res.end();
    const reader = response.body.getReader();
    res.on("close", () => reader.cancel().catch(() => {}));
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  }

  function proxy(req, res, url) {
    if (handler) {
      handleWith(req, res, url).catch(() => res.destroy());
      return;
    }
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

  let origin = "";
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    if (url.pathname.startsWith(`${LLM_PREFIX}/`)) return proxy(req, res, url);
    if (url.pathname.startsWith(`${PROXY_PREFIX}/`)) return toEventsProxy(req, res, url, origin);
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
      const headers = { ...extraHeaders, "content-type": TYPES[path.extname(file)] ?? "application/octet-stream", "cache-control": "no-store" };
      const fault = takeFault(url.pathname);
      if (fault) return sendFaulty(req, res, fault, body, headers, url.pathname);
      log.push({ path: url.pathname, status: 200, bytes: body.length, type: TYPES[path.extname(file)] ?? "", at: Date.now() });
      res.writeHead(200, headers);
      res.end(body);
    } catch (e) {
      res.writeHead(500);
      res.end(String(e.message));
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    endpointPath: `${LLM_PREFIX}/v1/chat/completions`,
    setUpstream(url) {
      upstream = url;
    },
    setDelay(pattern, ms) {
      delay = pattern ? { pattern, ms } : null;
    },
    /** Answers /api/llm/ with `fn` (Request -> Response); null: the plain forward again. */
    setHandler(fn) {
      handler = fn ?? null;
    },
    setHeaders(headers) {
      extraHeaders = headers ?? {};
    },
    /** Damages files whose path matches `pattern` (see the header); null clears every fault. */
    setFault(pattern, kind, { times, onePath = false } = {}) {
      if (!pattern) faults = [];
      else faults.push({ pattern, kind, times, onePath });
    },
    requests: () => log.slice(),
    usageEvents: () => posted.slice(),
    storedEvents: () => stored.join(""),
    clearUsageEvents: () => {
      posted.splice(0);
      stored.splice(0);
    },
    clearRequests: () => log.splice(0),
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}
