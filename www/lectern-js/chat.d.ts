// Types of Lectern's chat API (chat.js): the conversation (sessionStorage) and streamed
// generation from an OpenAI-compatible endpoint, over the retrieval API (index.js).
// The chat layer runs in the small core wasm module on the page's thread
// (lectern_core_bg.*.wasm, no model inside); retrieval stays in the worker. Every object the
// core hands over (options, rules, events, answers, the conversation) is declared in
// lectern-types.d.ts, generated from the Rust types by scripts/build-pkg.sh: this file only
// declares the API around them.
import type { Lectern, LecternErrorInit, QueryOptions } from "./index.js";
import type { ChatConfig, ChatErrorCode, ChatEvent, ChatResponse, ChatRules, Conversation, AskRequest, FollowUp, ReaderAction } from "./lectern-types.js";

export type {
  AnswerKind,
  AnswerNote,
  AnswerNoteCode,
  AskRequest,
  ChatConfig,
  ChatErrorCode,
  ChatEvent,
  ChatLimits,
  ChatMessages,
  ChatNoticeCode,
  ChatResponse,
  ChatRules,
  ChatStatus,
  Confidence,
  Conversation,
  FollowUp,
  Message,
  MessageError,
  MessageStatus,
  Persona,
  PersonaId,
  QueryMode,
  ReaderAction,
  Role,
  SourceReference,
  UsageEvent,
  UsageEventSource,
} from "./lectern-types.js";

/** The events of one ask(), one type each (picked from ChatEvent by `type`). */
export type ChatStatusEvent = Extract<ChatEvent, { type: "status" }>;
export type ChatSlowEvent = Extract<ChatEvent, { state: "slow" }>;
export type ChatSourcesEvent = Extract<ChatEvent, { type: "sources" }>;
export type ChatTokenEvent = Extract<ChatEvent, { type: "token" }>;
export type ChatNoticeEvent = Extract<ChatEvent, { type: "notice" }>;
export type ChatDoneEvent = Extract<ChatEvent, { type: "done" }>;
export type ChatErrorEvent = Extract<ChatEvent, { type: "error" }>;

/** The options with their defaults, or the INVALID_CONFIG LecternError that
 * LecternChat.create would reject them with (the core's check; the Docusaurus plugin runs
 * the same one at build time). */
export declare function validateConfig(options: Partial<ChatConfig>): Promise<ChatConfig>;
/** The personas, length limits, fixed texts and option defaults. */
export declare function chatRules(): Promise<ChatRules>;

/** The chat options (each as ChatConfig describes it, all optional) and the retrieval API. */
export interface ChatOptions extends Partial<ChatConfig> {
  /** The retrieval API (Lectern.open()). */
  lectern: Lectern;
}

export interface AskOptions {
  onEvent?: (event: ChatEvent) => void;
  /** Retrieve only from these modules / docs versions (e.g. the version of the page the
   * reader is on); the same scope a search box used, so the answer cites what it showed. */
  filters?: QueryOptions["filters"];
  /** Aborting stops the stream; the partial answer stays (status "stopped"). */
  signal?: AbortSignal;
  /** A Cloudflare Turnstile token for the site's proxy, sent with this question's request
   * only (header x-lectern-turnstile; a token is spent once the proxy has verified it). */
  turnstile?: string;
}

/** What ask() rejects with: a LecternError whose code is a ChatErrorCode. */
export interface ChatError extends Error {
  code: ChatErrorCode;
  /** `message`, `suggestion` and `action` are for the reader; `detail` and `technical` for
   * whoever fixes it (a configuration's mistake, the service's own words). */
  suggestion: string;
  action: ReaderAction;
  detail?: string;
  technical?: string;
  /** Whether retry() may help. */
  retryable?: boolean;
  /** How long until asking again may work, in ms, when known: RATE_LIMITED's wait (one
   * question per 2 seconds), or the proxy's Retry-After. */
  retryAfterMs?: number;
  /** The part of the answer that arrived before the fault (kept in the conversation). */
  partial?: string;
}

export declare class LecternChat {
  static create(options: ChatOptions): Promise<LecternChat>;
  /** A copy of the conversation as stored. */
  readonly conversation: Conversation;
  /** The one-time "history will not be kept" message when storage failed, else null. */
  readonly storageNotice: string | null;
  /**
   * Validates (the length limits, 1 question per 2 s), retrieves, refuses at confidence
   * "none" without calling the LLM, else streams the answer. Resolves with the answer (also
   * when stopped, and with excerpts when the endpoint is unreachable); rejects with a
   * ChatError on validation errors (nothing stored) and on generation faults (question and
   * partial answer stored, status "error"). A newer ask() stops an older one.
   */
  ask(request: AskRequest, options?: AskOptions): Promise<ChatResponse>;
  /** Asks the last question again after an error or a stop; that exchange is replaced. */
  retry(options?: AskOptions): Promise<ChatResponse>;
  /** Up to three follow-up questions after `response` (the last answer) that the site
   * answers — none the index would refuse; none after a refusal. A click asks one with ask(). */
  followUps(response: ChatResponse, options?: { signal?: AbortSignal }): Promise<FollowUp[]>;
  /** Stops the current answer, keeping what has arrived. */
  stop(): void;
  /** Clears the conversation (and its stored copy). */
  newConversation(): void;
}

export default LecternChat;
export type { LecternErrorInit };
