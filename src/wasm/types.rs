//! The TypeScript side of the facade's exports, so the npm package is typed end to end. The
//! objects the exports take and return are declared in lectern-types.d.ts, generated from
//! the Rust types (`typescript.rs`) by scripts/build-pkg.sh; this only imports them for the
//! signatures wasm-bindgen writes, re-exports them, and declares the thrown error's shape.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
import type {
  AskRequest, ChatConfig, ChatErrorCode, ChatEvent, ChatResponse, ChatRules, ChunkMeta, Conversation,
  FileEntry, LecternErrorCode, Manifest, NeededFile, SearchOptions, SearchResults, VectorQuery,
} from "./lectern-types.js";
export type * from "./lectern-types.js";

/** An Error as thrown by this module: `name` and `code` are a stable code (the chat's are a
 * ChatErrorCode, with `retryable`). `detail` names the exact cause where known (e.g.
 * "WRONG_VERSION", "CHECKSUM_MISMATCH", "NOT_LOADED"). */
export interface LecternWasmError extends Error {
  name: LecternErrorCode | ChatErrorCode;
  code: LecternErrorCode | ChatErrorCode;
  suggestion: string;
  detail?: string;
  retryable?: boolean;
}
"#;
