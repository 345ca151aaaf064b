//! How a section's heading becomes the question a reader would ask about it. Three rules were
//! measured on the four labelled corpora (`lectern eval --follow-ups`): the same words for
//! every heading ("What about …?"), a form chosen by the heading's shape, and that form with
//! the page's title added to a short heading. All three are answered at high or medium
//! confidence alike; what tells them apart is whether a suggestion's search lands on the
//! section it was made from (top 3, hybrid, mean of the four corpora: by shape 0.895, "what
//! about" 0.894, with the page's title 0.889 — the title pulls the search to the page's
//! introduction). [`Phrasing::SHIPPED`] is the best of them.

/// A rule from heading to question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phrasing {
    /// "What about <heading>?" for every heading.
    WhatAbout,
    /// By the heading's shape: a question stays one; "How to X", an imperative ("Install X")
    /// or a gerund ("Installing X") becomes "How do I install X?"; an identifier from code
    /// ("`--watch`") "What does --watch do?"; any other (a noun phrase) "What is X?" (or
    /// "What are X?" when it ends in a plural).
    ByShape,
    /// [`Phrasing::ByShape`], with " in <page title>" when the heading has at most two words
    /// (a short heading such as "Configuration" says little on its own).
    ByShapeInPage,
    /// The heading itself (numbering and trailing punctuation taken off): for a site in
    /// another language than English, where the forms above would wrap its heading in
    /// English words ("What is 修改采样间隔?").
    AsWritten,
}

impl Phrasing {
    /// The rule the widget uses (chosen by measurement: the module's header).
    pub const SHIPPED: Phrasing = Phrasing::ByShape;
    pub const ALL: [Phrasing; 3] = [Phrasing::WhatAbout, Phrasing::ByShape, Phrasing::ByShapeInPage];
    /// The language of the questions the forms above write.
    const LANGUAGE: &'static str = "en";

    /// The rule for an index in `language` (the manifest's `site.language`; none is English):
    /// [`Phrasing::SHIPPED`] in English, the heading as written in any other language.
    pub fn for_language(language: Option<&str>) -> Phrasing {
        if crate::search::written_in(language, Self::LANGUAGE) {
            Self::SHIPPED
        } else {
            Phrasing::AsWritten
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Phrasing::WhatAbout => "what-about",
            Phrasing::ByShape => "by-shape",
            Phrasing::ByShapeInPage => "by-shape-in-page",
            Phrasing::AsWritten => "as-written",
        }
    }
}

/// Headings that name a place in the page rather than a topic: nothing to ask about.
const NAVIGATIONAL: [&str; 14] = [
    "summary",
    "conclusion",
    "conclusions",
    "overview",
    "introduction",
    "next steps",
    "see also",
    "references",
    "further reading",
    "resources",
    "learn more",
    "related",
    "what's next",
    "key takeaways",
];

/// Words a heading that is (nearly) a question starts with.
const QUESTION_WORDS: [&str; 7] = ["what", "why", "when", "where", "which", "who", "how"];

/// Verbs a docs heading starts with when it is an instruction ("Install the CLI").
const VERBS: [&str; 61] = [
    "add",
    "avoid",
    "build",
    "call",
    "change",
    "check",
    "choose",
    "compare",
    "configure",
    "connect",
    "convert",
    "create",
    "customize",
    "debug",
    "define",
    "deploy",
    "disable",
    "enable",
    "extend",
    "filter",
    "find",
    "fix",
    "generate",
    "get",
    "handle",
    "import",
    "install",
    "integrate",
    "launch",
    "load",
    "manage",
    "map",
    "measure",
    "migrate",
    "mock",
    "monitor",
    "move",
    "override",
    "pass",
    "publish",
    "read",
    "register",
    "remove",
    "render",
    "run",
    "select",
    "send",
    "set",
    "setup",
    "share",
    "simulate",
    "start",
    "stop",
    "test",
    "train",
    "tune",
    "update",
    "upgrade",
    "use",
    "visualize",
    "write",
];

/// The question a reader would ask about the section with `heading_path` (page title › … ›
/// its heading), or `None` when its heading names no topic.
pub fn question_for(heading_path: &[String], phrasing: Phrasing) -> Option<String> {
    let heading = clean(heading_path.last()?);
    if heading.is_empty() || NAVIGATIONAL.contains(&heading.to_lowercase().as_str()) {
        return None;
    }
    match phrasing {
        Phrasing::WhatAbout => Some(format!("What about {heading}?")),
        Phrasing::AsWritten => Some(heading),
        Phrasing::ByShape => Some(by_shape(&heading, None)),
        Phrasing::ByShapeInPage => {
            let page = heading_path.first().map(|p| clean(p)).filter(|p| !p.is_empty() && *p != heading);
            let short = heading.split_whitespace().count() <= 2;
            Some(by_shape(&heading, page.as_deref().filter(|_| short)))
        }
    }
}

