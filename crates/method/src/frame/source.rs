//! Step 1's data: where a frame's local pose comes from ([`Source`]).
//!
//! A source is anything that gives every bone a local pose for a time: one clip (`clip.rs`), the
//! pose as the caller left it ([`Still`]), or, in a later lesson, several clips blended (chapter
//! 11's mixer, which implements this trait). Asking is pure: [`Source::pose`] takes `&self`, so
//! the same source at the same time gives the same pose however often it is asked, and a frame
//! never moves a source on. What changes as time passes (a crossfade's weights, a shared cycle) is
//! the owner's to move before the frame, by the source's own means (`Mixer::advance_to`).

use crate::clip::Clip;
use crate::skeleton::{BoneId, Skeleton};
use crate::transform::Trs;

/// Where the bones' local poses of a frame come from.
pub trait Source {
    /// Step 1: every bone's local pose at `time` (seconds since the animation started) into
    /// `local`, one per bone of `skeleton`. Allocates nothing.
    fn pose(&self, skeleton: &Skeleton, time: f64, local: &mut [Trs]);

    /// The numbers the track of `bone` moves besides the bone at `time` (`clip.rs`: `Track::weights`)
    /// into `out`; `defaults` (as long as `out`) is what each is where nothing moves it. A later
    /// lesson gives them their meaning (chapter 13: the morph weights of the mesh the bone holds)
    /// and asks for them; this lesson only carries them. Allocates nothing.
    fn numbers(&self, bone: BoneId, time: f64, defaults: &[f32], out: &mut [f32]);
}

/// A clip loops: `time` is wrapped into its length (`Clip::sample`).
impl Source for Clip {
    fn pose(&self, skeleton: &Skeleton, time: f64, local: &mut [Trs]) {
        self.sample(skeleton, time, local);
    }

    fn numbers(&self, bone: BoneId, time: f64, defaults: &[f32], out: &mut [f32]) {
        let t = self.wrap(time);
        for (k, (number, default)) in out.iter_mut().zip(defaults).enumerate() {
            *number = self.sample_number(bone, k, t).unwrap_or(*default);
        }
    }
}

/// The pose as it is: what the caller put in `Pose::local` (and the numbers, whatever the
/// defaults) before the frame, or the last frame left there.
#[derive(Clone, Copy, Debug)]
pub struct Still;

impl Source for Still {
    fn pose(&self, _: &Skeleton, _: f64, _: &mut [Trs]) {}

    fn numbers(&self, _: BoneId, _: f64, _: &[f32], _: &mut [f32]) {}
}

/// One clip at the frame's time taken as it is, not wrapped: at its duration, its last pose (for
/// writing a clip out frame by frame, `md5_export`). Its numbers are wrapped as a clip's are: MD5,
/// which this is for, keeps none.
#[derive(Clone, Copy, Debug)]
pub struct ClipAt<'a>(pub &'a Clip);

impl Source for ClipAt<'_> {
    fn pose(&self, skeleton: &Skeleton, time: f64, local: &mut [Trs]) {
        self.0.sample_at(skeleton, time as f32, local);
    }

    fn numbers(&self, bone: BoneId, time: f64, defaults: &[f32], out: &mut [f32]) {
        self.0.numbers(bone, time, defaults, out);
    }
}
