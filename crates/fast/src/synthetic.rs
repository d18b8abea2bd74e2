//! A made-up skinned mesh of any size, for measuring what skinning costs.
//!
//! The article's arm has 13 vertices: far too few to time. Here is a **tube** instead: a chain of
//! bones along +x, each `BONE_LENGTH` long, and around it rings of vertices, like a snake's skin.
//!
//! ```text
//!   ring:  ( ( ( ( ( ( ( ( ( ( ( (      every ring is `ring_size` vertices on a circle
//!   bones: o----o----o----o----o----o    bone b's joint at x = b * BONE_LENGTH
//! ```
//!
//! Every vertex gets four influences (a real character's usual most, and what `VertexInfluences` holds in
//! its slots): the four bones whose middles are nearest along the chain, each weighted by a bell curve
//! of its distance, `exp(-d²)` with `d` in bone lengths, then divided by their sum so the weights add
//! up to 1. Nearby bones pull hardest, and the weights change smoothly along the tube, so a bent chain
//! bends the tube smoothly. Each vertex's bind normal points straight out from the chain, so the
//! normals can be timed too.
//!
//! [`wave`] moves it: every bone turns a little about z, the turn travelling down the chain.

use glam::{Quat, Vec3, vec3};
use skinning_method::clip::{Clip, Motion};
use skinning_method::model::Model;
use skinning_method::skeleton::{SkeletonBuilder, compute_offsets};
use skinning_method::skin::{Influence, Joint, SLOTS, Skin};
use skinning_method::transform::Trs;
use std::f32::consts::TAU;

/// How long each bone is, along x.
pub const BONE_LENGTH: f32 = 1.0;
/// The radius of the tube.
pub const RADIUS: f32 = 0.3;

/// A tube of `rings * ring_size` vertices around a chain of `bones` bones, each vertex on the four
/// nearest bones (fewer if the chain is shorter).
///
/// # Panics
/// If `bones`, `rings` or `ring_size` is 0, or a vertex's nearest bone is past joint 65,535 (a
/// slot's joint is a `u16`).
pub fn tube(bones: usize, rings: usize, ring_size: usize) -> Model {
    assert!(bones > 0 && rings > 0 && ring_size > 0, "a tube needs bones, rings and vertices per ring");

    // The chain: bone 0 at the origin, each next bone one length further along x, in its parent's space.
    let mut b = SkeletonBuilder::new();
    for i in 0..bones {
        let position = if i == 0 { Vec3::ZERO } else { vec3(BONE_LENGTH, 0.0, 0.0) };
        b.bone(&format!("bone{i}"), position);
    }
    for i in 1..bones {
        b.set_first_child(i - 1, i);
    }
    let skeleton = b.build().expect("a chain is a tree");
    // Modelled in the rest pose, like the article's arm: every bone a joint, offsets from the tree.
    let offsets = compute_offsets(&skeleton.rest_world());
    let joints = offsets.into_iter().enumerate().map(|(bone, offset)| Joint { bone, offset }).collect();

    let length = bones as f32 * BONE_LENGTH;
    let used = bones.min(SLOTS);
    let mut skin = Skin::new(joints);
    let mut influences = [Influence { joint: 0, weight: 0.0 }; SLOTS];
    let mut normals = Vec::with_capacity(rings * ring_size);
    for ring in 0..rings {
        // Rings sit at the middles of equal slices of the chain, so none is exactly on an end.
        let x = (ring as f32 + 0.5) / rings as f32 * length;
        // Where x falls along the chain, in bones, measured from bone 0's middle.
        let s = x / BONE_LENGTH - 0.5;
        // The four bones around s: from the one before the nearest-below to two after, kept on the chain.
        let first = (s.floor() as isize - 1).clamp(0, (bones - used) as isize) as usize;
        let mut sum = 0.0;
        for (slot, influence) in influences[..used].iter_mut().enumerate() {
            let bone = first + slot;
            let d = s - bone as f32;
            *influence = Influence { joint: bone, weight: (-d * d).exp() };
            sum += influence.weight;
        }
        for influence in &mut influences[..used] {
            influence.weight /= sum;
        }
        for k in 0..ring_size {
            let angle = TAU * k as f32 / ring_size as f32;
            let outward = vec3(0.0, angle.cos(), angle.sin());
            skin.add_vertex(vec3(x, 0.0, 0.0) + RADIUS * outward, &influences[..used])
                .expect("weights are positive and sum to 1");
            normals.push(outward);
        }
    }
    skin.set_normals(&normals).expect("one unit normal per vertex");
    // Each ring drawn as a closed loop.
    let edges = (0..rings * ring_size)
        .map(|v| [v as u32, ((v / ring_size) * ring_size + (v + 1) % ring_size) as u32])
        .collect();
    Model::new(skeleton, skin, edges).expect("the skin was made for this skeleton")
}

