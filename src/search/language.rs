//! Whether semantic search suits an index's language. The embedding model,
//! all-MiniLM-L6-v2, was trained on English sentence pairs: its WordPiece vocabulary has
//! few Chinese or Japanese pieces, and on other languages its vectors rank sections worse
//! than their keywords do (`lectern eval` on the Chinese questions of the kcl-lang corpus,
//! BENCHMARKS.md). So an index in another language is searched and answered by keywords
//! only, and the browser never downloads the model for it. One rule for the worker, the
//! widget and the CLI.

/// The language the model was trained on (a BCP 47 primary subtag).
pub const MODEL_LANGUAGE: &str = "en";

/// Whether semantic (and so hybrid) search suits text in `language`, a BCP 47 tag such as
/// `en-GB` or `zh-CN` (the bundle manifest's `site.language`). An index that does not say
/// its language predates locales and is English.
pub fn semantic_search_fits(language: Option<&str>) -> bool {
    written_in(language, MODEL_LANGUAGE)
}

/// Whether text in `language` (a BCP 47 tag, as above; none is English) is in the language
/// whose primary subtag is `primary`.
pub fn written_in(language: Option<&str>, primary: &str) -> bool {
    let tag = language.unwrap_or("en");
    tag.split(['-', '_']).next().unwrap_or_default().eq_ignore_ascii_case(primary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_in_any_region_fits() {
        for tag in ["en", "en-US", "en_GB", "EN"] {
            assert!(semantic_search_fits(Some(tag)), "{tag}");
        }
    }

    #[test]
    fn an_index_without_a_language_is_english() {
        assert!(semantic_search_fits(None));
    }

    #[test]
    fn other_languages_are_searched_by_keywords() {
        for tag in ["zh-CN", "zh-Hans", "ja", "ko", "fr", "", "eng"] {
            assert!(!semantic_search_fits(Some(tag)), "{tag}");
        }
    }
}
