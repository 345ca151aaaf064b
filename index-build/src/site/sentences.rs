//! Where prose sentences end, for cutting long paragraphs and for the overlap between parts.

/// Abbreviations after which a period does not end a sentence.
const ABBREVIATIONS: &[&str] =
    &["e.g", "i.e", "etc", "vs", "cf", "dr", "mr", "mrs", "ms", "prof", "fig", "no", "approx", "eq", "al", "st"];

/// Splits prose into sentences: after `.`, `!` or `?` (and closing quotes or
/// brackets) followed by a space and an upper-case letter, digit or opening
/// quote; after CJK full stops always.
pub fn split_sentences(text: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let char_at = |i: usize| chars.get(i).map(|&(_, c)| c);
    let mut sentences = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while let Some(&(index, c)) = chars.get(i) {
        let is_cjk_stop = matches!(c, '。' | '！' | '？');
        if !matches!(c, '.' | '!' | '?') && !is_cjk_stop {
            i += 1;
            continue;
        }
        let mut end = i + 1;
        while char_at(end).is_some_and(|n| matches!(n, '"' | '\'' | '”' | '’' | ')' | ']')) {
            end += 1;
        }
        let end_byte = chars.get(end).map_or(text.len(), |&(b, _)| b);
        let next_starts_sentence = is_cjk_stop || {
            let mut next = end;
            while char_at(next).is_some_and(char::is_whitespace) {
                next += 1;
            }
            next > end
                && char_at(next).is_some_and(|n| {
                    n.is_uppercase() || n.is_ascii_digit() || matches!(n, '"' | '\'' | '“' | '‘' | '(' | '[' | '`')
                })
                && !(c == '.' && ends_with_abbreviation(text.get(start..index).unwrap_or("")))
        };
        if next_starts_sentence {
            if let Some(sentence) = text.get(start..end_byte).map(str::trim) {
                if !sentence.is_empty() {
                    sentences.push(sentence);
                }
            }
            start = end_byte;
        }
        i = end;
    }
    if let Some(rest) = text.get(start..).map(str::trim) {
        if !rest.is_empty() {
            sentences.push(rest);
        }
    }
    sentences
}

fn ends_with_abbreviation(before_period: &str) -> bool {
    let word = before_period.rsplit(|c: char| c.is_whitespace() || c == '(').next().unwrap_or("").to_lowercase();
    let single_letter = word.chars().count() == 1 && word.chars().all(char::is_alphabetic);
    single_letter || ABBREVIATIONS.contains(&word.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_split_at_sentence_ends_only() {
        assert_eq!(
            split_sentences("First one. Second, e.g. this one! Third? (Fourth.) 5 is a number. j. doe wrote it."),
            vec!["First one.", "Second, e.g. this one!", "Third?", "(Fourth.)", "5 is a number. j. doe wrote it."]
        );
        assert_eq!(split_sentences("版本一。版本二。"), vec!["版本一。", "版本二。"]);
        assert_eq!(split_sentences("Version 2.0 is out. Try it."), vec!["Version 2.0 is out.", "Try it."]);
    }
}
