// The plugin's options: defaults and validation. Docusaurus calls validateOptions at startup
// (start and build), so a mistake stops the site with a message naming the option, what was
// given and what is expected. The widget's and the build's own options are checked here;
// every other option is a chat option, checked by the core itself (rules.js: the runtime's
// chat module, the code the browser runs) when the plugin starts.
"use strict";

const PLUGIN = "docusaurus-plugin-lectern";

/** The plugin's own options; any other is a chat option (endpoint, headers, timeoutMs, …). */
const DEFAULT_OPTIONS = Object.freeze({
  id: "default",
  // The widget. `personas: null`: all of the core's.
  personas: null,
  defaultPersona: "general",
  starterQuestions: [],
  welcome: null,
  shortcut: true,
  // true, false, or {label} (a site whose own selection menu has an "Ask about this").
  askAboutSelection: true,
  // The site's proxy checks Cloudflare Turnstile: {siteKey, scriptUrl?}. null: no check.
  turnstile: null,
  // Up to three follow-up questions the site answers, as buttons under each answer.
  followUpSuggestions: true,
  // "floating" (a corner button), "navbar" (beside the search box), "none", or
  // {type: "floating", position, offsetX, offsetY}.
  launcher: "floating",
  // The search box (the theme's SearchBar) and its full-results page.
  searchBar: true,
  searchPagePath: "search", // false: no page (also the default without searchBar)
  searchShortcuts: true,
  recentSearches: true,
  contextualSearch: true,
  // Usage events (LecternWidget/usage.js): always `lectern:<kind>` window events; the site's
  // hook module, its analytics, its proxy only when set. A reader's text only with
  // eventsIncludeText. They reach the browser through usage-module.js, not global data.
  onEvent: null,
  eventsToAnalytics: false,
  eventsEndpoint: null,
  eventsIncludeText: false,
  // Build.
  path: "lectern",
  cli: null,
  buildArgs: [],
  bundleDir: null,
  runtimeDir: null,
  indexInDev: true,
  // For AI agents (written by `lectern build` from the chunks it indexes).
  llmsTxt: true,
  llmsFullTxt: true,
  markdownTwins: true,
  llmsVersions: "last",
});

/** Which docs versions llms.txt and llms-full.txt list (`lectern build --llms-versions`). */
const LLMS_VERSIONS = ["last", "all"];

/** `lectern build` arguments the plugin passes itself. */
const RESERVED_BUILD_ARGS = ["--out", "--json", "--llms-out", "--progress"];

const OPTION_NAMES = Object.keys(DEFAULT_OPTIONS);

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

const LAUNCHER_TYPES = ["floating", "navbar", "none"];
const LAUNCHER_POSITIONS = ["bottom-right", "bottom-left", "top-right", "top-left"];
const MAX_OFFSET = 400;

/** The launcher option as {type, position, offsetX, offsetY} (offsets in CSS pixels from
 * the corner; position and offsets matter to the floating button only). */
function checkLauncher(value) {
  const given = typeof value === "string" ? { type: value } : value;
  if (given === null || typeof given !== "object" || Array.isArray(given)) {
    throw new OptionsError(`"launcher" must be one of ${LAUNCHER_TYPES.map((t) => `"${t}"`).join(", ")} or {type, position, offsetX, offsetY}; got ${show(value)}.`);
  }
  const unknown = Object.keys(given).find((k) => !["type", "position", "offsetX", "offsetY"].includes(k));
  if (unknown) throw new OptionsError(`"launcher": unknown field ${show(unknown)}; known: type, position, offsetX, offsetY.`);
  const launcher = { type: given.type ?? "floating", position: given.position ?? "bottom-right", offsetX: given.offsetX ?? 20, offsetY: given.offsetY ?? 20 };
  if (!LAUNCHER_TYPES.includes(launcher.type)) throw new OptionsError(`"launcher.type" must be one of ${LAUNCHER_TYPES.join(", ")}; got ${show(launcher.type)}.`);
  if (!LAUNCHER_POSITIONS.includes(launcher.position)) throw new OptionsError(`"launcher.position" must be one of ${LAUNCHER_POSITIONS.join(", ")}; got ${show(launcher.position)}.`);
  for (const name of ["offsetX", "offsetY"]) {
    const n = launcher[name];
    if (typeof n !== "number" || !Number.isFinite(n) || n < 0 || n > MAX_OFFSET) {
      throw new OptionsError(`"launcher.${name}" must be a number of pixels from 0 to ${MAX_OFFSET}; got ${show(n)}.`);
    }
  }
  return launcher;
}

