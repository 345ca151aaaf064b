#!/usr/bin/env node
// lectern-llm-server: a local, dependency-free, OpenAI-compatible chat-completions server
// for Lectern's tests and demo. It streams a deterministic answer built from the numbered
// context in the prompt (or a canned one), and misbehaves on demand so the client's error
// paths can be exercised for real over HTTP. See README.md beside this file.
//
//   node scripts/llm-server/server.mjs [--port 0] [--host 127.0.0.1] [--delay 15]
//        [--token-chars 4] [--canned "text"] [--context-pattern REGEX] [--context-end REGEX]
//        [--model NAME] [--verbose]
//
// When ready it prints exactly one line to stdout:
//   lectern-llm-server listening on http://127.0.0.1:N
// Everything else (the request log with --verbose) goes to stderr, so a test harness can
// read the URL from the first stdout line.

import http from "node:http";
import { pathToFileURL } from "node:url";

export const COMPLETIONS_PATH = "/v1/chat/completions";

/** What the echo answer says when the prompt carries no numbered context. */
export const NO_CONTEXT_ANSWER =
  "The provided context does not contain the answer to this question.";

/**
 * Default shape of a context block's first line: `[n] <heading path>`, optionally indented,
 * optionally written `[n]:`, `[n] -` or `Source [n]:`. Group 1 is n, group 2 the rest of the
 * line (the heading path, possibly empty). A block runs from such a line to the next one,
 * or to a line that closes the context (DEFAULT_CONTEXT_END), or to the end of the message.
 */
export const DEFAULT_CONTEXT_PATTERN = /^[ \t>]*(?:source\s*)?\[(\d{1,3})\][ \t]*[:.\-–—]?[ \t]*(.*)$/i;

/**
 * Lines that end a context block without starting another, so a question or instruction
 * written after the context ("Question: …", "</context>", "---") is not read as part of the
 * last section. Kept narrow (no markdown headings, no opening HTML tags) because chunk text
 * itself holds those.
 */
export const DEFAULT_CONTEXT_END =
  /^[ \t]*(?:<\/[\w-]+>|<(?:question|query|instructions?|selection|selected[\w-]*)>|-{3,}[ \t]*$|={3,}[ \t]*$|(?:question|user question|query|instructions?)[ \t]*:)/i;

// Faults understood by x-lectern-fault and POST /__control. Several may be combined with
// commas ("slow:2000,cut"). Parsed once per request by parseFault().
const FAULT_NAMES = new Set([
  "none", "status", "slow", "slow-headers", "hang", "cut", "abort", "malformed", "empty",
  "error-event", "stall",
]);

/** Parses "slow:2000,cut:3" into {slow: 2000, cut: 3}; throws on an unknown fault. */
export function parseFault(spec) {
  const fault = {};
  if (spec == null) return fault;
  for (const part of String(spec).split(",").map((s) => s.trim()).filter(Boolean)) {
    const [name, ...rest] = part.split(":");
    const arg = rest.join(":");
    const key = name.toLowerCase();
    if (!FAULT_NAMES.has(key)) throw new Error(`unknown fault "${part}"`);
    if (key === "none") continue;
    const num = arg === "" ? undefined : Number(arg);
    if (arg !== "" && !Number.isFinite(num)) throw new Error(`fault "${part}" needs a number`);
    if (key === "status" && !(num >= 100 && num <= 599)) {
      throw new Error(`fault "${part}" needs an HTTP status, e.g. status:500`);
    }
    if ((key === "slow" || key === "slow-headers" || key === "stall") && num === undefined) {
      throw new Error(`fault "${part}" needs milliseconds, e.g. ${key}:2000`);
    }
    fault[key] = num ?? true;
  }
  return fault;
}

// ---------------------------------------------------------------------------------------
// The context-echoing answer

/** Text of a chat message's content, whether a string or OpenAI's array of parts. */
function contentText(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((p) => (typeof p === "string" ? p : p?.text ?? "")).join("\n");
  }
  return "";
}

/** A RegExp without the global flag (so .test() keeps no state); strings are case-insensitive. */
function toRegExp(p) {
  return p instanceof RegExp ? new RegExp(p.source, p.flags.replace(/[gy]/g, "")) : new RegExp(String(p), "i");
}

/**
 * Finds numbered context blocks in one text. Returns [{n, heading, text}] in order of
 * appearance; `text` is the block body (lines after the `[n]` line), or, for a one-line
 * block (`[1] some text` with nothing after it), the rest of that line.
 */
