//! Many clips at once: a walk that turns into a run, a wave on top of a walk (chapter 11).
//!
//! One clip gives every bone a local pose (`clip.rs`). Several clips at once give several poses,
//! and the mixer makes one of them, bone by bone, **before** anything else of the frame runs: the
//! world transforms, the palette and the skin then see a single pose, as if one clip had made it.
//! ozz-animation's blending job, three.js's `AnimationMixer` and Bevy's animation graph all work
//! this way.
//!
//! **Why local poses.** A bone's local pose is a translation, a rotation and a scale, each with a
//! blend that keeps it what it is: an average of translations is a translation, a slerp of
//! rotations is a rotation. The bone keeps its length and its shape, and the children follow
//! through the tree. A blend of world matrices averages sixteen numbers instead: halfway between a
//! bone turned 45° up and the same bone turned 45° down, the average matrix's two axes across the
//! turn's axis are cos 45° = 0.71 long, and the bone's child comes 29% closer; where the two turns
//! are about different axes the axes also stop being square to each other (shear). Blending
//! skinned vertices is the same mistake one step later (the skin is linear in the palette's
//! matrices). `tests/many_clips.rs` measures the world matrices' shortening and shear on the Fox.
//!
//! A mixer holds **layers** ([`Layer`]), each a clip at a weight, of three kinds ([`Kind`]):
//! - **blend** layers make the base pose together, weights divided by their sum (`weighted.rs`);
//!   in **step** (phase sync, `phase.rs`) clips of different lengths keep the same phase;
//! - a **masked** layer lays its clip over one bone and everything under it (`mask.rs`);
//! - an **additive** layer adds its clip's difference from a reference pose (`additive.rs`): its
//!   own first pose, the rest pose, or another clip's first pose.
//!
//! Over time, a **crossfade** (`crossfade.rs`) is a blend whose weights move: the mixer steps it
//! ([`Mixer::crossfade_to`]). Each frame, [`Mixer::sample`] sets a crossfade's weights for the
//! time, samples every layer's clip into that layer's own pose (kept between frames, so a frame
//! allocates nothing), folds the blend layers into the output, then lays the masked and additive
//! layers on, one after the other in the order they are given (the program gives the masked ones
//! first). `Mixer::sample_weights` (`mixer/morph_weights.rs`) does the same for the clips' morph
//! weights (chapter 13): the blend layers' averaged by their weights, as three.js's mixer does.

pub mod additive;
pub mod crossfade;
pub mod mask;
mod morph_weights;
pub mod phase;
pub mod weighted;

use crate::clip::Clip;
use crate::skeleton::Skeleton;
use crate::transform::Trs;
use additive::Against;
use crossfade::{Crossfade, Fading};
use mask::Mask;
use phase::{Phase, time_in_clip};

/// What a layer does with its clip's pose.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// Blended with the other blend layers into the base pose, its weight divided by their sum.
    Blend,
    /// Laid over the bones of the mask, at its weight (0 to 1); the other bones keep the base.
    Masked(Mask),
    /// Its difference from `reference` (one pose per bone, the pose of `against`) added on top,
    /// at its weight.
    Additive { reference: Vec<Trs>, against: Against },
}

impl Kind {
    /// The word the corner line and the dump use: `blend`, `mask` or `additive`.
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Blend => "blend",
            Kind::Masked(_) => "mask",
            Kind::Additive { .. } => "additive",
        }
    }

    /// An additive layer of `clip` relative to the clip's own first pose (its pose at time 0).
    pub fn additive(clip: &Clip, skeleton: &Skeleton) -> Kind {
        Kind::additive_against(clip, Against::Start, &[], skeleton)
    }

    /// An additive layer of `clip` relative to the pose `against` names (`clips` holds the clip
    /// it may name).
    pub fn additive_against(clip: &Clip, against: Against, clips: &[Clip], skeleton: &Skeleton) -> Kind {
        Kind::Additive { reference: additive::reference_pose(clip, against, clips, skeleton), against }
    }
}

/// One clip in the mix: which, how much, how, and where it was this frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// The clip, as an index into the clips the mixer is given.
    pub clip: usize,
    pub weight: f32,
    pub kind: Kind,
    /// Where the layer was in its clip this frame, in seconds (within its loop).
    pub time: f32,
    /// The clip's pose this frame, one local transform per bone.
    pub pose: Vec<Trs>,
}

impl Layer {
    /// A layer of clip number `clip` at `weight`, with room for a pose of `skeleton`.
    pub fn new(kind: Kind, clip: usize, weight: f32, skeleton: &Skeleton) -> Layer {
        Layer { clip, weight, kind, time: 0.0, pose: vec![Trs::IDENTITY; skeleton.len()] }
    }
}

/// Layers of clips, and where their shared cycle is.
#[derive(Clone, Debug, PartialEq)]
pub struct Mixer {
    pub layers: Vec<Layer>,
    /// Whether the blend layers play in step (phase sync), or each at the same time.
    pub sync: bool,
    phase: Phase,
    /// The crossfade under way, if one is.
    fade: Option<Fading>,
    /// Room for one layer's morph weights, and an additive layer's reference ones.
    scratch: Vec<f32>,
    reference: Vec<f32>,
}

impl Mixer {
    pub fn new(layers: Vec<Layer>, sync: bool) -> Mixer {
        Mixer { layers, sync, phase: Phase::START, fade: None, scratch: Vec::new(), reference: Vec::new() }
    }

