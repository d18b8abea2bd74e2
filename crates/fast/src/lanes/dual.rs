//! Dual-quaternion skinning for a group of eight, lane by lane: `dual_quat.rs`'s three steps.
//!
//! Step 1, the weighted sum with each term on the side of the first joint's rotation, runs a vertex
//! at a time ([`F32x8::blended_dual_quats`]): the side is a dot product per influence. Steps 2 and 3,
//! where the arithmetic is, run across the eight: normalise by the real part's length, turn the
//! scaled bind position by the real part, add the translation `2 dual real*`; the normal turns by
//! the same rotation. The sums are not in the reference's order, so these agree with it to a
//! rounding, not bit for bit (`tests/lanes.rs`).

use super::kernel::{F32x8, GROUP, GroupSkin, cross, refs};
use glam::Vec3A;
use skinning_method::dual_quat::DualQuats;
use skinning_method::skin::VertexInfluences;

/// `v` turned by the unit quaternion (r, w): `v + 2 r × (r × v + w v)`, as `DualQuat::transform_point`.
#[inline(always)]
fn turn<L: F32x8>(proof: L::Proof, r: [L; 3], w: L, v: [L; 3]) -> [L; 3] {
    let c = cross(r, v);
    let c = cross(r, [w.mul_add(v[0], c[0]), w.mul_add(v[1], c[1]), w.mul_add(v[2], c[2])]);
    let two = L::splat(proof, 2.0);
    [two.mul_add(c[0], v[0]), two.mul_add(c[1], v[1]), two.mul_add(c[2], v[2])]
}

impl GroupSkin for DualQuats<'_> {
    #[inline(always)]
    fn skin<L: F32x8>(
        self,
        proof: L::Proof,
        group: &[VertexInfluences; GROUP],
        bind: &[Vec3A; GROUP],
        positions: &mut [Vec3A; GROUP],
        normals: Option<([L; 3], &mut [Vec3A; GROUP])>,
    ) {
        // 1. The weighted sum, a vertex at a time, turned round.
        let [rx, ry, rz, rw, dx, dy, dz, dw] = L::blended_dual_quats(proof, self.joints, group);
        // 2. Normalise both parts by the real part's length.
        let inverse = rw.mul_add(rw, rz.mul_add(rz, ry.mul_add(ry, rx * rx))).recip_sqrt();
        let (r, w) = ([rx * inverse, ry * inverse, rz * inverse], rw * inverse);
        let (d, dw) = ([dx * inverse, dy * inverse, dz * inverse], dw * inverse);
        // 3. Turn the scaled bind position, then add the translation 2 (w d - dw r + r × d).
        let (scale, bind) = (L::splat(proof, self.scale), L::load(proof, refs(bind)));
        let turned = turn(proof, r, w, [bind[0] * scale, bind[1] * scale, bind[2] * scale]);
        let (rd, two) = (cross(r, d), L::splat(proof, 2.0));
        let t = [
            w.mul_sub(d[0], dw * r[0]) + rd[0],
            w.mul_sub(d[1], dw * r[1]) + rd[1],
            w.mul_sub(d[2], dw * r[2]) + rd[2],
        ];
        L::store(
            [two.mul_add(t[0], turned[0]), two.mul_add(t[1], turned[1]), two.mul_add(t[2], turned[2])],
            positions,
        );

        // The normal turns by the same rotation (the shared scale changes no direction).
        if let Some((n, out)) = normals {
            L::store(turn(proof, r, w, n), out);
        }
    }
}
