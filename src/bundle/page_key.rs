//! Which page a URL is: the one rule by which a chunk's permalink and the address the reader
//! is on are compared (the page the reader asks from, `SearchOptions::page`). Chunk URLs are
//! permalinks with `baseUrl` and `#anchor`; the browser's address may carry an origin, a
//! query, an anchor, a trailing slash (`trailingSlash`, or a static host adding one) or
//! `index.html`. The chunk table stores a 32-bit key of each page's path rather than the
//! path, so that it stays small on a site of thousands of pages.

/// The page path of `url`: without origin, query and anchor, percent-encoding of
/// non-ASCII resolved as the permalinks have it, without `index.html` and trailing slashes
/// (`/` for the site root).
pub fn page_path(url: &str) -> String {
    let url = url.trim();
    // An absolute URL: the path after the origin.
    let path = match url.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("/", |at| &rest[at..]),
        None => url,
    };
    let path = path.split(['#', '?']).next().unwrap_or_default();
    let path = decode_percent(path);
    let path = path.strip_suffix("index.html").unwrap_or(&path);
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        "/".to_string()
    } else if trimmed.starts_with('/') {
        trimmed.to_string()
    } else {
        format!("/{trimmed}")
    }
}

/// The key of the page at `url` (FNV-1a of its [`page_path`]).
pub fn page_key(url: &str) -> u32 {
    page_path(url).bytes().fold(0x811c_9dc5u32, |hash, b| (hash ^ u32::from(b)).wrapping_mul(0x0100_0193))
}

/// `%XX` escapes decoded when they make valid UTF-8 (the browser's `location.pathname`
/// encodes what a permalink may hold literally, e.g. `/docs/café`); else left as they are.
fn decode_percent(path: &str) -> String {
    if !path.contains('%') {
        return path.to_string();
    }
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1).copied().and_then(hex), bytes.get(i + 2).copied().and_then(hex)) {
            (b'%', Some(hi), Some(lo)) => {
                out.push((hi * 16 + lo) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| path.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunk_url_and_the_readers_address_name_the_same_page() {
        let chunk = "/docs/sensors/lidar#range";
        for address in [
            "/docs/sensors/lidar",
            "/docs/sensors/lidar/",
            "https://example.com/docs/sensors/lidar?ask=x#top",
            "http://localhost:3000/docs/sensors/lidar/index.html",
            " /docs/sensors/lidar#other ",
        ] {
            assert_eq!(page_key(address), page_key(chunk), "{address}");
        }
        assert_ne!(page_key("/docs/sensors/lidar-2"), page_key(chunk));
        assert_ne!(page_key("/docs/sensors"), page_key(chunk));
    }

    #[test]
    fn paths_are_decoded_and_rooted() {
        assert_eq!(page_path("/docs/caf%C3%A9#x"), "/docs/café");
        assert_eq!(page_path("/docs/100%"), "/docs/100%", "not an escape: kept");
        assert_eq!(page_path("https://example.com"), "/");
        assert_eq!(page_path("/"), "/");
        assert_eq!(page_path("docs/intro"), "/docs/intro");
    }
}
