//! A dump of several clips at once (`mixer.rs`): each frame also holds its layers, each with its
//! clip, kind, weight, time, the pose its clip gave (and an additive layer's reference pose, a
//! masked layer's bone), and the blended local poses, `"trs"`. From these alone the blend can be
//! redone (`tests/many_clips_program.rs` does), and `"local"` is the blended pose made into matrices.

use super::format::{LayerOut, MixedOut, Poses};
use skinning_method::clip::Clip;
use skinning_method::frame::Source;
use skinning_method::mixer::{Animation, Kind, Mixer};
use skinning_method::transform::Trs;

/// What poses a dump's bones frame by frame: one clip, or a mixer of the dump's own (a copy of the
/// one it was given, since sampling changes where each layer is).
pub(super) enum Animator<'a> {
    Clip(&'a Clip),
    Mixed { mixer: Mixer, clips: &'a [Clip] },
}

impl<'a> Animator<'a> {
    pub fn new(animation: Animation<'a>) -> Animator<'a> {
        match animation {
            Animation::Clip(clip) => Animator::Clip(clip),
            Animation::Mixed { mixer, clips } => Animator::Mixed { mixer: mixer.clone(), clips },
        }
    }

    /// The dump's `"clip"`: the clip, or the first blend layer's (else the first layer's).
    pub fn name(&self) -> &str {
        match self {
            Animator::Clip(clip) => &clip.name,
            Animator::Mixed { mixer, clips } => {
                let first = mixer.layers.iter().find(|l| l.kind == Kind::Blend).or(mixer.layers.first());
                first.map_or("", |l| &clips[l.clip].name)
            }
        }
    }

    /// Step 1 of the frame: where the bones' local poses and the morph weights come from.
    pub fn source(&mut self) -> Source<'_> {
        match self {
            Animator::Clip(clip) => Source::Clip(clip),
            Animator::Mixed { mixer, clips } => Source::Mixer(mixer, clips),
        }
    }

    /// This frame's layers and blended pose `trs`, for the frame's JSON; None for one clip.
    pub fn frame_out<'b>(&'b self, trs: &'b [Trs]) -> Option<MixedOut<'b>> {
        let Animator::Mixed { mixer, clips } = self else { return None };
        let layers = (mixer.layers.iter())
            .map(|layer| LayerOut {
                clip: &clips[layer.clip].name,
                index: layer.clip,
                kind: layer.kind.name(),
                weight: layer.weight,
                time: layer.time,
                duration: clips[layer.clip].duration,
                bone: match &layer.kind {
                    Kind::Masked(mask) => Some(mask.root),
                    _ => None,
                },
                pose: Poses(&layer.pose),
                reference: match &layer.kind {
                    Kind::Additive { reference, .. } => Some(Poses(reference)),
                    _ => None,
                },
            })
            .collect();
        Some(MixedOut { in_step: mixer.sync, layers, trs: Poses(trs) })
    }

    /// The first layer whose pose this frame (or reference) holds a number JSON cannot: named.
    pub fn overflow(&self) -> Option<String> {
        let Animator::Mixed { mixer, .. } = self else { return None };
        let finite = |poses: &[Trs]| {
            poses.iter().all(|t| t.translation.is_finite() && t.rotation.is_finite() && t.scale.is_finite())
        };
        mixer.layers.iter().enumerate().find_map(|(i, layer)| {
            let reference = match &layer.kind {
                Kind::Additive { reference, .. } => finite(reference),
                _ => true,
            };
            (!finite(&layer.pose) || !reference).then(|| format!("layer {i}'s pose"))
        })
    }
}
