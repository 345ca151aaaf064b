//! What the command line (or docusaurus-plugin-lectern) may set when a site is read: each
//! value wins over the site's config.

use crate::site::permalink::TrailingSlash;
use crate::site::split::ChunkSizing;
use std::path::PathBuf;

/// Values the command line may set; each one wins over the site's config.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// Use this config file instead of searching for `docusaurus.config.*`.
    pub config_file: Option<PathBuf>,
    /// The site's `baseUrl` (e.g. `/my-project/`).
    pub base_url: Option<String>,
    /// The site's `trailingSlash`.
    pub trailing_slash: Option<TrailingSlash>,
    /// The docs folder of the `default` docs instance (or the first one),
    /// relative to the site folder unless absolute.
    pub docs_path: Option<PathBuf>,
    /// The `routeBasePath` of that instance (`docs`, `/`, …).
    pub route_base_path: Option<String>,
    /// Index only these versions (`current`, `2.0`, …); URLs are unaffected.
    pub versions: Option<Vec<String>>,
    /// Read this locale (its translated docs, its URLs under `<baseUrl><locale>/`) instead
    /// of the default one.
    pub locale: Option<String>,
    /// The URL prefix of that locale's pages when it is not `<baseUrl><locale>/`: what
    /// Docusaurus computed for it (`i18n.localeConfigs[locale].baseUrl`, which a site may set),
    /// as docusaurus-plugin-lectern passes it.
    pub locale_base_url: Option<String>,
    /// Do not run Node on the config; read plain settings from its text.
    pub skip_node: bool,
    /// The config as docusaurus-plugin-lectern summarised it from what Docusaurus loaded
    /// (a JSON file); then the config file is not evaluated.
    pub site_config: Option<PathBuf>,
    /// The Node binary (default: `node` on `PATH`).
    pub node_binary: Option<PathBuf>,
    /// Chunk size limits (default: 100–2000 characters).
    pub chunk_sizing: ChunkSizing,
}
