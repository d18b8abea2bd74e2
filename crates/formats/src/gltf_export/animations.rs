//! The clips, as keyed channels (spec, "Animations"): a keyframed clip's tracks key for key (STEP,
//! LINEAR, CUBICSPLINE); a procedural clip (`seed`) sampled [`SAMPLES_PER_SECOND`] times a second,
//! LINEAR. The keys of a top bone are turned with its rest transform for a Z-up model (`nodes.rs`).
//! A track's morph weights go to the node of the mesh they move (`morphs.rs`). A channel of one key
//! that holds its bone at rest moves nothing, and is left out ([`without_holds`]): a clip read from
//! MD5 has one for every joint its frames leave alone.

use super::buffer::File;
use super::error::ExportError;
use super::json::Animation;
use super::morphs::{MorphedMesh, weight_channels};
use super::nodes::{Nodes, Turn};
use glam::{Quat, Vec3};
use skinning_method::clip::{Channel, Clip, Keyable, Motion, Track};
use skinning_method::model::Axes;
use skinning_method::skeleton::{Skeleton, Trs};

/// Keys per second for a procedural clip. Between two keys a viewer goes in a straight line, off
/// the curve by at most `a * w² * h² / 8` for a motion `a * sin(w t)` sampled every `h` seconds.
/// In `seed` bone1 slides by 0.2 at w = π/2 and bone32 by 0.1 at w = π; a vertex on bone32 gets
/// both, at most 0.185 h²: 2.1e-4 at 30 keys a second, five times inside the 1e-3 the round trip
/// promises (15 would leave 8.2e-4, too close). 121 keys for its 4 seconds.
pub const SAMPLES_PER_SECOND: f32 = 30.0;

/// Every clip's tracks, keyframed as they are or sampled.
pub fn tracks(skeleton: &Skeleton, clips: &[Clip]) -> Result<Vec<Vec<Track>>, ExportError> {
    clips
        .iter()
        .map(|clip| match &clip.motion {
            Motion::Keyframes(tracks) => {
                let last_key = tracks.iter().map(Track::end).fold(0.0, f32::max);
                if !tracks.is_empty() && last_key != clip.duration {
                    return Err(ExportError::Duration {
                        clip: clip.name.clone(),
                        duration: clip.duration,
                        last_key,
                    });
                }
                Ok(without_holds(skeleton, tracks, clip.duration))
            }
            Motion::Procedural(animate) => Ok(sampled(skeleton, clip.duration, *animate)),
        })
        .collect()
}

/// How close to the rest value a key that holds a bone there is: a part of the skeleton's size (its
/// longest rest translation) for a translation, of 1 for a rotation or a scale. That is the
/// rounding of a pose that went through another file's numbers (an MD5 joint's bind pose is the
/// inverse of an inverse bind matrix, and MD5 numbers are written to a millionth of the model's
/// size: `md5_export/text.rs`).
const HELD: f32 = 1e-5;

/// `tracks` without their channels of one key at the bone's rest value (within [`HELD`]), and without
/// the tracks left empty; as they are if that would leave the clip nothing that reaches its end
/// (`duration`): its length comes from its last key.
fn without_holds(skeleton: &Skeleton, tracks: &[Track], duration: f32) -> Vec<Track> {
    fn held<T: Keyable>(channel: &mut Option<Channel<T>>, rest: T, same: impl Fn(T, T) -> bool) {
        if channel.as_ref().is_some_and(|c| c.values.len() == 1 && same(c.values[0], rest)) {
            *channel = None;
        }
    }
    let size = skeleton.bones().iter().map(|b| b.rest.translation.length()).fold(0.0, f32::max);
    let size = if size > 0.0 && size.is_finite() { size } else { 1.0 };
    let mut kept = Vec::with_capacity(tracks.len());
    for track in tracks {
        let Some(bone) = skeleton.bones().get(track.bone) else { return tracks.to_vec() };
        let rest = bone.rest;
        let mut track = track.clone();
        held(&mut track.translation, rest.translation, |a, b| a.abs_diff_eq(b, HELD * size));
        held(&mut track.rotation, rest.rotation, |a, b| a.abs_diff_eq(b, HELD) || a.abs_diff_eq(-b, HELD));
        held(&mut track.scale, rest.scale, |a, b| a.abs_diff_eq(b, HELD * b.length()));
        if track.translation.is_some()
            || track.rotation.is_some()
            || track.scale.is_some()
            || !track.weights.is_empty()
        {
            kept.push(track);
        }
    }
    let last_key = kept.iter().map(Track::end).fold(0.0, f32::max);
    if kept.is_empty() || last_key != duration { tracks.to_vec() } else { kept }
}

