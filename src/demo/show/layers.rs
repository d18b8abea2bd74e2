//! Several clips at once in the demo (chapter 11; the method is `crates/method/src/mixer.rs`): the layers the
//! command line asks for ([`Mixing::new`]), what `F`, `Y`, `J` and `K` do to them, and the corner
//! line's rows that show them. No window and no OpenGL here.
//!
//! The blend layers come first, then the masked ones, then the additive ones; the first blend
//! layer's clip is the one that plays (the demo's `clip`: the one `C` steps on from, the one the
//! camera frames). `F` fades to the next clip: every blend layer's weight falls to 0 over `--fade`
//! seconds of animation time while the next clip's rises to 1; then the next clip plays alone.
//! `J` and `K` move a tenth of the weight between the clip that plays and the next one. `Y` turns
//! phase sync on and off. The window's blends play in step from the start, unless `--blend` asked
//! for each clip at the same time (no `--sync`).

use crate::demo::cli::options::Options;
use skinning_method::clip::Clip;
use skinning_method::frame::Source;
use skinning_method::mixer::crossfade::{Crossfade, fading_in, fading_out};
use skinning_method::mixer::mask::Mask;
use skinning_method::mixer::{Kind, Layer, Mixer, weighted};
use skinning_method::model::Model;
use skinning_method::printable::{printable, quoted};
use skinning_method::skeleton::{BoneId, Skeleton};
#[cfg(test)]
use skinning_method::transform::Trs;
use std::fmt::Write;

/// How far `J` and `K` move the weight.
pub const WEIGHT_STEP: f32 = 0.1;

pub struct Mixing {
    pub mixer: Mixer,
    /// The crossfade under way (`F`), if one is.
    fade: Option<Fade>,
    /// How long a crossfade takes, in seconds of animation time (`--fade`).
    pub fade_seconds: f64,
    /// Each layer's bone for the corner line, printable: a masked layer's root, else empty.
    bones: Vec<String>,
}

/// A crossfade to clip `target`, with every layer's weight when it started.
struct Fade {
    crossfade: Crossfade,
    target: usize,
    from: Vec<f32>,
}

impl Mixing {
    /// The layers `options` ask for: the `--blend` clips (or the one clip `--animation` or `--clip`
    /// picks), then each `--mask`, then each `--additive`. A wrong name is one line with the choices.
    pub fn new(model: &Model, clips: &[Clip], options: &Options) -> Result<Mixing, String> {
        let (flags, skeleton) = (&options.layers, &model.skeleton);
        let mut layers = Vec::with_capacity(flags.blend.len() + flags.mask.len() + flags.additive.len() + 2);
        let mut bones = Vec::with_capacity(layers.capacity());
        if flags.blend.is_empty() {
            layers.push(Layer::new(Kind::Blend, options.clip_index(clips)?, 1.0, skeleton));
        }
        for wanted in &flags.blend {
            let clip = find_clip(options, clips, "--blend", &wanted.clip)?;
            if layers.iter().any(|l: &Layer| l.clip == clip) {
                return Err(format!(
                    "--blend names {} twice: give each clip once",
                    quoted(&clips[clip].name)
                ));
            }
            layers.push(Layer::new(Kind::Blend, clip, wanted.weight, skeleton));
        }
        bones.resize(layers.len(), String::new());
        for wanted in &flags.mask {
            let clip = find_clip(options, clips, "--mask", &wanted.clip)?;
            let bone = find_bone(skeleton, &wanted.bone)?;
            layers.push(Layer::new(Kind::Masked(Mask::new(skeleton, bone)), clip, wanted.weight, skeleton));
            bones.push(printable(&skeleton.bone(bone).name).into_owned());
        }
        for wanted in &flags.additive {
            let clip = find_clip(options, clips, "--additive", &wanted.clip)?;
            layers.push(Layer::new(Kind::additive(&clips[clip], skeleton), clip, wanted.weight, skeleton));
            bones.push(String::new());
        }
        let sync = flags.sync || flags.blend.is_empty();
        Ok(Mixing { mixer: Mixer::new(layers, sync), fade: None, fade_seconds: flags.fade, bones })
    }

