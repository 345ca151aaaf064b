//! llms-full.txt: the site's title and tagline, then the text of every page llms.txt lists,
//! in its order, each as its Markdown twin reads with `Source: <the page's URL>` under its title.

use super::page_text::page_markdown;
use super::sections::LinkSection;
use super::twin::absolute_url;
use super::Header;

pub fn llms_full_txt(header: &Header, sections: &[LinkSection<'_>]) -> String {
    let mut out = header.render();
    let pages = sections.iter().flat_map(|s| s.pages.iter());
    let texts: Vec<String> = pages
        .map(|p| page_markdown(p.page, p.chunks, Some(&absolute_url(header.site_url.as_deref(), &p.page.url))))
        .collect();
    out.push_str(&texts.join("\n"));
    out
}
