// Types of Lectern's chat API (chat.js): the conversation (sessionStorage) and streamed
// generation from an OpenAI-compatible endpoint, over the retrieval API (index.js).
// The chat layer runs in the small core wasm module on the page's thread
// (lectern_core_bg.*.wasm, no model inside); retrieval stays in the worker.
import type { Confidence, Lectern, LecternErrorInit } from "./index.js";

export type PersonaId = "beginner" | "software_engineer" | "robotics_student" | "ai_researcher";

export interface Persona {
  id: PersonaId | "general";
  name: string;
  /** Added to the system prompt (SPEC.md §2); null for "general". */
  modifier: string | null;
}

/** The chat's rules, from the core (src/chat): one definition for the widget, the site
 * build and this API. */
export interface ChatRules {
  /** "general" first, then SPEC.md's four. */
  personas: Persona[];
  limits: { questionMaxChars: number; selectionMinChars: number; selectionMaxChars: number };
  /** SPEC.md §3's fixed texts. */
  messages: { refusal: string; refusalSuggestion: string; emptyAnswer: string; slow: string };
  /** Every option's default. */
  defaults: ChatConfig;
}

/** Every chat option with its default filled in (what validateConfig returns). */
export interface ChatConfig {
  endpoint: string | null;
  headers: Record<string, string>;
  model: string | null;
  maxTokens: number | null;
  temperature: number | null;
  slowAfterMs: number;
  timeoutMs: number;
  k: number;
  selectionOnly: boolean;
  storageKey: string;
  siteOrigins: string[];
}

/** The options with their defaults, or the INVALID_CONFIG LecternError that
 * LecternChat.create would reject them with (the core's check; the Docusaurus plugin runs
 * the same one at build time). */
export declare function validateConfig(options: Partial<Omit<ChatOptions, "lectern">>): Promise<ChatConfig>;
/** The personas, length limits, fixed answer texts and option defaults. */
export declare function chatRules(): Promise<ChatRules>;

/** A numbered source of an answer: [n] in the answer text links to `url`. */
export interface SourceReference {
  /** The number the answer cites it by ([1], [2], …). */
  n: number;
  chapter_title: string;
  section_title: string;
  module: string;
  /** This site's URL of the section, with its #anchor. Other sites' URLs are dropped. */
  url: string;
  /** Relevance, 0–1. */
  score: number;
  heading_path: string[];
}

export type ChatErrorCode =
  | "EMPTY_QUESTION"
  | "QUESTION_TOO_LONG"
  | "SELECTION_TOO_SHORT"
  | "SELECTION_TOO_LONG"
  | "RATE_LIMITED"
  | "INDEX_UNAVAILABLE"
  | "MODEL_UNAVAILABLE"
  | "LLM_UNAVAILABLE" // network error, HTTP 4xx/5xx, 429 (detail: "HTTP_429", "NETWORK", …)
  | "LLM_TIMEOUT" // no first token within `timeoutMs`
  | "LLM_BAD_RESPONSE" // malformed event, stream cut before [DONE]
  | "INVALID_CONFIG" // e.g. an API key in the client config, an unknown persona
  | "INVALID_ARGUMENT" // retry() with nothing to retry, a request that is not an AskRequest
  | "ABORTED"
  | "INTERNAL";

/** How an assistant message was produced: by the LLM, as excerpts of the best sections (no
 * endpoint, or it was unreachable: then `error` says why), or SPEC.md's refusal. */
export type AnswerKind = "llm" | "extractive" | "refusal";

export type MessageStatus = "complete" | "stopped" | "error";

/** SPEC.md's Message, plus what the UI needs to redraw it after a reload. */
export interface Message {
  /** UUID v4. */
  id: string;
  role: "user" | "assistant";
  /** ≤ 4000 characters (longer answers are cut with "…"). */
  content: string;
  /** ISO 8601. */
  timestamp: string;
  /** user: the mode asked in and, in selected mode, the selection. */
  mode?: "global" | "selected";
  selection?: string;
  persona?: PersonaId | "general";
  /** assistant only. */
  sources?: SourceReference[];
  confidence?: Confidence;
  kind?: AnswerKind;
  status?: MessageStatus;
  /** assistant with status "error": what failed; the partial answer stays in `content`. */
  error?: { code: ChatErrorCode; message: string; suggestion: string; detail?: string };
}

export interface Conversation {
  /** UUID v4. */
  id: string;
  /** At most 50; the oldest go first. */
  messages: Message[];
  createdAt: string;
  lastActivityAt: string;
}

/** SPEC.md's Response. */
export interface ChatResponse {
  answer: string;
  sources: SourceReference[];
  confidence: Confidence;
  mode_used: "global" | "selected";
  chunks_retrieved: number;
  kind: AnswerKind;
  status: MessageStatus;
  /** kind "refusal": SPEC.md's suggestion (REFUSAL_SUGGESTION). */
  suggestion?: string;
  /** The assistant message as stored. */
  message: Message;
}

/**
 * `status`: what the answer is doing. "retrieving" comes first, when the question is admitted
 * and goes to retrieval; "generating" when the LLM is asked.
 */
export interface ChatStatusEvent {
  type: "status";
  state: "retrieving" | "generating";
}

/** `status` "slow": no first token within `slowAfterMs` (at most once, before any token). */
export interface ChatSlowEvent {
  type: "status";
  state: "slow";
  /** SLOW_MESSAGE. */
  message: string;
}