    /// The mixer a dump plays, if the flags ask for layers (else one clip plays, as always); in
    /// step only with `--sync`.
    pub fn for_dump(model: &Model, clips: &[Clip], options: &Options) -> Result<Option<Mixer>, String> {
        if !options.layers.any_layer() {
            return Ok(None);
        }
        let mut mixer = Mixing::new(model, clips, options)?.mixer;
        mixer.sync = options.layers.sync;
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
        match (&self.fade, self.blend_count()) {
            (Some(fade), _) => (fade.target + 1) % clips,
            (None, 2) => self.mixer.layers[1].clip,
            _ => (self.current() + 1) % clips,
        }
    }

    /// Before step 1 of the frame at animation time `time`: the crossfade's weights, if one is
    /// under way (and its end: the clip faded to then plays alone).
    pub fn fade(&mut self, time: f64) {
        let Some(fade) = &self.fade else { return };
        let s = fade.crossfade.progress(time);
        let blend = self.mixer.layers.iter_mut().zip(&fade.from).filter(|(l, _)| l.kind == Kind::Blend);
        for (layer, &from) in blend {
            layer.weight = if layer.clip == fade.target { fading_in(from, s) } else { fading_out(from, s) };
        }
        if s >= 1.0 {
            // Over: the clip faded to plays alone, the others leave (their bones' names with them).
            let target = fade.target;
            let mut keep = self.mixer.layers.iter().map(|l| l.kind != Kind::Blend || l.clip == target);
            self.bones.retain(|_| keep.next().unwrap_or(true));
            self.mixer.layers.retain(|l| l.kind != Kind::Blend || l.clip == target);
            self.fade = None;
        }
    }

    /// Step 1 of the frame: the layers, sampled and blended by the mixer.
    pub fn source<'a>(&'a mut self, clips: &'a [Clip]) -> Source<'a> {
        Source::Mixer(&mut self.mixer, clips)
    }

    /// [`Mixing::fade`], then step 1 alone, into `local` and the morph targets' `weights`. Returns
    /// the clip that plays (a crossfade ends on a new one).
    #[cfg(test)]
    pub fn animate(
        &mut self,
        model: &Model,
        clips: &[Clip],
        time: f64,
        local: &mut [Trs],
        weights: &mut [f32],
    ) -> usize {
        self.fade(time);
        self.source(clips).animate(model, time, local, weights);
        self.current()
    }

    /// `C`, a number key: `clip` plays alone, from the time the clock says (the layers over it stay).
    pub fn play(&mut self, clip: usize) {
        let blend = self.blend_count();
        self.mixer.layers.drain(1..blend);
        self.bones.drain(1..blend);
        (self.mixer.layers[0].clip, self.mixer.layers[0].weight) = (clip, 1.0);
        self.fade = None;
        self.mixer.restart();
    }

    /// `F`: a crossfade from the blend that plays to the next clip, starting at `time`.
    pub fn crossfade(&mut self, clips: &[Clip], skeleton: &Skeleton, time: f64) -> Result<(), String> {
        if clips.len() < 2 {
            return Err("F crossfades to the next clip, and this model has only one".into());
        }
        let target = self.next(clips.len());
        self.end_fade_where_it_is();
        let blend = self.blend_count();
        if !self.mixer.layers[..blend].iter().any(|l| l.clip == target) {
            self.mixer.layers.insert(blend, Layer::new(Kind::Blend, target, 0.0, skeleton));
            self.bones.insert(blend, String::new());
        }
        // The fade starts from the blend as it is, its weights made to sum to 1 (summed in 64-bit
        // floats, which two weights of 3e38 do not overflow: `weighted::total`).
        let blend = self.mixer.layers.iter().filter(|l| l.kind == Kind::Blend);
        let total = weighted::total(blend.map(|l| l.weight));
        let share = |w: f32| if total > 0.0 { (f64::from(w) / total) as f32 } else { 0.0 };
        let from = self.mixer.layers.iter().map(|l| share(l.weight)).collect();
        self.fade =
            Some(Fade { crossfade: Crossfade { start: time, seconds: self.fade_seconds }, target, from });
        Ok(())
    }