/// The heading without section numbers ("2.1 ", "Step 3: "), emoji and trailing punctuation.
fn clean(heading: &str) -> String {
    let words: Vec<&str> = heading.split_whitespace().collect();
    let mut rest: &[&str] = &words;
    // "1.", "2.1", "Step 3:", "Part II:" at the start number the section, they name nothing.
    if let [first, tail @ ..] = rest {
        if first.trim_end_matches(['.', ':', ')']).chars().all(|c| c.is_ascii_digit() || c == '.') {
            rest = tail;
        }
    }
    if let [label, number, tail @ ..] = rest {
        let label = label.to_lowercase();
        if ["step", "part", "chapter", "lesson", "module", "week"].contains(&label.as_str()) && number.ends_with(':') {
            rest = tail;
        }
    }
    let text = rest.join(" ");
    let text = text.trim_matches(|c: char| !(c.is_alphanumeric() || "`'\"()[]<>?-_@$/.".contains(c)));
    text.trim_end_matches(['.', ':']).trim().to_string()
}

fn by_shape(heading: &str, page: Option<&str>) -> String {
    let in_page = page.map(|p| format!(" in {p}")).unwrap_or_default();
    if heading.ends_with('?') {
        return heading.to_string();
    }
    let mut words = heading.split_whitespace();
    let first = words.next().unwrap_or_default();
    let rest: Vec<&str> = words.collect();
    let lower = first.to_lowercase();
    // A clause that starts with a question word is nearly a question already: "What a node
    // is" → "What is a node?", "Why ROS 2" → "Why ROS 2?".
    if QUESTION_WORDS.contains(&lower.as_str()) && lower != "how" {
        return match rest.split_last() {
            Some((verb, subject)) if ["is", "are", "does", "do"].contains(verb) && !subject.is_empty() => {
                format!("{first} {verb} {}{in_page}?", subject.join(" "))
            }
            _ => format!("{heading}{in_page}?"),
        };
    }
    let rest = rest.join(" ");
    if lower == "how" && rest.to_lowercase().starts_with("to ") {
        return format!("How do I {}{in_page}?", &rest[3..]);
    }
    let verb = VERBS.iter().find(|v| **v == lower).map(|v| v.to_string()).or_else(|| base_of_gerund(&lower));
    if let Some(verb) = verb.filter(|_| !rest.is_empty()) {
        return format!("How do I {verb} {rest}{in_page}?");
    }
    // A gerund this list does not know still starts an activity, not a thing: "Overriding
    // QoS with parameters" is no "What are …?". The "What about …?" form fits any phrase.
    if !rest.is_empty() && is_gerund(&lower) {
        return format!("What about {lower} {rest}{in_page}?");
    }
    if rest.is_empty() && looks_like_code(first) {
        return format!("What does {} do{in_page}?", first.trim_matches('`'));
    }
    let last = heading.split_whitespace().last().unwrap_or_default().to_lowercase();
    let plural = last.len() > 3
        && last.ends_with('s')
        && !["ss", "us", "is", "ics"].iter().any(|e| last.ends_with(e))
        && last.chars().all(|c| c.is_ascii_alphabetic());
    let verb = if plural { "are" } else { "is" };
    format!("What {verb} {heading}{in_page}?")
}

/// The verb of a gerund that starts an instruction ("Installing" → "install"), if it is one of
/// [`VERBS`].
fn base_of_gerund(word: &str) -> Option<String> {
    let stem = word.strip_suffix("ing")?;
    VERBS
        .iter()
        .find(|v| {
            let v = **v;
            stem == v || v.strip_suffix('e') == Some(stem) || (stem.len() == v.len() + 1 && stem.starts_with(v))
        })
        .map(|v| v.to_string())
}

/// A word that reads as a gerund ("overriding"): letters, ending in "ing" after a stem of at
/// least four letters, so "string", "thing" and "ring" are not.
fn is_gerund(word: &str) -> bool {
    word.strip_suffix("ing").is_some_and(|stem| stem.len() >= 4 && stem.chars().all(|c| c.is_ascii_alphabetic()))
}

/// An identifier as a code heading names it: `--watch`, `testTimeout`, `@Component`, `foo()`.
fn looks_like_code(word: &str) -> bool {
    let w = word.trim_matches('`');
    w.starts_with('-')
        || w.starts_with('@')
        || w.ends_with("()")
        || word.starts_with('`')
        || (w.chars().any(|c| c.is_ascii_lowercase())
            && w.chars().skip(1).any(|c| c.is_ascii_uppercase())
            && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.'))
}
