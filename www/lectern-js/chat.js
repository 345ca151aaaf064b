// Lectern's chat API: the conversation (sessionStorage, per tab) and answers streamed from
// an OpenAI-compatible endpoint, over the retrieval API (index.js).
//
//   const lectern = await Lectern.open({ bundleUrl: "/lectern/" });
//   const chat = await LecternChat.create({ lectern, endpoint: "https://proxy.example/v1/chat/completions" });
//   await chat.ask({ question: "How do ROS 2 nodes discover each other?" }, { onEvent });
//
// The rules (validation, refusal, prompt, stream parsing, storage) and every event of a
// turn, from `status retrieving` or a refused question's `error` to the final one, come from
// the chat module on this thread (lectern_core_bg.*.wasm, loaded when the chat is first used;
// retrieval runs in the worker, on the search module). This file only calls the search (with
// the conversation's earlier questions, for follow-ups, and the page asked from) and
// forwards the reader's abort.

import { Chat, rules as coreRules, validateConfig as coreValidateConfig } from "./lectern_core.js";
import { pageCore } from "./page-core.js";
import { LecternError } from "./index.js";
import { lecternError } from "./errors.js";

/** The chat module on this thread (compiled once per page). */
function loadRuntime() {
  return pageCore().catch((e) => {
    throw lecternError("INTERNAL", `the chat module failed to load: ${e?.message ?? e}`);
  });
}

/** A facade error (a JS Error with code, message, suggestion, action, detail, technical) as a
 * LecternError; anything else is INTERNAL, its own message the technical text. */
function toLecternError(e) {
  if (e instanceof LecternError) return e;
  if (typeof e?.code !== "string") return lecternError("INTERNAL", String(e?.message ?? e));
  const { code, message, suggestion, action, detail, technical } = e;
  const error = new LecternError({ code, message, suggestion, action, detail, technical });
  if (typeof e?.retryable === "boolean") error.retryable = e.retryable;
  if (typeof e?.retryAfterMs === "number") error.retryAfterMs = e.retryAfterMs;
  if (typeof e?.partial === "string") error.partial = e.partial;
  return error;
}

/** The options with their defaults, or the INVALID_CONFIG error `create` would reject with:
 * the core's own check (the Docusaurus plugin runs the same one at build time). */
export async function validateConfig(options) {
  await loadRuntime();
  try {
    return coreValidateConfig(options ?? {});
  } catch (e) {
    throw toLecternError(e);
  }
}

/** The personas, length limits, fixed answer texts and option defaults, from the core. */
export async function chatRules() {
  await loadRuntime();
  return coreRules();
}

export class LecternChat {
  /** Loads the chat module and this tab's conversation. Rejects with INVALID_CONFIG when the
   * options are wrong or carry a secret. */
  static async create(options) {
    const { lectern, ...config } = options ?? {};
    if (!lectern || typeof lectern.search !== "function") {
      throw lecternError("INVALID_CONFIG", "LecternChat.create needs the retrieval API: { lectern: await Lectern.open(…) }");
    }
    const valid = await validateConfig({ ...config, siteOrigins: config.siteOrigins ?? (globalThis.location ? [globalThis.location.origin] : []) });
    try {
      return new LecternChat(lectern, new Chat(valid), valid.k, valid.selectionOnly);
    } catch (e) {
      throw toLecternError(e);
    }
  }

  #lectern;
  /** @type {import("./lectern_core.js").Chat} */
  #chat;
  #k;
  #selectionOnly;
  #search = null;
  /** The last answer's retrieval: its chunks' indices and scope, for its follow-ups. */
  #answered = null;

  constructor(lectern, chat, k, selectionOnly) {
    this.#lectern = lectern;
    this.#chat = chat;
    this.#k = k;
    this.#selectionOnly = selectionOnly;
  }

  get conversation() {
    return this.#chat.conversation();
  }

  get storageNotice() {
    return this.#chat.storageNotice ?? null;
  }

