//! Where tract spends an embedding: a per-op profile of `model-int8.onnx`, loaded as
//! `src/embed` loads it (decluttered, batch fixed to 1, sequence symbolic, optimised), natively.
//! Every node is timed through `SimpleState::run_plan_with_eval` in each of RUNS runs; a node
//! counts with its median, and an op type with the sum of its nodes' medians. Three plans:
//! as src/embed builds it; the same with the assertion `sequence >= 1` (without it tract keeps
//! generic broadcasting Mul/Add where a by-scalar kernel would do); and the decluttered plan
//! without `into_optimized`, to show what tract's optimiser buys.
//!
//! `cargo run --release --example profile_ops [-- --json]` (scripts/bench/browser.sh --profile
//! runs it beside onnxruntime's own per-op profile of the same file).

#![cfg_attr(target_arch = "wasm32", allow(dead_code, unused_imports))]

use std::collections::{BTreeMap, HashMap};
use std::time::Instant;
use tract_onnx::prelude::*;
use tract_onnx::tract_core::plan::{eval, SimpleState};

// Native only: the browser's side of this comparison is scripts/bench/browser/.
#[cfg(target_arch = "wasm32")]
fn main() {}

const WARMUP: usize = 10;
const RUNS: usize = 50;

/// The texts every embedding benchmark uses (examples/bench/texts.json).
#[derive(serde::Deserialize)]
struct BenchTexts {
    query: String,
    passage: String,
}

/// Per op type: (nodes, seconds per run: the sum of its nodes' medians).
type Profile = BTreeMap<String, (usize, f64)>;

/// The costliest single nodes: (median seconds per run, op, node name, output fact).
type TopNodes = Vec<(f64, String, String, String)>;

fn inputs_for(model: &TypedModel, ids: &[i64]) -> TractResult<TVec<TValue>> {
    let len = ids.len();
    model
        .input_outlets()?
        .iter()
        .map(|outlet| {
            let values: Vec<i64> = match model.node(outlet.node).name.as_str() {
                "input_ids" => ids.to_vec(),
                "attention_mask" => vec![1; len],
                "token_type_ids" => vec![0; len],
                other => return Err(TractError::msg(format!("unexpected model input {other}"))),
            };
            Ok(Tensor::from_shape(&[1, len], &values)?.into_tvalue())
        })
        .collect()
}

