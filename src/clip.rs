//! Animation clips: a pose as a pure function of time (article 000 section 3, article 004).
//!
//! A **pose** is one local transform per bone. A clip turns a time into a pose. Bones it does not
//! animate keep their bind-pose local transform.
//!
//! Most clips are **keyframed**: each animated bone has a track of keys (time, translation, rotation).
//! Between two keys the translation is interpolated linearly and the rotation with quaternion
//! **slerp**, which turns at a constant speed along the shortest arc; interpolating rotation matrices
//! element by element would shrink and shear the bone instead. The bone's local transform is then
//! `T * R`: rotate in the bone's own space, then place the bone in its parent's space.
//!
//! The article's own demo is not keyframed: it slides two bones back and forth in code. That motion
//! is a **procedural** clip here, a plain function of time.
//!
//! Clips loop: the time is wrapped into `[0, duration)` first, in `f64`, so a demo that has run for
//! hours samples exactly the same poses as one that has just started.

use crate::skeleton::{BoneId, Skeleton};
use glam::{Mat4, Quat, Vec3};

/// One key of a track: where the bone is, relative to its parent, at `time`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Key {
    pub time: f32,
    pub translation: Vec3,
    pub rotation: Quat,
}

/// The keys of one bone, in increasing time.
#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    pub bone: BoneId,
    pub keys: Vec<Key>,
}

impl Track {
    /// The bone's local transform at time `t`, between the two keys around it.
    ///
    /// Before the first key the first key holds; after the last key the last one does.
    pub fn sample(&self, t: f32) -> Mat4 {
        let keys = &self.keys;
        // The first key after t; the one before it is where we come from.
        let next = keys.partition_point(|k| k.time <= t);
        let (translation, rotation) = if next == 0 {
            (keys[0].translation, keys[0].rotation)
        } else if next == keys.len() {
            let last = keys[keys.len() - 1];
            (last.translation, last.rotation)
        } else {
            let (a, b) = (keys[next - 1], keys[next]);
            let s = (t - a.time) / (b.time - a.time);
            // slerp takes the shorter of the two arcs between a and b.
            (a.translation.lerp(b.translation, s), a.rotation.slerp(b.rotation, s))
        };
        Mat4::from_rotation_translation(rotation, translation)
    }
}

/// What moves the bones.
#[derive(Clone, Debug)]
pub enum Motion {
    /// Keyframe tracks, at most one per bone.
    Keyframes(Vec<Track>),
    /// A function that changes the bind-pose locals it is given, for time `t` in `[0, duration)`.
    Procedural(fn(t: f32, local: &mut [Mat4])),
}

/// A named, looping animation.
#[derive(Clone, Debug)]
pub struct Clip {
    pub name: &'static str,
    /// Seconds before the clip starts over.
    pub duration: f32,
    pub motion: Motion,
}

impl Clip {
    /// Where in the loop `time` falls: `time` wrapped into `[0, duration)`.
    pub fn wrap(&self, time: f64) -> f32 {
        time.rem_euclid(self.duration as f64) as f32
    }

    /// The pose at `time` (seconds since the clip started, any number of loops ago).
    ///
    /// Writes one local transform per bone into `local`; allocates nothing.
    pub fn sample(&self, skeleton: &Skeleton, time: f64, local: &mut [Mat4]) {
        assert_eq!(local.len(), skeleton.len(), "one local transform per bone");
        let t = self.wrap(time);
        for (local, bone) in local.iter_mut().zip(skeleton.bones()) {
            *local = bone.bind_local;
        }
        match &self.motion {
            Motion::Keyframes(tracks) => {
                for track in tracks {
                    local[track.bone] = track.sample(t);
                }
            }
            Motion::Procedural(animate) => animate(t, local),
        }
    }
}