const SELECTION_LABEL_MAX_CHARS = 40;

/** The selection button as false (none) or {label} (null: the translated "Ask about this"). */
function checkAskAboutSelection(value) {
  if (value === false) return false;
  if (value === true) return { label: null };
  const expected = `"askAboutSelection" must be true, false or {label: "…"} (a non-empty label of at most ${SELECTION_LABEL_MAX_CHARS} characters)`;
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new OptionsError(`${expected}; got ${show(value)}.`);
  const unknown = Object.keys(value).find((k) => k !== "label");
  if (unknown) throw new OptionsError(`"askAboutSelection": unknown field ${show(unknown)}; known: label.`);
  if (value.label === null) return { label: null }; // normalised already
  const label = typeof value.label === "string" ? value.label.trim() : null;
  if (!label || label.length > SELECTION_LABEL_MAX_CHARS) throw new OptionsError(`${expected}; got ${show(value)}.`);
  return { label };
}

/** Cloudflare's Turnstile script (the widget loads it when the panel is first used). */
const TURNSTILE_SCRIPT_URL = "https://challenges.cloudflare.com/turnstile/v0/api.js";

/** The Turnstile check as {siteKey, scriptUrl}, or null. `scriptUrl` replaces Cloudflare's
 * script for tests and self-hosting: an http(s) URL or a path on the site. */
function checkTurnstile(value) {
  if (value === null || value === false) return null;
  const expected = `"turnstile" must be null or {siteKey: "<your Turnstile site key>", scriptUrl?: "<URL of a stand-in for Cloudflare's api.js>"}`;
  if (typeof value !== "object" || Array.isArray(value)) throw new OptionsError(`${expected}; got ${show(value)}.`);
  const unknown = Object.keys(value).find((k) => !["siteKey", "scriptUrl"].includes(k));
  if (unknown) throw new OptionsError(`"turnstile": unknown field ${show(unknown)}; known: siteKey, scriptUrl.`);
  // Site keys are public (they are in every page that shows the widget); the secret key is the proxy's.
  if (typeof value.siteKey !== "string" || !/^[A-Za-z0-9_-]{1,100}$/.test(value.siteKey)) {
    throw new OptionsError(`"turnstile.siteKey" must be a Turnstile site key (letters, digits, "-" and "_", like "0x4AAAAAAA…"); got ${show(value.siteKey)}.`);
  }
  const scriptUrl = value.scriptUrl ?? TURNSTILE_SCRIPT_URL;
  let valid = typeof scriptUrl === "string" && scriptUrl.length <= 2000;
  if (valid && !(scriptUrl.startsWith("/") && !scriptUrl.startsWith("//"))) {
    try {
      valid = ["https:", "http:"].includes(new URL(scriptUrl).protocol);
    } catch {
      valid = false;
    }
  }
  if (!valid) throw new OptionsError(`"turnstile.scriptUrl" must be an http(s) URL or a path on the site starting with "/"; got ${show(value.scriptUrl)}.`);
  return { siteKey: value.siteKey, scriptUrl };
}

/** The search page's URL folder under baseUrl ("search"), or false. */
function checkSearchPagePath(value) {
  if (value === false) return false;
  const folder = typeof value === "string" ? value.replace(/^\/+|\/+$/g, "") : null;
  if (!folder || !/^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(folder) || folder.split("/").some((p) => p === "." || p === "..")) {
    throw new OptionsError(`"searchPagePath" must be a plain URL folder under the site's baseUrl, like "search", or false; got ${show(value)}.`);
  }
  return folder;
}

/**
 * Returns the options with defaults filled in, or throws an OptionsError naming the first
 * problem. `options` is what the site wrote in docusaurus.config (plus Docusaurus's `id`).
 * @param {Record<string, any>} [input]
 */
