//! A section's heading path (page title, then each heading down to the section's own) as one
//! line of text: how it is embedded in front of the section, indexed as the section's title,
//! shown in the CLI and written into the LLM's context. One joiner, so all of them agree and a
//! section's content hash (which decides whether its vectors are reused) never drifts.

/// What stands between two headings of a path.
pub const HEADING_JOINER: &str = " › ";

/// `path` as one line: `Page title › Section › Subsection`.
pub fn join_heading_path(path: &[String]) -> String {
    path.join(HEADING_JOINER)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_with_the_joiner_and_keeps_a_single_title() {
        let path = ["Setup Guide".to_string(), "Installation".to_string(), "On Linux".to_string()];
        assert_eq!(join_heading_path(&path), "Setup Guide › Installation › On Linux");
        assert_eq!(join_heading_path(&path[..1]), "Setup Guide");
        assert_eq!(join_heading_path(&[]), "");
    }
}
