//! Writes what JS reads of the wasm boundary into a folder: `lectern-types.d.ts` (the
//! TypeScript declarations of everything that crosses), `error-codes.js` and `contract.js`
//! (what the page and a proxy agree on), all generated from the Rust types
//! (src/wasm/typescript.rs); with `--proxy FILE`, the same contract as the reference proxy's
//! `core-contract.mjs`. scripts/build-pkg.sh
//! runs it for pkg/ and proxy/cloudflare-worker/src/core-contract.mjs.
//!
//!   cargo run --release -p lectern --no-default-features --features search --example typescript -- pkg \
//!     [--proxy proxy/cloudflare-worker/src/core-contract.mjs]

use lectern::wasm::typescript::{declarations, error_codes_js, proxy_contract_js, CONTRACT_FILE, DECLARATIONS_FILE};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: typescript <folder> [--proxy <file>]";

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let Some(dir) = args.next().map(PathBuf::from) else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let mut files = vec![
        (dir.join(DECLARATIONS_FILE), declarations()),
        (dir.join("error-codes.js"), error_codes_js()),
        (dir.join(CONTRACT_FILE), proxy_contract_js()),
    ];
    match (args.next(), args.next(), args.next()) {
        (None, _, _) => {}
        (Some(flag), Some(file), None) if flag == "--proxy" => files.push((PathBuf::from(file), proxy_contract_js())),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    }
    for (path, text) in files {
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("typescript: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
