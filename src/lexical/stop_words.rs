//! English stop words: the NLTK list (itself the Snowball list plus contraction fragments),
//! without the apostrophe forms, since the tokenizer splits at apostrophes and leaves
//! fragments like "don" and "t" instead. Questions are full of these words ("how do I…"), and
//! dropping them keeps them from matching every chunk.

/// Sorted, so lookup is a binary search.
#[rustfmt::skip]
const STOP_WORDS: [&str; 153] = [
    "a", "about", "above", "after", "again", "against", "ain", "all", "am", "an", "and", "any", "are", "aren", "as",
    "at", "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "couldn", "d",
    "did", "didn", "do", "does", "doesn", "doing", "don", "down", "during", "each", "few", "for", "from", "further",
    "had", "hadn", "has", "hasn", "have", "haven", "having", "he", "her", "here", "hers", "herself", "him", "himself",
    "his", "how", "i", "if", "in", "into", "is", "isn", "it", "its", "itself", "just", "ll", "m", "ma", "me",
    "mightn", "more", "most", "mustn", "my", "myself", "needn", "no", "nor", "not", "now", "o", "of", "off", "on",
    "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own", "re", "s", "same", "shan", "she",
    "should", "shouldn", "so", "some", "such", "t", "than", "that", "the", "their", "theirs", "them", "themselves",
    "then", "there", "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "ve", "very",
    "was", "wasn", "we", "were", "weren", "what", "when", "where", "which", "while", "who", "whom", "why", "will",
    "with", "won", "wouldn", "y", "you", "your", "yours", "yourself", "yourselves",
];

/// Whether a lower-cased word is an English stop word.
pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_is_sorted_and_unique() {
        assert!(STOP_WORDS.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn recognises_stop_words_only() {
        for word in ["the", "how", "do", "i", "on", "a", "yourselves", "t", "don"] {
            assert!(is_stop_word(word), "{word}");
        }
        for word in ["echo", "robot", "topic", "The", "cmd_vel", ""] {
            assert!(!is_stop_word(word), "{word}");
        }
    }
}
