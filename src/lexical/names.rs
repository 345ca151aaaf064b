//! Names in headings. An API reference is searched by the names of its options and functions
//! ("testTimeout", "--debug", "jest.fn"), and the section whose heading *is* that name is the
//! answer, however many other sections mention it. A heading that starts with a code span
//! names that identifier; the index stores it as one term, `=` followed by the name as
//! written (lower-cased, argument syntax cut off), so it can be looked up exactly — leading
//! dashes and dots included, which the word tokenizer drops or splits. `=` never starts a
//! term of the tokenizer, so these terms never mix with words. A prose heading short enough
//! to be typed whole in a search box ("Options", "Quality of Service") is a name too, so a
//! search-box query that is a section's heading finds that section first, not one that
//! merely mentions its words.

/// Up to this many words, a query is a search-box query and each of its words may be a name.
pub const SHORT_QUERY_WORDS: usize = 3;

/// What a name term starts with.
pub const NAME_PREFIX: char = '=';

/// Characters a name is made of: `--bail`, `jest.fn`, `@scope/pkg`, `$el`, `//`.
fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '.' | '$' | '@' | '/' | '-' | ':' | '#')
}

/// The name a heading's leading code span gives, lower-cased, up to its first character that
/// is not part of a name: `--bail[=<n>]` → `--bail`, `jest.fn(implementation?)` → `jest.fn`.
/// `None` when nothing is left.
pub fn heading_name(code: &str) -> Option<String> {
    let name: String = code.trim().chars().take_while(|&c| is_name_char(c)).collect();
    let name = name.trim_end_matches(['.', ':', '-']);
    (!name.is_empty()).then(|| name.to_lowercase())
}

/// The name a prose heading gives: the heading itself, lower-cased, when it is short enough
/// to be typed whole in a search box — one word that is all name characters ("Options",
/// "default"), or two to [`SHORT_QUERY_WORDS`] words joined by one space, their outer
/// punctuation dropped ("Quality of Service" → `quality of service`). A search-box query
/// that is such a heading asks for that section ([`query_names`]). `None` for longer ones.
pub fn prose_heading_name(title: &str) -> Option<String> {
    let words: Vec<&str> = title.split_whitespace().collect();
    if words.len() == 1 {
        return heading_name(title).filter(|name| name.chars().count() == title.trim().chars().count());
    }
    phrase(&words)
}

/// Two to [`SHORT_QUERY_WORDS`] words as one name: each trimmed of outer punctuation,
/// lower-cased, joined by one space.
fn phrase(words: &[&str]) -> Option<String> {
    let words: Vec<String> = (words.iter())
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
        .filter(|w| !w.is_empty())
        .collect();
    (2..=SHORT_QUERY_WORDS).contains(&words.len()).then(|| words.join(" "))
}

/// The index term of a name (from [`heading_name`]).
pub fn name_term(name: &str) -> String {
    format!("{NAME_PREFIX}{name}")
}

/// A search-box query: at most [`SHORT_QUERY_WORDS`] words. Only such a query is taken to ask
/// for a section by its name (`HybridSearch` ranks those sections first); in a longer question
/// a name is one more piece of evidence.
pub fn is_short_query(query: &str) -> bool {
    query.split_whitespace().count() <= SHORT_QUERY_WORDS
}

