//! A clip from another body: one skeleton's clip made into another skeleton's own (three.js's
//! `SkeletonUtils.retargetClip`; engines call it retargeting).
//!
//! Two rigs that share bone names rarely share their rest poses. A Mixamo hips may stand a metre
//! up with its axes turned one way, another rig's a little lower with its axes turned another way.
//! A local rotation copied from one to the other would turn each bone about the wrong axes. What
//! carries over is the **change from rest, in world terms**: for a source bone whose world
//! rotation is `S(t)` and whose rest world rotation is `S₀`, the turn it has made is `S(t) S₀⁻¹`,
//! and the matched target bone makes the same turn from its own rest, `T(t) = S(t) S₀⁻¹ T₀`. Its
//! local rotation is then what its parent's world rotation leaves, `P(t)⁻¹ T(t)`, so the bones
//! are worked out from the root down ([`retarget_clip`]).
//!
//! Rotations say nothing of size. The hips' travel is scaled by the ratio of the two legs'
//! lengths ([`leg_length`]): a rig twice as tall strides twice as far. The hips' world position is
//! the target's rest plus that many times the source's move from its rest; any other matched
//! bone's translation moves from its rest by the same ratio times the source's move in its parent.
//! A target bone no source bone matches keeps its rest pose. Two models whose numbers stand along
//! different axes (an MD5 model is Z-up, a glTF one Y-up) have the source's turns, and the hips'
//! travel, turned into the target's axes first ([`Matching::turn`]). The clip is written as the target's
//! own keys: one linear key per key time of the source's clip (and 60 a second where the source
//! is not linear), so a program can play it, export it, or root-motion it as any other.

use crate::clip::Clip;
use crate::clip::{Channel, Interpolation, Motion, Track};
use crate::skeleton::{BoneId, Skeleton};
use crate::transform::Trs;
use glam::{Mat4, Quat, Vec3};

/// Which source bone each target bone takes its motion from (None: it keeps its rest pose), and
/// the hips: the bone whose travel is scaled, and by how much.
#[derive(Clone, Debug, PartialEq)]
pub struct Matching {
    /// One entry per target bone.
    pub source_of: Vec<Option<BoneId>>,
    /// The target's hips and the source's, if both have them.
    pub hips: Option<(BoneId, BoneId)>,
    /// Target leg length over source leg length.
    pub ratio: f32,
    /// The turn from the source's world axes to the target's: identity for two models that stand
    /// and face the same way; an MD5 model (Z up, facing +x) and a glTF one (Y up, facing +z) need
    /// one (`Axes::turn_to_gltf`, chapter 10).
    pub turn: Quat,
}

/// How far the hips stand above the lowest joint under them in the rest pose, along `up`: the
/// leg's length. (Only the hips' own subtree counts: an armature or a mesh's node at the origin is
/// no foot.)
pub fn leg_length(skeleton: &Skeleton, hips: BoneId, up: Vec3) -> f32 {
    let world = skeleton.rest_world();
    let height = |b: BoneId| world[b].w_axis.truncate().dot(up);
    let (mut lowest, mut stack) = (height(hips), vec![hips]);
    while let Some(bone) = stack.pop() {
        lowest = lowest.min(height(bone));
        let mut child = skeleton.bone(bone).first_child;
        while let Some(c) = child {
            stack.push(c);
            child = skeleton.bone(c).sibling;
        }
    }
    height(hips) - lowest
}

/// The times a retargeted clip keys: every key time of `clip`'s channels, its start and end, and
/// every 1/60 s where it is not linear (a step, a spline, a procedural clip).
fn key_times(clip: &Clip) -> Vec<f32> {
    let mut times = vec![0.0, clip.duration];
    let mut linear = true;
    match &clip.motion {
        Motion::Keyframes(tracks) => {
            for track in tracks {
                let mut add = |times_of: &[f32], how: Interpolation| {
                    times.extend_from_slice(times_of);
                    linear &= how == Interpolation::Linear || times_of.len() < 2;
                };
                if let Some(c) = &track.translation {
                    add(&c.times, c.interpolation);
                }
                if let Some(c) = &track.rotation {
                    add(&c.times, c.interpolation);
                }
                if let Some(c) = &track.scale {
                    add(&c.times, c.interpolation);
                }
            }
        }
        Motion::Procedural(_) => linear = false,
    }
    if !linear {
        let steps = (clip.duration * 60.0).ceil() as usize;
        times.extend((0..steps).map(|i| i as f32 / 60.0));
    }
    times.retain(|t| t.is_finite() && *t >= 0.0 && *t <= clip.duration);
    times.sort_by(f32::total_cmp);
    times.dedup_by(|a, b| (*a - *b).abs() <= 1e-6);
    times
}