function normalizeOptions(input = {}) {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new OptionsError(`options must be an object, e.g. ['${PLUGIN}', { endpoint: '/api/chat' }]; got ${show(input)}.`);
  }
  // Every other option is a chat option, for the core to check (undefined: its default).
  // Normalised options (Docusaurus passes validateOptions' result to the plugin) carry them
  // as `chat` already: normalising again gives the same.
  const { chat: normalized, ...given } = input;
  const chat = Object.fromEntries(Object.entries(given).filter(([k, v]) => !OPTION_NAMES.includes(k) && v !== undefined));
  if (normalized !== undefined) {
    if (normalized === null || typeof normalized !== "object" || Array.isArray(normalized)) {
      throw new OptionsError(`"chat" is not an option: write the chat options (endpoint, headers, …) directly; got ${show(normalized)}.`);
    }
    Object.assign(chat, normalized);
  }
  const o = { ...DEFAULT_OPTIONS, ...Object.fromEntries(Object.entries(given).filter(([k, v]) => v !== undefined && OPTION_NAMES.includes(k))) };
  const out = { id: o.id, chat };

  out.personas = o.personas === null ? null : [...new Set(checkStringList(o, "personas"))];
  if (out.personas && !out.personas.length) throw new OptionsError(`"personas" must name at least one persona (e.g. ["general"]).`);
  out.defaultPersona = checkString(o, "defaultPersona", { nullable: false });
  out.starterQuestions = checkStringList(o, "starterQuestions", { max: 6, maxChars: 1000 });
  out.welcome = checkString(o, "welcome");
  out.shortcut = checkBoolean(o, "shortcut");
  out.askAboutSelection = checkAskAboutSelection(o.askAboutSelection);
  out.turnstile = checkTurnstile(o.turnstile);
  out.followUpSuggestions = checkBoolean(o, "followUpSuggestions");
  out.searchBar = checkBoolean(o, "searchBar");
  // The page comes with the search box unless the site says otherwise.
  out.searchPagePath = checkSearchPagePath(given.searchPagePath !== undefined ? given.searchPagePath : out.searchBar && DEFAULT_OPTIONS.searchPagePath);
  out.searchShortcuts = checkBoolean(o, "searchShortcuts");
  out.recentSearches = checkBoolean(o, "recentSearches");
  out.contextualSearch = checkBoolean(o, "contextualSearch");
  out.launcher = checkLauncher(o.launcher);
  out.onEvent = checkString(o, "onEvent");
  out.eventsToAnalytics = checkBoolean(o, "eventsToAnalytics");
  out.eventsEndpoint = checkString(o, "eventsEndpoint");
  out.eventsIncludeText = checkBoolean(o, "eventsIncludeText");
  if (out.launcher.type === "navbar" && !out.searchBar) {
    throw new OptionsError(`"launcher": "navbar" puts the button beside Lectern's search box, which "searchBar: false" turns off; use "floating" or "none".`);
  }

  const path = checkString(o, "path", { nullable: false }).replace(/^\/+|\/+$/g, "");
  if (!/^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(path) || path.split("/").some((p) => p === "." || p === "..")) {
    throw new OptionsError(`"path" must be a plain URL folder under the site's baseUrl, like "lectern"; got ${show(o.path)}.`);
  }
  out.path = path;
  out.cli = checkString(o, "cli");
  out.buildArgs = checkStringList(o, "buildArgs");
  // The plugin chooses where the bundle and the llms files go, and reads the CLI's output.
  const reserved = out.buildArgs.find((a) => RESERVED_BUILD_ARGS.includes(a.split("=")[0]));
  if (reserved) throw new OptionsError(`"buildArgs" may not set ${show(reserved)}: the plugin sets it (the bundle's and the llms files' folders, the CLI's output).`);
  out.bundleDir = checkString(o, "bundleDir");
  out.runtimeDir = checkString(o, "runtimeDir");
  out.indexInDev = checkBoolean(o, "indexInDev");
  out.llmsTxt = checkBoolean(o, "llmsTxt");
  out.llmsFullTxt = checkBoolean(o, "llmsFullTxt");
  out.markdownTwins = checkBoolean(o, "markdownTwins");
  if (!LLMS_VERSIONS.includes(o.llmsVersions)) throw new OptionsError(`"llmsVersions" must be ${LLMS_VERSIONS.map((v) => JSON.stringify(v)).join(" or ")}; got ${show(o.llmsVersions)}.`);
  out.llmsVersions = o.llmsVersions;
  return out;
}

/**
 * The options with the site's title (Docusaurus's `title`) as the chat's `siteTitle`, which
 * names the site in answers and the prompt, unless the site set one (null: "this site").
 * @param {{chat: Record<string, any>}} options normalised options
 * @param {unknown} title
 */
