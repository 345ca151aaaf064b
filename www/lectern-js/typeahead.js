// Results as the reader types (Lectern#searchAsYouType): a keyword search at once, then —
// once the model is there and the reader pauses — a search by meaning whose new sections are
// appended below the ones shown, never moved in between, so the list does not jump under
// the reader's cursor. Rows are grouped by page, each with its section path, a snippet of
// its text and the ranges of the query's words to highlight there and in its title. Which
// words those are is the core's answer (the search module's matchRanges, page-search.js: the
// tokenizer that built the index); this file only cuts the snippet around them.

import { pageSearch } from "./page-search.js";

/** A snippet is about this many characters, starting a little before the first match. */
const SNIPPET_CHARS = 170;
const CONTEXT_CHARS = 40;

const DEFAULTS = { k: 8, semanticK: 3, semanticDelayMs: 150 };

/**
 * Runs one as-you-type search. `request(type, payload)` sends a worker request in the
 * search box's own query slot (index.js), `stopped` rejects once a newer call or the
 * caller's signal superseded this one, `hybrid()` says whether semantic search works now.
 * @param {{query: string, options: Omit<import("./index.js").TypeaheadOptions, "signal" | "onUpdate">, onUpdate?: (r: import("./index.js").TypeaheadResults) => void, request: (type: string, payload: object) => Promise<any>, stopped: Promise<never>, hybrid: () => boolean}} args
 * @returns {Promise<import("./index.js").TypeaheadResults>}
 */
export async function searchAsYouType({ query, options, onUpdate, request, stopped, hybrid }) {
  const { k, semanticK, semanticDelayMs, filters } = { ...DEFAULTS, ...options };
  // expandWords: the word being typed also finds the words it begins, a misspelt one its
  // neighbours (the core's rule, lexical::expand); a question in the chat asks without it.
  const ask = (mode, n) => request("search", { question: query, options: { k: n, mode, expandWords: true, ...(filters ? { filters } : {}) } });
  // Highlights are a nicety: without the page's core the rows come unmarked.
  const core = pageSearch().catch(() => null);
  const keyword = await ask("lexical", k);
  const matcher = await core;
  const willMerge = semanticK > 0 && hybrid();
  let results = build(query, matcher, keyword, keyword.chunks, [], willMerge ? "pending" : "none");
  notify(onUpdate, results);
  if (!willMerge) return results;

  // The reader may still be typing: a newer call supersedes this one during the pause.
  await Promise.race([new Promise((resolve) => setTimeout(resolve, semanticDelayMs)), stopped]);
  const merged = await ask("hybrid", k + semanticK);
  const shown = new Set(keyword.chunks.map((c) => c.url));
  const added = merged.chunks.filter((c) => !shown.has(c.url)).slice(0, semanticK);
  results = build(query, matcher, merged, keyword.chunks, added, "merged");
  notify(onUpdate, results);
  return results;
}

function notify(onUpdate, results) {
  if (typeof onUpdate !== "function") return;
  try {
    onUpdate(results);
  } catch (e) {
    console.error("Lectern: onUpdate threw", e);
  }
}

/** The response: keyword rows grouped by page in rank order, then the rows the semantic
 * pass added, grouped likewise after them. A section split into parts (one URL) is one row,
 * its best part's. */
function build(query, matcher, response, keywordChunks, semanticChunks, semantic) {
  const seen = new Set();
  const pages = [...group(query, matcher, keywordChunks, false, seen), ...group(query, matcher, semanticChunks, true, seen)];
  return {
    query,
    mode_used: response.mode_used,
    semantic,
    count: seen.size,
    pages,
    errors: response.errors ?? [],
  };
}

function group(query, matcher, chunks, semantic, seen) {
  /** @type {Map<string, any>} */
  const pages = new Map();
  for (const chunk of chunks) {
    if (seen.has(chunk.url)) continue;
    seen.add(chunk.url);
    const pageUrl = chunk.url.replace(/#.*$/, "");
    let page = pages.get(pageUrl);
    if (!page) {
      const title = chunk.chapter_title || chunk.heading_path[0] || pageUrl;
      page = { url: pageUrl, title, titleRanges: ranges(matcher, query, title), instance: chunk.instance, version: chunk.version ?? null, module: chunk.module, semantic, rows: [] };
      pages.set(pageUrl, page);
    }
    // The merged short section the query matched, when the core found one: its own link,
    // heading and text.
    const part = chunk.part;
    const title = (part ? part.heading_path.at(-1) : chunk.section_title || chunk.heading_path.at(-1)) || page.title;
    page.rows.push({
      url: part?.url ?? chunk.url,
      index: chunk.index,
      chunkId: chunk.chunk_id,
      title,
      titleRanges: ranges(matcher, query, title),
      path: part?.heading_path ?? chunk.heading_path,
      snippet: snippet(matcher, query, part?.text ?? chunk.text ?? ""),
      score: chunk.score,
      semantic,
    });
  }
  return [...pages.values()];
}

/** The query's words in `text`, as [start, end] pairs of UTF-16 offsets. */
function ranges(matcher, query, text) {
  if (!matcher || !text) return [];
  let flat;
  try {
    flat = matcher.matchRanges(query, text, true);
  } catch {
    return [];
  }
  const out = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i], flat[i + 1]]);
  return out;
}

/** A window of the section's text around its densest run of matches, whitespace collapsed,
 * with the matches' ranges inside it. */
function snippet(matcher, query, text) {
  // Code fences' markers are noise in a one-line preview; their code stays.
  const clean = text.replace(/^[ \t]*(```|~~~)[^\n]*$/gm, "");
  const found = ranges(matcher, query, clean);
  let start = 0;
  let best = -1;
  for (const [s] of found) {
    const from = Math.max(0, s - CONTEXT_CHARS);
    const count = found.filter(([a, b]) => a >= from && b <= from + SNIPPET_CHARS).length;
    if (count > best) {
      best = count;
      start = from;
    }
  }
  // Start and end between words.
  if (start > 0) {
    const space = clean.slice(start, start + 20).search(/\s/);
    if (space >= 0 && (!found.length || start + space < found[0][0])) start += space + 1;
  }
  let end = Math.min(clean.length, start + SNIPPET_CHARS);
  if (end < clean.length) {
    const back = clean.slice(end - 20, end).search(/\s\S*$/);
    if (back >= 0) end = end - 20 + back;
  }
  // Pieces between range bounds, each with its whitespace collapsed.
  const pieces = [];
  let at = start;
  for (const [s, e] of found) {
    const a = Math.max(s, start);
    const b = Math.min(e, end);
    if (b <= a) continue;
    if (a > at) pieces.push({ text: clean.slice(at, a), mark: false });
    pieces.push({ text: clean.slice(a, b), mark: true });
    at = b;
  }
  if (end > at) pieces.push({ text: clean.slice(at, end), mark: false });
  let out = start > 0 ? "…" : "";
  const marks = [];
  for (const [i, piece] of pieces.entries()) {
    let t = piece.text.replace(/\s+/g, " ");
    if (i === 0 && !out) t = t.trimStart();
    if (!piece.mark && out.endsWith(" ") && t.startsWith(" ")) t = t.slice(1);
    if (piece.mark) marks.push([out.length, out.length + t.length]);
    out += t;
  }
  out = out.trimEnd();
  if (end < clean.length) out += "…";
  return { text: out, ranges: marks };
}
