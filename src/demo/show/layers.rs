//! Several clips at once in the demo (chapter 11; the method is `crates/method/src/mixer.rs`): the layers the
//! command line asks for ([`Mixing::new`]), what `F`, `Y`, `J` and `K` do to them, and the corner
//! line's rows that show them. No window and no OpenGL here.
//!
//! The blend layers come first, then the masked ones, then the additive ones; the first blend
//! layer's clip is the one that plays (the demo's `clip`: the one `C` steps on from, the one the
//! camera frames). `F` fades to the next clip: every blend layer's weight falls to 0 over `--fade`
//! seconds of animation time while the next clip's rises to 1; then the next clip plays alone.
//! `--fade-to CLIP[@SECONDS]` starts such a crossfade from the command line; the library's mixer
//! steps it either way (`Mixer::crossfade_to`, then `Mixer::advance_to` each frame), so a dump of
//! it holds the window's poses. The mixer is the frame's source itself: the window moves it to the
//! clock's time (`state.rs`: `Demo::update`) and hands it to the frame.
//! `J` and `K` move a tenth of the weight between the clip that plays and the next one. `Y` turns
//! phase sync on and off. The window's blends play in step from the start, unless `--blend` asked
//! for each clip at the same time (no `--sync`).

use crate::demo::cli::layers::{Added, Reference};
use crate::demo::cli::names;
use crate::demo::cli::options::{self, Options};
use crate::demo::output::console;
use skinning_method::clip::Clip;
use skinning_method::mixer::additive::{self, Against};
use skinning_method::mixer::mask::Mask;
use skinning_method::mixer::{Kind, Layer, Mixer, weighted};
use skinning_method::model::Model;
use skinning_method::morph::MeshMorph;
use skinning_method::printable::{printable, quoted};
use std::fmt::Write;
use std::sync::Arc;

/// How far `J` and `K` move the weight.
pub const WEIGHT_STEP: f32 = 0.1;

pub struct Mixing {
    /// The layers, and the crossfade under way (`F`, `--fade-to`), which the mixer steps.
    pub mixer: Mixer,
    /// How long a crossfade takes, in seconds of animation time (`--fade`).
    pub fade_seconds: f64,
}

impl Mixing {
    /// The layers `options` ask for: the `--blend` clips (or the one clip `--animation` or `--clip`
    /// picks), then each `--mask`, then each `--additive`; then `--fade-to`'s crossfade. A wrong name
    /// is one line with the closest names (`cli/names.rs`). The mixer shares `clips`; an additive
    /// layer measures the model's morph weights (`morphs`, its targets) against its reference too.
    pub fn new(
        model: &Model,
        morphs: &[MeshMorph],
        clips: &Arc<[Clip]>,
        options: &Options,
    ) -> Result<Mixing, String> {
        let flags = &options.layers;
        let skeleton = &model.skeleton;
        let mut layers = Vec::with_capacity(flags.blend.len() + flags.mask.len() + flags.additive.len() + 2);
        if flags.blend.is_empty() {
            layers.push(Layer::new(Kind::Blend, options.clip_index(clips)?, 1.0));
        }
        for wanted in &flags.blend {
            let clip = find_clip(options, clips, "--blend", &wanted.clip)?;
            if layers.iter().any(|l: &Layer| l.clip == clip) {
                return Err(format!(
                    "--blend names {} twice: give each clip once",
                    quoted(&clips[clip].name)
                ));
            }
            layers.push(Layer::new(Kind::Blend, clip, wanted.weight));
        }
        if let [one] = &flags.blend[..] {
            console::note_once(&format!(
                "--blend {} plays one clip alone, as --animation does: --blend mixes two or more, like \
                 Walk=0.5,Run=0.5",
                quoted(&one.clip)
            ));
        }
        for wanted in &flags.mask {
            let clip = find_clip(options, clips, "--mask", &wanted.clip)?;
            let names: Vec<&str> = skeleton.bones().iter().map(|b| b.name.as_str()).collect();
            let bone = names::find("--mask", "bone", &wanted.bone, &names)?;
            layers.push(Layer::new(Kind::Masked(Mask::new(skeleton, bone)), clip, wanted.weight));
        }
        for wanted in &flags.additive {
            layers.push(additive_layer(model, morphs, clips, options, wanted)?);
        }
        let sync = flags.sync || flags.blend.is_empty();
        let mut mixer = Mixer::new(clips.clone(), layers, sync);
        if let Some(fade) = &flags.fade_to {
            let target = find_clip(options, clips, "--fade-to", &fade.clip)?;
            mixer.crossfade_to(target, fade.at.unwrap_or(options.time), flags.fade);
        }
        Ok(Mixing { mixer, fade_seconds: flags.fade })
    }