/** The numbered sources the answer may cite (once, before any token; may be empty). */
export interface ChatSourcesEvent {
  type: "sources";
  citations: SourceReference[];
}

/** A piece of the answer's text, to append to the pieces before it. */
export interface ChatTokenEvent {
  type: "token";
  content: string;
}

/**
 * HISTORY_NOT_KEPT: storage is disabled or full, the conversation lives in memory only (told
 * once). HISTORY_RESET: the stored conversation was unreadable and a new one started.
 * LLM_UNAVAILABLE: the endpoint could not be reached, the answer is excerpts.
 */
export type ChatNoticeCode = "HISTORY_NOT_KEPT" | "HISTORY_RESET" | "LLM_UNAVAILABLE";

/** Something to tell the reader; the answer goes on. May come at any time before the end. */
export interface ChatNoticeEvent {
  type: "notice";
  code: ChatNoticeCode;
  message: string;
}

/** The answer ended (also when stopped, refused or given as excerpts); ask() resolves with
 * the same response. */
export interface ChatDoneEvent {
  type: "done";
  response: ChatResponse;
}

/** The answer failed, or the question was refused (validation, rate limit, unknown persona:
 * then it is the only event, with no detail or partial answer); ask() rejects with the same
 * error. */
export interface ChatErrorEvent {
  type: "error";
  code: ChatErrorCode;
  message: string;
  suggestion: string;
  /** The exact cause where known ("HTTP_429", "NETWORK", "FIRST_TOKEN", …), else null or absent. */
  detail?: string | null;
  /** Whether retry() may help (true for LLM faults, false for validation). */
  retryable: boolean;
  /** The partial answer kept in the conversation, if any (else null or absent). */
  partial?: string | null;
}

/**
 * Events of one ask(), discriminated by `type` (and a status by `state`). In order:
 * status "retrieving" → sources and status "generating" (either order, each at most once) →
 * status "slow" (at most once, before the first token) → token* → exactly one done or error,
 * after which nothing; notices may come at any point before the end. A validation error is
 * the only event of a refused question. Every event, and this order, is the core's
 * (src/chat/turn.rs's Turn, from the question's admission to its final event).
 */
export type ChatEvent =
  | ChatStatusEvent
  | ChatSlowEvent
  | ChatSourcesEvent
  | ChatTokenEvent
  | ChatNoticeEvent
  | ChatDoneEvent
  | ChatErrorEvent;

export interface ChatOptions {
  /** The retrieval API (Lectern.open()). */
  lectern: Lectern;
  /** OpenAI-compatible chat-completions URL (your keyless proxy). Absent or null: answers
   * are extractive excerpts of the best sections. */
  endpoint?: string | null;
  /** Extra non-secret request headers. A header whose name or value looks like a secret
   * (Authorization, api-key, X-Auth-…, `Bearer …`, `sk-…`) is refused with INVALID_CONFIG. */
  headers?: Record<string, string>;
  /** The `model` field sent to the endpoint (default: none; the proxy chooses). */
  model?: string;
  maxTokens?: number;
  temperature?: number;
  /** "Response is taking longer than expected…" after this (default 5000 ms; 1–600000). */
  slowAfterMs?: number;
  /** Abort with LLM_TIMEOUT when no first token came within this (default 30000 ms;
   * 1000–600000, not less than slowAfterMs). */
  timeoutMs?: number;
  /** Sections retrieved per question (default 5, 1–10; at most 5 are cited). */
  k?: number;
  /** Selected mode: the selection is the only context (nothing retrieved). */
  selectionOnly?: boolean;
  /** sessionStorage key (default "lectern:conversation:v1"). */
  storageKey?: string;
  /** Only these origins' URLs may be sources (default: the page's origin). */
  siteOrigins?: string[];
}

export interface AskRequest {
  question: string;
  /** Default "global"; "selected" needs `selection` (10–5000 characters). */
  mode?: "global" | "selected";
  selection?: string;
  persona?: PersonaId | "general";
}

export interface AskOptions {
  onEvent?: (event: ChatEvent) => void;
  /** Aborting stops the stream; the partial answer stays (status "stopped"). */
  signal?: AbortSignal;
}

/** What ask() rejects with: a LecternError whose code is a ChatErrorCode. */
export interface ChatError extends Error {
  code: ChatErrorCode;
  suggestion: string;
  detail?: string;
  /** Whether retry() may help. */
  retryable?: boolean;
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
   * Validates (SPEC.md limits, 1 request per 2 s), retrieves, refuses at confidence "none"
   * without calling the LLM, else streams the answer. Resolves with the answer (also when
   * stopped, and with excerpts when the endpoint is unreachable); rejects with a ChatError on
   * validation errors (nothing stored) and on generation faults (question and partial answer
   * stored, status "error"). A newer ask() stops an older one.
   */
  ask(request: AskRequest, options?: AskOptions): Promise<ChatResponse>;
  /** Asks the last question again after an error or a stop; that exchange is replaced. */
  retry(options?: AskOptions): Promise<ChatResponse>;
  /** Stops the current answer, keeping what has arrived. */
  stop(): void;
  /** Clears the conversation (and its stored copy). */
  newConversation(): void;
}

export default LecternChat;
export type { LecternErrorInit };
