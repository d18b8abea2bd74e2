//! Eight lanes as two SSE registers of four (`__m128`): every x86-64 processor has SSE2, so these
//! need no check. No fused multiply-add: a product and a sum are rounded one after the other, as in
//! the reference, so these lanes give its normals bit for bit.
//!
//! The turning round is the classic 4x4 transpose: `unpacklo`/`unpackhi` interleave two registers'
//! numbers pairwise, `movelh`/`movehl` take halves of two registers.

// Why this file's `unsafe` blocks are sound: SSE and SSE2 are part of x86-64 itself, and the file
// is compiled only for x86-64 (`lanes.rs`: `#[cfg(target_arch = "x86_64")]`), so every processor
// that runs it has the instructions, and its lanes need no proof (`type Proof = ()`). The only
// memory an intrinsic here touches is through `put`; each block's note says what it touches. The
// palette is indexed with its bounds checked: unchecked indexing measured no faster here
// (`cargo bench --bench blend`'s lanes table, SSE2 within 1% either way, on the machine of
// `docs/14-every-core.md`).

use super::kernel::{F32x8, GROUP, Lane};
use glam::{Mat4, Vec3A};
use skinning_method::dual_quat::DualQuat;
use skinning_method::skin::VertexInfluences;
use std::arch::x86_64::*;
use std::ops::{Add, Mul, Sub};

/// One output vector: the whole register, its fourth lane into the vector's padding.
#[inline(always)]
pub fn put(to: &mut Vec3A, v: __m128) {
    *to = v.into();
}

/// Lanes 0 to 3, then 4 to 7.
#[derive(Clone, Copy)]
pub struct Sse2([__m128; 2]);

impl Add for Sse2 {
    type Output = Sse2;
    #[inline(always)]
    fn add(self, b: Sse2) -> Sse2 {
        // SAFETY: SSE is part of x86-64; the adds read and write registers alone.
        unsafe { Sse2([_mm_add_ps(self.0[0], b.0[0]), _mm_add_ps(self.0[1], b.0[1])]) }
    }
}

impl Sub for Sse2 {
    type Output = Sse2;
    #[inline(always)]
    fn sub(self, b: Sse2) -> Sse2 {
        // SAFETY: SSE is part of x86-64; two subtractions of registers, no memory.
        unsafe { Sse2([_mm_sub_ps(self.0[0], b.0[0]), _mm_sub_ps(self.0[1], b.0[1])]) }
    }
}

impl Mul for Sse2 {
    type Output = Sse2;
    #[inline(always)]
    fn mul(self, b: Sse2) -> Sse2 {
        // SAFETY: SSE is part of x86-64; two products of registers, no memory.
        unsafe { Sse2([_mm_mul_ps(self.0[0], b.0[0]), _mm_mul_ps(self.0[1], b.0[1])]) }
    }
}

/// Four rows in, four columns out: number k of row j becomes number j of column k.
#[inline(always)]
pub fn transpose4([r0, r1, r2, r3]: [__m128; 4]) -> [__m128; 4] {
    // SAFETY: SSE is part of x86-64; unpacks and moves between registers, no memory.
    unsafe {
        let (t0, t1) = (_mm_unpacklo_ps(r0, r1), _mm_unpacklo_ps(r2, r3)); // r0.0 r1.0 r0.1 r1.1, r2.0 ...
        let (t2, t3) = (_mm_unpackhi_ps(r0, r1), _mm_unpackhi_ps(r2, r3)); // r0.2 r1.2 r0.3 r1.3, r2.2 ...
        [_mm_movelh_ps(t0, t1), _mm_movehl_ps(t1, t0), _mm_movelh_ps(t2, t3), _mm_movehl_ps(t3, t2)]
    }
}

/// All ones in the lanes above 0 and below infinity, zeros elsewhere: NaN too, as every comparison
/// with NaN is false.
#[inline(always)]
pub fn finite_positive(x: __m128) -> __m128 {
    // SAFETY: SSE is part of x86-64; compares and an and of registers, no memory.
    unsafe { _mm_and_ps(_mm_cmpgt_ps(x, _mm_setzero_ps()), _mm_cmplt_ps(x, _mm_set1_ps(f32::INFINITY))) }
}

/// Eight vectors turned round into x, y and z.
#[inline(always)]
fn load8(v: [&Vec3A; GROUP]) -> [Sse2; 3] {
    let [x0, y0, z0, _] = transpose4([(*v[0]).into(), (*v[1]).into(), (*v[2]).into(), (*v[3]).into()]);
    let [x1, y1, z1, _] = transpose4([(*v[4]).into(), (*v[5]).into(), (*v[6]).into(), (*v[7]).into()]);
    [Sse2([x0, x1]), Sse2([y0, y1]), Sse2([z0, z1])]
}

