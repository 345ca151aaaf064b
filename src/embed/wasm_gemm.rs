//! A 4×8 f32 matrix-multiply kernel for tract on wasm simd128, registered ahead of
//! tract-linalg's own 8×8 for every f32 GEMM (not GEMV): in V8 it is 1.5–2.8× faster on
//! MiniLM's shapes (BENCHMARKS.md, "A 4x8 GEMM kernel for wasm").
//!
//! Why: tract's `wasm_f32_8x8` keeps 16 v128 accumulators and its A and B operands live at
//! once, more than the 16 vector registers V8 has on x86-64 (15 allocatable), so every
//! k-step spills; 86–90 % of an embedding's time is in that kernel. Eight accumulators + one
//! A vector + two B vectors + a broadcast fit. The same tile shape as XNNPACK's wasm simd
//! `f32_gemm_4x8` kernels. It plugs in through tract-linalg's public registries (`MmmRoutine`
//! for the kernel, a boost over tract's wasm kernels and an `MmmTier` one precedence above
//! tract's wasm tier for the dispatch), so no patched crate is needed; to be offered upstream
//! as a change to tract-linalg's wasm tree.
//!
//! The fused operations mirror tract-linalg 0.23.9's `kernel_f32_8x8` arm for arm (same
//! operand order, unfused multiply-add as in a build without relaxed-simd), and the kernel
//! passes tract-linalg's own kernel test suite (`test_mmm_kernel_f32!`: packed, frame, fuse
//! and store tests, 59 of them) when compiled inside tract-linalg for wasm32-wasip1.

use std::arch::wasm32::*;
use std::sync::LazyLock;

use tract_onnx::prelude::DatumType;
use tract_onnx::tract_core::internal::inventory;
use tract_onnx::tract_core::tract_linalg::isa::{Arch, IsaSet};
use tract_onnx::tract_core::tract_linalg::mmm::{DynKernel, FusedKerSpec, Query, Suitable};
use tract_onnx::tract_core::tract_linalg::mmm_routines::MmmRoutine;
use tract_onnx::tract_core::tract_linalg::mmm_tiers::MmmTier;
use tract_onnx::tract_core::tract_linalg::pack::Packing;
use tract_onnx::tract_core::tract_linalg::Scaler;

/// The kernel's name in tract's registry (and in a plan's kernel report).
const KERNEL_NAME: &str = "lectern_wasm_f32_4x8";

const MR: usize = 4;
const NR: usize = 8;

static KERNEL: LazyLock<DynKernel<MR, NR, f32>> = LazyLock::new(|| {
    let mut kernel = DynKernel::new(KERNEL_NAME, kernel_4x8, f32::packing(MR).align(16), f32::packing(NR).align(16));
    kernel.arch = Some(Arch::Wasm32Simd128);
    // Ranked above tract's own wasm kernels (boost 0): where `n` is symbolic (a sentence's
    // length), tract does not ask the tiers but keeps the best-ranked kernels and picks among
    // them, and without this it would keep its 8x8 for its wider A panel.
    kernel.boost = || 1;
    kernel
});

inventory::submit! {
    MmmRoutine { make: || KERNEL.mmm() }
}

inventory::submit! {
    MmmTier {
        arch: Some(Arch::Wasm32Simd128),
        // tract-linalg's wasm tier is 1; asked first, this one claims only f32 GEMM.
        precedence: 2,
        name: "lectern-wasm-f32-4x8",
        applies: |_| true,
        preferred,
    }
}

fn preferred(_isa: &IsaSet, accumulator: DatumType, query: &Query, _suitable: &[Suitable]) -> Option<&'static str> {
    match (accumulator, query.n) {
        // Matrix-vector products keep tract's GEMV kernels.
        (DatumType::F32, Some(1)) => None,
        (DatumType::F32, _) => Some(KERNEL_NAME),
        _ => None,
    }
}

/// Keeps the registrations linked: wasm-ld drops an object file that nothing references,
/// its inventory entries with it (tract-linalg does the same for its own wasm kernels).
pub(crate) fn register() {
    std::hint::black_box(kernel_4x8 as *const ());
}

/// The kernel's name in tract's registry, with the kernel linked in (for benches and tests).
pub fn kernel_name() -> &'static str {
    register();
    KERNEL_NAME
}

/// Accumulators: `acc[2 * r]` holds row r's columns 0–3, `acc[2 * r + 1]` columns 4–7.
type Tile = [v128; 2 * MR];

