//! Doc ids, slugs and URLs, computed the way `@docusaurus/plugin-content-docs`
//! computes them (`numberPrefix.ts`, `docs.ts`, `slug.ts`) and the way
//! `@docusaurus/utils` joins URLs (`normalizeUrl`, `applyTrailingSlash`).

use serde::Serialize;

/// Docusaurus' `trailingSlash` site option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TrailingSlash {
    /// `trailingSlash: true`: every page URL ends with `/`.
    Always,
    /// `trailingSlash: false`: no page URL ends with `/` (except the site root).
    Never,
    /// `trailingSlash` unset: URLs are used as the slugs produce them.
    #[default]
    AsWritten,
}

impl TrailingSlash {
    pub fn from_option(value: Option<bool>) -> Self {
        match value {
            Some(true) => Self::Always,
            Some(false) => Self::Never,
            None => Self::AsWritten,
        }
    }
}

/// JavaScript's `\s`, which Docusaurus' number prefix regex uses.
fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}' | '\u{FEFF}'
    )
}

/// A file or folder name split by Docusaurus' `DefaultNumberPrefixParser`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberPrefixed<'a> {
    pub name: &'a str,
    pub number: Option<u64>,
}

/// Strips a number prefix: `01-foo`, `01.foo`, `01_foo`, `01 - foo` → `foo`.
///
/// Mirrors `^(\d+)\s*[-_.]+\s*([^-_.\s].*)$`, after rejecting date- and
/// version-like names (`^\d+[-_.]\d+`, e.g. `2023-01-01-post`, `1.2-notes`).
/// A bare number (`01`) or a prefix with nothing after it (`01-`) is kept.
pub fn parse_number_prefix(name: &str) -> NumberPrefixed<'_> {
    let unchanged = NumberPrefixed { name, number: None };
    let digits_end = name.char_indices().find(|(_, c)| !c.is_ascii_digit()).map_or(name.len(), |(i, _)| i);
    if digits_end == 0 {
        return unchanged;
    }
    let digits = &name[..digits_end];
    let rest = &name[digits_end..];

    let mut after_separator_char = rest.chars();
    if let (Some(sep), Some(next)) = (after_separator_char.next(), after_separator_char.next()) {
        if matches!(sep, '-' | '_' | '.') && next.is_ascii_digit() {
            return unchanged;
        }
    }

    let rest = rest.trim_start_matches(is_js_whitespace);
    let separators = rest.trim_start_matches(['-', '_', '.']);
    if separators.len() == rest.len() {
        return unchanged;
    }
    let suffix = separators.trim_start_matches(is_js_whitespace);
    match suffix.chars().next() {
        Some(first) if !matches!(first, '-' | '_' | '.') && !is_js_whitespace(first) => {
            // `.` in the JS pattern stops at line terminators.
            if suffix.contains(['\n', '\r', '\u{2028}', '\u{2029}']) {
                return unchanged;
            }
            NumberPrefixed { name: suffix, number: digits.parse().ok() }
        }
        _ => unchanged,
    }
}

/// Strips number prefixes from every segment of a `/`-separated path.
pub fn strip_path_number_prefixes(path: &str) -> String {
    path.split('/').map(|segment| parse_number_prefix(segment).name).collect::<Vec<_>>().join("/")
}

/// A doc's location inside its version's content folder, `/`-separated,
/// e.g. `guides/01-setup.md`.
#[derive(Debug, Clone)]
pub struct DocSource<'a> {
    pub relative_path: &'a str,
}

impl<'a> DocSource<'a> {
    /// `guides/01-setup.md` → `guides`; a root file → `.` (like `path.dirname`).
    pub fn dir_name(&self) -> &'a str {
        match self.relative_path.rfind('/') {
            Some(i) => &self.relative_path[..i],
            None => ".",
        }
    }

    /// `guides/01-setup.md` → `01-setup` (like `path.basename(p, path.extname(p))`).
    pub fn file_stem(&self) -> &'a str {
        let file = match self.relative_path.rfind('/') {
            Some(i) => &self.relative_path[i + 1..],
            None => self.relative_path,
        };
        match file.rfind('.') {
            Some(i) if i > 0 => &file[..i],
            _ => file,
        }
    }

    /// `index.md`, `README.md` (any case) or `<folder>/<folder>.md` become
    /// their folder's URL (Docusaurus' default `isCategoryIndex`).
    pub fn is_category_index(&self) -> bool {
        let stem = self.file_stem().to_lowercase();
        let parent = self.dir_name().rsplit('/').next().unwrap_or("").to_lowercase();
        stem == "index" || stem == "readme" || stem == parent
    }

    /// Priority among category indexes sharing one folder URL:
    /// `index` beats `readme`, which beats `<folder>.md`.
    pub fn category_index_rank(&self) -> Option<u8> {
        if !self.is_category_index() {
            return None;
        }
        match self.file_stem().to_lowercase().as_str() {
            "index" => Some(0),
            "readme" => Some(1),
            _ => Some(2),
        }
    }
}

