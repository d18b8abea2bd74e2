//! Animations become clips (spec, "Animations").
//!
//! A glTF animation is a list of **channels**; each moves one property of one node (`translation`,
//! `rotation`, `scale`, or morph `weights`) by a **sampler**: key times (`input`, seconds), values
//! (`output`) and an `interpolation`. That is the article's keyframed track, one channel at a time,
//! each with its own key times, so a node's channels gather into one [`Track`] of its bone.
//!
//! - LINEAR interpolates translation and scale with lerp, rotation with slerp;
//! - STEP holds each key's value until the next key;
//! - CUBICSPLINE stores three values per key: in-tangent, value, out-tangent (`clip.rs` scales the
//!   tangents by the key interval, as the spec's Hermite formula does, and normalises rotations).
//!
//! Rotations are unit quaternions `x, y, z, w`, possibly stored as normalized integers. Key times
//! must increase (spec: strictly). A clip lasts until its last key, and loops.
//!
//! A `weights` channel moves the morph weights of the mesh on its node, all of its targets at once:
//! each key holds one value per target (CUBICSPLINE: every target's in-tangent, then every
//! target's value, then every target's out-tangent). It is split here into one channel per target
//! (`Track::weights`), so each samples like any other channel. A channel for a node without morph
//! targets (or whose targets were left out), or with values that are not one per target and key,
//! is left out, and said once.
//!
//! Keys cost memory once per channel that keeps them, however many channels share a sampler, so
//! they are spent from the model's budget (`budget::KEYS`) before they are read: the translation,
//! rotation and scale channels' first (past it, the model is refused in one line), then each
//! weights channel's keys times its targets (past it, that channel is left out, and said).

use super::accessors::read_floats;
use super::error::{ImportError, counted, label};
use crate::budget::{self, Budget};
use glam::{Quat, Vec3};
use gltf::animation::Property;
use skinning_method::clip::{Channel, Clip, Interpolation, Keyable, Motion, Track};
use skinning_method::morph::MeshMorph;
use skinning_method::printable::quoted;
use std::collections::BTreeMap;

/// The name of the clip shown for a file without animations: the nodes' rest pose.
pub const REST: &str = "rest";

/// One clip per animation, in file order; a file without animations gets one clip, [`REST`].
pub fn clips(
    document: &gltf::Document,
    buffers: &[Vec<u8>],
    notes: &mut Vec<String>,
    morphs: &[MeshMorph],
) -> Result<Vec<Clip>, ImportError> {
    let mut clips = Vec::new();
    let mut keys = Budget::new("animation keys (keys x channels)", budget::KEYS);
    spend_transform_keys(document, &mut keys)?;
    let mut weights_left_out = LeftOut::default();
    // Animations with key times before 0 s, as messages name them.
    let mut before_zero = Vec::new();
    for animation in document.animations() {
        let name = animation.name().map_or_else(|| format!("animation{}", animation.index()), str::to_string);
        let mut tracks: BTreeMap<usize, Track> = BTreeMap::new();
        for (c, channel) in animation.channels().enumerate() {
            let fail = |problem: String| ImportError::Animation {
                animation: label(animation.index(), animation.name()),
                channel: c,
                problem,
            };
            let sampler = channel.sampler();
            let node = channel.target().node().index();
            let targets = || morphs.iter().find(|m| m.bone == node).map(MeshMorph::target_count);
            // A weights channel becomes one channel per target: spent before a key is read, as
            // one sampler may move the weights of many nodes.
            if channel.target().property() == Property::MorphTargetWeights
                && let Some(n) = targets()
                && let Err(why) = keys.spend(sampler.input().count() as u64 * n as u64)
            {
                weights_left_out.add(c, &name, format!("its {why}"));
                continue;
            }
            let interpolation = match sampler.interpolation() {
                gltf::animation::Interpolation::Linear => Interpolation::Linear,
                gltf::animation::Interpolation::Step => Interpolation::Step,
                gltf::animation::Interpolation::CubicSpline => Interpolation::CubicSpline,
            };
            let usage = format!("key times of animation {}", quoted(&name));
            let times: Vec<f32> =
                read_floats::<1>(&sampler.input(), buffers, &usage)?.into_iter().map(|[t]| t).collect();
            if times[0] < 0.0 && before_zero.last() != Some(&animation.index()) {
                before_zero.push(animation.index());
            }
            if let Some(k) = times.windows(2).position(|w| w[1] <= w[0]) {
                return Err(fail(format!(
                    "key {} at {} s does not come after key {k} at {} s",
                    k + 1,
                    times[k + 1],
                    times[k]
                )));
            }
            let track = tracks.entry(node).or_insert_with(|| Track::new(node));
            let output = sampler.output();
            let usage = format!("values of animation {}", quoted(&name));
            let property = channel.target().property();
            if property != Property::MorphTargetWeights {
                transform_channel(track, property, &output, buffers, &usage, times, interpolation, fail)?;
            } else {
                match weight_channels(&output, buffers, &usage, times, interpolation, targets()) {
                    Ok(channels) => track.weights = channels,
                    Err(why) => weights_left_out.add(c, &name, why),
                }
            }
        }
        let tracks: Vec<Track> = tracks.into_values().collect();
        // A clip lasts until the last key of any of its channels.
        let duration = tracks.iter().map(Track::end).fold(0.0, f32::max);
        clips.push(Clip { name, duration, motion: Motion::Keyframes(tracks) });
    }
    say_before_zero(document, &before_zero, notes);
    weights_left_out.say(notes);
    if clips.is_empty() {
        clips.push(Clip { name: REST.into(), duration: 0.0, motion: Motion::Keyframes(Vec::new()) });
    }
    Ok(clips)
}

