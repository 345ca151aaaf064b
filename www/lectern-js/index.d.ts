// Types of Lectern's JS API (index.js). What the core hands over (the error codes, the search
// options, the chunks' metadata) is declared in lectern-types.d.ts, generated from the Rust
// types by scripts/build-pkg.sh; the wasm facade's own exports are in lectern_core.d.ts.
import type {
  ChatErrorCode,
  ChunkMeta,
  Confidence,
  FollowUp,
  LecternErrorCode,
  MatchedPart,
  ProgressPhase,
  QueryMode,
  ReaderAction,
  SearchMode,
  SearchOptions as WasmSearchOptions,
} from "./lectern-types.js";

export type { ChunkMeta, Confidence, DocsVersion, FollowUp, LecternErrorCode, MatchedPart, ProgressPhase, QueryMode, ReaderAction, SearchMode } from "./lectern-types.js";

export interface LecternErrorInit {
  /** A chat error (chat.js) carries a ChatErrorCode. */
  code: LecternErrorCode | ChatErrorCode;
  /** What the reader is told (the core's advice table, src/advice.rs). */
  message?: string;
  suggestion?: string;
  /** The one action that helps the reader. */
  action?: ReaderAction;
  /** The exact cause where known: "HTTP_404", "NETWORK", "WRONG_VERSION", "CHECKSUM_MISMATCH",
   * "WRONG_MODEL", "NOT_LOADED", "SUPERSEDED", "SIGNAL", "CLOSED", "RUNTIME", … */
  detail?: string;
  /** For the site owner (the console, the panel's "Details"): the file, the URL, the parser's
   * position, what to rebuild. Never the reader's message. */
  technical?: string;
  /** In SearchResponse.errors: which part failed ("terms", "termPage", "chunks": a chunk shard
   * by number, "chunkPage", "meta", "text": a bundle before format 5, "pages": the page table of
   * a question asked from a page), its id, its shard (chunks, meta and text) and its file. */
  part?: string;
  id?: number;
  shard?: number;
  file?: string;
}

export declare class LecternError extends Error {
  constructor(init: LecternErrorInit);
  /** "AbortError" for ABORTED, else "LecternError". */
  name: "AbortError" | "LecternError";
  /** A chat error (chat.js) carries a ChatErrorCode. */
  code: LecternErrorCode | ChatErrorCode;
  suggestion: string;
  action: ReaderAction;
  detail?: string;
  technical?: string;
  /** A chat error: whether retry() may help, and the part of the answer that arrived. */
  retryable?: boolean;
  partial?: string;
  /** A chat error: how long until asking again may work, in ms, when known (RATE_LIMITED's
   * wait, the proxy's Retry-After). */
  retryAfterMs?: number;
  /** TEXT_UNAVAILABLE in SearchResponse.errors: which text shard and file. */
  shard?: number;
  file?: string;
  toJSON(): { error: true; message: string; code: LecternErrorCode | ChatErrorCode; suggestion: string; action: ReaderAction; detail?: string; technical?: string };
}

/** A progress event, in the order of the core's loading machine (src/loading.rs): an event
 * that cannot come (a late one of a failed or earlier model attempt) is never sent. */
export interface ProgressEvent {
  phase: ProgressPhase;
  /** The model's phases: which load of the model (1, then one more per retry). */
  attempt?: number;
  /** Bytes so far and expected in this phase (downloads), else 0/1 markers. */
  loaded: number;
  total: number;
  file?: string;
  fromCache?: boolean;
  /** lexical-ready / hybrid-ready: milliseconds the phase took in the worker. */
  ms?: number;
  initMs?: number;
  error?: LecternErrorInit;
}

export interface OpenOptions {
  /** The bundle folder (or its manifest.json URL), relative to the page. */
  bundleUrl: string;
  /** Where the model and tokenizer are, when not in the bundle. */
  modelUrl?: string;
  tokenizerUrl?: string;
  onProgress?: (event: ProgressEvent) => void;
  /** Load the model in the background right after open (default true). */
  loadModel?: boolean;
  /** Use the Cache API (default true) and under which cache name (default "lectern-v1"). */
  cache?: boolean;
  cacheName?: string;
  /** The worker script, when served from elsewhere than next to index.js (same origin). */
  workerUrl?: string | URL;
}

export interface QueryOptions extends Omit<WasmSearchOptions, "selectionOnly"> {
  /** Aborting rejects the query with ABORTED. */
  signal?: AbortSignal;
}

/** What `followUps` is told of an answer. */
export interface FollowUpRequest {
  /** The `index` of each chunk its retrieval returned, in rank order. */
  retrieved: number[];
  /** The URLs of its sources. */
  cited: string[];
  /** The conversation's questions, oldest first, the answered one last. */
  earlier: string[];
}

export interface FollowUpOptions extends Pick<WasmSearchOptions, "filters"> {
  /** Aborting rejects the call with ABORTED. */
  signal?: AbortSignal;
}

export interface SelectionQueryOptions extends QueryOptions {
  /** Retrieve nothing: the selection is the only context. */
  selectionOnly?: boolean;
}

/** A retrieved chunk: its metadata, its text and its score (0–1). */
export interface RetrievedChunk extends ChunkMeta {
  /** null when its text shard could not be loaded (see SearchResponse.errors). */
  text: string | null;
  score: number;
  scores: { dense: number | null; lexical: number | null; fused: number };
  /** Chunk index in the bundle. */
  index: number;
  /** The merged short section the question matched, when it is not the chunk's own: link to
   * its url rather than the chunk's (the core decides). */
  part?: MatchedPart;
}

