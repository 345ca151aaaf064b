//! Evaluating a site's Docusaurus config with Node: the plugin's summary code and our
//! evaluator (node_config.js, which stubs what the config imports but the checkout lacks)
//! run on the config file, and print its summary as JSON after a marker.

use serde_json::Value;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The JavaScript that evaluates a config in Node: the summary (shared with the Docusaurus
/// plugin, which passes the config it has loaded) and the evaluator; see their headers.
const NODE_EVALUATOR: &str = concat!(
    include_str!("../../../../www/docusaurus-plugin-lectern/src/config-summary.js"),
    "\n",
    include_str!("node_config.js")
);
/// What precedes the evaluator's JSON on its output (passed to it in LECTERN_RESULT_MARKER).
const RESULT_MARKER: &str = "__LECTERN_CONFIG__";
/// How long a config may take to evaluate before Lectern gives up on Node.
const NODE_TIMEOUT: Duration = Duration::from_secs(60);

/// Runs the evaluator on `file` and returns its JSON summary of the config, or why it could
/// not.
pub fn evaluate_with_node(file: &Path, site_dir: &Path, node: &Path) -> Result<Value, String> {
    let absolute = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
    let mut child = Command::new(node)
        .arg("-e")
        .arg(NODE_EVALUATOR)
        .env("LECTERN_CONFIG_FILE", &absolute)
        .env("LECTERN_RESULT_MARKER", RESULT_MARKER)
        .current_dir(site_dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| format!("could not run {}: {error}", node.display()))?;

    // Read both pipes on threads so a chatty config cannot block on a full pipe.
    let stdout = child.stdout.take().map(read_in_background);
    let stderr = child.stderr.take().map(read_in_background);
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() > NODE_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("evaluating the config took more than {} s", NODE_TIMEOUT.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(error) => return Err(format!("waiting for node failed: {error}")),
        }
    };
    let stdout = stdout.and_then(|handle| handle.join().ok()).unwrap_or_default();
    let stderr = stderr.and_then(|handle| handle.join().ok()).unwrap_or_default();
    let Some(json) = stdout.lines().rev().find_map(|line| line.strip_prefix(RESULT_MARKER)) else {
        let detail = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("no output");
        return Err(format!("node exited with {status}: {detail}"));
    };
    let value: Value = serde_json::from_str(json).map_err(|error| format!("unreadable evaluator output: {error}"))?;
    if value.get("ok").and_then(Value::as_bool) == Some(true) {
        Ok(value)
    } else {
        let error = value.get("error").and_then(Value::as_str).unwrap_or("unknown error");
        Err(format!("the config threw: {error}"))
    }
}

fn read_in_background<R: Read + Send + 'static>(mut pipe: R) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}
