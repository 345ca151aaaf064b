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

export interface Hit {
  /** Chunk index in the bundle. */
  index: number;
  /** Index of its text shard in `manifest.files.text`. */
  shard: number;
  /** 0–1 relevance: the cosine when the search was semantic, else normalised BM25. */
  score: number;
  dense: number | null;
  lexical: number | null;
  fused: number;
  chunk: ChunkMeta;
  /** null until the chunk's text shard is attached (see `missing_shards`). */
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
  /** Text shards (indexes in `manifest.files.text`) the hits need and that are not attached. */
  missing_shards: number[];
}

export interface FileEntry { name: string; bytes: number; sha256: string; }
export interface TextShardEntry extends FileEntry { first_chunk: number; count: number; }
export interface Manifest {
  format: "lectern-index";
  format_version: number;
  created_by: string;
  model: { fingerprint: string; dims: number; weights?: FileEntry; tokenizer?: FileEntry };
  site: { base_url: string; site_url?: string };
  counts: { pages: number; chunks: number; characters: number };
  files: { chunks: FileEntry; lexical: FileEntry; dense: FileEntry; text: TextShardEntry[] };
}
"#;