export interface SearchResponse {
  mode: QueryMode;
  question: string;
  selection?: string;
  /** null only with selectionOnly. In selected mode it rates the related sections only. */
  confidence: Confidence | null;
  mode_used: SearchMode | null;
  chunks_retrieved: number;
  chunks: RetrievedChunk[];
  /** Part of the question's keyword index could not be loaded (its failures are in
   * `errors`): the question was scored from the rest, and confidence is at most low. */
  partial: boolean;
  /** Keyword search stood in for semantic search (the model has not arrived yet) and its
   * evidence is weak: the chat notes that a better answer is coming (KEYWORD_ONLY). */
  provisional: boolean;
  /** Parts that failed to load, after one more try: term shards or pages (INDEX_UNAVAILABLE;
   * see `partial`), chunk shards (TEXT_UNAVAILABLE: chunks whose text failed have text null;
   * chunks whose metadata failed are left out). */
  errors: LecternErrorInit[];
}

export interface TypeaheadOptions {
  /** Keyword rows, 1–50 (default 8). */
  k?: number;
  /** Rows the semantic pass may add below the keyword rows (default 3; 0: no semantic pass). */
  semanticK?: number;
  /** Pause after the keyword results before the semantic pass, in ms (default 150). */
  semanticDelayMs?: number;
  /** Only sections of these modules / docs versions. */
  filters?: WasmSearchOptions["filters"];
  /** Aborting rejects the call with ABORTED (a newer searchAsYouType does too). */
  signal?: AbortSignal;
  /** Called with the keyword results, then (when there is a semantic pass) the merged ones. */
  onUpdate?: (results: TypeaheadResults) => void;
}

/** [start, end) offsets into a JS string (UTF-16 units). */
export type TextRange = [number, number];

/** One section in the list: a link to it, its heading path, a snippet of its text. */
export interface TypeaheadRow {
  /** The section's URL (with its #anchor). */
  url: string;
  /** Chunk index in the bundle; stable while the list lives. */
  index: number;
  chunkId: string;
  /** The section's heading, and where the query's words are in it. */
  title: string;
  titleRanges: TextRange[];
  /** Page title › section › subsection. */
  path: string[];
  /** About 170 characters of the section around its matches, whitespace collapsed (… where
   * cut), and the ranges of the query's words in it. */
  snippet: { text: string; ranges: TextRange[] };
  score: number;
  /** Added by the semantic pass (found by meaning, below the keyword rows). */
  semantic: boolean;
}

/** The rows of one page, in the order its best row ranked. */
export interface TypeaheadPage {
  /** The page's URL (no #anchor). */
  url: string;
  title: string;
  titleRanges: TextRange[];
  /** Its docs instance (Docusaurus's plugin id) and version (null: an unversioned instance). */
  instance: string;
  version: string | null;
  module: string;
  semantic: boolean;
  rows: TypeaheadRow[];
}

export interface TypeaheadResults {
  query: string;
  mode_used: SearchMode | null;
  /** "none": keyword rows only (no model yet, or semanticK 0); "pending": keyword rows, a
   * semantic pass follows; "merged": its rows are appended. */
  semantic: "none" | "pending" | "merged";
  /** Rows in all. */
  count: number;
  /** Keyword pages first, then the pages of the rows the semantic pass added. */
  pages: TypeaheadPage[];
  errors: LecternErrorInit[];
}

export interface BundleInfo {
  chunks: number;
  pages: number;
  fingerprint: string;
  formatVersion: number;
  /** Whether semantic search suits the index's language (the manifest's `site.language`;
   * the model is English). When false the model is never loaded, every search is by
   * keywords, and `loadModel()` rejects with MODEL_UNAVAILABLE (detail LANGUAGE). */
  semantic: boolean;
  /** Whether the Cache API is in use. */
  cache: boolean;
  /** Milliseconds from the worker's start to lexical-ready. */
  ms: number;
}

export declare class Lectern {
  static open(options: OpenOptions): Promise<Lectern>;
  readonly info: BundleInfo | null;
  readonly state: { lexical: boolean; hybrid: boolean; modelError: LecternErrorInit | null };
  search(question: string, options?: QueryOptions): Promise<SearchResponse>;
  searchSelection(selectedText: string, question: string, options?: SelectionQueryOptions): Promise<SearchResponse>;
  /** A search box's query as the reader types: keyword rows at once (the last word also
   * finds the words it begins, a misspelt word of five letters or more its neighbours one
   * edit away: `expandWords`), semantic ones appended after a pause once the model is there. Has its own query slot: a newer searchAsYouType
   * supersedes it, a search (or the chat's retrieval) does not. */
  searchAsYouType(query: string, options?: TypeaheadOptions): Promise<TypeaheadResults>;
  /** Up to three follow-up questions after an answer that the index answers (never one it
   * would refuse), from the neighbours of the sections the answer cited. Has its own query
   * slot: a newer followUps supersedes it. */
  followUps(answer: FollowUpRequest, options?: FollowUpOptions): Promise<FollowUp[]>;
  whenHybrid(): Promise<void>;
  loadModel(): Promise<void>;
  embed(text: string): Promise<Float32Array>;
  close(): void;
  /** Test hook: "error" throws uncaught in the worker; "trap" raises a WebAssembly.RuntimeError
   * inside a module call, as a Rust panic would. Either way the worker is replaced. */
  crashWorkerForTesting(kind?: "error" | "trap"): Promise<never>;
}

export default Lectern;