function withSiteTitle(options, title) {
  if (options.chat.siteTitle !== undefined || typeof title !== "string" || !title.trim()) return options;
  return { ...options, chat: { ...options.chat, siteTitle: title } };
}

/** Docusaurus's validateOptions hook. */
function validateOptions({ options }) {
  return normalizeOptions(options);
}

/**
 * Checks what the core decides, with the core's rules (rules.js): the chat options — the
 * error is the one the browser would raise, prefixed with the plugin's name — and the
 * personas, which must be the core's. A misspelt option of the plugin's own is named with
 * the core's "did you mean". Returns the options with the personas and the core's length
 * limits, the texts the panel says offline and the rule of a citation's passage link filled in.
 */
function applyCoreRules(options, { validateConfig, didYouMean, rules }) {
  try {
    validateConfig(options.chat);
  } catch (e) {
    // The core tells a reader only that the site is misconfigured; the site owner's reason
    // is its technical text.
    const reason = e.technical ?? e.message;
    // An option the core does not know may be a misspelt one of the plugin's own.
    const unknown = /^unknown chat option "([^"]+)"/.exec(reason)?.[1];
    const meant = unknown && didYouMean(unknown, OPTION_NAMES);
    if (meant) throw new OptionsError(`unknown option "${unknown}". Did you mean "${meant}"? Known options: ${OPTION_NAMES.join(", ")}; the chat's: ${reason.replace(/^.*Known: /, "")}`);
    throw new OptionsError(`${reason} (${e.code})`);
  }
  // The events endpoint is a URL the browser posts to, like the chat's: the core's rule for
  // the chat's endpoint (http(s) or a path on the site, no credentials, no key-like parameter).
  if (options.eventsEndpoint !== null) {
    try {
      validateConfig({ endpoint: options.eventsEndpoint });
    } catch (e) {
      throw new OptionsError(`"eventsEndpoint" ${show(options.eventsEndpoint)} fails the rule of the chat's endpoint, which it follows: ${e.technical ?? e.message} (${e.code})`);
    }
  }
  const ids = rules.personas.map((p) => p.id);
  const personas = options.personas ?? ids;
  const unknown = personas.find((p) => !ids.includes(p));
  if (unknown) throw new OptionsError(`"personas": unknown persona ${show(unknown)}; choose from ${ids.join(", ")}.`);
  if (!personas.includes(options.defaultPersona)) {
    throw new OptionsError(`"defaultPersona" ${show(options.defaultPersona)} is not one of "personas" (${personas.join(", ")}).`);
  }
  return { ...options, personas, limits: rules.limits, messages: { offline: rules.messages.offline, offlinePending: rules.messages.offlinePending, networkActions: rules.messages.networkActions }, passageLink: rules.passageLink };
}

/**
 * What the widget receives in the browser (global data): nothing here may be secret.
 * `searchPageUrl`: the search page's path (with baseUrl), or null. `markdownTwins`: how a
 * docs page links its Markdown twin (the suffixes and the docs versions `lectern build`
 * reported), or null when none were written.
 */
function clientOptions(options, { bundleUrl, runtimeUrl, searchPageUrl = null }, markdownTwins = null) {
  // Only what the site set: the browser's core fills the same defaults (siteOrigins: the page's).
  return {
    bundleUrl,
    runtimeUrl,
    chat: options.chat,
    limits: options.limits,
    messages: options.messages,
    // How a citation's link names its passage: the widget reads it on arrival.
    passageLink: options.passageLink,
    personas: options.personas,
    defaultPersona: options.defaultPersona,
    starterQuestions: options.starterQuestions,
    welcome: options.welcome,
    shortcut: options.shortcut,
    // Only what is on (every page carries these): true for the button with its usual label.
    askAboutSelection: options.askAboutSelection && (options.askAboutSelection.label ? options.askAboutSelection : true),
    ...(options.turnstile && { turnstile: options.turnstile }),
    // Absent unless turned off (the panel reads `!== false`).
    ...(options.followUpSuggestions === false && { followUpSuggestions: false }),
    markdownTwins,
    launcher: options.launcher,
    searchBar: options.searchBar,
    searchPageUrl,
    searchShortcuts: options.searchShortcuts,
    recentSearches: options.recentSearches,
    contextualSearch: options.contextualSearch,
  };
}

module.exports = { DEFAULT_OPTIONS, OptionsError, normalizeOptions, withSiteTitle, validateOptions, applyCoreRules, clientOptions, PLUGIN };
