//! What a dump plays ([`Played`]), and its layers when it plays several clips at once (`mixer.rs`):
//! each frame then also holds its layers, each with its clip, kind, weight, time, the pose its clip
//! gave (and an additive layer's reference pose, a masked layer's bone), and the blended local
//! poses, `"trs"`. From these alone the blend can be redone (`tests/many_clips_program.rs` does),
//! and `"local"` is the blended pose made into matrices.

use super::format::{LayerOut, MixedOut, Poses};
use skinning_method::clip::Clip;
use skinning_method::frame::Source;
use skinning_method::mixer::{Kind, Mixer};
use skinning_method::skeleton::Skeleton;
use skinning_method::transform::Trs;

/// What a dump plays: one clip, or several at once by the caller's mixer, which the dump moves on
/// to each frame's time (`Mixer::advance_to`) and leaves where the last frame was. Either way the
/// frame's pose comes from one place, the [`Source`] it is.
pub enum Played<'a> {
    Clip(&'a Clip),
    Mixer(&'a mut Mixer),
}

impl<'a> From<&'a Clip> for Played<'a> {
    fn from(clip: &'a Clip) -> Self {
        Played::Clip(clip)
    }
}

impl<'a> From<&'a mut Mixer> for Played<'a> {
    fn from(mixer: &'a mut Mixer) -> Self {
        Played::Mixer(mixer)
    }
}

impl Played<'_> {
    /// The dump's `"clip"`: the clip, or the first blend layer's (else the first layer's).
    pub fn name(&self) -> &str {
        match self {
            Played::Clip(clip) => &clip.name,
            Played::Mixer(mixer) => {
                let first = mixer.layers.iter().find(|l| l.kind == Kind::Blend).or(mixer.layers.first());
                first.map_or("", |l| &mixer.clip(l).name)
            }
        }
    }

    /// Moves a mixer on to `time`; a clip, whose pose is a function of the time alone, has nothing
    /// to move.
    pub fn advance_to(&mut self, time: f64) {
        if let Played::Mixer(mixer) = self {
            mixer.advance_to(time);
        }
    }

    /// Step 1 of the frame: where the bones' local poses and the morph weights come from.
    pub fn source(&self) -> &dyn Source {
        match self {
            Played::Clip(clip) => *clip,
            Played::Mixer(mixer) => &**mixer,
        }
    }

    /// Each layer's clip's pose this frame, before the blend, into `poses` (one per layer; none
    /// for one clip).
    pub(super) fn layer_poses(&self, skeleton: &Skeleton, poses: &mut Vec<Vec<Trs>>) {
        let Played::Mixer(mixer) = self else { return poses.clear() };
        poses.resize(mixer.layers.len(), Vec::new());
        for (layer, pose) in mixer.layers.iter().zip(poses.iter_mut()) {
            pose.resize(skeleton.len(), Trs::IDENTITY);
            mixer.layer_pose(layer, skeleton, pose);
        }
    }

    /// This frame's layers, with their clips' `poses` ([`Played::layer_poses`]), and blended pose
    /// `trs`, for the frame's JSON; None for one clip.
    pub(super) fn frame_out<'b>(&'b self, poses: &'b [Vec<Trs>], trs: &'b [Trs]) -> Option<MixedOut<'b>> {
        let Played::Mixer(mixer) = self else { return None };
        let layers = (mixer.layers.iter().zip(poses))
            .map(|(layer, pose)| LayerOut {
                clip: &mixer.clip(layer).name,
                index: layer.clip,
                kind: layer.kind.name(),
                weight: layer.weight,
                time: layer.time,
                duration: mixer.clip(layer).duration,
                bone: match &layer.kind {
                    Kind::Masked(mask) => Some(mask.root),
                    _ => None,
                },
                pose: Poses(pose),
                reference: match &layer.kind {
                    Kind::Additive { reference, .. } => Some(Poses(reference)),
                    _ => None,
                },
            })
            .collect();
        Some(MixedOut { in_step: mixer.sync, layers, trs: Poses(trs) })
    }

    /// The first layer whose pose this frame (`poses`) or reference holds a number JSON cannot:
    /// named.
    pub(super) fn overflow(&self, poses: &[Vec<Trs>]) -> Option<String> {
        let Played::Mixer(mixer) = self else { return None };
        let finite = |poses: &[Trs]| {
            poses.iter().all(|t| t.translation.is_finite() && t.rotation.is_finite() && t.scale.is_finite())
        };
        mixer.layers.iter().zip(poses).enumerate().find_map(|(i, (layer, pose))| {
            let reference = match &layer.kind {
                Kind::Additive { reference, .. } => finite(reference),
                _ => true,
            };
            (!finite(pose) || !reference).then(|| format!("layer {i}'s pose"))
        })
    }
}