export function parseContextBlocks(text, pattern = DEFAULT_CONTEXT_PATTERN, endPattern = DEFAULT_CONTEXT_END) {
  const re = toRegExp(pattern);
  const end = endPattern ? toRegExp(endPattern) : null;
  const blocks = [];
  let current = null;
  const finish = () => {
    if (!current) return;
    const body = current.lines.join("\n").trim();
    current.text = body || current.heading; // a one-line block is its own text
    delete current.lines;
    blocks.push(current);
    current = null;
  };
  for (const line of String(text).split(/\r?\n/)) {
    const m = re.exec(line);
    if (m) {
      finish();
      current = { n: Number(m[1]), heading: (m[2] ?? "").trim(), lines: [] };
    } else if (current && end?.test(line)) {
      finish();
    } else if (current) {
      current.lines.push(line);
    }
  }
  finish();
  return blocks;
}

/**
 * The numbered context of a request: from the last user message if it has any, else from
 * the system messages (last first), else from any message. That order matches where
 * clients put retrieved context (in the user turn, or in the system prompt).
 */
export function findContext(messages, pattern, endPattern) {
  const msgs = Array.isArray(messages) ? messages : [];
  const lastUser = [...msgs].reverse().find((m) => m?.role === "user");
  const candidates = [
    lastUser,
    ...[...msgs].reverse().filter((m) => m?.role === "system" || m?.role === "developer"),
    ...[...msgs].reverse(),
  ];
  for (const m of candidates) {
    if (!m) continue;
    const blocks = parseContextBlocks(contentText(m.content), pattern ?? undefined, endPattern);
    if (blocks.length) return blocks;
  }
  return [];
}

/** First sentence of a block that reads like prose (skips code fences and tiny fragments). */
export function firstSentence(text, maxChars = 240) {
  const prose = String(text)
    .replace(/```[\s\S]*?(```|$)/g, " ") // code is not a sentence
    .replace(/^[ \t]*#{1,6}[ \t].*$/gm, " ") // nor is a markdown heading
    .replace(/^[ \t]*(?:[>*+|-]|\d+\.)[ \t]+/gm, "") // list, quote and table markers
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // [text](url) reads as its text
    .replace(/(\*\*|__)(.+?)\1/g, "$2") // bold markers
    .replace(/\s+/g, " ")
    .trim();
  if (!prose) return "";
  const sentences = prose.match(/[^.!?]+(?:[.!?]+(?=\s|$)|$)/g) ?? [prose];
  let s = sentences.map((x) => x.trim()).find((x) => x.length >= 20) ?? sentences[0].trim();
  if (s.length > maxChars) {
    // Cut at a word boundary: a clipped word would look like a bug in a demo.
    s = s.slice(0, maxChars).replace(/\s+\S*$/, "") + "…";
  }
  return s;
}

/** Puts " [n]" before a sentence's final punctuation ("Robots move [1]."). */
function cite(sentence, n) {
  const m = /^(.*?)([.!?…]+)$/.exec(sentence);
  return m ? `${m[1]} [${n}]${m[2]}` : `${sentence} [${n}].`;
}

/** The answer the server gives to a request body, per its options. */
export function buildAnswer(body, { canned, contextPattern, contextEndPattern } = {}) {
  if (canned != null) return canned;
  const blocks = findContext(body?.messages, contextPattern, contextEndPattern);
  const parts = [];
  for (const b of blocks.slice(0, 2)) {
    const s = firstSentence(b.text);
    if (s) parts.push(cite(s, b.n));
  }
  return parts.length ? parts.join(" ") : NO_CONTEXT_ANSWER;
}

/** Splits an answer into stream tokens of about `size` characters, keeping whole spaces. */
export function tokenize(answer, size = 4) {
  const n = Math.max(1, Math.floor(size));
  return String(answer).match(new RegExp(`\\S{1,${n}}\\s*|\\s+`, "gu")) ?? [];
}

