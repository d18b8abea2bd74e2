//! Step 1's data: where a frame's local pose comes from ([`Source`]).

use crate::clip::Clip;
use crate::mixer::Mixer;
use crate::model::Model;
use crate::morph::sample_weights;
use crate::transform::Trs;

/// Where the bones' local poses and the morph weights of a frame come from.
pub enum Source<'a> {
    /// The pose as it is: what the caller put in `Pose::local` (and the morph weights) before the frame.
    Held,
    /// One clip, at the frame's time wrapped into its length, so it loops.
    Clip(&'a Clip),
    /// One clip at the frame's time taken as it is, not wrapped: at its duration, its last pose
    /// (for writing a clip out frame by frame, `md5_export`).
    ClipAt(&'a Clip),
    /// Several clips at once, blended by a mixer (`mixer.rs`), which keeps where each layer is.
    Mixer(&'a mut Mixer, &'a [Clip]),
}

impl Source<'_> {
    /// Step 1: every bone's local pose at `time` into `local`, every morph target's weight into
    /// `weights`.
    pub fn animate(self, model: &Model, time: f64, local: &mut [Trs], weights: &mut [f32]) {
        let skeleton = &model.skeleton;
        match self {
            Source::Held => {}
            Source::Clip(clip) => {
                clip.sample(skeleton, time, local);
                sample_weights(clip, time, &model.morphs, weights);
            }
            Source::ClipAt(clip) => {
                clip.sample_at(skeleton, time as f32, local);
                sample_weights(clip, time, &model.morphs, weights);
            }
            Source::Mixer(mixer, clips) => {
                mixer.sample(skeleton, clips, time, local);
                mixer.sample_weights(clips, &model.morphs, weights);
            }
        }
    }
}