/// Runs `plan` WARMUP + RUNS times; returns the median whole-run time (ms, no instrumentation)
/// and the per-op profile of RUNS instrumented runs.
fn profile(plan: &Arc<TypedRunnableModel>, ids: &[i64]) -> TractResult<(f64, Profile, usize, TopNodes)> {
    let feeds = inputs_for(plan.model(), ids)?;
    let mut times = Vec::with_capacity(RUNS);
    for i in 0..WARMUP + RUNS {
        let start = Instant::now();
        std::hint::black_box(plan.run(feeds.clone())?);
        if i >= WARMUP {
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    times.sort_by(f64::total_cmp);
    let median = times[RUNS / 2];

    // Per node, its time in each run; the median run stands for the node, so a preemption
    // (this machine is shared) lands on no op in particular.
    let mut samples = vec![Vec::with_capacity(RUNS); plan.model().nodes().len()];
    let mut state = SimpleState::new(plan)?;
    for _ in 0..RUNS {
        state.run_plan_with_eval(feeds.clone(), |ctx, op_state, node, inputs| {
            let start = Instant::now();
            let out = eval(ctx, op_state, node, inputs);
            samples[node.id].push(start.elapsed().as_secs_f64());
            out
        })?;
    }
    let per_node: Vec<f64> = samples
        .iter_mut()
        .map(|s| {
            s.sort_by(f64::total_cmp);
            s.get(s.len() / 2).copied().unwrap_or(0.0)
        })
        .collect();
    let mut by_op = Profile::new();
    let mut evaluated = 0;
    for node in plan.model().nodes() {
        if per_node[node.id] > 0.0 {
            evaluated += 1;
        }
        let entry = by_op.entry(node.op().name().to_string()).or_default();
        entry.0 += 1;
        entry.1 += per_node[node.id];
    }
    let mut top: TopNodes = plan
        .model()
        .nodes()
        .iter()
        .map(|n| {
            let fact = n.outputs.first().map(|o| format!("{:?}", o.fact)).unwrap_or_default();
            (per_node[n.id], n.op().name().to_string(), n.name.clone(), fact)
        })
        .collect();
    top.sort_by(|a, b| b.0.total_cmp(&a.0));
    top.truncate(12);
    Ok((median, by_op, evaluated, top))
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    use lectern::embed::{ModelFiles, ModelVariant, WordPieceTokenizer, MAX_TOKENS};

    let json = std::env::args().any(|a| a == "--json");
    let texts: BenchTexts = serde_json::from_str(include_str!("bench/texts.json"))?;
    let files = ModelFiles::in_dir(&ModelFiles::default_dir(), ModelVariant::Int8);
    let (onnx, tokenizer_json) = files.read()?;
    let tokenizer = WordPieceTokenizer::from_json(&tokenizer_json)?;
    let ids = |text: &str| -> Result<Vec<i64>, Box<dyn std::error::Error>> {
        Ok(tokenizer.encode(text, MAX_TOKENS).into_iter().map(i64::from).collect())
    };

    // As src/embed does it.
    let model = tract_onnx::onnx().model_for_read(&mut &onnx[..])?.into_typed()?.into_decluttered()?;
    let sequence = model.input_fact(0)?.shape[1].clone();
    let single = match model.input_fact(0)?.shape[0].clone() {
        TDim::Sym(batch) => model.set_symbols(&HashMap::from([(batch, TDim::Val(1))]))?,
        _ => model,
    };
    let start = Instant::now();
    let optimised = single.clone().into_optimized()?.into_runnable()?;
    let optimise_ms = start.elapsed().as_secs_f64() * 1e3;
    // The same, told that a text has at least one token: with a symbolic length tract cannot
    // prove `sequence * 1536 > 32`, so it keeps broadcasting Mul/Add for the by-scalar ones.
    let asserted = single.clone();
    if let TDim::Sym(s) = &sequence {
        asserted.symbols.add_assertion(format!("{s}>=1"))?;
    }
    let asserted = asserted.into_optimized()?.into_runnable()?;
    let plans = [
        ("optimised (as src/embed)", optimised),
        ("optimised, sequence >= 1 asserted", asserted),
        ("decluttered only (no into_optimized)", single.into_runnable()?),
    ];

    let mut report = serde_json::Map::new();
    for (label, text) in [("query", &texts.query), ("passage", &texts.passage)] {
        let ids = ids(text)?;
        let mut variants = serde_json::Map::new();
        if !json {
            println!("\n== {label} ({} tokens)", ids.len());
        }
        for (i, (name, plan)) in plans.iter().enumerate() {
            let (median_ms, by_op, nodes, top) = profile(plan, &ids)?;
            let total: f64 = by_op.values().map(|v| v.1).sum();
            let mut rows: Vec<_> = by_op.iter().filter(|(_, v)| v.1 > 0.0).collect();
            rows.sort_by(|a, b| b.1 .1.total_cmp(&a.1 .1));
            let ops: Vec<_> = rows
                .into_iter()
                .map(|(op, (n, s))| serde_json::json!({ "op": op, "nodes": n, "ms": s * 1e3, "share": s / total }))
                .collect();
            if !json {
                println!("{name}: {median_ms:.2} ms median; {nodes} nodes; per op type, ms per run (share):");
                for row in ops.iter().take(if i < 2 { 12 } else { 0 }) {
                    println!(
                        "    {:<28} {:>3} nodes {:>8.3} ms {:>5.1}%",
                        row["op"].as_str().unwrap_or(""),
                        row["nodes"],
                        row["ms"].as_f64().unwrap_or(0.0),
                        row["share"].as_f64().unwrap_or(0.0) * 100.0
                    );
                }
                if i == 0 {
                    println!("  costliest nodes, ms per run:");
                    for (secs, op, name, fact) in &top {
                        println!("    {:>8.3} ms  {op:<22} {name}  -> {fact}", secs * 1e3);
                    }
                }
            }
            variants
                .insert(name.to_string(), serde_json::json!({ "median_ms": median_ms, "nodes": nodes, "ops": ops }));
        }
        report.insert(label.into(), serde_json::json!({ "tokens": ids.len(), "plans": variants }));
    }
    report.insert("optimise_ms".into(), optimise_ms.into());
    if json {
        println!("{}", serde_json::Value::Object(report));
    } else {
        println!("\n(into_optimized took {optimise_ms:.0} ms)");
    }
    Ok(())
}