// ---------------------------------------------------------------------------------------
// HTTP plumbing

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted || !(ms > 0)) return resolve();
    // The listener is removed when the timer fires: one stream sleeps once per token, and
    // leftover listeners on its signal would pile up.
    const onAbort = () => { clearTimeout(t); resolve(); };
    const t = setTimeout(() => { signal?.removeEventListener("abort", onAbort); resolve(); }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/**
 * CORS for a browser page on another origin (the test page and the demo site are served
 * from another port). Any origin may call; only content-type and x-* request headers are
 * allowed, so a browser can never send Authorization here; only Retry-After is exposed.
 */
function corsHeaders(req) {
  const requested = String(req.headers["access-control-request-headers"] ?? "")
    .split(",").map((h) => h.trim().toLowerCase()).filter(Boolean);
  const allowed = ["content-type", ...requested.filter((h) => h.startsWith("x-"))];
  return {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "POST, GET, OPTIONS",
    "access-control-allow-headers": [...new Set(allowed)].join(", "),
    "access-control-expose-headers": "retry-after",
    "access-control-max-age": "600",
  };
}

function sendJson(res, status, value, headers = {}) {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

/** OpenAI's error body shape, so clients can parse our errors like the real ones. */
function openAiError(message, type, code = null) {
  return { error: { message, type, param: null, code } };
}

const STATUS_ERRORS = {
  400: ["Bad request.", "invalid_request_error", null],
  401: ["Incorrect API key provided.", "invalid_request_error", "invalid_api_key"],
  403: ["You are not allowed to use this model.", "invalid_request_error", "forbidden"],
  404: ["The model does not exist.", "invalid_request_error", "model_not_found"],
  429: ["Rate limit reached for requests. Please try again in 2s.", "rate_limit_error", "rate_limit_exceeded"],
  500: ["The server had an error while processing your request.", "server_error", null],
  502: ["Bad gateway.", "server_error", null],
  503: ["The engine is currently overloaded, please try again later.", "server_error", null],
};

const MAX_BODY_BYTES = 1 << 20;

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on("data", (c) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(Object.assign(new Error("request body too large"), { status: 413 }));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/**
 * Starts the server. Options: port (0 = any free), host, tokenDelayMs (between stream
 * chunks, default 15), tokenChars (characters per chunk, default 4), canned (fixed answer
 * text instead of echoing context), contextPattern (RegExp or string for the `[n]` line:
 * group 1 the number, group 2 the heading), contextEndPattern (RegExp or string for a line
 * that ends a block; null for none),
 * model (reported when the request names none), log (function for a one-line request log).
 *
 * Resolves to {url, port, server, close(), requests(), setFault(spec, times), reset()}.
 */
export async function startLlmServer(options = {}) {
  const {
    port = 0,
    host = "127.0.0.1",
    tokenDelayMs = 15,
    tokenChars = 4,
    canned,
    contextPattern = DEFAULT_CONTEXT_PATTERN,
    contextEndPattern = DEFAULT_CONTEXT_END,
    model: defaultModel = "lectern-echo",
    log,
  } = options;

  let log_ = []; // received completion requests
  let preflights = []; // OPTIONS on the completions path, kept apart (see GET /__requests)
  let queued = null; // {fault, spec, remaining} set by /__control or setFault()
  let counter = 0;

  const setFault = (spec, times = 1) => {
    const fault = parseFault(spec); // throws on a bad spec, before anything changes
    const n = Math.floor(Number(times));
    queued = Object.keys(fault).length && n > 0 ? { fault, spec: String(spec), remaining: n } : null;
  };
  const reset = () => {
    log_ = [];
    preflights = [];
    queued = null;
  };

  /** The fault for this request: its own header wins and does not use up a queued one. */
  function takeFault(req) {
    const header = req.headers["x-lectern-fault"];
    if (header) return { fault: parseFault(header), spec: header };
    if (!queued) return { fault: {}, spec: null };
    const { fault, spec } = queued;
    if (--queued.remaining <= 0) queued = null;
    return { fault, spec };
  }

  async function handleCompletion(req, res, cors) {
    const entry = {
      method: req.method,
      path: req.url,
      headers: { ...req.headers },
      body: null,
      time: new Date().toISOString(),
      fault: null,
    };
    log_.push(entry);

    let raw;
    try {
      raw = await readBody(req);
    } catch (e) {
      return sendJson(res, e.status ?? 400, openAiError(e.message, "invalid_request_error"), cors);
    }
    let fault;
    try {
      ({ fault, spec: entry.fault } = takeFault(req));
    } catch (e) {
      return sendJson(res, 400, openAiError(`x-lectern-fault: ${e.message}`, "invalid_request_error"), cors);
    }
    let body;
    try {
      body = JSON.parse(raw);
    } catch {
      entry.raw = raw.slice(0, 2000);
      return sendJson(res, 400, openAiError("We could not parse the JSON body of your request.", "invalid_request_error"), cors);
    }
    entry.body = body;
    if (!body || typeof body !== "object" || !Array.isArray(body.messages)) {
      return sendJson(res, 400, openAiError("'messages' is a required property and must be an array.", "invalid_request_error", "invalid_messages"), cors);
    }

    // Stop all timers as soon as the client goes away (Stop button, abort, timeout).
    const gone = new AbortController();
    res.on("close", () => gone.abort());

    if (fault["slow-headers"]) await sleep(fault["slow-headers"], gone.signal);
    if (gone.signal.aborted) return;

    if (fault.status) {
      const [message, type, code] = STATUS_ERRORS[fault.status] ?? [`Injected HTTP ${fault.status}.`, "server_error", null];
      const extra = fault.status === 429 ? { "retry-after": "2" } : {};
      return sendJson(res, fault.status, openAiError(message, type, code), { ...cors, ...extra });
    }

    const id = `chatcmpl-lectern-${++counter}`;
    const created = Math.floor(Date.now() / 1000);
    const model = typeof body.model === "string" && body.model ? body.model : defaultModel;
    const answer = fault.empty ? "" : buildAnswer(body, { canned, contextPattern, contextEndPattern });

    if (body.stream !== true) {
      if (fault.hang) return; // never answers; the socket closes when the client gives up
      if (fault.slow) await sleep(fault.slow, gone.signal);
      if (gone.signal.aborted) return;
      return sendJson(res, 200, {
        id, object: "chat.completion", created, model,
        choices: [{ index: 0, message: { role: "assistant", content: answer }, finish_reason: "stop" }],
        usage: { prompt_tokens: 0, completion_tokens: tokenize(answer, tokenChars).length, total_tokens: 0 },
      }, cors);
    }

    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      "x-accel-buffering": "no", // tells nginx-like front ends not to buffer the stream
      ...cors,
    });
    res.flushHeaders();
    const send = (line) => { if (!gone.signal.aborted) res.write(line); };
    const chunk = (delta, finish = null) =>
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

    if (fault.hang) return; // headers sent, nothing else; "close" ends it

    if (fault.slow) await sleep(fault.slow, gone.signal);
    send(chunk({ role: "assistant", content: "" }));

    const tokens = tokenize(answer, tokenChars);
    // Where mid-stream faults strike: after `n` tokens (default 3), but never after the last
    // token, so some text has arrived and the answer is visibly incomplete.
    const at = typeof fault.cut === "number" ? fault.cut : typeof fault.abort === "number" ? fault.abort : 3;
    const strikeAt = Math.max(0, Math.min(at, tokens.length - 1));
    /** Applies the mid-stream fault, if any; true when the stream is over. */
    const strike = async () => {
      if (fault.cut) {
        // The body ends cleanly (chunked terminator) and the connection closes, but with no
        // finish_reason and no [DONE]: a stream that simply stops.
        res.end();
        res.socket?.end();
        return true;
      }
      if (fault.abort) {
        // The TCP connection is torn down mid-body: the client's reader sees a network error.
        res.socket?.destroy();
        return true;
      }
      if (fault.malformed) send("data: {not json\n\n"); // then the stream goes on to [DONE]
      if (fault["error-event"]) {
        send(`data: ${JSON.stringify({ error: { message: "The model produced an invalid response.", type: "server_error", code: null } })}\n\n`);
        res.end(); // providers end the stream after an error event, without [DONE]
        return true;
      }
      if (fault.stall) await sleep(fault.stall, gone.signal);
      return false;
    };
    let struck = false;
    for (let i = 0; i < tokens.length; i++) {
      if (gone.signal.aborted) return;
      if (i === strikeAt) {
        struck = true;
        if (await strike()) return;
      }
      send(chunk({ content: tokens[i] }));
      await sleep(tokenDelayMs, gone.signal);
    }
    if (!struck && (await strike())) return; // an empty answer: the fault still happens
    if (gone.signal.aborted) return;
    send(chunk({}, "stop"));
    send("data: [DONE]\n\n");
    res.end();
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, "http://localhost");
    const cors = corsHeaders(req);
    log?.(`${req.method} ${url.pathname}`);
    try {
      if (req.method === "OPTIONS") {
        if (url.pathname === COMPLETIONS_PATH) {
          preflights.push({ method: "OPTIONS", path: req.url, headers: { ...req.headers }, body: null, time: new Date().toISOString() });
        }
        res.writeHead(204, cors);
        return res.end();
      }
      if (url.pathname === COMPLETIONS_PATH) {
        if (req.method !== "POST") {
          return sendJson(res, 405, openAiError("Use POST.", "invalid_request_error"), { ...cors, allow: "POST, OPTIONS" });
        }
        return await handleCompletion(req, res, cors);
      }
      if (url.pathname === "/health" && req.method === "GET") {
        return sendJson(res, 200, { ok: true, name: "lectern-llm-server" }, cors);
      }
      if (url.pathname === "/v1/models" && req.method === "GET") {
        return sendJson(res, 200, { object: "list", data: [{ id: defaultModel, object: "model", owned_by: "lectern" }] }, cors);
      }
      if (url.pathname === "/__requests" && req.method === "GET") {
        // Preflights are left out unless asked for, so "the LLM saw no request" and
        // "it saw exactly one" mean what they say whatever the page's origin.
        const all = url.searchParams.get("preflight") === "1";
        return sendJson(res, 200, all ? [...preflights, ...log_].sort((a, b) => a.time.localeCompare(b.time)) : log_, cors);
      }
      if (url.pathname === "/__control" && req.method === "POST") {
        let cfg;
        try {
          cfg = JSON.parse((await readBody(req)) || "{}");
          setFault(cfg.fault ?? null, cfg.times ?? 1);
        } catch (e) {
          return sendJson(res, 400, { ok: false, error: e.message }, cors);
        }
        return sendJson(res, 200, { ok: true, fault: queued?.spec ?? null, times: queued?.remaining ?? 0 }, cors);
      }
      if (url.pathname === "/__reset" && req.method === "POST") {
        reset();
        return sendJson(res, 200, { ok: true }, cors);
      }
      return sendJson(res, 404, openAiError(`No route for ${req.method} ${url.pathname}.`, "invalid_request_error"), cors);
    } catch (e) {
      if (!res.headersSent) sendJson(res, 500, openAiError(String(e?.message ?? e), "server_error"), cors);
      else res.destroy();
    }
  });
  // Node closes an idle keep-alive connection after 5 s, about when a client that pauses
  // between questions (a reader thinking; scripts/bench/proxy-load.mjs) sends its next one on
  // it: the request then races the close and fails as a lost connection, which is no fault
  // the test meant to inject. A provider keeps connections open far longer; so does this.
  server.keepAliveTimeout = 65_000;

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const addr = server.address();
  const hostPart = addr.family === "IPv6" || addr.family === 6 ? `[${addr.address}]` : addr.address;
  const url = `http://${hostPart}:${addr.port}`;

  return {
    url,
    port: addr.port,
    /** The completions URL, for clients that want the full endpoint. */
    endpoint: url + COMPLETIONS_PATH,
    server,
    requests: () => log_.map((e) => structuredClone(e)),
    preflights: () => preflights.map((e) => structuredClone(e)),
    setFault,
    reset,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // hanging streams would otherwise keep close() waiting
      }),
  };
}

