//! Where a page's Markdown twin is served: the page's URL with `.md` appended, or
//! `index.html.md` when the URL ends with a slash (the llmstxt.org proposal's rule), so an
//! agent that knows a page's URL finds its text whatever the site's `trailingSlash`. One rule:
//! the files are written at these paths, llms.txt links them, and the plugin's docs pages
//! link theirs with the two suffixes the CLI reports.

use serde::Serialize;

/// What a page URL that names a file (`/docs/intro`) gets appended.
pub const FILE_TWIN_SUFFIX: &str = ".md";
/// What a page URL that names a folder (`/docs/intro/`, `/docs/`) gets appended.
pub const FOLDER_TWIN_SUFFIX: &str = "index.html.md";

/// The two suffixes, as the build's JSON summary reports them to the plugin.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct TwinSuffixes {
    pub file: &'static str,
    pub folder: &'static str,
}

pub const TWIN_SUFFIXES: TwinSuffixes = TwinSuffixes { file: FILE_TWIN_SUFFIX, folder: FOLDER_TWIN_SUFFIX };

/// The URL path of the Markdown twin of the page at `page_url` (a path, `baseUrl` included).
pub fn twin_url(page_url: &str) -> String {
    let suffix = if page_url.ends_with('/') { FOLDER_TWIN_SUFFIX } else { FILE_TWIN_SUFFIX };
    format!("{page_url}{suffix}")
}

/// Where the file served at `url` goes in the site's build folder: the path under `base_url`
/// (which starts and ends with `/`), or `None` when the URL is not under it.
pub fn output_path(url: &str, base_url: &str) -> Option<String> {
    let relative = url.strip_prefix(base_url)?;
    (!relative.is_empty() && !relative.split('/').any(|part| part == ".." || part == ".")).then(|| relative.to_string())
}

/// `path` on the site's own origin (`url` in the config) when it is known, else the path.
pub fn absolute_url(site_url: Option<&str>, path: &str) -> String {
    match site_url.map(|u| u.trim_end_matches('/')).filter(|u| !u.is_empty()) {
        Some(origin) => format!("{origin}{path}"),
        None => path.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_urls_get_md_and_folder_urls_index_html_md() {
        assert_eq!(twin_url("/docs/intro"), "/docs/intro.md");
        assert_eq!(twin_url("/docs/intro/"), "/docs/intro/index.html.md");
        assert_eq!(twin_url("/base/docs/"), "/base/docs/index.html.md");
        assert_eq!(twin_url("/"), "/index.html.md");
    }

    #[test]
    fn output_paths_are_under_the_base_url() {
        assert_eq!(output_path("/docs/intro.md", "/").as_deref(), Some("docs/intro.md"));
        assert_eq!(
            output_path("/base/docs/intro/index.html.md", "/base/").as_deref(),
            Some("docs/intro/index.html.md")
        );
        assert_eq!(output_path("/other/intro.md", "/base/"), None);
        assert_eq!(output_path("/base/", "/base/"), None);
        assert_eq!(output_path("/base/../x.md", "/base/"), None);
    }

    #[test]
    fn absolute_urls_use_the_site_origin_when_known() {
        assert_eq!(absolute_url(Some("https://docs.example.com/"), "/docs/a.md"), "https://docs.example.com/docs/a.md");
        assert_eq!(absolute_url(Some("https://docs.example.com"), "/docs/a.md"), "https://docs.example.com/docs/a.md");
        assert_eq!(absolute_url(None, "/docs/a.md"), "/docs/a.md");
        assert_eq!(absolute_url(Some(""), "/docs/a.md"), "/docs/a.md");
    }
}
