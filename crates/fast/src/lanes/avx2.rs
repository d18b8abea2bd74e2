//! Eight lanes in one AVX register (`__m256`), with fused multiply-add (FMA): `a * b + c` in one
//! instruction and one rounding. Most x86-64 processors since 2013 to 2015 have both; `lanes.rs`
//! checks this one does before it runs these.
//!
//! A 256-bit register is two 128-bit halves, and most of its shuffles work within each half. So a
//! palette matrix is loaded as two registers, columns x and y, then z and the translation, and the
//! turning round is the classic 8x8 transpose: interleave pairs, then fours, then swap halves.

// Why this file's `unsafe` blocks are sound, in two parts that each block's SAFETY note applies:
// the instructions, and the memory. AVX2 and FMA instructions may run only on a processor that has
// them: an `Avx2` is made only by the functions that take a [`HasAvx2Fma`], which only `detect`
// makes, after `is_x86_feature_detected!` found both; every other function here takes an `Avx2`
// already made. The loads read inside a `&Mat4` or a `&DualQuat`, the stores write into a
// `&mut Vec3A`. The linear blend reads the palette without a bounds check (`get_unchecked`), as
// `docs/14-every-core.md`, "The fast path", measured; the dual quaternions keep the check.

mod transpose;

use super::kernel::{F32x8, GROUP, Lane};
use super::sse2::{prefetch_group, put, transpose4};
use glam::{Mat4, Vec3A};
use skinning_method::dual_quat::DualQuat;
use skinning_method::skin::VertexInfluences;
use std::arch::x86_64::*;
use std::ops::{Add, Mul, Sub};
use transpose::{transpose4x2, transpose8};

/// Proof that this processor runs AVX2 and FMA: only [`HasAvx2Fma::detect`] makes one, and only
/// where `is_x86_feature_detected!` found both. Every `Avx2` is made with one.
#[derive(Clone, Copy)]
pub struct HasAvx2Fma(());

impl HasAvx2Fma {
    /// The proof, where the processor has both; None where it lacks either.
    pub fn detect() -> Option<HasAvx2Fma> {
        (is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")).then_some(HasAvx2Fma(()))
    }
}

/// Eight lanes in one AVX register. Its field is private to this file, and every function here
/// that makes one takes a [`HasAvx2Fma`] or an `Avx2` already made.
#[derive(Clone, Copy)]
pub struct Avx2(__m256);

impl Add for Avx2 {
    type Output = Avx2;
    #[inline(always)]
    fn add(self, b: Avx2) -> Avx2 {
        // SAFETY: `self` and `b` are `Avx2`s, made only where AVX runs (`HasAvx2Fma`); the add
        // reads and writes registers alone.
        Avx2(unsafe { _mm256_add_ps(self.0, b.0) })
    }
}

impl Sub for Avx2 {
    type Output = Avx2;
    #[inline(always)]
    fn sub(self, b: Avx2) -> Avx2 {
        // SAFETY: `self` and `b` exist, so AVX runs here (`HasAvx2Fma`); the subtraction touches
        // registers alone.
        Avx2(unsafe { _mm256_sub_ps(self.0, b.0) })
    }
}

impl Mul for Avx2 {
    type Output = Avx2;
    #[inline(always)]
    fn mul(self, b: Avx2) -> Avx2 {
        // SAFETY: two `Avx2`s prove AVX is here (only a `HasAvx2Fma` makes one); the product touches
        // registers alone.
        Avx2(unsafe { _mm256_mul_ps(self.0, b.0) })
    }
}

/// Eight vectors, vertex j's in the low half of register j and vertex j + 4's in the high half,
/// turned round into x, y and z.
#[inline(always)]
unsafe fn load8(v: [&Vec3A; GROUP]) -> [Avx2; 3] {
    // SAFETY: called only from `load`, which holds a `HasAvx2Fma`; each `&Vec3A` is read whole
    // by value (`into`), so nothing past it is read.
    unsafe {
        let q = [
            _mm256_set_m128((*v[4]).into(), (*v[0]).into()),
            _mm256_set_m128((*v[5]).into(), (*v[1]).into()),
            _mm256_set_m128((*v[6]).into(), (*v[2]).into()),
            _mm256_set_m128((*v[7]).into(), (*v[3]).into()),
        ];
        let [x, y, z, _] = transpose4x2(q);
        [Avx2(x), Avx2(y), Avx2(z)]
    }
}

impl Lane for Avx2 {
    #[inline(always)]
    fn mul_add(self, b: Avx2, c: Avx2) -> Avx2 {
        // SAFETY: `self` exists, so FMA was found with AVX2 (`HasAvx2Fma::detect` checks both);
        // the fused multiply-add touches registers alone.
        Avx2(unsafe { _mm256_fmadd_ps(self.0, b.0, c.0) })
    }

    #[inline(always)]
    fn mul_sub(self, b: Avx2, c: Avx2) -> Avx2 {
        // SAFETY: as for `mul_add`: an `Avx2` proves FMA is here; `vfmsub` on registers alone.
        Avx2(unsafe { _mm256_fmsub_ps(self.0, b.0, c.0) })
    }

