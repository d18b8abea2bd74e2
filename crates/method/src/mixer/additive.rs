//! Additive layers: a clip played as a change on top of another (a nod, a breath, a wave of the
//! hand over a walk).
//!
//! An additive clip is stored **relative to a reference pose**: for each bone, how it differs from
//! that pose, not where it is. The reference ([`Against`]) is the clip's own first pose unless
//! another is given (three.js's `AnimationUtils.makeClipAdditive` and ozz-animation's additive
//! builder both use the first frame by default; three.js's additive example makes its one-pose
//! clips additive against another clip's first pose instead): the skeleton's rest pose, or another
//! clip's first pose. A clip that never leaves its reference adds nothing ([`adds_nothing`]): a
//! clip of one pose, against its own first pose, is one. The difference, or delta ([`delta`]):
//!
//! - rotation `Δq = conj(q_ref) · q`: the turn that takes the reference's rotation to the clip's;
//! - translation `Δt = t − t_ref`;
//! - scale `Δs = s / s_ref` (ozz's rule; three.js subtracts scales instead: the two agree when a
//!   clip does not animate scale, as the sample models' clips do not).
//!
//! Applied on top of a base pose at weight `w` ([`add`]): `q = q_base · slerp(I, Δq, w)`,
//! `t = t_base + w Δt`, `s = s_base · lerp(1, Δs, w)`. At `w = 0` nothing changes; at `w = 1` the
//! whole difference is added; in between, part of it. The reference pose itself has no difference
//! from itself, so it adds nothing. A negative weight takes the change away again: it applies the
//! inverse of what `|w|` adds, so `+w` then `−w` gives back the base.

use crate::clip::Clip;
use crate::morph::{MeshMorph, sample_weights};
use crate::skeleton::Skeleton;
use crate::transform::Trs;
use glam::{Quat, Vec3};

/// What an additive layer's clip is measured against: its reference pose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Against {
    /// The skeleton's rest pose (and the meshes' own morph weights).
    Rest,
    /// The clip's own first pose: the usual reference, and the default.
    Start,
    /// Another clip's first pose, by its index among the clips.
    Clip(usize),
}

/// The reference pose of an additive layer of `clip` measured `against`, one pose per bone.
pub fn reference_pose(clip: &Clip, against: Against, clips: &[Clip], skeleton: &Skeleton) -> Vec<Trs> {
    let mut reference: Vec<Trs> = skeleton.bones().iter().map(|b| b.rest).collect();
    match against {
        Against::Rest => {}
        Against::Start => clip.sample_at(skeleton, 0.0, &mut reference),
        Against::Clip(other) => clips[other].sample_at(skeleton, 0.0, &mut reference),
    }
    reference
}

/// The reference's morph weights, one per target of every mesh of `morphs`, into `out`.
pub fn reference_weights(
    clip: &Clip,
    against: Against,
    clips: &[Clip],
    morphs: &[MeshMorph],
    out: &mut [f32],
) {
    match against {
        Against::Rest => morphs.iter().for_each(|m| out[m.weights.clone()].copy_from_slice(&m.defaults)),
        Against::Start => sample_weights(clip, 0.0, morphs, out),
        Against::Clip(other) => sample_weights(&clips[other], 0.0, morphs, out),
    }
}

/// How many times [`adds_nothing`] samples a clip over its length (its first and last pose among them).
pub const SAMPLES: usize = 64;

/// Whether `clip`, measured against `reference` (one pose per bone), adds nothing at any of
/// [`SAMPLES`] + 1 times over its length, to `tolerance`, bones and morph weights alike: such a layer
/// changes no pose at any weight. Allocates its two poses.
pub fn adds_nothing(
    clip: &Clip,
    reference: &[Trs],
    weights: &[f32],
    skeleton: &Skeleton,
    morphs: &[MeshMorph],
) -> bool {
    let tolerance = 1e-6;
    let (mut pose, mut sampled) = (reference.to_vec(), weights.to_vec());
    (0..=SAMPLES).all(|i| {
        let t = clip.duration * i as f32 / SAMPLES as f32;
        clip.sample_at(skeleton, t, &mut pose);
        sample_weights(clip, t as f64, morphs, &mut sampled);
        let same = pose.iter().zip(reference).all(|(p, r)| {
            let d = delta(p, r);
            d.translation.abs().max_element() <= tolerance
                && d.rotation.xyz().abs().max_element() <= tolerance
                && (d.scale - Vec3::ONE).abs().max_element() <= tolerance
        });
        same && sampled.iter().zip(weights).all(|(s, w)| (s - w).abs() <= tolerance)
    })
}

/// How `pose` differs from `reference`, as a change that [`add`] can lay over another pose. A
/// reference scale of 0 on an axis has no ratio: that axis's change is taken as none (1).
pub fn delta(pose: &Trs, reference: &Trs) -> Trs {
    let ratio = |s: f32, r: f32| if r != 0.0 { s / r } else { 1.0 };
    Trs {
        translation: pose.translation - reference.translation,
        rotation: reference.rotation.conjugate() * pose.rotation,
        scale: Vec3::new(
            ratio(pose.scale.x, reference.scale.x),
            ratio(pose.scale.y, reference.scale.y),
            ratio(pose.scale.z, reference.scale.z),
        ),
    }
}