/// The doc id part that comes from the file name, before the folder is added:
/// the front matter `id`, else the file name without number prefix.
pub fn base_id(source: &DocSource<'_>, front_matter_id: Option<&str>, parse_prefixes: bool) -> String {
    match front_matter_id {
        Some(id) => id.to_string(),
        None if parse_prefixes => parse_number_prefix(source.file_stem()).name.to_string(),
        None => source.file_stem().to_string(),
    }
}

/// The full doc id: folder (number prefixes stripped) + base id.
pub fn doc_id(source: &DocSource<'_>, base_id: &str, parse_prefixes: bool) -> String {
    let dir = source.dir_name();
    if dir == "." {
        return base_id.to_string();
    }
    let dir = if parse_prefixes { strip_path_number_prefixes(dir) } else { dir.to_string() };
    if base_id.is_empty() {
        dir
    } else {
        format!("{dir}/{base_id}")
    }
}

/// The doc's slug inside its version (`getSlug`): an absolute front matter slug
/// wins, a category index takes its folder's slug, anything else is resolved
/// against the folder like a relative URL.
pub fn doc_slug(
    source: &DocSource<'_>,
    base_id: &str,
    front_matter_slug: Option<&str>,
    parse_prefixes: bool,
) -> String {
    if let Some(slug) = front_matter_slug.filter(|s| s.starts_with('/')) {
        return slug.to_string();
    }
    let dir_slug = dir_name_slug(source, parse_prefixes);
    let front_matter_slug = front_matter_slug.filter(|s| !s.is_empty());
    if front_matter_slug.is_none() && source.is_category_index() {
        return dir_slug;
    }
    resolve_pathname(front_matter_slug.unwrap_or(base_id), &dir_slug)
}

/// The slug a dir-name category index gets when an `index`/`readme` in the
/// same folder takes the folder URL: `/demo/` + `demo` → `/demo/demo`.
pub fn demoted_category_index_slug(folder_slug: &str, base_id: &str) -> String {
    resolve_pathname(base_id, folder_slug)
}

fn dir_name_slug(source: &DocSource<'_>, parse_prefixes: bool) -> String {
    let dir = source.dir_name();
    if dir == "." {
        return "/".to_string();
    }
    let dir = if parse_prefixes { strip_path_number_prefixes(dir) } else { dir.to_string() };
    let with_trailing = if dir.ends_with('/') { dir } else { format!("{dir}/") };
    if with_trailing.starts_with('/') {
        with_trailing
    } else {
        format!("/{with_trailing}")
    }
}

/// URL-style resolution of `to` against `from`, a port of the
/// `resolve-pathname` package that Docusaurus uses for relative slugs.
pub fn resolve_pathname(to: &str, from: &str) -> String {
    let to_parts: Vec<&str> = if to.is_empty() { Vec::new() } else { to.split('/').collect() };
    let mut parts: Vec<&str> = if from.is_empty() { Vec::new() } else { from.split('/').collect() };
    let is_to_absolute = to.starts_with('/');
    let is_from_absolute = from.starts_with('/');
    let must_end_absolute = is_to_absolute || is_from_absolute;

    if is_to_absolute {
        parts = to_parts;
    } else if !to_parts.is_empty() {
        parts.pop();
        parts.extend(to_parts);
    }
    if parts.is_empty() {
        return "/".to_string();
    }
    let has_trailing_slash = matches!(parts.last(), Some(&".") | Some(&"..") | Some(&""));

    let mut up = 0usize;
    let mut kept: Vec<&str> = Vec::with_capacity(parts.len());
    for part in parts.iter().rev() {
        match *part {
            "." => {}
            ".." => up += 1,
            _ if up > 0 => up -= 1,
            other => kept.push(other),
        }
    }
    kept.reverse();
    if !must_end_absolute {
        for _ in 0..up {
            kept.insert(0, "..");
        }
    }
    if must_end_absolute && kept.first().is_none_or(|first| !first.is_empty()) {
        kept.insert(0, "");
    }
    let mut result = kept.join("/");
    if has_trailing_slash && !result.ends_with('/') {
        result.push('/');
    }
    result
}

