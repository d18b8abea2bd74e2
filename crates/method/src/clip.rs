//! Animation clips: a pose as a pure function of time (article 000 section 3, article 004).
//!
//! A **pose** is one local transform per bone, kept as translation, rotation and scale ([`Trs`]).
//! A clip turns a time into a pose. Bones it does not animate stand in their rest pose. The pose
//! stays in these three parts until the matrices are made (step 3 of `Pose::run`, `frame.rs`),
//! so that what comes between, a blend of several clips or a bone turned to reach a point, can
//! work on each part with the interpolation that suits it.
//!
//! Most clips are **keyframed**. A bone's track has up to three **channels**: translation, rotation
//! and scale, each a list of keys (time, value) with its own key times. A track replaces only what
//! its channels animate: a bone whose clip only turns it keeps its rest translation and scale. The
//! bone's local transform is then `T * R * S`: scale and turn in the bone's own space, then place it
//! in its parent's space.
//!
//! Between two keys a channel **interpolates** (glTF's three ways):
//! - `Linear`: translation and scale with lerp; rotation with quaternion **slerp**, which turns at
//!   a constant speed along the shorter arc. Lerping the four numbers of two quaternions (or the
//!   sixteen of two matrices) would cut through the inside of the arc: the bone would shrink or
//!   shear mid-way, and turn fastest in the middle (normalising fixes the size, not the speed).
//! - `Step`: the value of the last key at or before the time, held until the next key.
//! - `CubicSpline`: a Hermite curve through the keys, with an in-tangent and an out-tangent stored
//!   at every key; quaternions are normalised after.
//!
//! The article's own demo is not keyframed: it slides two bones back and forth in code. That motion
//! is a **procedural** clip here, a plain function of time.
//!
//! A track may also move the **morph weights** of the mesh its bone holds (glTF's `weights`
//! channels): one channel per target, sampled like the others; a later lesson (`morph.rs`, chapter
//! 13) samples them into a frame's weights and says what they do.
//!
//! Clips loop: the time is wrapped into `[0, duration)` first, in `f64`, so a demo that has run for
//! hours samples exactly the same poses as one that has just started.

use crate::skeleton::{BoneId, Skeleton};
use crate::transform::Trs;
use glam::{Quat, Vec3};

/// How a channel goes from one key to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interpolation {
    Step,
    Linear,
    CubicSpline,
}

impl Interpolation {
    /// The name glTF uses.
    pub fn name(self) -> &'static str {
        match self {
            Interpolation::Step => "STEP",
            Interpolation::Linear => "LINEAR",
            Interpolation::CubicSpline => "CUBICSPLINE",
        }
    }
}

/// A value a channel can animate: a translation or scale (`Vec3`), a rotation (`Quat`), or a morph
/// target's weight (`f32`).
pub trait Keyable: Copy {
    /// The straight way from `a` to `b`, `s` of the way along (lerp; slerp for rotations).
    fn linear(a: Self, b: Self, s: f32) -> Self;
    /// `a * x + b * y + ...` for the cubic spline's weighted sum of values and tangents.
    fn weighted_sum(terms: [(f32, Self); 4]) -> Self;
    /// Makes a curve's result a valid value (unit length for a rotation).
    fn finish(self) -> Self;
}

impl Keyable for Vec3 {
    fn linear(a: Vec3, b: Vec3, s: f32) -> Vec3 {
        a.lerp(b, s)
    }
    fn weighted_sum(terms: [(f32, Vec3); 4]) -> Vec3 {
        terms.iter().map(|&(w, v)| w * v).sum()
    }
    fn finish(self) -> Vec3 {
        self
    }
}

impl Keyable for f32 {
    fn linear(a: f32, b: f32, s: f32) -> f32 {
        a + (b - a) * s
    }
    fn weighted_sum(terms: [(f32, f32); 4]) -> f32 {
        terms.iter().map(|&(w, v)| w * v).sum()
    }
    fn finish(self) -> f32 {
        self
    }
}

