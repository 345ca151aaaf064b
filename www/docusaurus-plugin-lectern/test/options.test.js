// The plugin's option validation: defaults, clear messages, and no secret ever accepted.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { normalizeOptions, validateOptions, clientOptions, DEFAULT_OPTIONS } = require("../src/options");

const fails = (options, pattern) => assert.throws(() => normalizeOptions(options), (e) => e.name === "LecternOptionsError" && pattern.test(e.message), `expected ${pattern}`);

test("defaults: extractive answers, all personas, the widget's conveniences on", () => {
  const o = validateOptions({ options: {} });
  assert.equal(o.endpoint, null);
  assert.deepEqual(o.personas, ["general", "beginner", "software_engineer", "robotics_student", "ai_researcher"]);
  assert.equal(o.defaultPersona, "general");
  assert.equal(o.path, "lectern");
  assert.equal(o.shortcut, true);
  assert.equal(o.askAboutSelection, true);
  assert.equal(o.k, 5);
  assert.equal(o.slowAfterMs, 5000);
  assert.equal(o.timeoutMs, 30000);
  assert.deepEqual(Object.keys(o).sort(), Object.keys(DEFAULT_OPTIONS).sort());
});

test("accepts absolute and same-site endpoints and trims the path", () => {
  assert.equal(normalizeOptions({ endpoint: "https://proxy.example.com/v1/chat/completions" }).endpoint, "https://proxy.example.com/v1/chat/completions");
  assert.equal(normalizeOptions({ endpoint: "/api/chat" }).endpoint, "/api/chat");
  assert.equal(normalizeOptions({ path: "/assistant/" }).path, "assistant");
});

test("refuses every way of putting a secret in the site config", () => {
  fails({ apiKey: "sk-abcdefghijklmnop" }, /option "apiKey" is refused.*ships to every reader's browser/);
  fails({ token: "x" }, /option "token" is refused/);
  fails({ headers: { Authorization: "Bearer abc" } }, /headers.Authorization" would send a credential/);
  fails({ headers: { "x-api-key": "abc" } }, /x-api-key/);
  fails({ headers: { "X-Client": "sk-proj-abcdefghijklmnopqrstuvwxyz" } }, /looks like an API key/);
  fails({ endpoint: "https://user:pass@proxy.example.com/v1" }, /user name or password/);
  fails({ endpoint: "https://api.example.com/v1/chat?api_key=abc123" }, /credential in its query \("api_key=…"\)/);
  fails({ endpoint: "https://api.example.com/v1/chat?x=sk-abcdefghijklmnop" }, /credential in its query/);
});

test("names the option, what was given and what is expected", () => {
  fails({ endpont: "/api" }, /unknown option "endpont". Did you mean "endpoint"\?/);
  fails({ endpoint: "ftp://x.example.com/" }, /"endpoint" must use http or https; got "ftp:"/);
  fails({ endpoint: "api/chat" }, /must be an absolute http\(s\) URL or start with "\/"; got "api\/chat"/);
  fails({ endpoint: 42 }, /"endpoint" must be the URL of your OpenAI-compatible chat-completions proxy.*got 42/);
  fails({ personas: ["beginner", "wizard"] }, /unknown persona "wizard"; choose from general, beginner/);
  fails({ personas: ["beginner"], defaultPersona: "general" }, /"defaultPersona" "general" is not one of "personas" \(beginner\)/);
  fails({ starterQuestions: ["a", "b", "c", "d", "e", "f", "g"] }, /at most 6 entries; got 7/);
  fails({ starterQuestions: [""] }, /list of non-empty strings/);
  fails({ k: 0 }, /"k" must be an integer from 1 to 10; got 0/);
  fails({ timeoutMs: 2000, slowAfterMs: 5000 }, /"timeoutMs" \(2000\) must not be shorter than "slowAfterMs" \(5000\)/);
  fails({ temperature: 3 }, /"temperature" must be a number from 0 to 2 \(or null\); got 3/);
  fails({ path: "../up" }, /"path" must be a plain URL folder/);
  fails({ buildArgs: ["--out", "x"] }, /"buildArgs" may not set "--out"/);
  fails({ siteOrigins: ["https://docs.example.com/path"] }, /origins like "https:\/\/docs.example.com"/);
  fails({ shortcut: "yes" }, /"shortcut" must be true or false; got "yes"/);
  fails("nope", /options must be an object/);
});

test("the browser gets only what the widget needs", () => {
  const o = normalizeOptions({ endpoint: "/api/chat", headers: { "X-Site": "docs" }, model: "gpt-x", starterQuestions: ["Why?"], cli: "/opt/lectern", buildArgs: ["--no-model"] });
  const c = clientOptions(o, { bundleUrl: "/lectern/bundle/", runtimeUrl: "/lectern/runtime/" });
  assert.deepEqual(c.chat, { endpoint: "/api/chat", headers: { "X-Site": "docs" }, slowAfterMs: 5000, timeoutMs: 30000, k: 5, selectionOnly: false, model: "gpt-x" });
  assert.equal(c.bundleUrl, "/lectern/bundle/");
  assert.deepEqual(c.starterQuestions, ["Why?"]);
  for (const buildOnly of ["cli", "buildArgs", "bundleDir", "runtimeDir", "indexInDev", "path"]) assert.equal(buildOnly in c, false, buildOnly);
});