/// Every bone of `skeleton`, each after its parent.
fn parents_first(skeleton: &Skeleton) -> Vec<BoneId> {
    let mut order = Vec::with_capacity(skeleton.len());
    let mut stack = vec![skeleton.root()];
    while let Some(bone) = stack.pop() {
        order.push(bone);
        let mut child = skeleton.bone(bone).first_child;
        while let Some(c) = child {
            stack.push(c);
            child = skeleton.bone(c).sibling;
        }
    }
    order
}

/// The rotation part of a world transform.
fn rotation_of(m: &Mat4) -> Quat {
    m.to_scale_rotation_translation().1
}

/// `clip`, made for `source`, as a clip of `target`, the bones matched as `matching` says.
pub fn retarget_clip(source: &Skeleton, clip: &Clip, target: &Skeleton, matching: &Matching) -> Clip {
    let (source_rest, target_rest) = (source.rest_world(), target.rest_world());
    let order = parents_first(target);
    let times = key_times(clip);
    let mut local = vec![Trs::IDENTITY; source.len()];
    let mut source_world = vec![Mat4::IDENTITY; source.len()];
    let mut target_world = vec![Mat4::IDENTITY; target.len()];
    // Per target bone, its keys: (time, translation, rotation).
    let mut keys: Vec<Vec<(f32, Vec3, Quat)>> = vec![Vec::with_capacity(times.len()); target.len()];
    for &t in &times {
        clip.sample_at(source, t, &mut local);
        let matrices: Vec<Mat4> = local.iter().map(Trs::to_mat4).collect();
        source.compute_world(&matrices, &mut source_world);
        for &b in &order {
            let parent = target.bone(b).parent.map_or(Mat4::IDENTITY, |p| target_world[p]);
            let rest = target.bone(b).rest;
            let pose = match matching.source_of[b] {
                None => rest,
                Some(s) => {
                    let turned = rotation_of(&source_world[s]) * rotation_of(&source_rest[s]).inverse();
                    let turned = matching.turn * turned * matching.turn.inverse();
                    let world = (turned * rotation_of(&target_rest[b])).normalize();
                    let rotation = (rotation_of(&parent).inverse() * world).normalize();
                    let moved = local[s].translation - source.bone(s).rest.translation;
                    let mut translation = rest.translation + matching.ratio * moved;
                    if matching.hips == Some((b, s)) {
                        let from = source_world[s].w_axis.truncate() - source_rest[s].w_axis.truncate();
                        let at = target_rest[b].w_axis.truncate() + matching.ratio * (matching.turn * from);
                        translation = parent.inverse().transform_point3(at);
                    }
                    Trs { translation, rotation, scale: rest.scale }
                }
            };
            target_world[b] = parent * pose.to_mat4();
            if matching.source_of[b].is_some() {
                keys[b].push((t, pose.translation, pose.rotation));
            }
        }
    }
    let tracks = (0..target.len())
        .filter(|&b| !keys[b].is_empty())
        .map(|b| {
            let moves: Vec<(f32, Vec3)> = keys[b].iter().map(|&(t, p, _)| (t, p)).collect();
            let turns: Vec<(f32, Quat)> = keys[b].iter().map(|&(t, _, q)| (t, q)).collect();
            Track {
                translation: Some(Channel::linear(&moves)),
                rotation: Some(Channel::linear(&turns)),
                ..Track::new(b)
            }
        })
        .collect();
    Clip { name: clip.name.clone(), duration: clip.duration, motion: Motion::Keyframes(tracks) }
}

#[cfg(test)]
mod tests;