    /// The mixer a dump plays, if the flags ask for layers (else one clip plays, as always); in
    /// step only with `--sync`, or, as in the window, for `--fade-to` without `--blend`, so that a
    /// crossfade gives the dump the window's poses.
    pub fn for_dump(
        model: &Model,
        morphs: &[MeshMorph],
        clips: &Arc<[Clip]>,
        options: &Options,
    ) -> Result<Option<Mixer>, String> {
        let flags = &options.layers;
        if !flags.any_layer() {
            return Ok(None);
        }
        let mut mixer = Mixing::new(model, morphs, clips, options)?.mixer;
        mixer.sync = flags.sync || (flags.blend.is_empty() && flags.fade_to.is_some());
        Ok(Some(mixer))
    }

    /// The clip that plays: the first blend layer's.
    pub fn current(&self) -> usize {
        self.mixer.layers[0].clip
    }

    /// Where the clip that plays was this frame, in its own loop.
    pub fn current_time(&self) -> f32 {
        self.mixer.layers[0].time
    }

    /// How many blend layers there are (they come first).
    fn blend_count(&self) -> usize {
        self.mixer.layers.iter().take_while(|l| l.kind == Kind::Blend).count()
    }

    /// The clip `F`, `J` and `K` go to: the other of two blend layers, else the one after the clip
    /// that plays (or after the one a crossfade goes to).
    pub fn next(&self, clips: usize) -> usize {
        match (self.mixer.fading(), self.blend_count()) {
            (Some(fade), _) => (fade.target + 1) % clips,
            (None, 2) => self.mixer.layers[1].clip,
            _ => (self.current() + 1) % clips,
        }
    }

    /// `C`, a number key: `clip` plays alone, from the time the clock says (the layers over it stay).
    pub fn play(&mut self, clip: usize) {
        let blend = self.blend_count();
        self.mixer.layers.drain(1..blend);
        (self.mixer.layers[0].clip, self.mixer.layers[0].weight) = (clip, 1.0);
        self.mixer.stop_fade();
        self.mixer.restart();
    }

    /// `F`: a crossfade from the blend that plays to the next clip, starting at `time`.
    pub fn crossfade(&mut self, time: f64) -> Result<(), String> {
        let clips = self.mixer.clips().len();
        if clips < 2 {
            return Err("F crossfades to the next clip, and this model has only one".into());
        }
        let target = self.next(clips);
        self.mixer.crossfade_to(target, time, self.fade_seconds);
        Ok(())
    }

    /// `J` (`toward_next` false) and `K`: a tenth of the weight from one of the clip that plays and
    /// the next clip to the other. A crossfade under way stops where it is.
    pub fn shift(&mut self, toward_next: bool) -> Result<(), String> {
        let clips = self.mixer.clips().len();
        if clips < 2 {
            return Err("J and K move weight to the next clip, and this model has only one".into());
        }
        self.mixer.stop_fade();
        if self.blend_count() == 1 {
            let next = self.next(clips);
            self.mixer.layers.insert(1, Layer::new(Kind::Blend, next, 0.0));
        }
        let n = self.blend_count();
        if n > 2 {
            return Err(format!(
                "J and K move weight between two clips, and this blend has {n}: C or a number plays one"
            ));
        }
        let layers = &mut self.mixer.layers;
        let total = weighted::total([layers[0].weight, layers[1].weight]);
        let next = if total > 0.0 { (f64::from(layers[1].weight) / total) as f32 } else { 0.0 };
        // Counted in steps, so that every weight shown is a whole number of them, 0 and 1 exact.
        let steps = (1.0 / WEIGHT_STEP).round();
        let taken = (next * steps).round() + if toward_next { 1.0 } else { -1.0 };
        let taken = taken.clamp(0.0, steps);
        (layers[0].weight, layers[1].weight) = ((steps - taken) / steps, taken / steps);
        Ok(())
    }