impl Keyable for Quat {
    fn linear(a: Quat, b: Quat, s: f32) -> Quat {
        // glam's slerp takes the shorter of the two arcs between a and b (it flips b if needed).
        a.slerp(b, s)
    }
    fn weighted_sum(terms: [(f32, Quat); 4]) -> Quat {
        let sum: glam::Vec4 = terms.iter().map(|&(w, q)| w * glam::Vec4::from(q)).sum();
        Quat::from_vec4(sum)
    }
    fn finish(self) -> Quat {
        // A cubic curve through unit quaternions leaves the unit sphere between keys.
        let length = self.length();
        if length > 0.0 && length.is_finite() { self / length } else { Quat::IDENTITY }
    }
}

/// The keys of one property of one bone, in increasing time.
///
/// For `Linear` and `Step`, `values[k]` is the value at `times[k]`. For `CubicSpline` every key
/// stores three values, as glTF does: `values[3k]` the in-tangent, `values[3k + 1]` the value,
/// `values[3k + 2]` the out-tangent.
#[derive(Clone, Debug, PartialEq)]
pub struct Channel<T> {
    pub times: Vec<f32>,
    pub values: Vec<T>,
    pub interpolation: Interpolation,
}

impl<T: Keyable> Channel<T> {
    /// Keys at `times` with `values`, interpolated linearly (slerp for rotations).
    pub fn linear(keys: &[(f32, T)]) -> Channel<T> {
        Channel {
            times: keys.iter().map(|k| k.0).collect(),
            values: keys.iter().map(|k| k.1).collect(),
            interpolation: Interpolation::Linear,
        }
    }

    /// The time of the last key: where the channel stops changing.
    pub fn end(&self) -> f32 {
        self.times.last().copied().unwrap_or(0.0)
    }

    /// The value at key `k`.
    fn value(&self, k: usize) -> T {
        match self.interpolation {
            Interpolation::CubicSpline => self.values[3 * k + 1],
            _ => self.values[k],
        }
    }

    /// The channel's value at time `t`, between the two keys around it.
    ///
    /// Before the first key the first key holds; after the last key the last one does.
    pub fn sample(&self, t: f32) -> T {
        let times = &self.times;
        // The first key after t; the one before it is where we come from.
        let next = times.partition_point(|&k| k <= t);
        if next == 0 {
            return self.value(0);
        }
        if next == times.len() {
            return self.value(times.len() - 1);
        }
        let (k, interval) = (next - 1, times[next] - times[next - 1]);
        let s = (t - times[k]) / interval;
        match self.interpolation {
            Interpolation::Step => self.value(k),
            Interpolation::Linear => T::linear(self.value(k), self.value(next), s),
            Interpolation::CubicSpline => {
                // glTF's Hermite spline: the tangents are per second, so they are scaled by the
                // key interval; b is key k's out-tangent, a is key k+1's in-tangent.
                let (s2, s3) = (s * s, s * s * s);
                let out_tangent = self.values[3 * k + 2];
                let in_tangent = self.values[3 * next];
                T::weighted_sum([
                    (2.0 * s3 - 3.0 * s2 + 1.0, self.value(k)),
                    (interval * (s3 - 2.0 * s2 + s), out_tangent),
                    (-2.0 * s3 + 3.0 * s2, self.value(next)),
                    (interval * (s3 - s2), in_tangent),
                ])
                .finish()
            }
        }
    }
}

/// The channels of one bone. A missing channel leaves that part of the rest pose as it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    pub bone: BoneId,
    pub translation: Option<Channel<Vec3>>,
    pub rotation: Option<Channel<Quat>>,
    pub scale: Option<Channel<Vec3>>,
    /// The morph weights of the mesh the bone holds: one channel per target, in the targets' order;
    /// empty if the clip does not move them.
    pub weights: Vec<Channel<f32>>,
}

impl Track {
    /// A track of `bone` that animates nothing yet.
    pub fn new(bone: BoneId) -> Track {
        Track { bone, translation: None, rotation: None, scale: None, weights: Vec::new() }
    }

    /// The bone's local transform at time `t`: each channel sampled, the rest pose for the others.
    pub fn sample(&self, t: f32, rest: &Trs) -> Trs {
        Trs {
            translation: self.translation.as_ref().map_or(rest.translation, |c| c.sample(t)),
            rotation: self.rotation.as_ref().map_or(rest.rotation, |c| c.sample(t)),
            scale: self.scale.as_ref().map_or(rest.scale, |c| c.sample(t)),
        }
    }

