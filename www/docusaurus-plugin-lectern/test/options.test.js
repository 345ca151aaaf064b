// The plugin's option validation: its own options here, the chat options by the core
// (the runtime's chat module, loaded from pkg/ as the plugin loads it from the installed
// runtime). tests/config/parity.test.mjs proves the build and the browser agree on a table
// of chat configurations; this file checks the plugin's side of the seam.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { normalizeOptions, withSiteTitle, validateOptions, applyCoreRules, clientOptions, DEFAULT_OPTIONS } = require("../src/options");
const { loadRules } = require("../src/rules");

const pkg = path.join(__dirname, "..", "..", "..", "pkg");
let rules;
test.before(async () => {
  rules = await loadRules(pkg); // scripts/build-pkg.sh builds it
});
const check = (options) => applyCoreRules(normalizeOptions(options), rules);
const fails = (options, pattern) => assert.throws(() => check(options), (e) => e.name === "LecternOptionsError" && pattern.test(e.message), `expected ${pattern}`);

test("defaults: all the core's personas, the widget's conveniences on, chat options left to the core", () => {
  const o = applyCoreRules(validateOptions({ options: {} }), rules);
  assert.deepEqual(o.personas, ["general", "beginner", "software_engineer", "robotics_student", "ai_researcher"]);
  assert.equal(o.defaultPersona, "general");
  assert.equal(o.path, "lectern");
  assert.equal(o.shortcut, true);
  assert.deepEqual(o.askAboutSelection, { label: null });
  assert.equal(o.turnstile, null);
  assert.equal(o.followUpSuggestions, true);
  assert.equal(applyCoreRules(validateOptions({ options: { followUpSuggestions: false } }), rules).followUpSuggestions, false);
  assert.deepEqual(o.chat, {});
  assert.deepEqual(o.limits, { questionMaxChars: 1000, selectionMinChars: 10, selectionMaxChars: 5000 });
  for (const name of Object.keys(DEFAULT_OPTIONS)) assert.ok(name in o, name);
});

test("the site's title names it in the answers unless the options do", () => {
  const named = (options, title) => withSiteTitle(normalizeOptions(options), title).chat.siteTitle;
  assert.equal(named({}, "Jest"), "Jest");
  assert.equal(named({ siteTitle: "Jest Docs" }, "Jest"), "Jest Docs");
  assert.equal(named({ siteTitle: null }, "Jest"), null, "null: this site");
  assert.equal(named({}, "  "), undefined);
  assert.equal(named({}, undefined), undefined);
  // The core checks it like any chat option.
  assert.equal(applyCoreRules(withSiteTitle(normalizeOptions({}), "Jest"), rules).chat.siteTitle, "Jest");
  fails({ siteTitle: "" }, /"siteTitle" must be a non-empty string/);
});

test("chat options go to the core; its refusal stops the build with its message and code", () => {
  assert.equal(check({ endpoint: "/api/chat" }).chat.endpoint, "/api/chat");
  assert.equal(normalizeOptions({ path: "/assistant/" }).path, "assistant");
  fails({ slowAfterMs: 0 }, /^\[docusaurus-plugin-lectern\] "slowAfterMs" must be an integer from 1 to 600000; got 0 \(INVALID_CONFIG\)$/);
  fails({ headers: { "X-Auth-Site": "docs" } }, /the header "X-Auth-Site" looks like a secret.*proxy/);
  fails({ apiKey: "sk-abcdefghijklmnop" }, /the option "apiKey" looks like a secret/);
  fails({ endpont: "/api" }, /unknown chat option "endpont". Did you mean "endpoint"\?/);
});

test("normalising is idempotent: Docusaurus hands the plugin validateOptions' result", () => {
  const raw = { endpoint: "/api/chat", headers: { "X-Site": "docs" }, starterQuestions: ["Why?"], personas: ["general", "beginner"] };
  const once = validateOptions({ options: raw });
  assert.deepEqual(normalizeOptions(once), once);
  assert.deepEqual(check(once).chat, { endpoint: "/api/chat", headers: { "X-Site": "docs" } });
  fails({ slowAfterMs: 0, chat: {} }, /"slowAfterMs" must be an integer/);
});

