//! The weighted blend of local poses: several clips at weights make one pose, bone by bone.
//!
//! The weights are divided by their sum, so only their ratios count: `Walk=1,Run=3` is
//! `Walk=0.25,Run=0.75`. A weight of 0 is allowed (that clip counts for nothing); if every weight is
//! 0 there is nothing to divide by, and the caller decides (the mixer keeps the rest pose). The sum
//! is kept in 64-bit floats ([`total`]): two 32-bit weights of 3e38 sum past what 32-bit floats
//! hold, and dividing by that infinity would give each clip a share of 0, where they have half each.
//! No list of 32-bit weights overflows a 64-bit sum, so equal weights are equal shares at any size.
//!
//! For each bone, with `ŵᵢ = wᵢ / Σw`:
//! - **translation and scale**: the weighted average `Σ ŵᵢ tᵢ` (lerp, for two);
//! - **rotation**: for two clips, `slerp(q_a, q_b, w_b / (w_a + w_b))`, after turning `q_b` into
//!   `q_a`'s hemisphere: `q` and `-q` are the same turn, and of the two arcs from `q_a` to `q_b` and
//!   to `-q_b` only the shorter one passes through the turns between them (`clip.rs` slerps keys the
//!   same way, with the same function).
//!
//! **More than two clips.** Slerp takes two ends. This module folds the poses in one at a time, as
//! three.js's `PropertyMixer` does: the first pose is copied, and each next one pulls the running
//! result `wᵢ / (w₁ + … + wᵢ)` of the way towards itself ([`accumulate`]). Lerp folded this way is
//! exactly the weighted average; slerp folded this way is the two-clip rule when there are two, and
//! a weight of 0 leaves the result as it was, so a third clip fading in starts from exactly the
//! two-clip pose. The other common rule, ozz-animation's, sums `ŵᵢ qᵢ` (each `qᵢ` flipped to agree
//! with the sum so far) and normalises ([`normalised_sum`]): the same for two clips at equal
//! weights, a little off elsewhere, because a normalised sum does not move at constant speed along
//! the arc. The price of folding: with three or more clips their order changes the result, a little
//! where the rotations lie near each other, far more where they point nearly opposite ways (the
//! normalised sum then depends on the order too). Chapter 11 measures both gaps on the Fox's and
//! the robot's clips (`tests/many_clips.rs`).

use crate::transform::Trs;
use glam::{Quat, Vec4};

/// `s` of the way from `a` to `b`: translation and scale by lerp, rotation by slerp along the
/// shorter arc. Exactly `a` at `s = 0` and exactly `b` at `s = 1`.
pub fn mix(a: &Trs, b: &Trs, s: f32) -> Trs {
    if s <= 0.0 {
        return *a;
    }
    if s >= 1.0 {
        return *b;
    }
    Trs {
        translation: a.translation.lerp(b.translation, s),
        // glam's slerp turns `b` into `a`'s hemisphere first (it negates `b` when `a · b < 0`).
        rotation: a.rotation.slerp(b.rotation, s),
        scale: a.scale.lerp(b.scale, s),
    }
}

/// Folds `pose` into `out` at `weight`, where `total` is the weight `out` already holds (0 before
/// the first pose); returns the new total. The first pose with a weight above 0 is copied; each
/// next one pulls `out` `weight / (total + weight)` of the way towards itself.
pub fn accumulate(out: &mut [Trs], total: f64, pose: &[Trs], weight: f32) -> f64 {
    let Some((s, sum)) = share(total, weight) else { return total };
    for (o, p) in out.iter_mut().zip(pose) {
        *o = mix(o, p, s);
    }
    sum
}

/// The same fold for plain numbers (a morph target's weight, say): `out` becomes the weighted
/// average of the lists folded in so far. Returns the new total, as [`accumulate`] does.
pub fn accumulate_numbers(out: &mut [f32], total: f64, values: &[f32], weight: f32) -> f64 {
    let Some((s, sum)) = share(total, weight) else { return total };
    if s >= 1.0 {
        // The first list that counts is copied as it is.
        out.copy_from_slice(&values[..out.len()]);
        return sum;
    }
    for (o, v) in out.iter_mut().zip(values) {
        *o += (v - *o) * s;
    }
    sum
}

/// The pull of a fold's next `weight` after `total`: `weight / (total + weight)`, and the new total;
/// None for a weight that adds nothing. In 64-bit floats, where no sum of 32-bit weights overflows.
pub fn share(total: f64, weight: f32) -> Option<(f32, f64)> {
    let sum = total + f64::from(weight);
    (weight > 0.0 && sum > 0.0).then(|| ((f64::from(weight) / sum) as f32, sum))
}

/// The sum of `weights` (each below 0 counted as 0), in 64-bit floats: what each weight is divided
/// by to make its share, and finite for any list of finite 32-bit weights.
pub fn total(weights: impl IntoIterator<Item = f32>) -> f64 {
    weights.into_iter().map(|w| f64::from(w.max(0.0))).sum()
}

