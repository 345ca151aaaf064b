//! Markdown partials: `import Note from './_note.md'` followed by `<Note />`
//! shows the partial's text on the page, so it belongs in the page's chunks.

use std::path::{Path, PathBuf};

/// Partials imported by one `import`/`export` block: (component name, file).
/// Only default imports of relative `.md`/`.mdx` files are partials.
pub fn imported_partials(esm: &str, dir: &Path) -> Vec<(String, PathBuf)> {
    esm.split([';', '\n']).filter_map(|statement| partial_import(statement.trim(), dir)).collect()
}

fn partial_import(statement: &str, dir: &Path) -> Option<(String, PathBuf)> {
    let rest = statement.strip_prefix("import")?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let (name, source) = rest.split_once(" from ")?;
    let name = name.trim();
    let is_identifier = !name.is_empty()
        && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    if !is_identifier {
        return None;
    }
    let source = source.trim();
    let quote = source.chars().next().filter(|q| *q == '\'' || *q == '"')?;
    let specifier = source.get(1..)?.split(quote).next()?;
    let is_relative = specifier.starts_with("./") || specifier.starts_with("../");
    let is_markdown = specifier.ends_with(".md") || specifier.ends_with(".mdx");
    (is_relative && is_markdown).then(|| (name.to_string(), dir.join(specifier)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_default_imports_of_relative_markdown() {
        let esm = "import Note from './_note.md';\nimport Tabs from '@theme/Tabs';\nimport {x} from './_y.md';\nimport Shared from \"../shared/_intro.mdx\"";
        assert_eq!(
            imported_partials(esm, Path::new("/docs/guide")),
            vec![
                ("Note".to_string(), PathBuf::from("/docs/guide/./_note.md")),
                ("Shared".to_string(), PathBuf::from("/docs/guide/../shared/_intro.mdx")),
            ]
        );
    }
}
