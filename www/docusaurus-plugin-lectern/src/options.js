// The plugin's options: defaults and validation. Docusaurus calls validateOptions at startup
// (start and build), so a mistake stops the site with a message naming the option, what was
// given and what is expected. No dependencies: this runs before anything else is loaded.
"use strict";

const PLUGIN = "docusaurus-plugin-lectern";

/** SPEC.md's four personas plus "general" (no prompt modifier). */
const PERSONA_IDS = ["general", "beginner", "software_engineer", "robotics_student", "ai_researcher"];

const DEFAULT_OPTIONS = Object.freeze({
  id: "default",
  // Generation (passed to LecternChat.create; see www/lectern-js/chat.d.ts).
  endpoint: null,
  headers: {},
  model: null,
  maxTokens: null,
  temperature: null,
  slowAfterMs: 5000,
  timeoutMs: 30000,
  k: 5,
  selectionOnly: false,
  siteOrigins: null,
  // The widget.
  personas: PERSONA_IDS,
  defaultPersona: "general",
  starterQuestions: [],
  welcome: null,
  shortcut: true,
  askAboutSelection: true,
  // Build.
  path: "lectern",
  cli: null,
  buildArgs: [],
  bundleDir: null,
  runtimeDir: null,
  indexInDev: true,
});

const OPTION_NAMES = Object.keys(DEFAULT_OPTIONS);

/** Option names that can only mean a credential: refused, with the reason. */
const SECRET_OPTION = /^(api[-_]?key|key|secret|token|access[-_]?token|auth|authorization|password|bearer|credentials?)$/i;
/** Request header names that carry credentials. */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|api[-_]?key|x-api-key|.*(secret|token|password|api[-_]?key).*)$/i;
/** Header values or URL parts that look like a credential (OpenAI, Anthropic, Groq, HF, Google, JWT, Bearer …). */
const SECRET_VALUE = /\b(sk-[A-Za-z0-9_-]{8,}|gsk_[A-Za-z0-9]{8,}|hf_[A-Za-z0-9]{8,}|AIza[0-9A-Za-z_-]{20,}|xox[abp]-[A-Za-z0-9-]{8,}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})|^\s*(bearer|basic)\s+\S+/i;
/** Query parameters that carry credentials. */
const SECRET_PARAM = /^(api[-_]?key|key|token|access[-_]?token|secret|sig|signature|password|code)$/i;

const NO_SECRETS =
  "A secret in the site config ships to every reader's browser. Keep the key in a proxy that " +
  "forwards to your LLM (see the Lectern chat proxy) and set `endpoint` to the proxy's URL.";

class OptionsError extends Error {
  constructor(message) {
    super(`[${PLUGIN}] ${message}`);
    this.name = "LecternOptionsError";
  }
}