    /// `J` (`toward_next` false) and `K`: a tenth of the weight from one of the clip that plays and
    /// the next clip to the other. A crossfade under way stops where it is.
    pub fn shift(&mut self, toward_next: bool, clips: &[Clip], skeleton: &Skeleton) -> Result<(), String> {
        if clips.len() < 2 {
            return Err("J and K move weight to the next clip, and this model has only one".into());
        }
        self.end_fade_where_it_is();
        if self.blend_count() == 1 {
            let next = self.next(clips.len());
            self.mixer.layers.insert(1, Layer::new(Kind::Blend, next, 0.0, skeleton));
            self.bones.insert(1, String::new());
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

    /// `R`: a crossfade under way ends at once, on the clip it went to.
    pub fn end_fade(&mut self) {
        if let Some(fade) = &mut self.fade {
            fade.crossfade.seconds = 0.0;
        }
    }

    /// A crossfade under way stops, its weights as the last frame had them.
    fn end_fade_where_it_is(&mut self) {
        self.fade = None;
    }

    /// The corner line's rows for the layers, each on a line of its own after `out`: kind, weight,
    /// clip (and a mask's bone), its time; then a crossfade under way. Nothing for one clip alone.
    pub fn write_rows(&self, out: &mut String, names: &[String], time: f64) {
        let layers = &self.mixer.layers;
        if layers.len() < 2 && self.fade.is_none() {
            return;
        }
        let in_step = if self.mixer.sync { "in step" } else { "not in step" };
        let several = self.blend_count() > 1;
        // Writing into a String cannot fail; with room to spare it does not allocate either.
        for (layer, bone) in layers.iter().zip(&self.bones) {
            let _ = write!(out, "\n{} {:.2} {}", layer.kind.name(), layer.weight, names[layer.clip]);
            if !bone.is_empty() {
                let _ = write!(out, "@{bone}");
            }
            let _ = write!(out, "  t {:.2} s", layer.time);
            if several && layer.kind == Kind::Blend {
                let _ = write!(out, "  {in_step}");
            }
        }
        if let Some(fade) = &self.fade {
            let percent = 100.0 * fade.crossfade.progress(time);
            let _ = write!(
                out,
                "\nfade to {}  {percent:.0}% of {} s",
                names[fade.target], fade.crossfade.seconds
            );
        }
    }
}

/// The clip `wanted` names, as `--animation` takes it for a model (a name or an index) and
/// `--clip` for the article's scene; a wrong one is refused, listing the choices.
fn find_clip(options: &Options, clips: &[Clip], flag: &str, wanted: &str) -> Result<usize, String> {
    let asked = Options {
        model: options.model.clone(),
        animation: Some(wanted.to_string()),
        clip: wanted.to_string(),
        ..Options::default()
    };
    asked.clip_index(clips).map_err(|e| format!("{flag}: {e}"))
}

/// The bone `name` names (a name, else an index); a wrong one is refused, listing the choices.
fn find_bone(skeleton: &Skeleton, name: &str) -> Result<BoneId, String> {
    let by_index = || name.parse::<usize>().ok().filter(|&i| i < skeleton.len());
    skeleton.find(name).or_else(by_index).ok_or_else(|| {
        let names: Vec<_> = skeleton.bones().iter().map(|b| printable(&b.name)).collect();
        format!(
            "--mask: no bone {} in this model: choose one of {} (or 0 to {})",
            quoted(name),
            names.join(", "),
            names.len() - 1
        )
    })
}

#[cfg(test)]
mod tests;
