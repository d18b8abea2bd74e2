//! Four lanes as one WebAssembly `v128`, for `four.rs`: the page's lanes. Compiled only where the
//! build turns `simd128` on (`.cargo/config.toml` does for the page), so the instructions are in
//! the module itself: a browser without them refuses the whole module when it loads it, before any
//! of them could run. WebAssembly has no store past the caches: `put` is a plain store.

// Why this file's `unsafe` is sound: none of its intrinsics is `unsafe` to call where `simd128` is
// compiled in (they are safe functions of `core::arch::wasm32`) except the load, which reads the
// sixteen bytes of a `&[f32; 4]` (`v128_load` asks only that they be readable; it takes any
// alignment).

use super::super::eight;
use super::super::kernel::{F32x4, GroupSkin, Inputs, Lane};
use super::super::portable::Portable;
use core::arch::wasm32::*;
use glam::Vec3A;
use std::ops::{Add, Mul, Sub};

/// The run on these lanes where the way of skinning has a four-lane kernel (`four.rs`), else on the
/// portable eight. With the feature `relaxed-simd`, compiled with its instructions: everything the
/// run calls is inlined here, so only this function holds them, and a build with the feature
/// recompiles this crate and the program, not the crates below them. A browser checks a module's
/// every instruction when it loads it, so where this runs, the browser has them.
#[cfg_attr(feature = "relaxed-simd", target_feature(enable = "relaxed-simd"))]
pub fn run(method: impl GroupSkin, inputs: Inputs, positions: &mut [Vec3A], normals: &mut [Vec3A]) {
    if !method.four_lanes::<Simd128>(inputs, positions, normals) {
        eight::blend_run::<Portable>((), method, inputs, positions, normals)
    }
}

/// Four lanes in one `v128`.
#[derive(Clone, Copy)]
pub struct Simd128(v128);

impl Add for Simd128 {
    type Output = Simd128;
    #[inline(always)]
    fn add(self, b: Simd128) -> Simd128 {
        Simd128(f32x4_add(self.0, b.0))
    }
}

impl Sub for Simd128 {
    type Output = Simd128;
    #[inline(always)]
    fn sub(self, b: Simd128) -> Simd128 {
        Simd128(f32x4_sub(self.0, b.0))
    }
}

impl Mul for Simd128 {
    type Output = Simd128;
    #[inline(always)]
    fn mul(self, b: Simd128) -> Simd128 {
        Simd128(f32x4_mul(self.0, b.0))
    }
}

impl Lane for Simd128 {
    // No fused multiply-add in simd128 itself: `mul_add` and `mul_sub` are the trait's, rounded
    // twice, unless the crate's feature `relaxed-simd` is on (`web/lanes-bench.sh` builds both),
    // whose `f32x4.relaxed_madd` is fused where the processor has FMA, and rounded twice elsewhere.

    #[cfg(feature = "relaxed-simd")]
    #[inline(always)]
    fn mul_add(self, b: Simd128, c: Simd128) -> Simd128 {
        Simd128(f32x4_relaxed_madd(self.0, b.0, c.0))
    }

    #[cfg(feature = "relaxed-simd")]
    #[inline(always)]
    fn mul_sub(self, b: Simd128, c: Simd128) -> Simd128 {
        // `a·b - c` as `a·b + (-c)`: the negation is exact, so the one rounding is the same.
        Simd128(f32x4_relaxed_madd(self.0, b.0, f32x4_neg(c.0)))
    }

    #[inline(always)]
    fn recip_sqrt(self) -> Simd128 {
        Simd128(f32x4_div(f32x4_splat(1.0), f32x4_sqrt(self.0)))
    }

    #[inline(always)]
    fn with_sign_of(self, sign: Simd128) -> Simd128 {
        let bit = f32x4_splat(-0.0);
        Simd128(v128_or(v128_andnot(self.0, bit), v128_and(sign.0, bit)))
    }

    #[inline(always)]
    fn finite_positive_or(self, yes: [Simd128; 3], no: [Simd128; 3]) -> [Simd128; 3] {
        // Above 0 and below infinity: false for NaN, as every comparison with NaN is.
        let keep = v128_and(f32x4_gt(self.0, f32x4_splat(0.0)), f32x4_lt(self.0, f32x4_splat(f32::INFINITY)));
        let pick = |r: usize| Simd128(v128_bitselect(yes[r].0, no[r].0, keep));
        [pick(0), pick(1), pick(2)]
    }
}

impl F32x4 for Simd128 {
    // V8 spilled the one long loop's registers to the stack: for positions alone, 28 stores and 29
    // loads a vertex; with normals, 32 and 37 (its `--print-wasm-code`).
    const SHORT_LOOPS: bool = true;

    #[inline(always)]
    fn splat(x: f32) -> Simd128 {
        Simd128(f32x4_splat(x))
    }

    #[inline(always)]
    fn load(v: &[f32; 4]) -> Simd128 {
        // SAFETY: `v` is sixteen readable bytes, what the load reads; it takes any alignment.
        Simd128(unsafe { v128_load(v.as_ptr() as *const v128) })
    }

    #[inline(always)]
    fn spread(self) -> [Simd128; 4] {
        let v = self.0;
        [
            Simd128(i32x4_shuffle::<0, 0, 0, 0>(v, v)),
            Simd128(i32x4_shuffle::<1, 1, 1, 1>(v, v)),
            Simd128(i32x4_shuffle::<2, 2, 2, 2>(v, v)),
            Simd128(i32x4_shuffle::<3, 3, 3, 3>(v, v)),
        ]
    }

    #[inline(always)]
    fn vector(v: Vec3A) -> Simd128 {
        // glam's `Vec3A` is a `v128` in WebAssembly with simd128: no conversion at all.
        Simd128(v.into())
    }

    #[inline(always)]
    fn transpose4([r0, r1, r2, r3]: [Simd128; 4]) -> [Simd128; 4] {
        // Pairs, then halves, as SSE's unpack and move: lanes 0-3 of the first, 4-7 of the second.
        let t0 = i32x4_shuffle::<0, 4, 1, 5>(r0.0, r1.0); // r0.0 r1.0 r0.1 r1.1
        let t1 = i32x4_shuffle::<0, 4, 1, 5>(r2.0, r3.0); // r2.0 r3.0 r2.1 r3.1
        let t2 = i32x4_shuffle::<2, 6, 3, 7>(r0.0, r1.0); // r0.2 r1.2 r0.3 r1.3
        let t3 = i32x4_shuffle::<2, 6, 3, 7>(r2.0, r3.0); // r2.2 r3.2 r2.3 r3.3
        [
            Simd128(i64x2_shuffle::<0, 2>(t0, t1)),
            Simd128(i64x2_shuffle::<1, 3>(t0, t1)),
            Simd128(i64x2_shuffle::<0, 2>(t2, t3)),
            Simd128(i64x2_shuffle::<1, 3>(t2, t3)),
        ]
    }

    #[inline(always)]
    fn put(self, to: &mut Vec3A) {
        // The whole register, its fourth lane into the vector's padding.
        *to = self.0.into();
    }
}