/// ozz-animation's rotation rule, for comparison: `Σ wᵢ qᵢ`, each `qᵢ` negated first if it points
/// away from the sum so far, then normalised. None when the weights sum to nothing.
pub fn normalised_sum(rotations: &[(f32, Quat)]) -> Option<Quat> {
    let mut sum = Vec4::ZERO;
    for &(weight, q) in rotations {
        let q = Vec4::from(q);
        sum += if sum.dot(q) < 0.0 { -weight * q } else { weight * q };
    }
    let length = sum.length();
    (length > 0.0 && length.is_finite()).then(|| Quat::from_vec4(sum / length))
}

/// The successive slerp of [`accumulate`] for rotations alone: the rule the mixer uses.
pub fn successive_slerp(rotations: &[(f32, Quat)]) -> Option<Quat> {
    let mut out = [Trs::IDENTITY];
    let mut total = 0.0;
    for &(weight, rotation) in rotations {
        total = accumulate(&mut out, total, &[Trs { rotation, ..Trs::IDENTITY }], weight);
    }
    (total > 0.0).then_some(out[0].rotation)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn trs(t: [f32; 3], axis: Vec3, degrees: f32, s: f32) -> Trs {
        Trs {
            translation: Vec3::from(t),
            rotation: Quat::from_axis_angle(axis.normalize(), degrees.to_radians()),
            scale: Vec3::splat(s),
        }
    }

    /// Slerp written out from its definition, apart from glam's: `sin((1-s)θ)/sin θ · a +
    /// sin(sθ)/sin θ · b`, with `b` in `a`'s hemisphere.
    fn slerp_by_hand(a: Quat, b: Quat, s: f32) -> Quat {
        let (a, mut b) = (Vec4::from(a).as_dvec4(), Vec4::from(b).as_dvec4());
        if a.dot(b) < 0.0 {
            b = -b;
        }
        let theta = a.dot(b).clamp(-1.0, 1.0).acos();
        let s = s as f64;
        let q = ((1.0 - s) * theta).sin() / theta.sin() * a + (s * theta).sin() / theta.sin() * b;
        Quat::from_vec4(q.as_vec4())
    }

    fn same_turn(a: Quat, b: Quat) -> f32 {
        // The angle of the turn from a to b, in degrees: 2 atan2(|xyz|, |w|) of conj(a) b (better
        // conditioned near 0 than 2 acos |a · b|, which rounding alone takes to 0.06°).
        let d = a.conjugate() * b;
        2.0 * d.xyz().length().atan2(d.w.abs()).to_degrees()
    }

    #[test]
    fn weights_one_and_zero_give_the_first_pose_exactly() {
        let a = [trs([1.0, 2.0, 3.0], Vec3::Z, 40.0, 1.5), trs([0.0, 1.0, 0.0], Vec3::X, -170.0, 1.0)];
        let b = [trs([-4.0, 0.5, 2.0], Vec3::Y, 100.0, 0.5), trs([3.0, 1.0, 9.0], Vec3::X, 120.0, 2.0)];
        let mut out = [Trs::IDENTITY; 2];
        let total = accumulate(&mut out, 0.0, &a, 1.0);
        let total = accumulate(&mut out, total, &b, 0.0);
        assert_eq!(total, 1.0);
        assert_eq!(out, a, "weights (1, 0) changed the first pose");
        // And (0, 1) gives the second, the first never having counted.
        let mut out = [Trs::IDENTITY; 2];
        let total = accumulate(&mut out, 0.0, &a, 0.0);
        accumulate(&mut out, total, &b, 1.0);
        assert_eq!(out, b);
    }

    #[test]
    fn two_clips_rotate_by_the_slerp_at_the_ratio_and_average_the_rest() {
        let a = trs([1.0, 2.0, 3.0], Vec3::new(1.0, 1.0, 0.0), 30.0, 1.0);
        let b = trs([3.0, -2.0, 1.0], Vec3::new(0.0, 1.0, 1.0), 150.0, 3.0);
        for (wa, wb) in [(0.3, 0.7), (2.0, 1.0), (0.5, 0.5), (1.0, 9.0)] {
            let mut out = [Trs::IDENTITY];
            let total = accumulate(&mut out, 0.0, &[a], wa);
            accumulate(&mut out, total, &[b], wb);
            let ratio = wb / (wa + wb);
            let expected = slerp_by_hand(a.rotation, b.rotation, ratio);
            let apart = same_turn(out[0].rotation, expected);
            assert!(apart < 0.01, "({wa}, {wb}): {apart}° from the slerp at {ratio}");
            let average = (wa * a.translation + wb * b.translation) / (wa + wb);
            assert!(out[0].translation.abs_diff_eq(average, 1e-5), "{} != {average}", out[0].translation);
            let scale = (wa * a.scale + wb * b.scale) / (wa + wb);
            assert!(out[0].scale.abs_diff_eq(scale, 1e-5));
        }
    }

    #[test]
    fn negating_any_input_rotation_changes_no_output() {
        // q and -q are one turn: the blend must not care which of the two a clip stores.
        let poses = [
            trs([0.0; 3], Vec3::Z, 80.0, 1.0),
            trs([0.0; 3], Vec3::new(1.0, 0.0, 1.0), -110.0, 1.0),
            trs([0.0; 3], Vec3::Y, 175.0, 1.0),
        ];
        let weights = [0.2, 0.5, 0.3];
        let blend = |poses: &[Trs]| {
            let mut out = [Trs::IDENTITY];
            let mut total = 0.0;
            for (p, w) in poses.iter().zip(weights) {
                total = accumulate(&mut out, total, std::slice::from_ref(p), w);
            }
            out[0].rotation
        };
        let reference = blend(&poses);
        for flipped in 0..poses.len() {
            let mut changed = poses;
            changed[flipped].rotation = -changed[flipped].rotation;
            let q = blend(&changed);
            // The same turn: the very same quaternion, or its negative, to the last bit.
            assert!(q == reference || q == -reference, "negating input {flipped}: {q} != ±{reference}");
        }
    }

    #[test]
    fn a_third_clip_at_weight_zero_changes_nothing() {
        let (a, b, c) = (
            trs([1.0; 3], Vec3::Z, 20.0, 1.0),
            trs([2.0; 3], Vec3::X, 70.0, 2.0),
            trs([5.0; 3], Vec3::Y, 90.0, 1.0),
        );
        let mut two = [Trs::IDENTITY];
        let total = accumulate(&mut two, 0.0, &[a], 0.4);
        accumulate(&mut two, total, &[b], 0.6);
        let mut three = two;
        accumulate(&mut three, 1.0, &[c], 0.0);
        assert_eq!(two, three);
    }

    #[test]
    fn the_two_rules_agree_at_equal_weights_and_differ_elsewhere() {
        let (qa, qb) = (Quat::from_rotation_z(0.2), Quat::from_rotation_z(1.6));
        let folded = successive_slerp(&[(0.5, qa), (0.5, qb)]).unwrap();
        let summed = normalised_sum(&[(0.5, qa), (0.5, qb)]).unwrap();
        assert!(same_turn(folded, summed) < 1e-3, "at 0.5 / 0.5 both give the middle of the arc");
        // At 0.25 / 0.75 slerp is at 0.2 + 0.75 * 1.4 = 1.25 rad; the sum falls short of it.
        let folded = successive_slerp(&[(0.25, qa), (0.75, qb)]).unwrap();
        let summed = normalised_sum(&[(0.25, qa), (0.75, qb)]).unwrap();
        assert!(same_turn(folded, Quat::from_rotation_z(1.25)) < 1e-3);
        // The sum's direction by hand: the quaternions are θ = 0.7 apart (half the 1.4 rad turn),
        // so 0.25 a + 0.75 b points atan2(0.75 sin θ, 0.25 + 0.75 cos θ) from a, where slerp is at
        // 0.75 θ; a turn is twice its quaternion's angle.
        let theta = 0.7_f32;
        let by_hand = 2.0 * ((0.75 * theta.sin()).atan2(0.25 + 0.75 * theta.cos()) - 0.75 * theta);
        let gap = same_turn(folded, summed);
        assert!((gap - by_hand.to_degrees()).abs() < 0.01, "{gap}° apart, {}° by hand", by_hand.to_degrees());
    }

    #[test]
    fn equal_weights_are_equal_shares_however_large() {
        // 3e38 + 3e38 is infinity in 32-bit floats, which made the second clip's share 0.
        let (a, b) = (trs([0.0; 3], Vec3::Z, 0.0, 1.0), trs([2.0, 4.0, 0.0], Vec3::Z, 90.0, 3.0));
        for w in [1.0, 3e38, f32::MAX, f32::MIN_POSITIVE, 1e-45] {
            let mut out = [Trs::IDENTITY];
            let total = accumulate(&mut out, 0.0, &[a], w);
            accumulate(&mut out, total, &[b], w);
            assert_eq!(
                (out[0].translation, out[0].scale),
                (Vec3::new(1.0, 2.0, 0.0), Vec3::splat(2.0)),
                "{w}"
            );
            assert!(same_turn(out[0].rotation, Quat::from_rotation_z(45f32.to_radians())) < 1e-3, "{w}");
            let mut numbers = [0.0];
            let total = accumulate_numbers(&mut numbers, 0.0, &[1.0], w);
            accumulate_numbers(&mut numbers, total, &[0.0], w);
            assert_eq!(numbers, [0.5], "{w}");
        }
        assert_eq!(total([3e38, 3e38, -1.0]), 2.0 * f64::from(3e38f32), "a weight below 0 counts as 0");
    }

    #[test]
    fn numbers_fold_into_their_weighted_average() {
        let mut out = [0.0; 2];
        let total = accumulate_numbers(&mut out, 0.0, &[1.0, 0.0], 1.0);
        let total = accumulate_numbers(&mut out, total, &[0.0, 0.5], 3.0);
        assert_eq!(total, 4.0);
        assert_eq!(out, [0.25, 0.375]);
        assert_eq!(
            accumulate_numbers(&mut out, total, &[9.0, 9.0], 0.0),
            total,
            "a weight of 0 adds nothing"
        );
        assert_eq!(out, [0.25, 0.375]);
    }
}
