//! Eight lanes in one AVX register (`__m256`), with fused multiply-add (FMA): `a * b + c` in one
//! instruction and one rounding. Most x86-64 processors since 2013 to 2015 have both; `lanes.rs`
//! checks this one does before it runs these.
//!
//! A 256-bit register is two 128-bit halves, and most of its shuffles work within each half. So a
//! palette matrix is loaded as two registers, columns x and y, then z and the translation, and the
//! turning round is the classic 8x8 transpose: interleave pairs, then fours, then swap halves.

// SAFETY (every `unsafe` block in this file): an `Avx2` exists only inside `lanes.rs`'s
// `run_avx2`, which runs only after `is_x86_feature_detected!` found AVX2 and FMA; all these
// functions are inlined into it. The loads read within a `&Mat4` (sixteen floats) or a
// `&DualQuat` (two quaternions of four floats, `repr(C)`). The linear blend's palette matrices are
// read without a bounds check (`get_unchecked`): each is a joint of a `Skin`, which refused any
// past its joints, and `Lanes::blend_run` asserted one palette matrix per joint. That one is earned:
// with the check the AVX2 lanes took 3.56 ns a vertex for positions and normals against 3.00-3.19
// without (`cargo bench --bench blend`'s lanes table, two runs each, the machine of
// `docs/14-every-core.md`). The dual quaternions are indexed with the check: it cost nothing there.

use super::kernel::{F32x8, GROUP};
use super::sse2::{put, transpose4};
use glam::{Mat4, Vec3A};
use skinning_method::dual_quat::DualQuat;
use skinning_method::skin::VertexInfluences;
use std::arch::x86_64::*;
use std::ops::{Add, Mul, Sub};

#[derive(Clone, Copy)]
pub struct Avx2(__m256);

impl Add for Avx2 {
    type Output = Avx2;
    #[inline(always)]
    fn add(self, b: Avx2) -> Avx2 {
        // SAFETY: AVX2 and FMA run here, and each palette index is one the skin checked (the file's head).
        Avx2(unsafe { _mm256_add_ps(self.0, b.0) })
    }
}

impl Sub for Avx2 {
    type Output = Avx2;
    #[inline(always)]
    fn sub(self, b: Avx2) -> Avx2 {
        // SAFETY: AVX2 and FMA run here, and each palette index is one the skin checked (the file's head).
        Avx2(unsafe { _mm256_sub_ps(self.0, b.0) })
    }
}

impl Mul for Avx2 {
    type Output = Avx2;
    #[inline(always)]
    fn mul(self, b: Avx2) -> Avx2 {
        // SAFETY: AVX2 and FMA run here, and each palette index is one the skin checked (the file's head).
        Avx2(unsafe { _mm256_mul_ps(self.0, b.0) })
    }
}