/// `base` with `weight` of the change `delta` laid over it.
pub fn add(base: &Trs, delta: &Trs, weight: f32) -> Trs {
    let w = weight.abs();
    // Part of the turn: slerp from no turn at all; glam takes the shorter arc, flipping Δq if needed.
    let turn = Quat::IDENTITY.slerp(delta.rotation, w);
    let grow = Vec3::ONE.lerp(delta.scale, w);
    if weight >= 0.0 {
        Trs {
            translation: base.translation + w * delta.translation,
            rotation: base.rotation * turn,
            scale: base.scale * grow,
        }
    } else {
        // Taking the change away: the inverse of each step above, so that +w then -w cancels.
        Trs {
            translation: base.translation - w * delta.translation,
            rotation: base.rotation * turn.conjugate(),
            scale: base.scale / grow,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pose(t: [f32; 3], axis: Vec3, degrees: f32, s: [f32; 3]) -> Trs {
        Trs {
            translation: Vec3::from(t),
            rotation: Quat::from_axis_angle(axis.normalize(), degrees.to_radians()),
            scale: Vec3::from(s),
        }
    }

    fn close(a: &Trs, b: &Trs, tolerance: f32) -> bool {
        a.translation.abs_diff_eq(b.translation, tolerance)
            && (a.rotation.dot(b.rotation).abs() - 1.0).abs() < tolerance
            && a.scale.abs_diff_eq(b.scale, tolerance)
    }

    #[test]
    fn weight_zero_or_the_reference_itself_leaves_the_base_unchanged() {
        let base = pose([1.0, -2.0, 0.5], Vec3::new(1.0, 2.0, 3.0), 64.0, [1.0, 2.0, 1.0]);
        let reference = pose([0.0, 1.0, 0.0], Vec3::Y, 30.0, [2.0, 2.0, 2.0]);
        let clip = pose([3.0, 1.0, 1.0], Vec3::X, -50.0, [1.0, 4.0, 2.0]);
        assert_eq!(add(&base, &delta(&clip, &reference), 0.0), base, "weight 0 changed the base");
        let nothing = delta(&reference, &reference);
        for w in [0.3, 1.0, -0.6] {
            assert!(close(&add(&base, &nothing, w), &base, 1e-6), "the reference's own delta moved the base");
        }
    }

    #[test]
    fn the_whole_delta_turns_moves_and_scales_by_the_difference() {
        // Worked out by hand: the reference turned 30° about z, the clip 100°: the delta is 70°
        // about z, added to a base at 10° it gives 80°; translations and scales likewise.
        let reference = pose([1.0, 0.0, 0.0], Vec3::Z, 30.0, [2.0, 2.0, 2.0]);
        let clip = pose([1.0, 3.0, 0.0], Vec3::Z, 100.0, [3.0, 2.0, 1.0]);
        let base = pose([0.0, 0.0, 5.0], Vec3::Z, 10.0, [1.0, 1.0, 1.0]);
        let full = add(&base, &delta(&clip, &reference), 1.0);
        assert!(close(&full, &pose([0.0, 3.0, 5.0], Vec3::Z, 80.0, [1.5, 1.0, 0.5]), 1e-6), "{full:?}");
        // Half of it: 35° more, 1.5 up, and the scale halfway from 1 to 1.5, 1 and 0.5.
        let half = add(&base, &delta(&clip, &reference), 0.5);
        assert!(close(&half, &pose([0.0, 1.5, 5.0], Vec3::Z, 45.0, [1.25, 1.0, 0.75]), 1e-6), "{half:?}");
    }

    #[test]
    fn plus_w_then_minus_w_cancels() {
        let base = pose([0.2, 0.4, -1.0], Vec3::new(0.0, 1.0, 1.0), -140.0, [0.5, 1.0, 2.0]);
        let reference = pose([1.0, 1.0, 1.0], Vec3::X, 170.0, [1.0, 2.0, 4.0]);
        let clip = pose([-2.0, 0.0, 3.0], Vec3::new(1.0, -1.0, 0.0), -160.0, [3.0, 1.0, 0.5]);
        let d = delta(&clip, &reference);
        for w in [0.25, 0.6, 1.0] {
            let there = add(&base, &d, w);
            assert!(!close(&there, &base, 1e-3), "w = {w} should change the base");
            let back = add(&there, &d, -w);
            assert!(close(&back, &base, 1e-5), "w = {w}: {back:?} is not {base:?}");
        }
    }

    #[test]
    fn a_delta_in_the_other_hemisphere_still_takes_the_short_way() {
        // The same clip rotation stored as q or -q gives the same change.
        let reference = pose([0.0; 3], Vec3::Y, 20.0, [1.0; 3]);
        let mut clip = pose([0.0; 3], Vec3::Y, 60.0, [1.0; 3]);
        let base = Trs::IDENTITY;
        let one = add(&base, &delta(&clip, &reference), 0.5);
        clip.rotation = -clip.rotation;
        let other = add(&base, &delta(&clip, &reference), 0.5);
        assert!(close(&one, &other, 1e-6));
        assert!(close(&one, &pose([0.0; 3], Vec3::Y, 20.0, [1.0; 3]), 1e-6), "half of 40° is 20°");
    }
}