    /// The time of the last key of any channel.
    pub fn end(&self) -> f32 {
        let ends = [
            self.translation.as_ref().map(Channel::end),
            self.rotation.as_ref().map(Channel::end),
            self.scale.as_ref().map(Channel::end),
        ];
        let weights = self.weights.iter().map(Channel::end);
        ends.into_iter().flatten().chain(weights).fold(0.0, f32::max)
    }
}

/// What moves the bones.
#[derive(Clone, Debug)]
pub enum Motion {
    /// Keyframe tracks, at most one per bone.
    Keyframes(Vec<Track>),
    /// A function that turns one bone's rest transform, given as `local`, into its pose at time `t`
    /// in `[0, duration]` (the end itself only when the clip is written out frame by frame): one
    /// bone at a time, as a track is sampled ([`Clip::sample_bone`]).
    Procedural(fn(t: f32, bone: BoneId, local: &mut Trs)),
}

/// A named, looping animation.
#[derive(Clone, Debug)]
pub struct Clip {
    pub name: String,
    /// Seconds before the clip starts over (for keyframes, the time of the last key).
    pub duration: f32,
    pub motion: Motion,
}

impl Clip {
    /// Where in the loop `time` falls: `time` wrapped into `[0, duration)`. A clip of no length
    /// (one key, or none) is always at 0.
    pub fn wrap(&self, time: f64) -> f32 {
        if self.duration > 0.0 { time.rem_euclid(self.duration as f64) as f32 } else { 0.0 }
    }

    /// The pose at `time` (seconds since the clip started, any number of loops ago).
    ///
    /// Writes one local transform per bone into `pose`; allocates nothing.
    pub fn sample(&self, skeleton: &Skeleton, time: f64, pose: &mut [Trs]) {
        self.sample_at(skeleton, self.wrap(time), pose);
    }

    /// The pose at `t` seconds into the clip, `t` taken as it is, not wrapped: at `t = duration`
    /// this is the clip's last pose, where [`Clip::sample`] would be back at its first. For
    /// writing a clip out frame by frame (`md5_export.rs`).
    pub fn sample_at(&self, skeleton: &Skeleton, t: f32, pose: &mut [Trs]) {
        assert_eq!(pose.len(), skeleton.len(), "one local transform per bone");
        for (local, bone) in pose.iter_mut().zip(skeleton.bones()) {
            *local = bone.rest;
        }
        match &self.motion {
            Motion::Keyframes(tracks) => {
                for track in tracks {
                    pose[track.bone] = track.sample(t, &skeleton.bone(track.bone).rest);
                }
            }
            Motion::Procedural(animate) => {
                pose.iter_mut().enumerate().for_each(|(b, local)| animate(t, b, local))
            }
        }
    }

    /// What [`Clip::sample_at`] writes for `bone` alone (its last track's, looked for in the list),
    /// for a blend that takes each bone from each clip in turn, with no room for a pose per clip.
    pub fn sample_bone(&self, skeleton: &Skeleton, bone: BoneId, t: f32) -> Trs {
        let mut local = skeleton.bone(bone).rest;
        match &self.motion {
            Motion::Keyframes(tracks) => {
                tracks.iter().rev().find(|track| track.bone == bone).map_or(local, |tr| tr.sample(t, &local))
            }
            Motion::Procedural(animate) => {
                animate(t, bone, &mut local);
                local
            }
        }
    }

    /// Number `k` of the numbers the track of `bone` moves besides the bone (its `weights`
    /// channels; chapter 13 makes them morph weights) at `t`, not wrapped: None where the clip does
    /// not move it. One at a time, for a blend that folds them with no room for a list per clip.
    pub fn sample_number(&self, bone: BoneId, k: usize, t: f32) -> Option<f32> {
        let Motion::Keyframes(tracks) = &self.motion else { return None };
        let track = tracks.iter().rev().find(|track| track.bone == bone && k < track.weights.len())?;
        Some(track.weights[k].sample(t))
    }
}