/// Eight rows in, eight columns out: number k of row j becomes number j of column k.
#[inline(always)]
unsafe fn transpose8(r: &[__m256; 8]) -> [__m256; 8] {
    // SAFETY: AVX2 and FMA run here, and each palette index is one the skin checked (the file's head).
    unsafe {
        // Pairs: t0 = r0.0 r1.0 r0.1 r1.1 | r0.4 r1.4 r0.5 r1.5, t1 = r0.2 r1.2 r0.3 r1.3 | ...
        let (t0, t1) = (_mm256_unpacklo_ps(r[0], r[1]), _mm256_unpackhi_ps(r[0], r[1]));
        let (t2, t3) = (_mm256_unpacklo_ps(r[2], r[3]), _mm256_unpackhi_ps(r[2], r[3]));
        let (t4, t5) = (_mm256_unpacklo_ps(r[4], r[5]), _mm256_unpackhi_ps(r[4], r[5]));
        let (t6, t7) = (_mm256_unpacklo_ps(r[6], r[7]), _mm256_unpackhi_ps(r[6], r[7]));
        // Fours: s0 = r0.0 r1.0 r2.0 r3.0 | r0.4 r1.4 r2.4 r3.4, s1 the same of .1 | .5...
        const LOW: i32 = 0b01_00_01_00;
        const HIGH: i32 = 0b11_10_11_10;
        let (s0, s1) = (_mm256_shuffle_ps::<LOW>(t0, t2), _mm256_shuffle_ps::<HIGH>(t0, t2));
        let (s2, s3) = (_mm256_shuffle_ps::<LOW>(t1, t3), _mm256_shuffle_ps::<HIGH>(t1, t3));
        let (s4, s5) = (_mm256_shuffle_ps::<LOW>(t4, t6), _mm256_shuffle_ps::<HIGH>(t4, t6));
        let (s6, s7) = (_mm256_shuffle_ps::<LOW>(t5, t7), _mm256_shuffle_ps::<HIGH>(t5, t7));
        // Halves: the low halves of rows 0-3 and 4-7 make columns 0-3, the high halves 4-7.
        [
            _mm256_permute2f128_ps::<0x20>(s0, s4),
            _mm256_permute2f128_ps::<0x20>(s1, s5),
            _mm256_permute2f128_ps::<0x20>(s2, s6),
            _mm256_permute2f128_ps::<0x20>(s3, s7),
            _mm256_permute2f128_ps::<0x31>(s0, s4),
            _mm256_permute2f128_ps::<0x31>(s1, s5),
            _mm256_permute2f128_ps::<0x31>(s2, s6),
            _mm256_permute2f128_ps::<0x31>(s3, s7),
        ]
    }
}

/// Four 128-bit rows in each half (rows j and j + 4 of eight), columns out: number k of row j
/// becomes number j of column k, in each half.
#[inline(always)]
unsafe fn transpose4x2([q0, q1, q2, q3]: [__m256; 4]) -> [__m256; 4] {
    // SAFETY: AVX2 and FMA run here, and each palette index is one the skin checked (the file's head).
    unsafe {
        let (t0, t1) = (_mm256_unpacklo_ps(q0, q1), _mm256_unpacklo_ps(q2, q3));
        let (t2, t3) = (_mm256_unpackhi_ps(q0, q1), _mm256_unpackhi_ps(q2, q3));
        [
            _mm256_shuffle_ps::<0b01_00_01_00>(t0, t1),
            _mm256_shuffle_ps::<0b11_10_11_10>(t0, t1),
            _mm256_shuffle_ps::<0b01_00_01_00>(t2, t3),
            _mm256_shuffle_ps::<0b11_10_11_10>(t2, t3),
        ]
    }
}

