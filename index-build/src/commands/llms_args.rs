//! `lectern build`'s options for the site's text for AI agents (llms.txt, llms-full.txt,
//! Markdown twins), written from the same read of the site as the index.

use crate::llms::{LlmsOptions, LlmsVersions, SidebarsFileError, SiteSidebars};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct LlmsArgs {
    /// Also write the site's text for AI agents into this folder, laid out as the site serves
    /// it under its baseUrl: llms.txt, llms-full.txt and a Markdown twin of every docs page
    /// (`<page URL>.md`, or `index.html.md` after a trailing slash). Replaced as a whole.
    #[arg(long, value_name = "DIR")]
    pub llms_out: Option<PathBuf>,
    /// Do not write llms.txt.
    #[arg(long, requires = "llms_out")]
    pub no_llms_txt: bool,
    /// Do not write llms-full.txt.
    #[arg(long, requires = "llms_out")]
    pub no_llms_full_txt: bool,
    /// Do not write the pages' Markdown twins (llms.txt then links the pages themselves).
    #[arg(long, requires = "llms_out")]
    pub no_markdown_twins: bool,
    /// Which docs versions llms.txt and llms-full.txt list: each docs instance's last version
    /// (the one served at its root), or all. Twins are written for every version.
    #[arg(long, value_enum, default_value_t = VersionsArg::Last, requires = "llms_out")]
    pub llms_versions: VersionsArg,
    /// The sidebars as Docusaurus loaded them, which llms.txt groups and orders its links by:
    /// a JSON file `{"<docs instance id>": {"<version>": <the docs plugin's sidebars>}}`, as
    /// docusaurus-plugin-lectern writes it. Without it, only JSON sidebars are read (a
    /// sidebars.js cannot be without Docusaurus) and other pages go under their folder.
    #[arg(long, value_name = "FILE", requires = "llms_out")]
    pub llms_sidebars: Option<PathBuf>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum VersionsArg {
    Last,
    All,
}

impl LlmsArgs {
    /// Where to write and what, when asked to.
    pub fn requested(&self) -> Result<Option<(PathBuf, LlmsOptions)>, SidebarsFileError> {
        let Some(dir) = self.llms_out.clone() else {
            return Ok(None);
        };
        let options = LlmsOptions {
            llms_txt: !self.no_llms_txt,
            llms_full_txt: !self.no_llms_full_txt,
            markdown_twins: !self.no_markdown_twins,
            versions: match self.llms_versions {
                VersionsArg::Last => LlmsVersions::Last,
                VersionsArg::All => LlmsVersions::All,
            },
            sidebars: self.llms_sidebars.as_deref().map(SiteSidebars::read).transpose()?,
        };
        Ok(Some((dir, options)))
    }
}