// ---------------------------------------------------------------------------------------
// Command line

function parseArgs(argv) {
  const opts = { port: 0, host: "127.0.0.1" };
  const need = (i, flag) => {
    if (i + 1 >= argv.length) throw new Error(`${flag} needs a value`);
    return argv[i + 1];
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.startsWith("--") && a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    const value = () => (inline !== undefined ? inline : need(i++, flag));
    switch (flag) {
      case "--port": opts.port = Number(value()); break;
      case "--host": opts.host = value(); break;
      case "--delay": opts.tokenDelayMs = Number(value()); break;
      case "--token-chars": opts.tokenChars = Number(value()); break;
      case "--canned": opts.canned = value(); break;
      case "--context-pattern": opts.contextPattern = new RegExp(value(), "i"); break;
      case "--context-end": { const v = value(); opts.contextEndPattern = v === "" ? null : new RegExp(v, "i"); break; }
      case "--model": opts.model = value(); break;
      case "--verbose": opts.verbose = true; break;
      case "-h": case "--help": opts.help = true; break;
      default: throw new Error(`unknown argument ${a}`);
    }
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) throw new Error("--port must be 0-65535");
  return opts;
}

const USAGE = `usage: node scripts/llm-server/server.mjs [--port N] [--host 127.0.0.1] [--delay MS]
         [--token-chars N] [--canned "text"] [--context-pattern REGEX] [--context-end REGEX]
         [--model NAME] [--verbose]
Faults: header x-lectern-fault: <spec>, or POST /__control {"fault": "<spec>", "times": n}
  status:<code>  slow:<ms>  slow-headers:<ms>  hang  cut[:n]  abort[:n]  malformed  empty
  error-event  stall:<ms>   (combine with commas, e.g. "slow:2000,cut")`;

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${e.message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (opts.help) {
    process.stdout.write(USAGE + "\n");
    return;
  }
  const log = opts.verbose ? (line) => process.stderr.write(`[llm-server] ${line}\n`) : undefined;
  const srv = await startLlmServer({ ...opts, log });
  process.stdout.write(`lectern-llm-server listening on ${srv.url}\n`);
  const stop = () => srv.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((e) => {
    process.stderr.write(`lectern-llm-server: ${e.message}\n`);
    process.exit(1);
  });
}