/// # Safety
/// Called by tract with a `Done`-terminated list whose pointers are valid for a 4×8 tile, as
/// for tract's own kernels.
unsafe fn kernel_4x8(specs: &[FusedKerSpec<f32>]) -> isize {
    let mut acc: Tile = [f32x4_splat(0.0); 2 * MR];
    for spec in specs {
        // SAFETY: tract guarantees the pointers in each spec cover the tile (see above).
        unsafe {
            match *spec {
                FusedKerSpec::Done => break,
                FusedKerSpec::Clear => acc = [f32x4_splat(0.0); 2 * MR],
                FusedKerSpec::LoadTile(_cols, rows) => {
                    let p = rows as *const v128;
                    for (i, a) in acc.iter_mut().enumerate() {
                        *a = v128_load(p.add(i));
                    }
                }
                FusedKerSpec::ScalarMin(s) => each(&mut acc, |a| f32x4_min(f32x4_splat(s), a)),
                FusedKerSpec::ScalarMax(s) => each(&mut acc, |a| f32x4_max(f32x4_splat(s), a)),
                FusedKerSpec::ScalarAdd(s) => each(&mut acc, |a| f32x4_add(f32x4_splat(s), a)),
                FusedKerSpec::ScalarMul(s) => each(&mut acc, |a| f32x4_mul(f32x4_splat(s), a)),
                FusedKerSpec::ScalarSub(s) => each(&mut acc, |a| f32x4_sub(f32x4_splat(s), a)),
                FusedKerSpec::ScalarSubF(s) => each(&mut acc, |a| f32x4_sub(a, f32x4_splat(s))),
                FusedKerSpec::LeakyRelu(alpha) => each(&mut acc, |a| {
                    v128_bitselect(a, f32x4_mul(f32x4_splat(alpha), a), f32x4_gt(a, f32x4_splat(0.0)))
                }),
                FusedKerSpec::PerRowMin(row) => per_row(&mut acc, row, |s, a| f32x4_min(s, a)),
                FusedKerSpec::PerRowMax(row) => per_row(&mut acc, row, |s, a| f32x4_max(s, a)),
                FusedKerSpec::PerRowAdd(row) => per_row(&mut acc, row, |s, a| f32x4_add(s, a)),
                FusedKerSpec::PerRowMul(row) => per_row(&mut acc, row, |s, a| f32x4_mul(s, a)),
                FusedKerSpec::PerRowSub(row) => per_row(&mut acc, row, |s, a| f32x4_sub(s, a)),
                FusedKerSpec::PerRowSubF(row) => per_row(&mut acc, row, |s, a| f32x4_sub(a, s)),
                FusedKerSpec::PerColMin(cols) => per_col(&mut acc, cols, |c, a| f32x4_min(c, a)),
                FusedKerSpec::PerColMax(cols) => per_col(&mut acc, cols, |c, a| f32x4_max(c, a)),
                FusedKerSpec::PerColAdd(cols) => per_col(&mut acc, cols, |c, a| f32x4_add(c, a)),
                FusedKerSpec::PerColMul(cols) => per_col(&mut acc, cols, |c, a| f32x4_mul(c, a)),
                FusedKerSpec::PerColSub(cols) => per_col(&mut acc, cols, |c, a| f32x4_sub(c, a)),
                FusedKerSpec::PerColSubF(cols) => per_col(&mut acc, cols, |c, a| f32x4_sub(a, c)),
                FusedKerSpec::QScale(shift, policy, mult) => {
                    let scale = f32x4_splat(Scaler::from_fuse_params(shift, policy, mult).scale);
                    each(&mut acc, |a| f32x4_mul(scale, a));
                }
                FusedKerSpec::RoundingShiftRight(shift, _policy) => {
                    let scale = f32x4_splat(2f32.powi(-(shift as i32)));
                    each(&mut acc, |a| f32x4_mul(scale, a));
                }
                FusedKerSpec::ShiftLeft(shift) => {
                    let scale = f32x4_splat(2f32.powi(shift as i32));
                    each(&mut acc, |a| f32x4_mul(scale, a));
                }
                FusedKerSpec::AddUnicast(tile) => {
                    let mut ptr = tile.ptr as *const u8;
                    for row in acc.chunks_exact_mut(2) {
                        let at = |c: isize| *(ptr.offset(tile.col_byte_stride * c) as *const f32);
                        row[0] = f32x4_add(row[0], f32x4(at(0), at(1), at(2), at(3)));
                        row[1] = f32x4_add(row[1], f32x4(at(4), at(5), at(6), at(7)));
                        ptr = ptr.offset(tile.row_byte_stride);
                    }
                }
                FusedKerSpec::AddRowColProducts(rows, cols) => {
                    let c = cols as *const v128;
                    let (clo, chi) = (v128_load(c), v128_load(c.add(1)));
                    for (r, row) in acc.chunks_exact_mut(2).enumerate() {
                        let s = f32x4_splat(*rows.add(r));
                        row[0] = f32x4_add(row[0], f32x4_mul(s, clo));
                        row[1] = f32x4_add(row[1], f32x4_mul(s, chi));
                    }
                }
                FusedKerSpec::Store(tile) => {
                    let mut ptr = tile.ptr;
                    for row in acc.chunks_exact(2) {
                        let at = |c: isize| ptr.offset(tile.col_byte_stride * c) as *mut f32;
                        *at(0) = f32x4_extract_lane::<0>(row[0]);
                        *at(1) = f32x4_extract_lane::<1>(row[0]);
                        *at(2) = f32x4_extract_lane::<2>(row[0]);
                        *at(3) = f32x4_extract_lane::<3>(row[0]);
                        *at(4) = f32x4_extract_lane::<0>(row[1]);
                        *at(5) = f32x4_extract_lane::<1>(row[1]);
                        *at(6) = f32x4_extract_lane::<2>(row[1]);
                        *at(7) = f32x4_extract_lane::<3>(row[1]);
                        ptr = ptr.offset(tile.row_byte_stride);
                    }
                }
                FusedKerSpec::AddMatMul { k, pa, pb, packing: _ } => add_mat_mul(&mut acc, k, pa, pb),
            }
        }
    }
    0
}

