//! Errors that stop a site from being read at all. A single broken page is
//! not one of them: it is skipped and listed in the report.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum SiteError {
    #[error("site folder {} does not exist or is not a folder", path.display())]
    SiteRootNotFound { path: PathBuf },

    #[error("config file {} does not exist", path.display())]
    ConfigNotFound { path: PathBuf },

    #[error(
        "cannot read the site config summary {} (written by docusaurus-plugin-lectern for --site-config): {reason}",
        path.display()
    )]
    SiteConfigUnreadable { path: PathBuf, reason: String },
    #[error("cannot read config file {}: {source}", path.display())]
    ConfigUnreadable {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("{0}")]
    UnknownLocale(String),

    #[error("the site has no docs: the Docusaurus config disables the docs plugin")]
    NoDocsPlugin,

    #[error(
        "docs folder {} of docs instance \"{instance}\" (version \"{version}\") does not exist; \
         pass the docs path as an override if the config points elsewhere",
        path.display()
    )]
    NoDocsFolder { instance: String, version: String, path: PathBuf },

    #[error("cannot read {}: {message}", path.display())]
    VersionsFileInvalid { path: PathBuf, message: String },

    #[error("docs instance \"{instance}\": {message}")]
    InvalidDocsOptions { instance: String, message: String },

    #[error("cannot list docs folder {}: {source}", path.display())]
    DocsFolderUnreadable {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}