impl Lane for Sse2 {
    #[inline(always)]
    fn recip_sqrt(self) -> Sse2 {
        // SAFETY: SSE is part of x86-64; square roots and divisions of registers.
        unsafe {
            let one = _mm_set1_ps(1.0);
            Sse2([_mm_div_ps(one, _mm_sqrt_ps(self.0[0])), _mm_div_ps(one, _mm_sqrt_ps(self.0[1]))])
        }
    }

    #[inline(always)]
    fn with_sign_of(self, sign: Sse2) -> Sse2 {
        // SAFETY: SSE is part of x86-64; bitwise and, and-not and or of registers.
        unsafe {
            let bit = _mm_set1_ps(-0.0);
            Sse2([
                _mm_or_ps(_mm_andnot_ps(bit, self.0[0]), _mm_and_ps(bit, sign.0[0])),
                _mm_or_ps(_mm_andnot_ps(bit, self.0[1]), _mm_and_ps(bit, sign.0[1])),
            ])
        }
    }

    #[inline(always)]
    fn finite_positive_or(self, yes: [Sse2; 3], no: [Sse2; 3]) -> [Sse2; 3] {
        // SAFETY: SSE is part of x86-64; a mask's bits and bitwise selects of registers, and `out`
        // is a local array indexed within its bounds.
        unsafe {
            let keep = [finite_positive(self.0[0]), finite_positive(self.0[1])];
            // Every lane kept, as in any mesh but a broken one: no choosing.
            if _mm_movemask_ps(_mm_and_ps(keep[0], keep[1])) == 0b1111 {
                return yes;
            }
            let mut out = no;
            for (h, keep) in keep.into_iter().enumerate() {
                for r in 0..3 {
                    out[r].0[h] = _mm_or_ps(_mm_and_ps(keep, yes[r].0[h]), _mm_andnot_ps(keep, no[r].0[h]));
                }
            }
            out
        }
    }
}

impl F32x8 for Sse2 {
    type Proof = ();

    #[inline(always)]
    fn splat(_: (), x: f32) -> Sse2 {
        // SAFETY: SSE is part of x86-64; a broadcast of `x` into a register.
        Sse2([unsafe { _mm_set1_ps(x) }; 2])
    }

    // SSE2 has no fused multiply-add: `mul_add` and `mul_sub` are the trait's, rounded twice.

    #[inline(always)]
    fn blended_matrices(_: (), palette: &[Mat4], group: &[VertexInfluences; GROUP]) -> [[Sse2; 3]; 4] {
        // SAFETY: SSE is part of x86-64. No intrinsic here reads memory: each column is a glam
        // `Vec4` turned into a register by value (`into`), the palette indexed with its check.
        unsafe {
            // A vertex at a time: its four columns, each one register, summed in the reference's order.
            let mut sum = [[_mm_setzero_ps(); 4]; GROUP];
            for (j, sum) in sum.iter_mut().enumerate() {
                let mut s = [_mm_setzero_ps(); 4];
                for i in 0..4 {
                    let m = &palette[group[j].joints[i] as usize];
                    let w = _mm_set1_ps(group[j].weights[i]);
                    s[0] = _mm_add_ps(s[0], _mm_mul_ps(w, m.x_axis.into()));
                    s[1] = _mm_add_ps(s[1], _mm_mul_ps(w, m.y_axis.into()));
                    s[2] = _mm_add_ps(s[2], _mm_mul_ps(w, m.z_axis.into()));
                    s[3] = _mm_add_ps(s[3], _mm_mul_ps(w, m.w_axis.into()));
                }
                *sum = s;
            }
            // Then each column of four vertices turned round into its rows: lanes 0-3, then 4-7.
            let mut out = [[Sse2([_mm_setzero_ps(); 2]); 3]; 4];
            for c in 0..4 {
                for h in 0..2 {
                    let s = &sum[4 * h..];
                    let [r0, r1, r2, _] = transpose4([s[0][c], s[1][c], s[2][c], s[3][c]]);
                    (out[c][0].0[h], out[c][1].0[h], out[c][2].0[h]) = (r0, r1, r2);
                }
            }
            out
        }
    }