test("the selection button: on, off, or renamed; a bad label is named", () => {
  assert.deepEqual(check({ askAboutSelection: true }).askAboutSelection, { label: null });
  assert.equal(check({ askAboutSelection: false }).askAboutSelection, false);
  assert.deepEqual(check({ askAboutSelection: { label: "  Ask the book " } }).askAboutSelection, { label: "Ask the book" });
  fails({ askAboutSelection: "yes" }, /"askAboutSelection" must be true, false or \{label: "…"\}.*; got "yes"\./);
  fails({ askAboutSelection: { label: "" } }, /"askAboutSelection" must be true, false or \{label/);
  fails({ askAboutSelection: { label: "x".repeat(41) } }, /at most 40 characters/);
  fails({ askAboutSelection: { text: "Ask" } }, /"askAboutSelection": unknown field "text"; known: label\./);
  // The widget gets what was normalised; normalising again gives the same.
  const once = validateOptions({ options: { askAboutSelection: { label: "Ask the book" } } });
  assert.deepEqual(normalizeOptions(once).askAboutSelection, once.askAboutSelection);
  assert.deepEqual(normalizeOptions(validateOptions({ options: {} })).askAboutSelection, { label: null });
  const client = clientOptions(check({ askAboutSelection: { label: "Ask the book" } }), { bundleUrl: "/b/", runtimeUrl: "/r/" });
  assert.deepEqual(client.askAboutSelection, { label: "Ask the book" });
  const client2 = (o) => clientOptions(check(o), { bundleUrl: "/b/", runtimeUrl: "/r/" }).askAboutSelection;
  assert.equal(client2({}), true);
  assert.equal(client2({ askAboutSelection: false }), false);
});

test("turnstile: a site key (public), Cloudflare's script unless a stand-in is named; no secret key here", () => {
  const cloudflare = "https://challenges.cloudflare.com/turnstile/v0/api.js";
  assert.deepEqual(check({ turnstile: { siteKey: "0x4AAAAAAABkMYinukE8nzY" } }).turnstile, { siteKey: "0x4AAAAAAABkMYinukE8nzY", scriptUrl: cloudflare });
  assert.deepEqual(check({ turnstile: { siteKey: "1x00000000000000000000AA", scriptUrl: "/turnstile-stand-in.js" } }).turnstile, {
    siteKey: "1x00000000000000000000AA",
    scriptUrl: "/turnstile-stand-in.js",
  });
  assert.equal(check({ turnstile: null }).turnstile, null);
  fails({ turnstile: "1x00000000000000000000AA" }, /"turnstile" must be null or \{siteKey/);
  fails({ turnstile: {} }, /"turnstile.siteKey" must be a Turnstile site key/);
  fails({ turnstile: { siteKey: "0x4AAA <script>" } }, /"turnstile.siteKey" must be a Turnstile site key/);
  fails({ turnstile: { siteKey: "0x4AAA", secretKey: "0x4BBB" } }, /"turnstile": unknown field "secretKey"; known: siteKey, scriptUrl\./);
  for (const scriptUrl of ["javascript:alert(1)", "//evil.example/api.js", "api.js", 5]) {
    fails({ turnstile: { siteKey: "0x4AAA", scriptUrl } }, /"turnstile.scriptUrl" must be an http\(s\) URL or a path on the site/);
  }
  const once = validateOptions({ options: { turnstile: { siteKey: "0x4AAA" } } });
  assert.deepEqual(normalizeOptions(once).turnstile, once.turnstile);
  assert.deepEqual(clientOptions(check({ turnstile: { siteKey: "0x4AAA" } }), { bundleUrl: "/b/", runtimeUrl: "/r/" }).turnstile, { siteKey: "0x4AAA", scriptUrl: cloudflare });
  assert.equal("turnstile" in clientOptions(check({}), { bundleUrl: "/b/", runtimeUrl: "/r/" }), false, "every page carries the client options: none when off");
});

test("a misspelt plugin option is named as one, by the core's did-you-mean", () => {
  fails({ starterQuestion: ["Why?"] }, /unknown option "starterQuestion". Did you mean "starterQuestions"\?/);
  fails({ AskAboutSelectin: false }, /unknown option "AskAboutSelectin". Did you mean "askAboutSelection"\?/);
  fails({ colour: "red" }, /^\[docusaurus-plugin-lectern\] unknown chat option "colour"\. Known: endpoint, .* \(INVALID_CONFIG\)$/);
  assert.equal(rules.didYouMean("persona", ["personas", "defaultPersona"]), "personas");
  assert.equal(rules.didYouMean("colour", ["personas", "defaultPersona"]), undefined);
});

test("the search box and the launcher: defaults, shorthands, and what is refused", () => {
  const o = normalizeOptions({});
  assert.equal(o.searchBar, true);
  assert.equal(o.searchPagePath, "search");
  assert.equal(o.searchShortcuts, true);
  assert.equal(o.recentSearches, true);
  assert.equal(o.contextualSearch, true);
  assert.deepEqual(o.launcher, { type: "floating", position: "bottom-right", offsetX: 20, offsetY: 20 });
  assert.deepEqual(normalizeOptions({ launcher: "none" }).launcher, { type: "none", position: "bottom-right", offsetX: 20, offsetY: 20 });
  assert.deepEqual(normalizeOptions({ launcher: { position: "bottom-left", offsetY: 96 } }).launcher, { type: "floating", position: "bottom-left", offsetX: 20, offsetY: 96 });
  // Without Lectern's box there is no page unless asked for.
  assert.equal(normalizeOptions({ searchBar: false }).searchPagePath, false);
  assert.equal(normalizeOptions({ searchBar: false, searchPagePath: "/find/" }).searchPagePath, "find");
  assert.equal(normalizeOptions({ searchPagePath: false }).searchPagePath, false);
  fails({ launcher: "corner" }, /"launcher.type" must be one of floating, navbar, none; got "corner"/);
  fails({ launcher: { position: "left" } }, /"launcher.position" must be one of bottom-right, bottom-left, top-right, top-left; got "left"/);
  fails({ launcher: { offsetX: -4 } }, /"launcher.offsetX" must be a number of pixels from 0 to 400; got -4/);
  fails({ launcher: { corner: "left" } }, /"launcher": unknown field "corner"/);
  fails({ launcher: "navbar", searchBar: false }, /"launcher": "navbar" puts the button beside Lectern's search box/);
  fails({ searchPagePath: "../x" }, /"searchPagePath" must be a plain URL folder/);
  fails({ searchBar: "yes" }, /"searchBar" must be true or false; got "yes"/);
  // What the browser gets.
  const client = clientOptions(applyCoreRules(o, rules), { bundleUrl: "/b/", runtimeUrl: "/r/", searchPageUrl: "/search" });
  for (const name of ["launcher", "searchBar", "searchPageUrl", "searchShortcuts", "recentSearches", "contextualSearch"]) assert.ok(name in client, name);
});

test("the plugin's own options: what was given and what is expected", () => {
  fails({ personas: ["beginner", "wizard"] }, /unknown persona "wizard"; choose from general, beginner/);
  fails({ personas: ["beginner"], defaultPersona: "general" }, /"defaultPersona" "general" is not one of "personas" \(beginner\)/);
  fails({ starterQuestions: ["a", "b", "c", "d", "e", "f", "g"] }, /at most 6 entries; got 7/);
  fails({ starterQuestions: [""] }, /list of non-empty strings/);
  fails({ path: "../up" }, /"path" must be a plain URL folder/);
  fails({ buildArgs: ["--out", "x"] }, /"buildArgs" may not set "--out"/);
  fails({ shortcut: "yes" }, /"shortcut" must be true or false; got "yes"/);
  fails({ buildArgs: ["--llms-out=x"] }, /"buildArgs" may not set "--llms-out=x"/);
  fails({ markdownTwins: "no" }, /"markdownTwins" must be true or false; got "no"/);
  fails({ llmsVersions: "latest" }, /"llmsVersions" must be "last" or "all"; got "latest"/);
  fails("nope", /options must be an object/);
});

test("the browser gets only what the widget needs", () => {
  const o = check({ endpoint: "/api/chat", headers: { "X-Site": "docs" }, model: "gpt-x", starterQuestions: ["Why?"], cli: "/opt/lectern", buildArgs: ["--no-model"] });
  const c = clientOptions(o, { bundleUrl: "/lectern/bundle/", runtimeUrl: "/lectern/runtime/" });
  assert.deepEqual(c.chat, { endpoint: "/api/chat", headers: { "X-Site": "docs" }, model: "gpt-x" });
  assert.deepEqual(c.limits, rules.rules.limits);
  assert.deepEqual(c.messages, { offline: rules.rules.messages.offline, offlinePending: rules.rules.messages.offlinePending, networkActions: ["retry", "reload"] });
  assert.match(c.messages.offline, /You are offline/);
  assert.equal(c.bundleUrl, "/lectern/bundle/");
  assert.deepEqual(c.starterQuestions, ["Why?"]);
  for (const buildOnly of ["cli", "buildArgs", "bundleDir", "runtimeDir", "indexInDev", "path", "llmsTxt", "llmsFullTxt", "llmsVersions"]) assert.equal(buildOnly in c, false, buildOnly);
  assert.equal(c.markdownTwins, null);
});

test("usage events: off beyond the window's events by default; each option checked, the endpoint by the chat endpoint's rule; none in global data", () => {
  const o = check({});
  assert.deepEqual([o.onEvent, o.eventsToAnalytics, o.eventsEndpoint, o.eventsIncludeText], [null, false, null, false]);
  const on = check({ onEvent: "./src/lectern-events.js", eventsToAnalytics: true, eventsEndpoint: "https://chat-proxy.example.com/v1/events", eventsIncludeText: true });
  assert.deepEqual([on.onEvent, on.eventsToAnalytics, on.eventsEndpoint, on.eventsIncludeText], ["./src/lectern-events.js", true, "https://chat-proxy.example.com/v1/events", true]);
  // They reach the browser with the emitter (usage-module.js), not with every page.
  const client = clientOptions(on, { bundleUrl: "/b/", runtimeUrl: "/r/" });
  for (const name of ["onEvent", "eventsToAnalytics", "eventsEndpoint", "eventsIncludeText", "events"]) assert.equal(name in client, false, name);
  assert.equal(check({ eventsEndpoint: "/api/proxy/v1/events" }).eventsEndpoint, "/api/proxy/v1/events");
  fails({ eventsToAnalytics: "yes" }, /"eventsToAnalytics" must be true or false; got "yes"/);
  fails({ eventsIncludeText: 1 }, /"eventsIncludeText" must be true or false; got 1/);
  fails({ onEvent: "" }, /"onEvent" must be a non-empty string or null; got ""/);
  fails({ eventsEndpoint: "ftp://proxy.example.com/v1/events" }, /"eventsEndpoint" "ftp:\/\/proxy.example.com\/v1\/events" fails the rule of the chat's endpoint.*http\(s\) URL.*\(INVALID_CONFIG\)$/);
  fails({ eventsEndpoint: "https://proxy.example.com/v1/events?api_key=abc123" }, /"eventsEndpoint" .* "api_key" parameter looks like a secret/);
  fails({ eventsEndpoint: "https://user:pw@proxy.example.com/v1/events" }, /"eventsEndpoint" .*user name or password/);
  // A misspelling is named, not taken for a chat option.
  fails({ eventsToAnalytic: true }, /unknown option "eventsToAnalytic". Did you mean "eventsToAnalytics"\?/);
});