    /// `Y`: phase sync on or off; the shared cycle starts afresh.
    pub fn toggle_sync(&mut self) {
        self.mixer.sync = !self.mixer.sync;
        self.mixer.restart();
    }

    /// `R`: a crossfade under way ends at the next frame, on the clip it went to.
    pub fn end_fade(&mut self) {
        self.mixer.finish_fade();
    }

    /// The corner line's rows for the layers, each on a line of its own after `out`: kind, weight
    /// (a blend layer's share of the blend, its weight divided by their sum), clip (and a mask's bone), its time; then a crossfade under way. Nothing for one clip alone.
    /// `names` are the clips' names, `bones` the bones', as shown.
    pub fn write_rows(&self, out: &mut String, names: &[String], bones: &[String], time: f64) {
        let layers = &self.mixer.layers;
        let fade = self.mixer.fading();
        if layers.len() < 2 && fade.is_none() {
            return;
        }
        let in_step = if self.mixer.sync { "in step" } else { "not in step" };
        let several = self.blend_count() > 1;
        // A blend layer's weight as the mixer uses it: divided by the blend layers' sum.
        let total = weighted::total(layers.iter().filter(|l| l.kind == Kind::Blend).map(|l| l.weight));
        let share = |l: &Layer| match l.kind == Kind::Blend && total > 0.0 {
            true => (f64::from(l.weight) / total) as f32,
            false => l.weight,
        };
        // Writing into a String cannot fail; with room to spare it does not allocate either.
        for layer in layers {
            let _ = write!(out, "\n{} {:.2} {}", layer.kind.name(), share(layer), names[layer.clip]);
            if let Kind::Masked(mask) = &layer.kind {
                let _ = write!(out, "@{}", bones[mask.root]);
            }
            let _ = write!(out, "  t {:.2} s", layer.time);
            if several && layer.kind == Kind::Blend {
                let _ = write!(out, "  {in_step}");
            }
        }
        if let Some(fade) = fade {
            let percent = 100.0 * fade.crossfade.progress(time);
            let _ = write!(
                out,
                "\nfade to {}  {percent:.0}% of {} s",
                names[fade.target], fade.crossfade.seconds
            );
        }
    }
}

/// The clip `wanted` names, for `flag`: a model's animation (`--animation`'s rules) or one of the
/// article's clips (`--clip`'s).
fn find_clip(options: &Options, clips: &[Clip], flag: &str, wanted: &str) -> Result<usize, String> {
    let what = if options.model.is_some() { "animation" } else { "clip" };
    options::find_clip(flag, what, wanted, clips)
}

/// The layer of one `--additive`, measured against its reference; a layer that adds nothing is
/// noted (a clip of one pose, against its own first pose).
fn additive_layer(
    model: &Model,
    morphs: &[MeshMorph],
    clips: &[Clip],
    options: &Options,
    wanted: &Added,
) -> Result<Layer, String> {
    let skeleton = &model.skeleton;
    let clip = find_clip(options, clips, "--additive", &wanted.clip)?;
    let against = match &wanted.reference {
        Reference::Rest => Against::Rest,
        Reference::Start => Against::Start,
        Reference::Clip(name) => Against::Clip(find_clip(options, clips, "--additive", name)?),
    };
    let reference = additive::reference_pose(&clips[clip], against, clips, skeleton);
    let mut weights = vec![0.0; morphs.iter().map(|m| m.weights.end).max().unwrap_or(0)];
    additive::reference_weights(&clips[clip], against, clips, morphs, &mut weights);
    if additive::adds_nothing(&clips[clip], &reference, &weights, skeleton, morphs) {
        let name = quoted(&clips[clip].name);
        let bare = printable(&clips[clip].name);
        let reference = match against {
            Against::Rest => "the rest pose".to_string(),
            Against::Start => "its own first pose".to_string(),
            Against::Clip(other) => format!("{}'s first pose", quoted(&clips[other].name)),
        };
        console::note_once(&format!(
            "--additive {name} adds nothing: its poses never leave its reference, {reference}; give \
             another, like {bare}@rest or {bare}@CLIP"
        ));
    }
    Ok(Layer::new(Kind::Additive { reference, against }, clip, wanted.weight))
}

#[cfg(test)]
mod tests;