/// Joins URL parts with single slashes, like Docusaurus' `normalizeUrl` for
/// path-only parts: empty parts are ignored, a trailing slash survives only
/// on the last non-empty part.
pub fn normalize_url(parts: &[&str]) -> String {
    let joined = parts.iter().filter(|part| !part.is_empty()).copied().collect::<Vec<_>>().join("/");
    let mut collapsed = String::with_capacity(joined.len() + 1);
    for c in joined.chars() {
        if c == '/' && collapsed.ends_with('/') {
            continue;
        }
        collapsed.push(c);
    }
    if !collapsed.starts_with('/') {
        collapsed.insert(0, '/');
    }
    collapsed
}

/// Applies the site's `trailingSlash` option to a page path, never touching
/// `/` or the base URL itself (Docusaurus' `applyTrailingSlash`).
pub fn apply_trailing_slash(path: &str, trailing_slash: TrailingSlash, base_url: &str) -> String {
    if path == "/" || path == base_url {
        return path.to_string();
    }
    match trailing_slash {
        TrailingSlash::AsWritten => path.to_string(),
        TrailingSlash::Always if path.ends_with('/') => path.to_string(),
        TrailingSlash::Always => format!("{path}/"),
        TrailingSlash::Never => path.strip_suffix('/').unwrap_or(path).to_string(),
    }
}

/// Normalises a configured `baseUrl` to start and end with `/`.
pub fn normalize_base_url(base_url: &str) -> String {
    let trimmed = base_url.trim();
    let mut url = String::new();
    if !trimmed.starts_with('/') {
        url.push('/');
    }
    url.push_str(trimmed);
    if !url.ends_with('/') {
        url.push('/');
    }
    url
}

