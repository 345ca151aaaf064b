//! TypeScript declarations for what the facade passes as plain JS objects (JSON-shaped),
//! so the npm package is typed end to end. Data objects use SPEC.md's snake_case field
//! names; options use JS's camelCase.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** Stable error codes: every error thrown by this module has `name` and `code` set to one. */
export type LecternErrorCode =
  | "EMPTY_QUESTION" | "QUESTION_TOO_LONG" | "SELECTION_TOO_SHORT" | "SELECTION_TOO_LONG"
  | "INVALID_OPTIONS" | "INVALID_ARGUMENT" | "INDEX_UNAVAILABLE" | "MODEL_UNAVAILABLE"
  | "MODEL_MISMATCH" | "TEXT_UNAVAILABLE";

/** An Error as thrown by the facade. `detail` names the exact cause where known
 * (e.g. "WRONG_VERSION", "CHECKSUM_MISMATCH", "NOT_LOADED"). */
export interface LecternWasmError extends Error {
  name: LecternErrorCode;
  code: LecternErrorCode;
  suggestion: string;
  detail?: string;
}

export type SearchMode = "dense" | "lexical" | "hybrid";
export type Confidence = "high" | "medium" | "low" | "none";

export interface SearchOptions {
  /** Results to return, 1–50 (default 3). */
  k?: number;
  /** Default "hybrid": semantic + keywords once the model is loaded, keywords until then. */
  mode?: SearchMode;
  /** Candidates per list before fusion, >= k (default 30). */
  candidates?: number;
  /** Reciprocal-rank-fusion constant, > 0 (default 60). */
  rrfK?: number;
  denseWeight?: number;
  lexicalWeight?: number;
  /** Drop results scoring below this, 0–1 (default 0). */
  minScore?: number;
  /** Only chunks of these modules / docs versions (empty: all). */
  filters?: { modules?: string[]; versions?: string[] };
  /** searchSelection only: retrieve nothing; the selection is the only context. */
  selectionOnly?: boolean;
}

export interface ChunkMeta {
  chunk_id: string;
  url: string;
  heading_path: string[];
  chapter_title: string;
  section_title: string;
  module: string;
  chapter_id: string;
  version?: string;
  word_count: number;
  position: number;
  hash: string;
}

/** A file `Retriever.filesFor`, `filesForChunks` or a search's `missing` names: fetch
 * `name` (relative to the manifest) and hand its bytes to `Retriever.attach(part, id, bytes)`. */
export interface NeededFile {
  part: "termPage" | "terms" | "chunkPage" | "meta" | "text";
  id: number;
  name: string;
  bytes: number;
}

export interface Hit {
  /** Chunk index in the bundle. */
  index: number;
  /** Its chunk shard (over all chunk shards), once its catalog page is attached. */
  shard: number | null;
  /** 0–1 relevance: the cosine when the search was semantic, else normalised BM25. */
  score: number;
  dense: number | null;
  lexical: number | null;
  fused: number;
  /** null until the chunk's metadata shard is attached (see `missing`). */
  chunk: ChunkMeta | null;
  /** null until the chunk's text shard is attached (see `missing`). */
  text: string | null;
}

export interface SearchResults {
  mode: "global" | "selected";
  /** The validated (trimmed) question. */
  question: string;
  /** The validated (trimmed) selection, in selected mode. */
  selection?: string;
  /** null only with `selectionOnly`, where nothing is retrieved. */
  confidence: Confidence | null;
  mode_used: SearchMode | null;
  hits: Hit[];
  /** Files the hits' metadata and text still need (catalog pages first: attach, then ask
   * `filesForChunks` again). */
  missing: NeededFile[];
}

export interface FileEntry { name: string; bytes: number; sha256: string; }
/** The site-wide BM25 numbers (the postings are in the term shards). */
export interface LexicalStats {
  shard_format_version: number; tokenizer_version: number; k1: number; b: number; title_boost: number;
  doc_count: number; total_length: number; term_count: number; posting_count: number;
}
/** A catalog page of term shards, from `first_term`. */
export interface TermPageEntry extends FileEntry { first_shard: number; shards: number; first_term: string; }
/** A catalog page of chunk shards, holding chunks `first_chunk..first_chunk + count`. */
export interface ChunkPageEntry extends FileEntry { first_shard: number; shards: number; first_chunk: number; count: number; }
export interface Manifest {
  format: "lectern-index";
  format_version: number;
  created_by: string;
  model: { fingerprint: string; dims: number; weights?: FileEntry; words?: FileEntry; tokenizer?: FileEntry };
  site: { base_url: string; site_url?: string };
  counts: { pages: number; chunks: number; characters: number };
  files: { chunk_table: FileEntry; lexical: LexicalStats; terms: TermPageEntry[]; chunks: ChunkPageEntry[]; dense: FileEntry };
}
"#;