    #[inline(always)]
    fn recip_sqrt(self) -> Avx2 {
        // SAFETY: `self` proves AVX is here; a broadcast, a square root and a division of registers.
        Avx2(unsafe { _mm256_div_ps(_mm256_set1_ps(1.0), _mm256_sqrt_ps(self.0)) })
    }

    #[inline(always)]
    fn with_sign_of(self, sign: Avx2) -> Avx2 {
        // SAFETY: `self` and `sign` prove AVX is here; bitwise and, and-not and or of registers.
        unsafe {
            let bit = _mm256_set1_ps(-0.0);
            Avx2(_mm256_or_ps(_mm256_andnot_ps(bit, self.0), _mm256_and_ps(bit, sign.0)))
        }
    }

    #[inline(always)]
    fn finite_positive_or(self, yes: [Avx2; 3], no: [Avx2; 3]) -> [Avx2; 3] {
        // SAFETY: `self`, `yes` and `no` prove AVX is here; compares and blends of registers.
        unsafe {
            // Above 0 and below infinity, ordered: false for NaN.
            let above = _mm256_cmp_ps::<_CMP_GT_OQ>(self.0, _mm256_setzero_ps());
            let below = _mm256_cmp_ps::<_CMP_LT_OQ>(self.0, _mm256_set1_ps(f32::INFINITY));
            let keep = _mm256_and_ps(above, below);
            // Every lane kept, as in any mesh but a broken one: no blending (one test, not three).
            if _mm256_movemask_ps(keep) == 0xff {
                return yes;
            }
            [
                Avx2(_mm256_blendv_ps(no[0].0, yes[0].0, keep)),
                Avx2(_mm256_blendv_ps(no[1].0, yes[1].0, keep)),
                Avx2(_mm256_blendv_ps(no[2].0, yes[2].0, keep)),
            ]
        }
    }
}

impl F32x8 for Avx2 {
    type Proof = HasAvx2Fma;

    #[inline(always)]
    fn splat(_: HasAvx2Fma, x: f32) -> Avx2 {
        // SAFETY: the `HasAvx2Fma` argument proves AVX is here; a broadcast into a register.
        Avx2(unsafe { _mm256_set1_ps(x) })
    }

    #[inline(always)]
    fn blended_matrices(
        _: HasAvx2Fma,
        palette: &[Mat4],
        group: &[VertexInfluences; GROUP],
    ) -> [[Avx2; 3]; 4] {
        // SAFETY: the `HasAvx2Fma` argument proves AVX2 and FMA. Each `m` is a `&[f32; 16]`, and the
        // two 8-float loads start at its numbers 0 and 8, so both end inside it. `get_unchecked`:
        // every joint of a `VertexInfluences` is below `Skin::joints().len()` (`Skin::add_vertex` refuses
        // others) and `Lanes::blend_run` asserted the palette has that many matrices.
        unsafe {
            // A vertex at a time: columns x and y in one register, z and the translation in the other.
            let (mut xy, mut zt) = ([_mm256_setzero_ps(); GROUP], [_mm256_setzero_ps(); GROUP]);
            for j in 0..GROUP {
                let (mut a, mut b) = (_mm256_setzero_ps(), _mm256_setzero_ps());
                for i in 0..4 {
                    let m: &[f32; 16] = palette.get_unchecked(group[j].joints[i] as usize).as_ref();
                    let w = _mm256_set1_ps(group[j].weights[i]);
                    a = _mm256_fmadd_ps(w, _mm256_loadu_ps(m.as_ptr()), a);
                    b = _mm256_fmadd_ps(w, _mm256_loadu_ps(m[8..].as_ptr()), b);
                }
                (xy[j], zt[j]) = (a, b);
            }
            // Then turned round: number k of [x y] is x.k for k < 4, y.(k - 4) after.
            let [x0, x1, x2, _, y0, y1, y2, _] = transpose8(&xy);
            let [z0, z1, z2, _, t0, t1, t2, _] = transpose8(&zt);
            [
                [Avx2(x0), Avx2(x1), Avx2(x2)],
                [Avx2(y0), Avx2(y1), Avx2(y2)],
                [Avx2(z0), Avx2(z1), Avx2(z2)],
                [Avx2(t0), Avx2(t1), Avx2(t2)],
            ]
        }
    }