/// A page URL with an optional heading anchor.
pub fn with_anchor(page_url: &str, anchor: Option<&str>) -> String {
    match anchor {
        Some(anchor) if !anchor.is_empty() => format!("{page_url}#{anchor}"),
        _ => page_url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(name: &str) -> &str {
        parse_number_prefix(name).name
    }

    #[test]
    fn number_prefixes_are_stripped_like_docusaurus() {
        assert_eq!(strip("01-foo"), "foo");
        assert_eq!(strip("01.foo"), "foo");
        assert_eq!(strip("01_foo"), "foo");
        assert_eq!(strip("01 - foo"), "foo");
        assert_eq!(strip("003 --- Client API"), "Client API");
        assert_eq!(strip("0. Plugin API"), "Plugin API");
        assert_eq!(strip("01-_foo"), "foo");
        assert_eq!(strip("01 -foo"), "foo");
        assert_eq!(parse_number_prefix("02-guide").number, Some(2));
    }

    #[test]
    fn number_prefix_is_kept_when_docusaurus_keeps_it() {
        assert_eq!(strip("01"), "01");
        assert_eq!(strip("01-"), "01-");
        assert_eq!(strip("foo-01"), "foo-01");
        assert_eq!(strip("2023-01-01-post"), "2023-01-01-post");
        assert_eq!(strip("1.2-release-notes"), "1.2-release-notes");
        assert_eq!(strip("0-guide2.5"), "guide2.5");
        assert_eq!(strip("01 - - foo"), "01 - - foo");
        assert_eq!(strip("1-2foo"), "1-2foo");
        assert_eq!(strip("part-01-foundations"), "part-01-foundations");
        assert_eq!(strip("01foo"), "01foo");
    }

    #[test]
    fn doc_ids_strip_prefixes_from_every_folder() {
        let source = DocSource { relative_path: "01-guides/02-advanced/03-setup.mdx" };
        let base = base_id(&source, None, true);
        assert_eq!(base, "setup");
        assert_eq!(doc_id(&source, &base, true), "guides/advanced/setup");
        let with_fm = base_id(&source, Some("custom"), true);
        assert_eq!(doc_id(&source, &with_fm, true), "guides/advanced/custom");
        let unparsed = base_id(&source, None, false);
        assert_eq!(doc_id(&source, &unparsed, false), "01-guides/02-advanced/03-setup");
    }

    #[test]
    fn slugs_follow_folders_and_front_matter() {
        let source = DocSource { relative_path: "01-guides/02-setup.md" };
        assert_eq!(doc_slug(&source, "setup", None, true), "/guides/setup");
        assert_eq!(doc_slug(&source, "setup", Some("/abs/path"), true), "/abs/path");
        assert_eq!(doc_slug(&source, "setup", Some("relative"), true), "/guides/relative");
        assert_eq!(doc_slug(&source, "setup", Some("../up"), true), "/up");
        assert_eq!(doc_slug(&source, "setup", Some("./"), true), "/guides/");
        let root = DocSource { relative_path: "intro.md" };
        assert_eq!(doc_slug(&root, "intro", None, true), "/intro");
        assert_eq!(doc_slug(&root, "intro", Some("/"), true), "/");
    }

    #[test]
    fn category_indexes_take_their_folder_url() {
        for path in ["guides/index.md", "guides/README.md", "guides/readme.mdx", "guides/Guides.md"] {
            let source = DocSource { relative_path: path };
            assert!(source.is_category_index(), "{path}");
            assert_eq!(doc_slug(&source, "x", None, true), "/guides/", "{path}");
        }
        let numbered = DocSource { relative_path: "01-guides/index.md" };
        assert_eq!(doc_slug(&numbered, "index", None, true), "/guides/");
        let root_index = DocSource { relative_path: "index.md" };
        assert_eq!(doc_slug(&root_index, "index", None, true), "/");
        let not_index = DocSource { relative_path: "guides/indexes.md" };
        assert!(!not_index.is_category_index());
        // A slug in front matter overrides the folder URL.
        assert_eq!(doc_slug(&numbered, "index", Some("start"), true), "/guides/start");
        assert_eq!(demoted_category_index_slug("/guides/", "guides"), "/guides/guides");
    }

    #[test]
    fn resolve_pathname_matches_the_npm_package() {
        assert_eq!(resolve_pathname("foo", "/dir/"), "/dir/foo");
        assert_eq!(resolve_pathname("foo/", "/dir/"), "/dir/foo/");
        assert_eq!(resolve_pathname("../../x", "/a/"), "/x");
        assert_eq!(resolve_pathname("..", "/a/b/"), "/a/");
        assert_eq!(resolve_pathname("/abs", "/a/"), "/abs");
        assert_eq!(resolve_pathname("", "/a/"), "/a/");
    }

    #[test]
    fn urls_join_with_single_slashes() {
        assert_eq!(normalize_url(&["/", "docs", ""]), "/docs");
        assert_eq!(normalize_url(&["/docs", "/intro"]), "/docs/intro");
        assert_eq!(normalize_url(&["/docs", "/guides/"]), "/docs/guides/");
        assert_eq!(normalize_url(&["/docs", "/"]), "/docs/");
        assert_eq!(normalize_url(&["/", "/", ""]), "/");
        assert_eq!(normalize_url(&["/base/", "docs", "next"]), "/base/docs/next");
    }

    #[test]
    fn trailing_slash_option_is_applied() {
        assert_eq!(apply_trailing_slash("/docs/intro", TrailingSlash::Always, "/"), "/docs/intro/");
        assert_eq!(apply_trailing_slash("/docs/guides/", TrailingSlash::Never, "/"), "/docs/guides");
        assert_eq!(apply_trailing_slash("/docs/guides/", TrailingSlash::AsWritten, "/"), "/docs/guides/");
        assert_eq!(apply_trailing_slash("/", TrailingSlash::Never, "/"), "/");
        assert_eq!(apply_trailing_slash("/base/", TrailingSlash::Never, "/base/"), "/base/");
    }

    #[test]
    fn base_url_is_normalised() {
        assert_eq!(normalize_base_url("/"), "/");
        assert_eq!(normalize_base_url("/my-site"), "/my-site/");
        assert_eq!(normalize_base_url("my-site/"), "/my-site/");
    }
}