/// Every clip that moves something as an animation (the spec wants at least one channel); its
/// weight channels go to the morphed meshes' nodes (`morphed`, `morphs.rs`).
pub fn animations<'a>(
    file: &mut File<'a, '_>,
    clips: &[Clip],
    tracks: &'a [Vec<Track>],
    nodes: &Nodes,
    morphed: &[MorphedMesh],
    turn: Turn,
) -> Result<(), ExportError> {
    for (clip, tracks) in clips.iter().zip(tracks) {
        let mut animation = Animation { name: clip.name.clone(), ..Animation::default() };
        for track in tracks {
            weight_channels(file, &mut animation, track, morphed)?;
            let Some(node) = nodes.node_of.get(track.bone).copied().flatten() else { continue };
            // Only a top bone's keys turn: below it, its parent's turn carries it.
            let turn = if nodes.top[track.bone] { turn } else { Turn(Axes::GLTF) };
            let point = move |v: &Vec3| turn.point(*v).to_array();
            let rotation = move |q: &Quat| turn.rotation(*q).to_array();
            file.channel(&mut animation, node, "translation", track.translation.as_ref(), point);
            file.channel(&mut animation, node, "rotation", track.rotation.as_ref(), rotation);
            file.channel(&mut animation, node, "scale", track.scale.as_ref(), |v| v.to_array());
        }
        if !animation.channels.is_empty() {
            file.root.animations.push(animation);
        }
    }
    Ok(())
}

/// A procedural clip as LINEAR keys every 1 / [`SAMPLES_PER_SECOND`] s, from 0 to the clip's end,
/// both included. Each bone gets a channel for each part of its rest transform the motion changes.
fn sampled(skeleton: &Skeleton, duration: f32, animate: fn(f32, usize, &mut Trs)) -> Vec<Track> {
    let intervals = (duration * SAMPLES_PER_SECOND).ceil().max(0.0) as usize;
    let times: Vec<f32> = (0..=intervals).map(|k| duration * k as f32 / intervals.max(1) as f32).collect();
    // The pose at every key time, each bone's T, R and S. The last key is the motion at the clip's
    // very end (the function is continuous there); then the loop starts over.
    let poses: Vec<Vec<Trs>> = times
        .iter()
        .map(|&t| {
            let mut pose: Vec<Trs> = skeleton.bones().iter().map(|b| b.rest).collect();
            for (bone, local) in pose.iter_mut().enumerate() {
                animate(t, bone, local);
            }
            pose
        })
        .collect();
    let mut tracks = Vec::new();
    for (bone, rest) in skeleton.bones().iter().map(|b| b.rest).enumerate() {
        let pose = |k: usize| poses[k][bone];
        let mut rotation = changing(&times, |k| pose(k).rotation, rest.rotation, Quat::abs_diff_eq);
        // q and -q are the same turn: keep each key on the side of the one before, so that a viewer
        // that blends the four numbers directly does not swing the long way round.
        for values in rotation.iter_mut().map(|c| &mut c.values) {
            for k in 1..values.len() {
                if values[k].dot(values[k - 1]) < 0.0 {
                    values[k] = -values[k];
                }
            }
        }
        let track = Track {
            translation: changing(&times, |k| pose(k).translation, rest.translation, Vec3::abs_diff_eq),
            rotation,
            scale: changing(&times, |k| pose(k).scale, rest.scale, Vec3::abs_diff_eq),
            ..Track::new(bone)
        };
        if track.translation.is_some() || track.rotation.is_some() || track.scale.is_some() {
            tracks.push(track);
        }
    }
    tracks
}

/// A LINEAR channel with `value(k)` at `times[k]`, or None when every value is `rest` (within 1e-6).
fn changing<T: Keyable>(
    times: &[f32],
    value: impl Fn(usize) -> T,
    rest: T,
    same: fn(T, T, f32) -> bool,
) -> Option<Channel<T>> {
    let keys: Vec<(f32, T)> = times.iter().enumerate().map(|(k, &t)| (t, value(k))).collect();
    keys.iter().any(|&(_, v)| !same(v, rest, 1e-6)).then(|| Channel::linear(&keys))
}
