//! The mixer as a frame's source (`frame/source.rs`): its pose and its numbers at a time, from
//! the layers as [`Mixer::advance_to`] left them, bone by bone and number by number.
//!
//! Each layer is folded into the frame's pose bone by bone, each bone's pose from the layer's
//! clip sampled as it is needed (`Clip::sample_bone`; its track found in a list of each clip's
//! tracks by bone made once, `mixer.rs`: `track_index`), so no layer needs a whole pose of its
//! own to sample into: nothing is allocated, and nothing is kept but what `advance_to` moves. The
//! numbers (chapter 13 makes them morph weights) go the same way, one at a time: the blend layers'
//! averaged by the layers' weights with the poses' fold (`weighted::accumulate_numbers`; three.js's
//! mixer averages them too), a masked layer's laid over where its mask holds the bone, an additive
//! layer's change from its reference's added.

use super::{Kind, Layer, Mixer, additive, additive::Against, weighted};
use crate::clip::Motion;
use crate::frame::source::Source;
use crate::skeleton::{BoneId, Skeleton};
use crate::transform::Trs;

/// Several clips at once as a frame's source: the pose at `time` from the layers' weights as the
/// last [`Mixer::advance_to`] left them. Pure: it samples and blends, and moves nothing.
impl Source for Mixer {
    /// The blend layers folded into `local` one after the other, from the rest pose (which no weight
    /// at all leaves), then the masked and additive layers laid on, in order: layer by layer, and in
    /// each layer bone by bone, each bone's pose sampled as it is folded in.
    ///
    /// # Panics
    /// If `local` does not have one transform per bone of `skeleton`.
    fn pose(&self, skeleton: &Skeleton, time: f64, local: &mut [Trs]) {
        assert_eq!(local.len(), skeleton.len(), "one local transform per bone");
        let phase = self.phase_at(time);
        for (local, bone) in local.iter_mut().zip(skeleton.bones()) {
            *local = bone.rest;
        }
        let mut total = 0.0;
        for layer in self.layers.iter().filter(|l| l.kind == Kind::Blend) {
            let Some((s, sum)) = weighted::share(total, layer.weight) else { continue };
            total = sum;
            let sample = self.sampler(layer, skeleton, self.layer_time(layer, phase, time));
            for (bone, local) in local.iter_mut().enumerate() {
                *local = weighted::mix(local, &sample(bone), s);
            }
        }
        for layer in self.layers.iter() {
            let sample = self.sampler(layer, skeleton, self.layer_time(layer, phase, time));
            match &layer.kind {
                Kind::Blend => {}
                Kind::Masked(mask) => {
                    let inside = local.iter_mut().enumerate().filter(|(bone, _)| mask.bones[*bone]);
                    for (bone, local) in inside {
                        *local = weighted::mix(local, &sample(bone), layer.weight);
                    }
                }
                Kind::Additive { reference, .. } => {
                    for ((bone, local), reference) in local.iter_mut().enumerate().zip(reference) {
                        *local =
                            additive::add(local, &additive::delta(&sample(bone), reference), layer.weight);
                    }
                }
            }
        }
    }

    fn numbers(&self, bone: BoneId, time: f64, defaults: &[f32], out: &mut [f32]) {
        let phase = self.phase_at(time);
        for (k, (out, &default)) in out.iter_mut().zip(defaults).enumerate() {
            *out = self.number(bone, k, default, phase, time);
        }
    }
}

impl Mixer {
    /// `layer`'s clip's pose of each bone at `t` seconds into it: `Clip::sample_bone`, its track
    /// found in the list made once (`mixer.rs`: `track_index`) rather than looked for.
    fn sampler<'a>(&'a self, layer: &Layer, skeleton: &'a Skeleton, t: f32) -> impl Fn(BoneId) -> Trs + 'a {
        let (clip, index) = (&self.clips[layer.clip], &self.tracks[layer.clip]);
        let keys = match &clip.motion {
            Motion::Keyframes(tracks) => Some(&tracks[..]),
            Motion::Procedural(_) => None,
        };
        let bones = skeleton.bones();
        move |bone| match (keys, index.get(bone)) {
            (Some(tracks), Some(&Some(track))) => tracks[track].sample(t, &bones[bone].rest),
            (Some(_), _) => bones[bone].rest,
            (None, _) => clip.sample_bone(skeleton, bone, t),
        }
    }

    /// Number `k` of what the track of `bone` moves, at `time`, where the shared cycle is at
    /// `phase`; `default` where no clip moves it (and where no blend layer has any weight).
    pub(super) fn number(&self, bone: BoneId, k: usize, default: f32, phase: f64, time: f64) -> f32 {
        let value = |layer: &Layer| {
            let clip = self.clip(layer);
            let t = clip.wrap(self.layer_time(layer, phase, time) as f64);
            clip.sample_number(bone, k, t).unwrap_or(default)
        };
        let mut out = default;
        let mut total = 0.0;
        for layer in self.layers.iter().filter(|l| l.kind == Kind::Blend) {
            let number = [value(layer)];
            total =
                weighted::accumulate_numbers(std::slice::from_mut(&mut out), total, &number, layer.weight);
        }
        for layer in self.layers.iter().filter(|l| l.kind != Kind::Blend) {
            match &layer.kind {
                // A mesh's numbers are its bone's: the mask lays them over where it holds the bone.
                Kind::Masked(mask) if mask.bones[bone] => {
                    out += (value(layer) - out) * layer.weight.clamp(0.0, 1.0);
                }
                Kind::Additive { against, .. } => {
                    let reference = reference_number(self, layer, *against, bone, k, default);
                    out += layer.weight * (value(layer) - reference);
                }
                Kind::Masked(_) | Kind::Blend => {}
            }
        }
        out
    }
}

/// Number `k` of `bone` in an additive layer's reference: `default` for the rest pose, else the
/// first pose's of the clip it is measured against (`additive::reference_weights`, one number).
fn reference_number(
    mixer: &Mixer,
    layer: &Layer,
    against: Against,
    bone: BoneId,
    k: usize,
    default: f32,
) -> f32 {
    let clip = match against {
        Against::Rest => return default,
        Against::Start => mixer.clip(layer),
        Against::Clip(other) => &mixer.clips()[other],
    };
    clip.sample_number(bone, k, 0.0).unwrap_or(default)
}