    #[inline(always)]
    fn blended_positions(
        _: (),
        palette: &[Mat4],
        group: &[VertexInfluences; GROUP],
        bind: &[Vec3A; GROUP],
        positions: &mut [Vec3A; GROUP],
    ) {
        // SAFETY: SSE is part of x86-64. The columns come in by value (`into`), the palette indexed
        // with its check; `put`, the one write, is a plain one.
        unsafe {
            // By index, not `zip`: the compiler left `Zip::new` a call in every group (`avx2.rs`).
            for j in 0..GROUP {
                let (v, p) = (&group[j], &bind[j]);
                let mut s = [_mm_setzero_ps(); 4];
                for i in 0..4 {
                    let m = &palette[v.joints[i] as usize];
                    let w = _mm_set1_ps(v.weights[i]);
                    s[0] = _mm_add_ps(s[0], _mm_mul_ps(w, m.x_axis.into()));
                    s[1] = _mm_add_ps(s[1], _mm_mul_ps(w, m.y_axis.into()));
                    s[2] = _mm_add_ps(s[2], _mm_mul_ps(w, m.z_axis.into()));
                    s[3] = _mm_add_ps(s[3], _mm_mul_ps(w, m.w_axis.into()));
                }
                // glam's own matrix times point: x·bind.x, then + y·bind.y, + z·bind.z, + the translation.
                let m = Mat4::from_cols(s[0].into(), s[1].into(), s[2].into(), s[3].into());
                put(&mut positions[j], m.transform_point3a(*p).into());
            }
        }
    }

    #[inline(always)]
    fn blended_dual_quats(_: (), dq_palette: &[DualQuat], group: &[VertexInfluences; GROUP]) -> [Sse2; 8] {
        // SAFETY: SSE2 is part of x86-64. The quaternions come in by value (`into`), the palette
        // indexed with its check; the rest is arithmetic and shuffles of registers.
        unsafe {
            // A vertex at a time: the real and the dual part, one register each.
            let mut rows = [[_mm_setzero_ps(); 2]; GROUP];
            for j in 0..GROUP {
                let v = &group[j];
                let first: __m128 = dq_palette[v.joints[0] as usize].real.into();
                let (mut real, mut dual) = (_mm_setzero_ps(), _mm_setzero_ps());
                for i in 0..4 {
                    let q = &dq_palette[v.joints[i] as usize];
                    // Which side of the first rotation: the sign of real · first, summed as glam does.
                    let p = _mm_mul_ps(q.real.into(), first);
                    let s = _mm_add_ps(p, _mm_shuffle_ps::<0b00_00_11_10>(p, p));
                    let side = _mm_cvtss_f32(_mm_add_ps(s, _mm_shuffle_ps::<0b00_00_00_01>(s, s)));
                    let w = _mm_set1_ps(if side < 0.0 { -v.weights[i] } else { v.weights[i] });
                    real = _mm_add_ps(real, _mm_mul_ps(w, q.real.into()));
                    dual = _mm_add_ps(dual, _mm_mul_ps(w, q.dual.into()));
                }
                rows[j] = [real, dual];
            }
            // Then turned round, four vertices at a time: lanes 0-3, then 4-7.
            let mut out = [Sse2([_mm_setzero_ps(); 2]); 8];
            for part in 0..2 {
                for h in 0..2 {
                    let r = &rows[4 * h..];
                    let t = transpose4([r[0][part], r[1][part], r[2][part], r[3][part]]);
                    for k in 0..4 {
                        out[4 * part + k].0[h] = t[k];
                    }
                }
            }
            out
        }
    }

    #[inline(always)]
    fn load(_: (), v: [&Vec3A; GROUP]) -> [Sse2; 3] {
        load8(v)
    }

    #[inline(always)]
    fn prefetch(at: *const Vec3A) {
        prefetch_group(at);
    }

    #[inline(always)]
    fn store(v: [Sse2; 3], out: &mut [Vec3A; GROUP]) {
        for h in 0..2 {
            // SAFETY: SSE is part of x86-64; a zeroed register, no memory.
            let rows = transpose4([v[0].0[h], v[1].0[h], v[2].0[h], unsafe { _mm_setzero_ps() }]);
            for j in 0..4 {
                put(&mut out[4 * h + j], rows[j]);
            }
        }
    }
}

/// The lines of a group of outputs at `at` into the first cache (`F32x8::prefetch`, for these lanes
/// and AVX2's). A group is 128 bytes, so two or three lines of 64: this asks for the first two, and
/// a third is the next group's first, which its own call asks for.
#[inline(always)]
pub(super) fn prefetch_group(at: *const Vec3A) {
    // SAFETY: SSE is part of x86-64, and a prefetch is a hint: it never faults, whatever the
    // address, and reads nothing into our values nor writes anything.
    unsafe {
        _mm_prefetch::<_MM_HINT_T0>(at.cast());
        _mm_prefetch::<_MM_HINT_T0>(at.wrapping_add(4).cast());
    }
}
