//! Fetching test assets in the browser from the server scripts/test.sh runs.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Base URL of the test asset server, fixed when the tests are compiled.
pub const ASSETS: &str = match option_env!("LECTERN_TEST_ASSETS") {
    Some(url) => url,
    None => "http://127.0.0.1:8719",
};

/// GETs `ASSETS/name`; panics with the URL on failure (a test-setup problem).
pub async fn fetch_bytes(name: &str) -> Vec<u8> {
    let url = format!("{ASSETS}/{name}");
    let window = web_sys::window().expect("tests run in a browser window");
    let response = JsFuture::from(window.fetch_with_str(&url))
        .await
        .unwrap_or_else(|e| panic!("fetch {url} failed ({e:?}); is scripts/test.sh's asset server running?"));
    let response: web_sys::Response = response.dyn_into().expect("a Response");
    assert!(response.ok(), "GET {url}: HTTP {}", response.status());
    let buffer = JsFuture::from(response.array_buffer().expect("body")).await.expect("body read");
    js_sys::Uint8Array::new(&buffer).to_vec()
}