const show = (value) => {
  if (typeof value === "string") return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}…` : value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};

/** Levenshtein distance, for "did you mean" on a misspelt option. */
function distance(a, b) {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}

function suggest(name) {
  let best = null;
  for (const known of OPTION_NAMES) {
    const d = distance(name, known);
    if (d <= Math.max(2, Math.floor(known.length / 3)) && (!best || d < best.d)) best = { known, d };
  }
  return best ? ` Did you mean "${best.known}"?` : "";
}

function checkEndpoint(endpoint) {
  if (endpoint === null) return null;
  if (typeof endpoint !== "string" || !endpoint.trim()) {
    throw new OptionsError(
      `"endpoint" must be the URL of your OpenAI-compatible chat-completions proxy (an http(s) URL, or a path ` +
        `starting with "/" on this site), or null for extractive answers without an LLM; got ${show(endpoint)}.`,
    );
  }
  const value = endpoint.trim();
  let url;
  try {
    url = new URL(value, "http://site.invalid");
  } catch {
    throw new OptionsError(`"endpoint" is not a valid URL: ${show(value)}.`);
  }
  const relative = url.origin === "http://site.invalid";
  if (relative && !value.startsWith("/")) {
    throw new OptionsError(`"endpoint" must be an absolute http(s) URL or start with "/"; got ${show(value)}.`);
  }
  if (!relative && url.protocol !== "https:" && url.protocol !== "http:") {
    throw new OptionsError(`"endpoint" must use http or https; got ${show(url.protocol)}.`);
  }
  if (url.username || url.password) {
    throw new OptionsError(`"endpoint" carries a user name or password. ${NO_SECRETS}`);
  }
  for (const [param, v] of url.searchParams) {
    if (SECRET_PARAM.test(param) || SECRET_VALUE.test(v)) {
      throw new OptionsError(`"endpoint" carries a credential in its query ("${param}=…"). ${NO_SECRETS}`);
    }
  }
  if (SECRET_VALUE.test(decodeURIComponent(url.pathname))) {
    throw new OptionsError(`"endpoint" looks like it contains an API key. ${NO_SECRETS}`);
  }
  return value;
}

function checkHeaders(headers) {
  if (headers === null || headers === undefined) return {};
  if (typeof headers !== "object" || Array.isArray(headers)) {
    throw new OptionsError(`"headers" must be an object of header names to string values; got ${show(headers)}.`);
  }
  const out = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new OptionsError(`"headers" has an invalid header name ${show(name)}.`);
    if (typeof value !== "string") throw new OptionsError(`"headers.${name}" must be a string; got ${show(value)}.`);
    if (SECRET_HEADER.test(name)) throw new OptionsError(`"headers.${name}" would send a credential from the browser. ${NO_SECRETS}`);
    if (SECRET_VALUE.test(value)) throw new OptionsError(`"headers.${name}" looks like an API key. ${NO_SECRETS}`);
    out[name] = value;
  }
  return out;
}

function checkNumber(options, name, { min, max, integer = false, nullable = false }) {
  const value = options[name];
  if (nullable && value === null) return null;
  const kind = integer ? "an integer" : "a number";
  if (typeof value !== "number" || !Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max) {
    throw new OptionsError(`"${name}" must be ${kind} from ${min} to ${max}${nullable ? " (or null)" : ""}; got ${show(value)}.`);
  }
  return value;
}

function checkBoolean(options, name) {
  if (typeof options[name] !== "boolean") throw new OptionsError(`"${name}" must be true or false; got ${show(options[name])}.`);
  return options[name];
}

function checkString(options, name, { nullable = true } = {}) {
  const value = options[name];
  if (nullable && (value === null || value === undefined)) return null;
  if (typeof value !== "string" || !value.trim()) throw new OptionsError(`"${name}" must be a non-empty string${nullable ? " or null" : ""}; got ${show(value)}.`);
  return value;
}

function checkStringList(options, name, { max = Infinity, maxChars = Infinity } = {}) {
  const value = options[name];
  if (!Array.isArray(value) || value.some((s) => typeof s !== "string" || !s.trim())) {
    throw new OptionsError(`"${name}" must be a list of non-empty strings; got ${show(value)}.`);
  }
  if (value.length > max) throw new OptionsError(`"${name}" may hold at most ${max} entries; got ${value.length}.`);
  const long = value.find((s) => s.trim().length > maxChars);
  if (long) throw new OptionsError(`"${name}": ${show(long)} is longer than ${maxChars} characters.`);
  return value.map((s) => s.trim());
}

/**
 * Returns the options with defaults filled in, or throws an OptionsError naming the first
 * problem. `options` is what the site wrote in docusaurus.config (plus Docusaurus's `id`).
 */
function normalizeOptions(input = {}) {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new OptionsError(`options must be an object, e.g. ['${PLUGIN}', { endpoint: '/api/chat' }]; got ${show(input)}.`);
  }
  for (const name of Object.keys(input)) {
    if (SECRET_OPTION.test(name)) throw new OptionsError(`option "${name}" is refused. ${NO_SECRETS}`);
    if (!OPTION_NAMES.includes(name)) {
      throw new OptionsError(`unknown option "${name}".${suggest(name)} Known options: ${OPTION_NAMES.join(", ")}.`);
    }
  }
  const o = { ...DEFAULT_OPTIONS, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
  const out = { id: o.id };

  out.endpoint = checkEndpoint(o.endpoint);
  out.headers = checkHeaders(o.headers);
  out.model = checkString(o, "model");
  out.maxTokens = checkNumber(o, "maxTokens", { min: 1, max: 32768, integer: true, nullable: true });
  out.temperature = checkNumber(o, "temperature", { min: 0, max: 2, nullable: true });
  out.slowAfterMs = checkNumber(o, "slowAfterMs", { min: 0, max: 600000, integer: true });
  out.timeoutMs = checkNumber(o, "timeoutMs", { min: 1000, max: 600000, integer: true });
  if (out.timeoutMs < out.slowAfterMs) {
    throw new OptionsError(`"timeoutMs" (${out.timeoutMs}) must not be shorter than "slowAfterMs" (${out.slowAfterMs}).`);
  }
  out.k = checkNumber(o, "k", { min: 1, max: 10, integer: true });
  out.selectionOnly = checkBoolean(o, "selectionOnly");
  if (o.siteOrigins === null) out.siteOrigins = null;
  else {
    const origins = checkStringList(o, "siteOrigins");
    for (const origin of origins) {
      let u;
      try {
        u = new URL(origin);
      } catch {
        u = null;
      }
      if (!u || u.origin !== origin.replace(/\/$/, "")) {
        throw new OptionsError(`"siteOrigins" entries must be origins like "https://docs.example.com"; got ${show(origin)}.`);
      }
    }
    out.siteOrigins = origins.map((s) => s.replace(/\/$/, ""));
  }

  const personas = checkStringList(o, "personas");
  const unknown = personas.find((p) => !PERSONA_IDS.includes(p));
  if (unknown) throw new OptionsError(`"personas": unknown persona ${show(unknown)}; choose from ${PERSONA_IDS.join(", ")}.`);
  if (!personas.length) throw new OptionsError(`"personas" must name at least one persona (e.g. ["general"]).`);
  out.personas = [...new Set(personas)];
  out.defaultPersona = checkString(o, "defaultPersona", { nullable: false });
  if (!out.personas.includes(out.defaultPersona)) {
    throw new OptionsError(`"defaultPersona" ${show(out.defaultPersona)} is not one of "personas" (${out.personas.join(", ")}).`);
  }
  out.starterQuestions = checkStringList(o, "starterQuestions", { max: 6, maxChars: 1000 });
  out.welcome = checkString(o, "welcome");
  out.shortcut = checkBoolean(o, "shortcut");
  out.askAboutSelection = checkBoolean(o, "askAboutSelection");

  const path = checkString(o, "path", { nullable: false }).replace(/^\/+|\/+$/g, "");
  if (!/^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(path) || path.split("/").some((p) => p === "." || p === "..")) {
    throw new OptionsError(`"path" must be a plain URL folder under the site's baseUrl, like "lectern"; got ${show(o.path)}.`);
  }
  out.path = path;
  out.cli = checkString(o, "cli");
  out.buildArgs = checkStringList(o, "buildArgs");
  const reserved = out.buildArgs.find((a) => a === "--out" || a.startsWith("--out=") || a === "--json");
  if (reserved) throw new OptionsError(`"buildArgs" may not set ${show(reserved)}: the plugin chooses where the bundle goes.`);
  out.bundleDir = checkString(o, "bundleDir");
  out.runtimeDir = checkString(o, "runtimeDir");
  out.indexInDev = checkBoolean(o, "indexInDev");
  return out;
}

/** Docusaurus's validateOptions hook. */
function validateOptions({ options }) {
  return normalizeOptions(options);
}

/** What the widget receives in the browser (global data): nothing here may be secret. */
function clientOptions(options, { bundleUrl, runtimeUrl }) {
  const { endpoint, headers, model, maxTokens, temperature, slowAfterMs, timeoutMs, k, selectionOnly, siteOrigins } = options;
  const chat = { endpoint, headers, slowAfterMs, timeoutMs, k, selectionOnly };
  if (model !== null) chat.model = model;
  if (maxTokens !== null) chat.maxTokens = maxTokens;
  if (temperature !== null) chat.temperature = temperature;
  if (siteOrigins !== null) chat.siteOrigins = siteOrigins;
  return {
    bundleUrl,
    runtimeUrl,
    chat,
    personas: options.personas,
    defaultPersona: options.defaultPersona,
    starterQuestions: options.starterQuestions,
    welcome: options.welcome,
    shortcut: options.shortcut,
    askAboutSelection: options.askAboutSelection,
  };
}

module.exports = { DEFAULT_OPTIONS, PERSONA_IDS, OptionsError, normalizeOptions, validateOptions, clientOptions, PLUGIN };