  async ask(request, options = {}) {
    return this.#ask(request ?? {}, options, false);
  }

  /** Asks the last question again after an error or a stop (that exchange is replaced). */
  async retry(options = {}) {
    const request = this.#chat.unfinishedQuestion();
    if (!request) throw lecternError("INVALID_ARGUMENT", "There is no unanswered question to retry.");
    return this.#ask(request, options, true);
  }

  /** @param {import("./lectern-types.js").AskRequest} request @param {import("./chat.js").AskOptions} [options] @param {boolean} [replacing] */
  async #ask(request, { onEvent, signal, filters, turnstile } = {}, replacing) {
    let asked;
    try {
      // The core admits the question and tells `status retrieving`, or tells the refusal's
      // `error` and throws it.
      asked = this.#chat.begin(request, onEvent);
    } catch (e) {
      throw toLecternError(e);
    }
    const valid = asked.request();
    // One answer at a time: a newer question stops the older one (its partial answer stays).
    this.stop();
    // Only a question that passed validation replaces the unfinished exchange.
    if (replacing) this.#chat.dropUnfinished();
    const search = new AbortController();
    this.#search = search;
    const onAbort = () => {
      search.abort();
      this.#chat.stop();
    };
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      let retrieval = null;
      let retrievalError = null;
      // The page asked from, as the core admitted it: its sections rank higher (or, asked
      // about the page itself, are the only ones).
      const page = valid.page ? { page: valid.page.url, ...(valid.page.only ? { pageOnly: true } : {}) } : {};
      try {
        retrieval =
          valid.mode === "selected"
            ? await this.#lectern.searchSelection(valid.selection, valid.question, { k: this.#k, selectionOnly: this.#selectionOnly, filters, ...page, signal: search.signal })
            : await this.#lectern.search(valid.question, { k: this.#k, filters, earlier: this.#earlierQuestions(), ...page, signal: search.signal });
      } catch (e) {
        // What the reader was told comes along; the chat keeps it with the answer.
        const { code = "INDEX_UNAVAILABLE", message, suggestion, action, detail, technical } = e ?? {};
        retrievalError = { code, message, suggestion, action, detail, technical: technical ?? (typeof e?.code === "string" ? undefined : String(e?.message ?? e)) };
      }
      this.#answered = { retrieved: (retrieval?.chunks ?? []).map((c) => c.index), filters, partial: Boolean(retrieval?.partial) };
      return await this.#chat.answer(asked, retrieval, retrievalError, typeof turnstile === "string" && turnstile ? turnstile : undefined);
    } catch (e) {
      throw toLecternError(e);
    } finally {
      signal?.removeEventListener("abort", onAbort);
      if (this.#search === search) this.#search = null;
    }
  }

  /** The conversation's questions so far, oldest first (the one being asked is not in it
   * yet): a follow-up is retrieved in their context, and the core decides how many count. */
  #earlierQuestions() {
    return this.#chat
      .conversation()
      .messages.filter((m) => m.role === "user")
      .map((m) => m.content);
  }

  /**
   * Up to three follow-up questions after `response` (the last answer) that the site answers:
   * the core makes them from the neighbours of the sections it cited and keeps none the
   * index would refuse. None after a refusal, an answer without sources, or a search that
   * went without part of the index.
   * @param {import("./lectern-types.js").ChatResponse} response @param {{signal?: AbortSignal}} [options]
   */
  async followUps(response, { signal } = {}) {
    const answered = this.#answered;
    const cited = (response?.sources ?? []).map((s) => s.url);
    // After a search that went without part of the index (it failed to load), none: each
    // candidate's search would fetch that part again.
    if (!answered || answered.partial || !cited.length) return [];
    return this.#lectern.followUps({ retrieved: answered.retrieved, cited, earlier: this.#earlierQuestions() }, { filters: answered.filters, signal });
  }

  stop() {
    this.#search?.abort();
    this.#chat.stop();
  }

  newConversation() {
    this.stop();
    this.#chat.newConversation();
  }
}

export default LecternChat;