/// Seconds for the wave to come back to the start.
pub const WAVE_PERIOD: f32 = 2.0;
/// The most any one bone turns, in radians (about 6 degrees: 64 of them curl the tube right round).
pub const WAVE_ANGLE: f32 = 0.1;

/// Every bone turns about z by up to `WAVE_ANGLE`, each a little later than its parent, so a wave
/// runs down the tube. Works for a chain of any length.
pub fn wave() -> Clip {
    Clip { name: "wave".into(), duration: WAVE_PERIOD, motion: Motion::Procedural(wave_motion) }
}

fn wave_motion(t: f32, bone: usize, local: &mut Trs) {
    let phase = TAU * t / WAVE_PERIOD - 0.3 * bone as f32;
    // Turn in the bone's own space, after placing it: the bind translation stays.
    local.rotation *= Quat::from_rotation_z(WAVE_ANGLE * phase.sin());
}

#[cfg(test)]
mod tests {
    use super::*;
    use skinning_method::frame::Pose;
    use skinning_method::skin::WEIGHT_SUM_TOLERANCE;

    #[test]
    fn counts_are_what_was_asked_for() {
        let model = tube(64, 25, 16);
        assert_eq!(model.skeleton.len(), 64);
        assert_eq!(model.skin.len(), 25 * 16);
        assert!(model.skin.slots_used().iter().all(|&used| used == 4), "four influences everywhere");
        // A chain shorter than four bones uses every bone it has.
        let short = tube(2, 3, 5);
        assert_eq!(short.skin.len(), 15);
        assert!(short.skin.slots_used().iter().all(|&used| used == 2));
    }

    #[test]
    fn weights_sum_to_one_and_the_nearest_bone_weighs_most() {
        let model = tube(64, 200, 4);
        for (i, p) in model.skin.bind().iter().enumerate() {
            let sum: f32 = model.skin.influences(i).map(|inf| inf.weight).sum();
            assert!((sum - 1.0).abs() < WEIGHT_SUM_TOLERANCE, "vertex {i}: weights sum to {sum}");
            // The bone whose middle is nearest along x pulls hardest.
            let nearest = ((p.x / BONE_LENGTH) as usize).min(63);
            let heaviest =
                model.skin.influences(i).max_by(|a, b| a.weight.total_cmp(&b.weight)).map(|inf| inf.joint);
            assert_eq!(heaviest, Some(nearest), "vertex {i} at x = {}", p.x);
        }
    }

    #[test]
    fn vertices_sit_on_the_tube() {
        let model = tube(8, 10, 12);
        for p in model.skin.bind_positions() {
            assert!((p.y.hypot(p.z) - RADIUS).abs() < 1e-5, "{p} is off the tube");
            assert!(p.x > 0.0 && p.x < 8.0 * BONE_LENGTH, "{p} is off the chain");
        }
    }

    #[test]
    fn bind_pose_in_bind_positions_out() {
        let model = tube(64, 100, 8);
        let pose = Pose::new(&model);
        for (i, (s, b)) in pose.skinned.iter().zip(model.skin.bind_positions()).enumerate() {
            assert!(Vec3::from(*s).abs_diff_eq(b, 1e-4), "vertex {i}: {s} != {b}");
        }
    }

    #[test]
    fn the_wave_bends_the_tube_without_stretching_the_bones() {
        let model = tube(64, 100, 8);
        let mut pose = Pose::new(&model);
        pose.update(&model, &wave(), 0.7);
        // The tip has swung away from the x axis...
        let tip = pose.joint(63);
        assert!(tip.y.abs() > 1.0, "the tip should have moved, it is at {tip}");
        // ...but every bone is still one length from its parent: rotations only.
        for bone in 1..64 {
            let length = pose.joint(bone).distance(pose.joint(bone - 1));
            assert!((length - BONE_LENGTH).abs() < 1e-4, "bone {bone} is {length} long");
        }
    }
}