/// Says once that the animations `before_zero` (indices) have key times before 0 s.
fn say_before_zero(document: &gltf::Document, before_zero: &[usize], notes: &mut Vec<String>) {
    if let Some(&first) = before_zero.first() {
        let first = document.animations().nth(first).map(|a| label(a.index(), a.name())).unwrap_or_default();
        let others = match before_zero.len() - 1 {
            0 => String::new(),
            n => format!(", and {} more", counted(n, "animation", "animations")),
        };
        notes.push(format!(
            "animation {first} has key times before 0 s{others} (glTF: key times are >= 0); it plays \
             from 0 s, so the keys before 0 s only lead into the first key after it"
        ));
    }
}

/// Reads a translation, rotation or scale channel's values into `track`, with its key `times`.
#[expect(clippy::too_many_arguments, reason = "one channel's pieces, read where they are")]
fn transform_channel(
    track: &mut Track,
    property: Property,
    output: &gltf::Accessor,
    buffers: &[Vec<u8>],
    usage: &str,
    times: Vec<f32>,
    interpolation: Interpolation,
    fail: impl Fn(String) -> ImportError,
) -> Result<(), ImportError> {
    let vec3s = || -> Result<Vec<Vec3>, ImportError> {
        Ok(read_floats::<3>(output, buffers, usage)?.into_iter().map(Vec3::from).collect())
    };
    match property {
        Property::Translation => {
            track.translation = Some(channel_of(times, vec3s()?, interpolation).map_err(fail)?)
        }
        Property::Scale => track.scale = Some(channel_of(times, vec3s()?, interpolation).map_err(&fail)?),
        _ => {
            let values =
                read_floats::<4>(output, buffers, usage)?.into_iter().map(Quat::from_array).collect();
            let mut rotation = channel_of(times, values, interpolation).map_err(&fail)?;
            unit_rotations(&mut rotation).map_err(&fail)?;
            track.rotation = Some(rotation);
        }
    }
    Ok(())
}

/// The weights channels left out: how many, and why the first was; said once.
#[derive(Default)]
struct LeftOut {
    count: usize,
    first: Option<String>,
}