/// The hot loop: `acc += A·B` over `k`, A packed [k][4] (one v128 per step, broadcast lane by
/// lane with a shuffle), B packed [k][8] (two v128 per step). Written out with the
/// accumulators in locals so that they stay in registers.
///
/// # Safety
/// `pa` and `pb` hold `k` packed steps.
#[inline(always)]
unsafe fn add_mat_mul(acc: &mut Tile, k: usize, pa: *const u8, pb: *const u8) {
    let [mut a0lo, mut a0hi, mut a1lo, mut a1hi, mut a2lo, mut a2hi, mut a3lo, mut a3hi] = *acc;
    let a = pa as *const v128;
    let b = pb as *const v128;
    for i in 0..k {
        // SAFETY: the caller's packed panels hold k steps.
        let (av, blo, bhi) = unsafe { (v128_load(a.add(i)), v128_load(b.add(2 * i)), v128_load(b.add(2 * i + 1))) };
        let s0 = i32x4_shuffle::<0, 0, 0, 0>(av, av);
        a0lo = f32x4_add(a0lo, f32x4_mul(s0, blo));
        a0hi = f32x4_add(a0hi, f32x4_mul(s0, bhi));
        let s1 = i32x4_shuffle::<1, 1, 1, 1>(av, av);
        a1lo = f32x4_add(a1lo, f32x4_mul(s1, blo));
        a1hi = f32x4_add(a1hi, f32x4_mul(s1, bhi));
        let s2 = i32x4_shuffle::<2, 2, 2, 2>(av, av);
        a2lo = f32x4_add(a2lo, f32x4_mul(s2, blo));
        a2hi = f32x4_add(a2hi, f32x4_mul(s2, bhi));
        let s3 = i32x4_shuffle::<3, 3, 3, 3>(av, av);
        a3lo = f32x4_add(a3lo, f32x4_mul(s3, blo));
        a3hi = f32x4_add(a3hi, f32x4_mul(s3, bhi));
    }
    *acc = [a0lo, a0hi, a1lo, a1hi, a2lo, a2hi, a3lo, a3hi];
}

#[inline(always)]
fn each(acc: &mut Tile, f: impl Fn(v128) -> v128) {
    for a in acc.iter_mut() {
        *a = f(*a);
    }
}

/// `acc = op(splat(row[r]), acc)` for both halves of each row r.
///
/// # Safety
/// `row` holds 4 values.
#[inline(always)]
unsafe fn per_row(acc: &mut Tile, row: *const f32, op: impl Fn(v128, v128) -> v128) {
    for (r, pair) in acc.chunks_exact_mut(2).enumerate() {
        // SAFETY: see above.
        let s = f32x4_splat(unsafe { *row.add(r) });
        pair[0] = op(s, pair[0]);
        pair[1] = op(s, pair[1]);
    }
}

/// `acc = op(cols[0..4], acc)` on low halves and `op(cols[4..8], acc)` on high halves.
///
/// # Safety
/// `cols` holds 8 values.
#[inline(always)]
unsafe fn per_col(acc: &mut Tile, cols: *const f32, op: impl Fn(v128, v128) -> v128) {
    let c = cols as *const v128;
    // SAFETY: see above.
    let (clo, chi) = unsafe { (v128_load(c), v128_load(c.add(1))) };
    for pair in acc.chunks_exact_mut(2) {
        pair[0] = op(clo, pair[0]);
        pair[1] = op(chi, pair[1]);
    }
}
