//! Command-line options shared by the commands that read a site; each overrides what the
//! site's docusaurus.config says.

use crate::site::{Overrides, SiteReport, TrailingSlash};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct SiteArgs {
    /// The Docusaurus site folder (with docusaurus.config.*), or a repository containing it.
    pub site_root: PathBuf,
    /// Use this config file instead of searching for docusaurus.config.*.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// The site's baseUrl, e.g. /my-project/.
    #[arg(long)]
    pub base_url: Option<String>,
    /// The site's trailingSlash setting.
    #[arg(long)]
    pub trailing_slash: Option<bool>,
    /// The docs folder (relative to the site folder) of the default docs instance.
    #[arg(long)]
    pub docs_path: Option<PathBuf>,
    /// The routeBasePath of the default docs instance (docs, /, …).
    #[arg(long)]
    pub route_base_path: Option<String>,
    /// Index only these versions (comma-separated: current,2.0,…).
    #[arg(long, value_delimiter = ',')]
    pub versions: Option<Vec<String>>,
    /// Read this locale of an i18n site (its translated docs, its URLs under
    /// `<baseUrl><locale>/`) instead of the default one.
    #[arg(long)]
    pub locale: Option<String>,
    /// With --locale: the URL prefix of its pages when it is not `<baseUrl><locale>/` (the
    /// `baseUrl` Docusaurus builds that locale under, as docusaurus-plugin-lectern passes it).
    #[arg(long, requires = "locale")]
    pub locale_base_url: Option<String>,
    /// Do not run Node on the config; read plain settings from its text.
    #[arg(long)]
    pub no_node: bool,
    /// The site's config as JSON, summarised by docusaurus-plugin-lectern from the config
    /// Docusaurus has loaded (its config-summary.js); the config file is then not evaluated.
    #[arg(long, value_name = "FILE")]
    pub site_config: Option<PathBuf>,
}

impl SiteArgs {
    fn overrides(&self) -> Overrides {
        Overrides {
            config_file: self.config.clone(),
            base_url: self.base_url.clone(),
            trailing_slash: self.trailing_slash.map(|v| TrailingSlash::from_option(Some(v))),
            docs_path: self.docs_path.clone(),
            route_base_path: self.route_base_path.clone(),
            versions: self.versions.clone(),
            locale: self.locale.clone(),
            locale_base_url: self.locale_base_url.clone(),
            skip_node: self.no_node,
            site_config: self.site_config.clone(),
            ..Overrides::default()
        }
    }

    /// Reads the site, with errors that name the site folder.
    pub fn read(&self) -> Result<SiteReport, Box<dyn std::error::Error>> {
        Ok(crate::site::read_site(&self.site_root, &self.overrides())?)
    }

    /// Reads the site in `locale`, the other options as given.
    pub fn read_locale(&self, locale: &str) -> Result<SiteReport, Box<dyn std::error::Error>> {
        let overrides = Overrides { locale: Some(locale.to_string()), ..self.overrides() };
        Ok(crate::site::read_site(&self.site_root, &overrides)?)
    }
}

/// The human summary `chunks` and `build` print to stderr: counts, then every skipped
/// file or section with its reason, then notes.
pub fn print_summary(report: &SiteReport) {
    let chars: usize = report.chunks.iter().map(|c| c.chars).sum();
    eprintln!(
        "{}: {} pages, {} chunks, {} characters, {} skipped",
        report.site_dir.display(),
        report.pages.len(),
        report.chunks.len(),
        chars,
        report.skipped.len()
    );
    for skip in &report.skipped {
        let line = skip.line.map(|l| format!(":{l}")).unwrap_or_default();
        eprintln!("  skipped {}{line} ({:?}): {}", skip.file.display(), skip.kind, skip.reason);
    }
    for note in &report.notes {
        eprintln!("  note: {note}");
    }
}
