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
//! ([`Mixer::crossfade_to`]). Time is kept apart from the pose. [`Mixer::advance_to`] moves the
//! mixer to a time: a crossfade's weights for it (at its end the clip faded to plays alone), the
//! shared cycle's phase, and each layer's time in its clip, for the corner line and the dump. Then
//! the mixer's pose (`frame/source.rs`: `Source::pose`) is pure (`&self`): it folds the blend layers
//! together, then lays the masked and additive layers on, one after the other in the order they
//! are given (the program gives the masked ones first), each bone of each layer sampled from its
//! clip as it is folded in (`Clip::sample_bone`). So the mixer needs no room for a pose per layer,
//! a frame allocates nothing, and asking twice gives the same pose (`mixer/pose.rs`);
//! `Source::numbers` does the same for the
//! numbers the clips move besides the bones, which chapter 13 makes morph weights: the blend
//! layers' averaged by their weights, as three.js's mixer does.
//!
//! The mixer holds the clips its layers play (an [`Arc`], shared with whoever else plays them, not
//! copied); a layer names its clip by its number among them, the number the dump writes and the
//! keys pick clips by.

pub mod additive;
pub mod crossfade;
pub mod mask;
mod pose;
pub mod phase;
pub mod weighted;

use crate::clip::{Clip, Motion};
use crate::skeleton::Skeleton;
use crate::transform::Trs;
use additive::Against;
use crossfade::{Crossfade, Fading};
use mask::Mask;
use phase::{Phase, time_in_clip};
use std::sync::Arc;

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

/// One clip in the mix: which, how much, how, and where it was at the mixer's time.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// The clip, by its number among the mixer's clips.
    pub clip: usize,
    pub weight: f32,
    pub kind: Kind,
    /// Where the layer was in its clip at the time the mixer was last advanced to, in seconds
    /// (within its loop).
    pub time: f32,
}

impl Layer {
    /// A layer of clip number `clip` at `weight`.
    pub fn new(kind: Kind, clip: usize, weight: f32) -> Layer {
        Layer { clip, weight, kind, time: 0.0 }
    }
}

/// Layers of clips, the clips they play, and where their shared cycle is.
#[derive(Clone, Debug)]
pub struct Mixer {
    /// The clips the layers play, shared with whoever else plays them.
    clips: Arc<[Clip]>,
    /// Each clip's track of each bone, found once ([`track_index`]).
    tracks: Vec<Vec<Option<usize>>>,
    pub layers: Vec<Layer>,
    /// Whether the blend layers play in step (phase sync), or each at the same time.
    pub sync: bool,
    phase: Phase,
    /// The crossfade under way, if one is.
    fade: Option<Fading>,
}

impl Mixer {
    /// A mixer of `layers` playing `clips` (each layer's clip a number among them).
    ///
    /// # Panics
    /// If a layer's clip is not one of `clips`.
    pub fn new(clips: Arc<[Clip]>, layers: Vec<Layer>, sync: bool) -> Mixer {
        assert!(layers.iter().all(|l| l.clip < clips.len()), "every layer plays one of the clips");
        let tracks = clips.iter().map(track_index).collect();
        Mixer { clips, tracks, layers, sync, phase: Phase::START, fade: None }
    }

    /// The clips the layers play.
    pub fn clips(&self) -> &[Clip] {
        &self.clips
    }

    /// The clip `layer` plays.
    pub fn clip(&self, layer: &Layer) -> &Clip {
        &self.clips[layer.clip]
    }

    /// Starts a crossfade from the blend as it is to clip `target`, from `start` (the animation's
    /// time) for `seconds`. A crossfade under way stops where its weights are; the clip's blend
    /// layer is made, at weight 0, after the last blend layer, if it has none.
    ///
    /// # Panics
    /// If `target` is not one of the mixer's clips.
    pub fn crossfade_to(&mut self, target: usize, start: f64, seconds: f64) {
        assert!(target < self.clips.len(), "the crossfade goes to one of the clips");
        self.fade = None;
        let is_blend = |l: &Layer| l.kind == Kind::Blend && l.clip == target;
        if !self.layers.iter().any(is_blend) {
            let after = self.layers.iter().rposition(|l| l.kind == Kind::Blend).map_or(0, |i| i + 1);
            self.layers.insert(after, Layer::new(Kind::Blend, target, 0.0));
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
    pub fn cycle(&self) -> f64 {
        let blend = self.layers.iter().filter(|l| l.kind == Kind::Blend);
        phase::cycle(blend.map(|l| (l.weight, self.clips[l.clip].duration)))
    }

    /// Moves the mixer to `time` (the animation's, in seconds: a clock's, which may jump or go
    /// back): a crossfade's weights for it, the shared cycle's phase on from where it was (when the
    /// weights changed the cycle), and each layer's time in its clip. Samples no clip.
    pub fn advance_to(&mut self, time: f64) {
        // 0. A crossfade's weights for this time.
        self.step_fade(time);
        // 1. The shared cycle, fixed where it is if the weights changed it.
        if self.sync {
            let cycle = self.cycle();
            self.phase.advance_to(time, cycle);
        }
        // 2. Each layer's time, as the pose takes it.
        let phase = self.phase_at(time);
        for i in 0..self.layers.len() {
            self.layers[i].time = self.layer_time(&self.layers[i], phase, time);
        }
    }

    /// Where the blend layers are in their shared cycle at `time`, in loops (0 when not in step).
    fn phase_at(&self, time: f64) -> f64 {
        if self.sync { self.phase.at(time, self.cycle()) } else { 0.0 }
    }

    /// Where `layer` is in its clip at `time`: a blend layer in step at the shared `phase`, any
    /// other at `time`, each wrapped into its clip's loop.
    fn layer_time(&self, layer: &Layer, phase: f64, time: f64) -> f32 {
        let clip = &self.clips[layer.clip];
        let in_step = self.sync && layer.kind == Kind::Blend;
        clip.wrap(if in_step { time_in_clip(phase, clip.duration) } else { time })
    }

    /// The pose `layer`'s clip gives at the layer's time (the mixer's last [`Mixer::advance_to`]),
    /// before any blending: one local transform per bone of `skeleton` into `out` (for the dump).
    pub fn layer_pose(&self, layer: &Layer, skeleton: &Skeleton, out: &mut [Trs]) {
        self.clips[layer.clip].sample_at(skeleton, layer.time, out);
    }
}

/// Where in `clip`'s list of tracks each bone's is (the last of the bone's, the one
/// `Clip::sample_at` keeps), by bone: what `Clip::sample_bone` looks for each time, looked up once.
/// Empty for a procedural clip; a bone past the end has no track.
fn track_index(clip: &Clip) -> Vec<Option<usize>> {
    let Motion::Keyframes(tracks) = &clip.motion else { return Vec::new() };
    let mut index = vec![None; tracks.iter().map(|t| t.bone + 1).max().unwrap_or(0)];
    for (i, track) in tracks.iter().enumerate() {
        index[track.bone] = Some(i);
    }
    index
}

#[cfg(test)]
mod tests;
