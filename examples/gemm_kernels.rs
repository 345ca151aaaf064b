//! The f32 matrix-multiply kernels tract can run in wasm, timed side by side in V8 on
//! MiniLM's matrix shapes: tract-linalg's own `wasm_f32_8x8` (and `wasm_f32_4x16`) against
//! Lectern's `lectern_wasm_f32_4x8` (src/embed/wasm_gemm.rs). Kernels take turns on each
//! shape, 7 rounds, fastest round counts; every kernel's product is checked against the
//! first's. Built for wasm32-wasip1 and run by Node (the V8 of Chromium):
//! `scripts/bench/gemm-kernels.sh [KERNEL...]`.

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn main() {
    eprintln!("gemm_kernels runs on wasm32 with simd128 only: scripts/bench/gemm-kernels.sh");
    std::process::exit(2);
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn main() {
    use std::time::Instant;
    use tract_onnx::prelude::*;
    use tract_onnx::tract_core::tract_linalg::mmm::{AsInputValue, FusedSpec, MMMInputValue, MatMatMul};
    use tract_onnx::tract_core::tract_linalg::MmmDispatch;

    struct Case {
        pa: Box<dyn MMMInputValue>,
        pb: Box<dyn MMMInputValue>,
        c: Tensor,
    }

    fn prepare(kernel: &dyn MatMatMul, m: usize, k: usize, n: usize) -> TractResult<Case> {
        let (pack_a, pack_b) = &kernel.packings()[0];
        let a = Tensor::from_shape(&[m, k], &(0..m * k).map(|i| (i * 7 % 13) as f32 * 0.01).collect::<Vec<_>>())?;
        let b = Tensor::from_shape(&[k, n], &(0..k * n).map(|i| (i * 5 % 11) as f32 * 0.01).collect::<Vec<_>>())?;
        Ok(Case {
            pa: pack_a.prepare_one(&a, 1, 0)?,
            pb: pack_b.prepare_one(&b, 0, 1)?,
            c: Tensor::zero::<f32>(&[m, n])?,
        })
    }

    fn run(kernel: &dyn MatMatMul, case: &mut Case, m: usize, n: usize) -> TractResult<()> {
        // SAFETY: the packed operands and the store view are made for this kernel and shape.
        unsafe {
            let store = kernel.c_view(Some(0), Some(1)).wrap(&case.c.view_mut());
            let a = AsInputValue::Borrowed(&*case.pa);
            let b = AsInputValue::Borrowed(&*case.pb);
            kernel.run(m, n, &[FusedSpec::AddMatMul { a, b, packing: 0 }, FusedSpec::Store(store)])
        }
    }

    fn product(case: &Case) -> TractResult<Vec<f32>> {
        Ok(case.c.try_as_plain_ram()?.as_slice::<f32>()?.to_vec())
    }

    let lectern = lectern::embed::wasm_gemm_kernel();
    let mut names: Vec<String> = std::env::args().skip(1).collect();
    if names.is_empty() {
        names = vec!["wasm_f32_8x8".into(), "wasm_f32_4x16".into(), lectern.into()];
    }
    let runnable = MmmDispatch::native().runnable();
    let kernels: Vec<&dyn MatMatMul> = names
        .iter()
        .map(|name| {
            runnable.iter().find(|k| k.name() == name).map(|k| &**k).unwrap_or_else(|| {
                let known: Vec<_> = runnable.iter().map(|k| k.name()).collect();
                eprintln!("no kernel {name}; runnable: {known:?}");
                std::process::exit(2)
            })
        })
        .collect();

    // (what, m, k, n): m output rows (the weights' out features), n the tokens, and the
    // transposed layout; a 12-word-piece query and a 256-word-piece passage; one head's
    // attention products.
    let shapes = [
        ("q/k/v/out, query", 384, 384, 12),
        ("ffn up, query", 1536, 384, 12),
        ("ffn down, query", 384, 1536, 12),
        ("q/k/v/out, query, transposed", 12, 384, 384),
        ("ffn up, query, transposed", 12, 384, 1536),
        ("q/k/v/out, passage", 384, 384, 256),
        ("ffn up, passage", 1536, 384, 256),
        ("ffn down, passage", 384, 1536, 256),
        ("q/k/v/out, passage, transposed", 256, 384, 384),
        ("ffn up, passage, transposed", 256, 384, 1536),
        ("attention QK, passage", 256, 32, 256),
        ("attention AV, passage", 256, 256, 32),
    ];
    print!("| shape | m k n |");
    for name in &names {
        print!(" {name} µs |");
    }
    for name in names.iter().skip(1) {
        print!(" {name} / {} |", names[0]);
    }
    println!();
    println!("|---|---|{}{}", "---|".repeat(names.len()), "---|".repeat(names.len() - 1));
    let mut totals = vec![0f64; kernels.len()];
    for (what, m, k, n) in shapes {
        let iters = ((2e8 / (2.0 * (m * k * n) as f64)) as usize).clamp(3, 2000);
        let mut cases = kernels
            .iter()
            .map(|kernel| prepare(*kernel, m, k, n))
            .collect::<TractResult<Vec<_>>>()
            .unwrap_or_else(|e| panic!("{e:#}"));
        let mut reference = None;
        for (kernel, case) in kernels.iter().zip(cases.iter_mut()) {
            run(*kernel, case, m, n).unwrap_or_else(|e| panic!("{e:#}"));
            let got = product(case).unwrap_or_else(|e| panic!("{e:#}"));
            let want = reference.get_or_insert_with(|| got.clone());
            let diff = want.iter().zip(&got).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max);
            assert!(diff < 1e-3, "{} differs from {} by {diff} on {what}", kernel.name(), names[0]);
        }
        let mut best = vec![f64::MAX; kernels.len()];
        for _round in 0..7 {
            for (i, (kernel, case)) in kernels.iter().zip(cases.iter_mut()).enumerate() {
                for _ in 0..iters.min(20) {
                    run(*kernel, case, m, n).unwrap_or_else(|e| panic!("{e:#}"));
                }
                let start = Instant::now();
                for _ in 0..iters {
                    run(*kernel, case, m, n).unwrap_or_else(|e| panic!("{e:#}"));
                }
                best[i] = best[i].min(start.elapsed().as_secs_f64() / iters as f64 * 1e6);
            }
        }
        print!("| {what} | {m} {k} {n} |");
        for b in &best {
            print!(" {b:.1} |");
        }
        for b in best.iter().skip(1) {
            print!(" {:.2}x |", b / best[0]);
        }
        println!();
        for (t, b) in totals.iter_mut().zip(&best) {
            *t += b;
        }
    }
    print!("| **all twelve** | |");
    for t in &totals {
        print!(" {t:.0} |");
    }
    for t in totals.iter().skip(1) {
        print!(" **{:.2}x** |", t / totals[0]);
    }
    println!();
}