/// The name terms a query may be asking for by their exact spelling: each of its words that
/// looks like code (in backticks, with a dash, dot, underscore or slash in it, or camelCase),
/// or every word of a query of at most [`SHORT_QUERY_WORDS`] words (a search-box query:
/// "verbose", "no-var-requires allow") and, when it has two or more, the whole query as one
/// name (a prose heading's: [`prose_heading_name`]). Distinct, in query order, the whole
/// query last.
pub fn query_names(query: &str) -> Vec<String> {
    let words: Vec<&str> = query.split_whitespace().collect();
    let short = words.len() <= SHORT_QUERY_WORDS;
    let mut out: Vec<String> = Vec::new();
    for &word in &words {
        let quoted = word.contains('`');
        let trimmed = word.trim_matches(|c: char| !is_name_char(c) || c == '.' || c == ':');
        // A word that opens with dashes keeps them: `--watch`.
        let dashes = word.trim_start_matches(['`', '"', '\'', '(']).starts_with('-');
        let start = if dashes { word.find('-').unwrap_or(0) } else { word.find(trimmed).unwrap_or(0) };
        let Some(name) = word.get(start..).and_then(heading_name) else { continue };
        let inner = name.trim_start_matches('-');
        let code_like = quoted
            || dashes
            || inner.contains(['_', '.', '/', '$', '@', '-', ':', '#'])
            // camelCase, not a PascalCase product name ("TypeScript").
            || (trimmed.starts_with(char::is_lowercase)
                && trimmed.chars().zip(trimmed.chars().skip(1)).any(|(a, b)| a.is_lowercase() && b.is_uppercase()));
        if (code_like || short) && !inner.is_empty() {
            let term = name_term(&name);
            if !out.contains(&term) {
                out.push(term);
            }
        }
    }
    if short {
        if let Some(term) = phrase(&words).map(|p| name_term(&p)) {
            if !out.contains(&term) {
                out.push(term);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heading_names_its_leading_identifier() {
        assert_eq!(heading_name("--bail[=<n>]").as_deref(), Some("--bail"));
        assert_eq!(heading_name("testTimeout").as_deref(), Some("testtimeout"));
        assert_eq!(heading_name("jest.fn(implementation?)").as_deref(), Some("jest.fn"));
        assert_eq!(heading_name("coverageThreshold.global.lines").as_deref(), Some("coveragethreshold.global.lines"));
        assert_eq!(heading_name("//").as_deref(), Some("//"));
        assert_eq!(heading_name("\"array\""), None);
        assert_eq!(heading_name("   "), None);
    }

    #[test]
    fn a_short_prose_heading_names_itself() {
        assert_eq!(prose_heading_name("Options").as_deref(), Some("options"));
        assert_eq!(prose_heading_name("Quality of Service").as_deref(), Some("quality of service"));
        assert_eq!(prose_heading_name("Next Steps:").as_deref(), Some("next steps"));
        assert_eq!(prose_heading_name("Services & Actions").as_deref(), Some("services actions"));
        assert_eq!(prose_heading_name("How to write a launch file"), None, "too long to be typed as a name");
        assert_eq!(prose_heading_name("\"array\""), None);
        assert_eq!(
            query_names("services & actions").last().map(String::as_str),
            Some("=services actions"),
            "the query names the heading by the same rule"
        );
    }

    #[test]
    fn a_query_asks_for_code_like_words_or_its_one_word() {
        assert_eq!(query_names("testTimeout"), ["=testtimeout"]);
        assert_eq!(query_names("verbose"), ["=verbose"], "a one-word query");
        assert_eq!(query_names("What does --roots do?"), ["=--roots"]);
        assert_eq!(query_names("How do I use `jest.fn()` here?"), ["=jest.fn"]);
        assert_eq!(query_names("what is the default testTimeout, and testTimeout?"), ["=testtimeout"]);
        assert!(query_names("What is the default timeout of a test?").is_empty(), "prose asks for no name");
        assert!(query_names("Which TypeScript versions are supported?").is_empty(), "a product name is not code");
        assert_eq!(
            query_names("restrict-template-expressions allow"),
            ["=restrict-template-expressions", "=allow", "=restrict-template-expressions allow"]
        );
        assert_eq!(
            query_names("Quality of Service?"),
            ["=quality", "=of", "=service", "=quality of service"],
            "a short query is also the heading it may be"
        );
        assert_eq!(query_names("ros2 topic echo /cmd_vel"), ["=/cmd_vel"], "four words: code-like ones only");
    }
}
