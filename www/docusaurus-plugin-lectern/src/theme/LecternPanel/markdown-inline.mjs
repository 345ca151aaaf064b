// The inline half of the answer's Markdown parser (markdown.mjs has the blocks): spans inside
// a paragraph, heading or table cell, and the link policy. Every link's URL goes through
// safeHref(); raw HTML stays literal text; an image becomes its alt text (nothing loads).
//
// Inline nodes: {type: "text"|"strong"|"em"|"del"|"code"|"link"|"cite"|"br", …}

/** Schemes a link may use; anything else (javascript:, data:, vbscript:, file:, …) is dropped. */
const SAFE_SCHEMES = new Set(["http", "https", "mailto"]);

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0", colon: ":", tab: "\t", newline: "\n" };

/** Decodes the HTML character references Markdown allows (the result is rendered as text). */
export function decodeEntities(text) {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (all, name) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : "\ufffd";
    }
    return ENTITIES[name.toLowerCase()] ?? all;
  });
}

/**
 * The URL to put in an href, or null when the link must not be a link. Browsers ignore
 * ASCII whitespace and control characters inside a scheme ("java\tscript:"), so those are
 * removed before the scheme is read; character references are decoded first.
 */
export function safeHref(raw) {
  if (typeof raw !== "string") return null;
  // eslint-disable-next-line no-control-regex -- control and invisible characters are what this removes (they can hide a javascript: scheme)
  const url = decodeEntities(raw.trim().replace(/^<|>$/g, "")).replace(/[\u0000-\u0020\u007f-\u009f\u00ad\u200b-\u200f\u2028\u2029\ufeff]/g, "");
  if (!url) return null;
  const scheme = /^([^/?#:]*):/.exec(url);
  if (scheme) {
    if (!/^[a-z][a-z0-9+.-]*$/i.test(scheme[1]) || !SAFE_SCHEMES.has(scheme[1].toLowerCase())) return null;
  }
  if (/^\/?\\/.test(url)) return null; // "\\evil" and "/\\evil" are "//evil" (another site) to browsers
  return url;
}

const ESCAPABLE = /[!-/:-@[-`{-~]/;
const CITE = /^\[(\d{1,3}(?:[ \t]*,[ \t]*\d{1,3})*)\](?!\()/;
const BARE_URL = /^(?:https?:\/\/|www\.)[^\s<>"'`]*[^\s<>"'`.,;:!?)\]}*_~]/i;
const AUTOLINK = /^<((?:https?|mailto):[^\s<>]*)>/i;

/** Index of the `]` closing the `[` at `open`, honouring nesting and escapes; -1 if none. */
function closingBracket(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "`") {
      const run = /^`+/.exec(text.slice(i))[0];
      const end = text.indexOf(run, i + run.length);
      if (end !== -1) i = end + run.length - 1;
    } else if (c === "[") depth++;
    else if (c === "]" && --depth === 0) return i;
  }
  return -1;
}

/** `(url "title")` after a link's text: returns {url, end} or null. */
function linkDestination(text, at) {
  if (text[at] !== "(") return null;
  let i = at + 1;
  while (text[i] === " ") i++;
  let url = "";
  if (text[i] === "<") {
    const end = text.indexOf(">", i);
    if (end === -1) return null;
    url = text.slice(i + 1, end);
    i = end + 1;
  } else {
    let depth = 0;
    while (i < text.length) {
      const c = text[i];
      if (c === "\\" && i + 1 < text.length) {
        url += text[i + 1];
        i += 2;
        continue;
      }
      if (c === "(") depth++;
      else if (c === ")") {
        if (depth === 0) break;
        depth--;
      } else if (c === " " || c === "\n") break;
      url += c;
      i++;
    }
  }
  while (text[i] === " " || text[i] === "\n") i++;
  if (text[i] === '"' || text[i] === "'") {
    const end = text.indexOf(text[i], i + 1);
    if (end === -1) return null;
    i = end + 1;
    while (text[i] === " ") i++;
  }
  if (text[i] !== ")") return null;
  return { url, end: i + 1 };
}

const isSpace = (c) => c === undefined || /\s/.test(c);
const isWordChar = (c) => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** Finds the closing delimiter for emphasis opened at `from` (exclusive), or -1. */
function closingDelimiter(text, delim, from) {
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "`") {
      const run = /^`+/.exec(text.slice(i))[0];
      const end = text.indexOf(run, i + run.length);
      if (end !== -1) i = end + run.length - 1;
      continue;
    }
    if (text.startsWith(delim, i) && !isSpace(text[i - 1]) && i > from) {
      if (delim.length === 1 && text[i + 1] === delim) {
        // "**" inside "*…*": skip the pair, it belongs to a strong span.
        const inner = closingDelimiter(text, delim + delim, i + 2);
        if (inner !== -1) {
          i = inner + 1;
          continue;
        }
      }
      if (delim[0] === "_" && isWordChar(text[i + delim.length])) continue; // snake_case stays text
      return i;
    }
  }
  return -1;
}

/**
 * A link's label: a citation or link inside it is shown as its text, since a link inside a
 * link is invalid HTML and the reader cannot tell which one a click follows.
 */
function linkLabel(nodes) {
  return nodes.flatMap((n) => (n.type === "cite" ? [{ type: "text", value: n.raw }] : n.type === "link" ? linkLabel(n.children) : n.children ? [{ ...n, children: linkLabel(n.children) }] : [n]));
}

/** Parses inline Markdown into inline nodes. */
export function parseInline(text) {
  const out = [];
  let buf = "";
  const flush = () => {
    if (buf) out.push({ type: "text", value: decodeEntities(buf) });
    buf = "";
  };
  const push = (node) => {
    flush();
    out.push(node);
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const rest = text.slice(i);
    if (c === "\\" && i + 1 < text.length) {
      if (text[i + 1] === "\n") {
        push({ type: "br" });
        i += 2;
        continue;
      }
      if (ESCAPABLE.test(text[i + 1])) {
        buf += text[i + 1];
        i += 2;
        continue;
      }
    }
    if (c === "\n") {
      push({ type: "br" });
      i++;
      continue;
    }
    if (c === "`") {
      const run = /^`+/.exec(rest)[0];
      const end = text.indexOf(run, i + run.length);
      if (end !== -1 && text[end + run.length] !== "`") {
        let value = text.slice(i + run.length, end).replace(/\n/g, " ");
        if (/^ .*[^ ].* $/.test(value)) value = value.slice(1, -1);
        push({ type: "code", value });
        i = end + run.length;
        continue;
      }
      buf += run;
      i += run.length;
      continue;
    }
    if (c === "[") {
      const cite = CITE.exec(rest);
      if (cite) {
        push({ type: "cite", numbers: cite[1].split(",").map((n) => parseInt(n.trim(), 10)), raw: cite[0] });
        i += cite[0].length;
        continue;
      }
      const close = closingBracket(text, i);
      const dest = close !== -1 ? linkDestination(text, close + 1) : null;
      if (dest) {
        push({ type: "link", href: safeHref(dest.url), children: linkLabel(parseInline(text.slice(i + 1, close))) });
        i = dest.end;
        continue;
      }
    }
    if (c === "!" && text[i + 1] === "[") {
      // An image: never loaded (a tracking pixel or an exfiltration URL); its alt text stays.
      const close = closingBracket(text, i + 1);
      const dest = close !== -1 ? linkDestination(text, close + 1) : null;
      if (dest) {
        push({ type: "text", value: decodeEntities(text.slice(i + 2, close)) });
        i = dest.end;
        continue;
      }
    }
    if (c === "<") {
      const auto = AUTOLINK.exec(rest);
      if (auto) {
        push({ type: "link", href: safeHref(auto[1]), children: [{ type: "text", value: auto[1] }] });
        i += auto[0].length;
        continue;
      }
    }
    if ((c === "h" || c === "H" || c === "w" || c === "W") && !isWordChar(text[i - 1])) {
      const url = BARE_URL.exec(rest);
      if (url) {
        const href = url[0].toLowerCase().startsWith("www.") ? `https://${url[0]}` : url[0];
        push({ type: "link", href: safeHref(href), children: [{ type: "text", value: url[0] }] });
        i += url[0].length;
        continue;
      }
    }
    if (c === "*" || c === "_" || c === "~") {
      const double = text[i + 1] === c;
      const delim = double ? c + c : c;
      const leftOk = !isSpace(text[i + delim.length]) && !(c === "_" && isWordChar(text[i - 1]));
      if (leftOk && (c !== "~" || double)) {
        const end = closingDelimiter(text, delim, i + delim.length);
        if (end !== -1) {
          const type = c === "~" ? "del" : double ? "strong" : "em";
          push({ type, children: parseInline(text.slice(i + delim.length, end)) });
          i = end + delim.length;
          continue;
        }
      }
      buf += delim;
      i += delim.length;
      continue;
    }
    buf += c;
    i++;
  }
  flush();
  return out;
}

/** Plain text of inline nodes (for labels and copying). */
export function inlineText(nodes) {
  return nodes.map((n) => (n.type === "text" || n.type === "code" ? n.value : n.type === "cite" ? n.raw : n.type === "br" ? "\n" : n.children ? inlineText(n.children) : "")).join("");
}
