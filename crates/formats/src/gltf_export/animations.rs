//! The clips, as keyed channels (spec, "Animations"): a keyframed clip's tracks key for key (STEP,
//! LINEAR, CUBICSPLINE); a procedural clip (`seed`) sampled [`SAMPLES_PER_SECOND`] times a second,
//! LINEAR. The keys of a top bone are turned with its rest transform for a Z-up model (`nodes.rs`).
//! A track's morph weights go to the node of the mesh they move (`morphs.rs`).

use super::buffer::File;
use super::error::ExportError;
use super::json::Animation;
use super::nodes::{Nodes, Turn};
use glam::{Quat, Vec3};
use skinning_method::clip::{Channel, Clip, Keyable, Motion, Track};
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
                    let (clip, duration) = (clip.name.clone(), clip.duration);
                    return Err(ExportError::Duration { clip, duration, last_key });
                }
                Ok(tracks.clone())
            }
            Motion::Procedural(animate) => Ok(sampled(skeleton, clip.duration, *animate)),
        })
        .collect()
}

/// Every clip that moves something as an animation (the spec wants at least one channel); its
/// weight channels go to the morphed meshes' nodes (`morphed`: bone, node, targets; `morphs.rs`).
pub fn animations(
    file: &mut File,
    clips: &[Clip],
    tracks: &[Vec<Track>],
    (nodes, morphed): (&Nodes, &[(usize, usize, usize)]),
    turn: Turn,
) -> Result<(), ExportError> {
    for (clip, tracks) in clips.iter().zip(tracks) {
        let mut animation = Animation { name: clip.name.clone(), ..Animation::default() };
        for track in tracks {
            super::morphs::weight_channels(file, &mut animation, track, morphed)?;
            let Some(node) = nodes.node_of.get(track.bone).copied().flatten() else { continue };
            let turn = Turn(turn.0 && nodes.top[track.bone]);
            let point = |v: &Vec3| turn.point(*v).to_array();
            let rotation = |q: &Quat| turn.rotation(*q).to_array();
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
fn sampled(skeleton: &Skeleton, duration: f32, animate: fn(f32, &mut [Trs])) -> Vec<Track> {
    let intervals = (duration * SAMPLES_PER_SECOND).ceil().max(0.0) as usize;
    let times: Vec<f32> = (0..=intervals).map(|k| duration * k as f32 / intervals.max(1) as f32).collect();
    // The pose at every key time, each bone's T, R and S. The last key is the motion at the clip's
    // very end (the function is continuous there); then the loop starts over.
    let poses: Vec<Vec<Trs>> = times
        .iter()
        .map(|&t| {
            let mut pose: Vec<Trs> = skeleton.bones().iter().map(|b| b.rest).collect();
            animate(t, &mut pose);
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