    /// Starts a crossfade from the blend as it is to clip `target`, from `start` (the animation's
    /// time) for `seconds`. A crossfade under way stops where its weights are; the clip's blend
    /// layer is made, at weight 0, after the last blend layer, if it has none.
    pub fn crossfade_to(&mut self, target: usize, start: f64, seconds: f64, skeleton: &Skeleton) {
        self.fade = None;
        let is_blend = |l: &Layer| l.kind == Kind::Blend && l.clip == target;
        if !self.layers.iter().any(is_blend) {
            let after = self.layers.iter().rposition(|l| l.kind == Kind::Blend).map_or(0, |i| i + 1);
            self.layers.insert(after, Layer::new(Kind::Blend, target, 0.0, skeleton));
        }
        // From the blend as it is, its weights made to sum to 1 (summed in 64-bit floats, which
        // two weights of 3e38 do not overflow: `weighted::total`).
        let blend = self.layers.iter().filter(|l| l.kind == Kind::Blend);
        let total = weighted::total(blend.map(|l| l.weight));
        let share = |l: &Layer| match l.kind == Kind::Blend && total > 0.0 {
            true => (f64::from(l.weight) / total) as f32,
            false => 0.0,
        };
        let from = self.layers.iter().map(share).collect();
        self.fade = Some(Fading { crossfade: Crossfade { start, seconds }, target, from });
    }

    /// The crossfade under way, if one is.
    pub fn fading(&self) -> Option<&Fading> {
        self.fade.as_ref()
    }

    /// A crossfade under way stops, its weights as the last sample left them.
    pub fn stop_fade(&mut self) {
        self.fade = None;
    }

    /// A crossfade under way ends at the next sample, on the clip it went to.
    pub fn finish_fade(&mut self) {
        if let Some(fade) = &mut self.fade {
            fade.crossfade.seconds = 0.0;
        }
    }

    /// Sets a crossfade's weights for `time`; at its end the clip faded to plays alone, and the
    /// other blend layers leave the mixer.
    fn step_fade(&mut self, time: f64) {
        let Some(fade) = &self.fade else { return };
        for (i, layer) in self.layers.iter_mut().enumerate().filter(|(_, l)| l.kind == Kind::Blend) {
            layer.weight = fade.weight(i, layer.clip, time);
        }
        if fade.crossfade.is_over(time) {
            let target = fade.target;
            self.layers.retain(|l| l.kind != Kind::Blend || l.clip == target);
            self.fade = None;
        }
    }

    /// Starts the shared cycle afresh: the next frame's phase is its time over the cycle, as if
    /// the weights had always been what they are (after the clips changed, or sync was turned on).
    pub fn restart(&mut self) {
        self.phase = Phase::START;
    }

    /// The blend layers' shared cycle in seconds, `Σ ŵᵢ dᵢ` (`phase.rs`).
    pub fn cycle(&self, clips: &[Clip]) -> f64 {
        let blend = self.layers.iter().filter(|l| l.kind == Kind::Blend);
        phase::cycle(blend.map(|l| (l.weight, clips[l.clip].duration)))
    }

    /// The pose at `time`: one local transform per bone of `skeleton` into `out`. Allocates nothing.
    ///
    /// # Panics
    /// If a layer's clip is not in `clips`, or a layer's pose does not have one transform per bone.
    pub fn sample(&mut self, skeleton: &Skeleton, clips: &[Clip], time: f64, out: &mut [Trs]) {
        // 0. A crossfade's weights for this time.
        self.step_fade(time);
        // 1. Each layer's time in its clip: blend layers in step at the shared phase, or all at `time`.
        let phase = if self.sync { self.phase.at(time, self.cycle(clips)) } else { 0.0 };
        for layer in &mut self.layers {
            let clip = &clips[layer.clip];
            let in_step = self.sync && layer.kind == Kind::Blend;
            layer.time = clip.wrap(if in_step { time_in_clip(phase, clip.duration) } else { time });
            clip.sample_at(skeleton, layer.time, &mut layer.pose);
        }
        // 2. The blend layers, folded one after the other; no weight at all leaves the rest pose.
        let mut total = 0.0;
        for layer in self.layers.iter().filter(|l| l.kind == Kind::Blend) {
            total = weighted::accumulate(out, total, &layer.pose, layer.weight);
        }
        if total <= 0.0 {
            for (local, bone) in out.iter_mut().zip(skeleton.bones()) {
                *local = bone.rest;
            }
        }
        // 3 and 4. Masked layers over their bones, additive layers over everything, in order.
        for layer in &self.layers {
            match &layer.kind {
                Kind::Blend => {}
                Kind::Masked(mask) => {
                    let inside =
                        out.iter_mut().zip(&layer.pose).zip(&mask.bones).filter(|(_, inside)| **inside);
                    for ((local, pose), _) in inside {
                        *local = weighted::mix(local, pose, layer.weight);
                    }
                }
                Kind::Additive { reference, .. } => {
                    for ((local, pose), reference) in out.iter_mut().zip(&layer.pose).zip(reference) {
                        *local = additive::add(local, &additive::delta(pose, reference), layer.weight);
                    }
                }
            }
        }
    }
}

/// What sets the bones for a time: one clip, or a mixer's layers over a list of clips. For code
/// that takes either (the dump).
#[derive(Clone, Copy, Debug)]
pub enum Animation<'a> {
    Clip(&'a Clip),
    Mixed { mixer: &'a Mixer, clips: &'a [Clip] },
}

impl<'a> From<&'a Clip> for Animation<'a> {
    fn from(clip: &'a Clip) -> Self {
        Animation::Clip(clip)
    }
}

#[cfg(test)]
mod tests;