/// Eight vectors, vertex j's in the low half of register j and vertex j + 4's in the high half,
/// turned round into x, y and z.
#[inline(always)]
unsafe fn load8(v: [&Vec3A; GROUP]) -> [Avx2; 3] {
    // SAFETY: AVX2 and FMA run here, and each palette index is one the skin checked (the file's head).
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

impl F32x8 for Avx2 {
    #[inline(always)]
    fn splat(x: f32) -> Avx2 {
        // SAFETY: AVX2 and FMA run here, and each palette index is one the skin checked (the file's head).
        Avx2(unsafe { _mm256_set1_ps(x) })
    }

    #[inline(always)]
    fn mul_add(self, b: Avx2, c: Avx2) -> Avx2 {
        // SAFETY: AVX2 and FMA run here, and each palette index is one the skin checked (the file's head).
        Avx2(unsafe { _mm256_fmadd_ps(self.0, b.0, c.0) })
    }

    #[inline(always)]
    fn mul_sub(self, b: Avx2, c: Avx2) -> Avx2 {
        // SAFETY: AVX2 and FMA run here, and each palette index is one the skin checked (the file's head).
        Avx2(unsafe { _mm256_fmsub_ps(self.0, b.0, c.0) })
    }

    #[inline(always)]
    fn recip_sqrt(self) -> Avx2 {
        // SAFETY: AVX2 and FMA run here, and each palette index is one the skin checked (the file's head).
        Avx2(unsafe { _mm256_div_ps(_mm256_set1_ps(1.0), _mm256_sqrt_ps(self.0)) })
    }

    #[inline(always)]
    fn with_sign_of(self, sign: Avx2) -> Avx2 {
        // SAFETY: AVX2 and FMA run here, and each palette index is one the skin checked (the file's head).
        unsafe {
            let bit = _mm256_set1_ps(-0.0);
            Avx2(_mm256_or_ps(_mm256_andnot_ps(bit, self.0), _mm256_and_ps(bit, sign.0)))
        }
    }

    #[inline(always)]
    fn finite_positive_or(self, yes: [Avx2; 3], no: [Avx2; 3]) -> [Avx2; 3] {
        // SAFETY: AVX2 and FMA run here, and each palette index is one the skin checked (the file's head).
        unsafe {
            // Above 0 and below infinity, ordered: false for NaN.
            let above = _mm256_cmp_ps::<_CMP_GT_OQ>(self.0, _mm256_setzero_ps());
            let below = _mm256_cmp_ps::<_CMP_LT_OQ>(self.0, _mm256_set1_ps(f32::INFINITY));
            let keep = _mm256_and_ps(above, below);
            [
                Avx2(_mm256_blendv_ps(no[0].0, yes[0].0, keep)),
                Avx2(_mm256_blendv_ps(no[1].0, yes[1].0, keep)),
                Avx2(_mm256_blendv_ps(no[2].0, yes[2].0, keep)),
            ]
        }
    }

    #[inline(always)]
    fn blended_matrices(palette: &[Mat4], group: &[VertexInfluences; GROUP]) -> [[Avx2; 3]; 4] {
        // SAFETY: AVX2 and FMA run here, and each palette index is one the skin checked (the file's head).
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
        palette: &[Mat4],
        group: &[VertexInfluences; GROUP],
        bind: &[Vec3A; GROUP],
        positions: &mut [Vec3A; GROUP],
        stream: bool,
    ) {
        // SAFETY: AVX2 and FMA run here, and each palette index is one the skin checked (the file's head).
        unsafe {
            for ((v, p), position) in group.iter().zip(bind).zip(positions) {
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
                put(position, _mm_add_ps(_mm256_extractf128_ps::<1>(zt), moved), stream);
            }
        }
    }

    #[inline(always)]
    fn blended_dual_quats(dq_palette: &[DualQuat], group: &[VertexInfluences; GROUP]) -> [Avx2; 8] {
        // SAFETY: AVX2 and FMA run here, and each palette index is one the skin checked (the file's head).
        unsafe {
            // A vertex at a time: a joint's dual quaternion is eight floats, real then dual, one register.
            let mut rows = [_mm256_setzero_ps(); GROUP];
            for (row, v) in rows.iter_mut().zip(group) {
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
                *row = _mm256_fmadd_ps(
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
    fn load(v: [&Vec3A; GROUP]) -> [Avx2; 3] {
        // SAFETY: AVX2 and FMA run here, and each palette index is one the skin checked (the file's head).
        unsafe { load8(v) }
    }

    #[inline(always)]
    fn fence() {
        // SAFETY: AVX2 and FMA run here, and each palette index is one the skin checked (the file's head).
        unsafe { _mm_sfence() }
    }

    #[inline(always)]
    fn store(v: [Avx2; 3], out: &mut [Vec3A; GROUP], stream: bool) {
        // SAFETY: AVX2 and FMA run here, and each palette index is one the skin checked (the file's head).
        unsafe {
            let q = transpose4x2([v[0].0, v[1].0, v[2].0, _mm256_setzero_ps()]);
            for j in 0..4 {
                put(&mut out[j], _mm256_castps256_ps128(q[j]), stream);
                put(&mut out[j + 4], _mm256_extractf128_ps::<1>(q[j]), stream);
            }
        }
    }
}
