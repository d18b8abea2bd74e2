//! Eight lanes as a plain array of eight `f32`s: any processor. Every operation is a loop over the
//! eight, which the compiler turns into vector instructions where it can. The fallback where
//! neither `sse2.rs` nor `avx2.rs` runs, and the lanes the tests force to check the others by.

use super::kernel::{F32x8, GROUP, Lane};
use glam::{Mat4, Vec3A, Vec4};
use skinning_method::dual_quat::DualQuat;
use skinning_method::skin::VertexInfluences;
use std::ops::{Add, Mul, Sub};

#[derive(Clone, Copy)]
pub struct Portable([f32; GROUP]);

/// Lane by lane: `out[l] = a[l] op b[l]`.
macro_rules! lane_by_lane {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $op:expr) => {{
        let (a, b) = ($a, $b);
        let mut out = [0.0f32; GROUP];
        for l in 0..GROUP {
            let ($x, $y) = (a.0[l], b.0[l]);
            out[l] = $op;
        }
        Portable(out)
    }};
}

impl Add for Portable {
    type Output = Portable;
    #[inline(always)]
    fn add(self, b: Portable) -> Portable {
        lane_by_lane!(self, b, |x, y| x + y)
    }
}

impl Sub for Portable {
    type Output = Portable;
    #[inline(always)]
    fn sub(self, b: Portable) -> Portable {
        lane_by_lane!(self, b, |x, y| x - y)
    }
}

impl Mul for Portable {
    type Output = Portable;
    #[inline(always)]
    fn mul(self, b: Portable) -> Portable {
        lane_by_lane!(self, b, |x, y| x * y)
    }
}

impl Lane for Portable {
    #[inline(always)]
    fn recip_sqrt(self) -> Portable {
        lane_by_lane!(self, self, |x, _y| 1.0 / x.sqrt())
    }

    #[inline(always)]
    fn with_sign_of(self, sign: Portable) -> Portable {
        lane_by_lane!(self, sign, |x, s| x.copysign(s))
    }

    #[inline(always)]
    fn finite_positive_or(self, yes: [Portable; 3], no: [Portable; 3]) -> [Portable; 3] {
        let mut out = no;
        for l in 0..GROUP {
            let x = self.0[l];
            if x.is_finite() && x > 0.0 {
                for r in 0..3 {
                    out[r].0[l] = yes[r].0[l];
                }
            }
        }
        out
    }
}

impl F32x8 for Portable {
    type Proof = ();

    #[inline(always)]
    fn splat(_: (), x: f32) -> Portable {
        Portable([x; GROUP])
    }

    // No fused multiply-add here: `mul_add` and `mul_sub` are the trait's, rounded twice.

    #[inline(always)]
    fn blended_matrices(_: (), palette: &[Mat4], group: &[VertexInfluences; GROUP]) -> [[Portable; 3]; 4] {
        // A vertex at a time: its twelve numbers (the columns' x, y and z), summed in the
        // reference's order, written straight into lane j of column c, row r.
        // Slots by index, not `zip`: `Zip::new` is not marked inline, and the compiler left it a
        // call in every vertex (`avx2.rs` had the same).
        let mut out = [[Portable([0.0; GROUP]); 3]; 4];
        for (j, v) in group.iter().enumerate() {
            for i in 0..4 {
                let (joint, w) = (v.joints[i], v.weights[i]);
                let m: &[f32; 16] = palette[joint as usize].as_ref();
                for c in 0..4 {
                    for r in 0..3 {
                        out[c][r].0[j] += w * m[4 * c + r];
                    }
                }
            }
        }
        out
    }

    #[inline(always)]
    fn blended_positions(
        _: (),
        palette: &[Mat4],
        group: &[VertexInfluences; GROUP],
        bind: &[Vec3A; GROUP],
        positions: &mut [Vec3A; GROUP],
    ) {
        // By index, as in `blended_matrices` (it says why).
        for (j, v) in group.iter().enumerate() {
            let p = bind[j];
            let mut sum = [0.0f32; 16];
            for i in 0..4 {
                let (joint, w) = (v.joints[i], v.weights[i]);
                let m: &[f32; 16] = palette[joint as usize].as_ref();
                for k in 0..16 {
                    sum[k] += w * m[k];
                }
            }
            // x·bind.x, then + y·bind.y, + z·bind.z, + the translation, as the lanes' `times`.
            let m = &sum;
            let row = |r: usize| m[8 + r] * p.z + (m[4 + r] * p.y + m[r] * p.x) + m[12 + r];
            positions[j] = Vec3A::new(row(0), row(1), row(2));
        }
    }

    #[inline(always)]
    fn blended_dual_quats(
        _: (),
        dq_palette: &[DualQuat],
        group: &[VertexInfluences; GROUP],
    ) -> [Portable; 8] {
        // A vertex at a time, as `dual_quat.rs` sums it, written into lane j of each number.
        let mut out = [Portable([0.0; GROUP]); 8];
        for (j, v) in group.iter().enumerate() {
            let first = dq_palette[v.joints[0] as usize].real;
            let (mut real, mut dual) = (Vec4::ZERO, Vec4::ZERO);
            for i in 0..4 {
                let (joint, w) = (v.joints[i], v.weights[i]);
                let dq = &dq_palette[joint as usize];
                let w = if dq.real.dot(first) < 0.0 { -w } else { w };
                real += w * Vec4::from(dq.real);
                dual += w * Vec4::from(dq.dual);
            }
            for k in 0..4 {
                (out[k].0[j], out[4 + k].0[j]) = (real[k], dual[k]);
            }
        }
        out
    }

    #[inline(always)]
    fn load(_: (), v: [&Vec3A; GROUP]) -> [Portable; 3] {
        let mut out = [Portable([0.0; GROUP]); 3];
        for (j, v) in v.iter().enumerate() {
            (out[0].0[j], out[1].0[j], out[2].0[j]) = (v.x, v.y, v.z);
        }
        out
    }

    #[inline(always)]
    fn store(v: [Portable; 3], out: &mut [Vec3A; GROUP]) {
        for (l, out) in out.iter_mut().enumerate() {
            *out = Vec3A::new(v[0].0[l], v[1].0[l], v[2].0[l]);
        }
    }
}