    #[inline(always)]
    fn blended_positions(
        _: HasAvx2Fma,
        palette: &[Mat4],
        group: &[VertexInfluences; GROUP],
        bind: &[Vec3A; GROUP],
        positions: &mut [Vec3A; GROUP],
    ) {
        // SAFETY: the `HasAvx2Fma` argument proves AVX2 and FMA. The loads read `m[0..8]` and
        // `m[8..16]` of a `&[f32; 16]`; the palette index is below its length as in
        // `blended_matrices` (the skin refused other joints, `Lanes::blend_run` asserted the length);
        // `put` is a plain store.
        unsafe {
            // By index: `Zip::new` is not marked inline, and was left two calls a group (`vzeroupper` each).
            for j in 0..GROUP {
                let (v, p) = (&group[j], &bind[j]);
                let (mut xy, mut zt) = (_mm256_setzero_ps(), _mm256_setzero_ps());
                for i in 0..4 {
                    let m: &[f32; 16] = palette.get_unchecked(v.joints[i] as usize).as_ref();
                    let w = _mm256_set1_ps(v.weights[i]);
                    xy = _mm256_fmadd_ps(w, _mm256_loadu_ps(m.as_ptr()), xy);
                    zt = _mm256_fmadd_ps(w, _mm256_loadu_ps(m[8..].as_ptr()), zt);
                }
                // x·bind.x, then + y·bind.y, + z·bind.z, + the translation.
                let moved = _mm_mul_ps(_mm256_castps256_ps128(xy), _mm_set1_ps(p.x));
                let moved = _mm_fmadd_ps(_mm256_extractf128_ps::<1>(xy), _mm_set1_ps(p.y), moved);
                let moved = _mm_fmadd_ps(_mm256_castps256_ps128(zt), _mm_set1_ps(p.z), moved);
                put(&mut positions[j], _mm_add_ps(_mm256_extractf128_ps::<1>(zt), moved));
            }
        }
    }

    #[inline(always)]
    fn blended_dual_quats(
        _: HasAvx2Fma,
        dq_palette: &[DualQuat],
        group: &[VertexInfluences; GROUP],
    ) -> [Avx2; 8] {
        // SAFETY: the `HasAvx2Fma` argument proves AVX2 and FMA. Each 8-float load starts at a
        // `&DualQuat`, which is `repr(C)`, two quaternions of four floats: eight floats, all inside
        // it. The palette is indexed with its bounds checked.
        unsafe {
            // A vertex at a time: a joint's dual quaternion is eight floats, real then dual, one register.
            let mut rows = [_mm256_setzero_ps(); GROUP];
            for j in 0..GROUP {
                let v = &group[j];
                let load = |i: usize| {
                    let dq = &dq_palette[v.joints[i] as usize];
                    _mm256_loadu_ps(dq as *const DualQuat as *const f32)
                };
                let q = [load(0), load(1), load(2), load(3)];
                // Which side of the first rotation each is on: the signs of the four dot products
                // realᵢ · real₀, made together (one product each, turned round, summed as glam sums).
                let first = _mm256_castps256_ps128(q[0]);
                let real = |i: usize| _mm_mul_ps(_mm256_castps256_ps128(q[i]), first);
                let [x, y, z, w] = transpose4([real(0), real(1), real(2), real(3)]);
                let dots = _mm_add_ps(_mm_add_ps(x, z), _mm_add_ps(y, w));
                let flip = _mm_and_ps(_mm_cmplt_ps(dots, _mm_setzero_ps()), _mm_set1_ps(-0.0));
                let weights = _mm_xor_ps(_mm_loadu_ps(v.weights.as_ptr()), flip);
                let mut sum = _mm256_mul_ps(_mm256_broadcastss_ps(weights), q[0]);
                sum = _mm256_fmadd_ps(
                    _mm256_broadcastss_ps(_mm_shuffle_ps::<0b01_01_01_01>(weights, weights)),
                    q[1],
                    sum,
                );
                sum = _mm256_fmadd_ps(
                    _mm256_broadcastss_ps(_mm_shuffle_ps::<0b10_10_10_10>(weights, weights)),
                    q[2],
                    sum,
                );
                rows[j] = _mm256_fmadd_ps(
                    _mm256_broadcastss_ps(_mm_shuffle_ps::<0b11_11_11_11>(weights, weights)),
                    q[3],
                    sum,
                );
            }
            let t = transpose8(&rows);
            [Avx2(t[0]), Avx2(t[1]), Avx2(t[2]), Avx2(t[3]), Avx2(t[4]), Avx2(t[5]), Avx2(t[6]), Avx2(t[7])]
        }
    }

    #[inline(always)]
    fn load(_: HasAvx2Fma, v: [&Vec3A; GROUP]) -> [Avx2; 3] {
        // SAFETY: the `HasAvx2Fma` argument is the proof `load8` asks of its caller.
        unsafe { load8(v) }
    }

    #[inline(always)]
    fn prefetch(at: *const Vec3A) {
        prefetch_group(at);
    }

    #[inline(always)]
    fn store(v: [Avx2; 3], out: &mut [Vec3A; GROUP]) {
        // SAFETY: `v` holds `Avx2`s, made only where AVX runs; `transpose4x2` asks that of its caller.
        // `put` is a plain store.
        unsafe {
            let q = transpose4x2([v[0].0, v[1].0, v[2].0, _mm256_setzero_ps()]);
            for j in 0..4 {
                put(&mut out[j], _mm256_castps256_ps128(q[j]));
                put(&mut out[j + 4], _mm256_extractf128_ps::<1>(q[j]));
            }
        }
    }
}