impl LeftOut {
    /// Channel `c` of the animation `name` is left out, for `why`.
    fn add(&mut self, c: usize, name: &str, why: String) {
        self.count += 1;
        let channel = format!("channel {c} of animation {}", quoted(name));
        self.first.get_or_insert(format!("{channel}, which moves morph weights: {why}"));
    }

    fn say(self, notes: &mut Vec<String>) {
        if let Some(first) = self.first {
            let more = match self.count - 1 {
                0 => String::new(),
                n => format!("; and {} more like it", counted(n, "channel", "channels")),
            };
            notes.push(format!("left out {first}{more}"));
        }
    }
}

/// Spends the keys of every translation, rotation and scale channel first, as they are the
/// model's motion: if they alone pass the budget, the model is refused, naming the channel that
/// passed it. What is left is for the weights channels, which are left out past it.
fn spend_transform_keys(document: &gltf::Document, keys: &mut Budget) -> Result<(), ImportError> {
    for animation in document.animations() {
        for (c, channel) in animation.channels().enumerate() {
            if matches!(channel.target().property(), Property::MorphTargetWeights) {
                continue;
            }
            keys.spend(channel.sampler().input().count() as u64).map_err(|why| ImportError::Animation {
                animation: label(animation.index(), animation.name()),
                channel: c,
                problem: format!("its {why}; export the clips with fewer keys (resampled more coarsely)"),
            })?;
        }
    }
    Ok(())
}

/// A channel from key times and values, after checking there is a value for every key (three for
/// CUBICSPLINE: in-tangent, value, out-tangent).
fn channel_of<T: Keyable>(
    times: Vec<f32>,
    values: Vec<T>,
    interpolation: Interpolation,
) -> Result<Channel<T>, String> {
    let per_key = if interpolation == Interpolation::CubicSpline { 3 } else { 1 };
    if values.len() != times.len() * per_key {
        return Err(format!(
            "{} keys need {} {} values, the sampler has {}",
            times.len(),
            times.len() * per_key,
            interpolation.name(),
            values.len()
        ));
    }
    Ok(Channel { times, values, interpolation })
}

/// A `weights` channel's values split into one channel per target of the node's mesh (`targets`,
/// None if it has none), or why it cannot be.
fn weight_channels(
    output: &gltf::Accessor,
    buffers: &[Vec<u8>],
    usage: &str,
    times: Vec<f32>,
    interpolation: Interpolation,
    targets: Option<usize>,
) -> Result<Vec<Channel<f32>>, String> {
    let Some(targets) = targets.filter(|&n| n > 0) else {
        return Err("its node has no morph targets".to_string());
    };
    let values: Vec<f32> = read_floats::<1>(output, buffers, usage)
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|[v]| v)
        .collect();
    // Per key, one value per target (three for CUBICSPLINE: in-tangents, values, out-tangents).
    let per_key = if interpolation == Interpolation::CubicSpline { 3 } else { 1 };
    if values.len() != times.len() * per_key * targets {
        return Err(format!(
            "it has {} for {} of {} ({}: {per_key} per target and key)",
            counted(values.len(), "value", "values"),
            counted(times.len(), "key", "keys"),
            counted(targets, "target", "targets"),
            interpolation.name()
        ));
    }
    // Target k's values: the k-th of each group of `targets` numbers, in order.
    let channel = |k: usize| Channel {
        times: times.clone(),
        values: values.iter().skip(k).step_by(targets).copied().collect(),
        interpolation,
    };
    Ok((0..targets).map(channel).collect())
}

/// Makes the rotation keys unit quaternions (files round; a zero one is an error). CUBICSPLINE
/// tangents are not rotations and stay as they are.
fn unit_rotations(channel: &mut Channel<Quat>) -> Result<(), String> {
    let cubic = channel.interpolation == Interpolation::CubicSpline;
    for (i, q) in channel.values.iter_mut().enumerate() {
        if cubic && i % 3 != 1 {
            continue;
        }
        if q.length() < 1e-6 {
            return Err(format!("rotation value {i} is the zero quaternion; it must have length 1"));
        }
        *q = q.normalize();
    }
    Ok(())
}
