//! Writes what JS reads of the wasm boundary into a folder: `lectern-types.d.ts` (the
//! TypeScript declarations of everything that crosses) and `error-codes.js`, both generated
//! from the Rust types (src/wasm/typescript.rs). scripts/build-pkg.sh runs it for pkg/.
//!
//!   cargo run --release -p lectern --no-default-features --features search --example typescript -- pkg

use lectern::wasm::typescript::{declarations, error_codes_js, DECLARATIONS_FILE};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(dir) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: typescript <folder>");
        return ExitCode::from(2);
    };
    for (name, text) in [(DECLARATIONS_FILE, declarations()), ("error-codes.js", error_codes_js())] {
        let path = dir.join(name);
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("typescript: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
