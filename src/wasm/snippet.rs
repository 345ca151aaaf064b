//! `matchRanges`: where a query's words are in a text, for the search box to highlight them
//! (`search::snippet` decides and counts in the UTF-16 units JS strings are indexed by). A
//! plain function: the page calls it on the search module it already runs, without a round
//! trip to the worker.

use crate::search::snippet::{match_ranges, utf16_bounds};
use wasm_bindgen::prelude::*;

/// The ranges of `text` holding the terms of `query`, as UTF-16 offsets `[start0, end0,
/// start1, end1, …]`, sorted and merged. With `prefixLast`, the query's last word (when nothing
/// follows it) also marks the words it begins.
#[wasm_bindgen(js_name = matchRanges)]
pub fn match_ranges_utf16(
    query: &str,
    text: &str,
    #[wasm_bindgen(js_name = prefixLast)] prefix_last: bool,
) -> Vec<u32> {
    utf16_bounds(text, &match_ranges(query, text, prefix_last))
}
