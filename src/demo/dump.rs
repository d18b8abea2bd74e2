//! `--dump FILE`: the method's numbers for the frames asked, as JSON (the formats crate's `dump`),
//! instead of a picture. Numbers only: no camera, no window state; just the clip asked for, or the
//! layers of clips the flags ask for (`show/layers.rs`), the held morph weights and the chains that
//! reach. The desktop writes them into the file (or, with `--skinning gpu`, reads them back from
//! the vertex shader first: `platform/headless.rs`, which `demo/mod.rs` hands over as [`To::Gpu`],
//! so that this file stands below the platforms); the web page hands them over as a download.

use crate::demo::cli::choices::Skinning;
use crate::demo::cli::{self, options::Options};
use crate::demo::output::failure::Failure;
use crate::demo::show;
use skinning_fast::fast_path::FastPath;
use skinning_formats::dump::{By, Frames, Played, Settings};
use skinning_method::clip::Clip;
use skinning_method::mixer::Mixer;
use skinning_method::model::Model;
use std::sync::Arc;

/// The desktop's read-back of the vertex shader's numbers into a dump file
/// (`platform/headless.rs`: `dump_gpu`), the frames made as the settings say but for who blends.
#[cfg(not(target_arch = "wasm32"))]
pub type GpuDump = fn(&std::path::Path, &Model, Played, Frames, Settings) -> Result<(), Failure>;

/// Where the dump goes.
pub enum To<'a> {
    /// The file the command line named (the desktop's).
    #[cfg(not(target_arch = "wasm32"))]
    File(&'a std::path::Path),
    /// The same file, `--skinning gpu`: its numbers read back from the vertex shader by the
    /// function given, which holds the offscreen context this file does not make.
    #[cfg(not(target_arch = "wasm32"))]
    Gpu(&'a std::path::Path, GpuDump),
    /// These bytes (the web page's download).
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    Bytes(&'a mut Vec<u8>),
}

/// Works out the frames `options` ask for on `model` playing `clips` and writes their numbers
/// `to` the dump; `say_notes` says what the loader noted, once the flags are found good.
pub fn dump(
    options: &Options,
    model: &Model,
    clips: &Arc<[Clip]>,
    say_notes: impl FnOnce(),
    to: To,
) -> Result<(), Failure> {
    let clip = &clips[options.clip_index(clips).map_err(|e| Failure::new(2, e))?];
    // The layers at the start, if the flags ask for any: each pass over the frames below plays a
    // copy of them of its own from there (a mixer moves as it plays; the copies share the clips).
    let start = show::layers::Mixing::for_dump(model, clips, options).map_err(|e| Failure::new(2, e))?;
    let frames = Frames {
        start: options.time,
        dt: options.fixed_dt.unwrap_or(cli::options::DUMP_DT),
        count: options.frames.unwrap_or(1),
    };
    let held = cli::morph::resolve(model, &options.morphs).map_err(|e| Failure::new(2, e))?;
    // --weights and --trail colour and draw, which a dump does not; a bone they name is still
    // found, as in the window, so a wrong name is refused rather than taken silently.
    if let Some(name) = &options.weights {
        show::view::find_bone(model, name).map_err(|e| Failure::new(2, e))?;
    }
    show::trail::Trail::new(model, options.trail.as_deref()).map_err(|e| Failure::new(2, e))?;
    // The command line refuses `--method both`, as `--skinning both`: a dump holds one blend.
    let method = options.method.first();
    if method == skinning_method::lbs_or_dqs::Method::Dqs
        && let Some((time, e)) =
            skinning_formats::dump::check_dqs(model, played(&mut start.clone(), clip), frames)
    {
        return Err(Failure::new(1, show::skinned::refusal(model, &e, time)));
    }
    // The chains that reach (`--reach`), solved in every frame after the clip; a note for each
    // straight limb the default bend bends (`bend_rule.rs`).
    let mut reaches = show::reach::chains(model, &options.reach).map_err(|e| Failure::new(2, e))?;
    reaches.extend(show::reach::look_chain(model, &options.look).map_err(|e| Failure::new(2, e))?);
    let feet = show::reach::feet_chain(model, options.ground, options.model.is_none());
    reaches.extend(feet.map_err(|e| Failure::new(2, e))?);
    show::reach::say_rule_notes(model, played(&mut start.clone(), clip), options.time, &reaches);
    say_notes();
    let threads =
        show::threads::blend_threads(options.threads, options.parallel_from, model.skin.len(), false)
            .map_err(|e| Failure::new(1, e))?;
    // The readable loops (the numbers a learner redoes from the file), on the threads that pay:
    // the same numbers as on one thread, bit for bit.
    let fast = FastPath { lanes: None, threads };
    // The clip's travel (`--root-motion`), carried on or taken out after step 1 in every frame.
    let mut root_motion =
        show::root_motion::root_motion(model, clip, &options.motion).map_err(|e| Failure::new(2, e))?;
    let root_motion = root_motion.as_mut();
    let settings = Settings { method, by: By::Cpu(&fast), held: &held, reaches: &mut reaches, root_motion };
    let write = |mut file: &mut dyn std::io::Write, settings| {
        let mut mixer = start.clone();
        skinning_formats::dump::write_dump_with(&mut file, model, played(&mut mixer, clip), frames, settings)
    };
    let written = match to {
        // The GPU's skinned positions, read back from the vertex shader: for checking it.
        #[cfg(not(target_arch = "wasm32"))]
        To::Gpu(path, dump_gpu) => dump_gpu(path, model, played(&mut start.clone(), clip), frames, settings),
        #[cfg(not(target_arch = "wasm32"))]
        To::File(path) => crate::demo::output::write_file(path, |file| write(file, settings)),
        To::Bytes(_) if options.skinning == Skinning::Gpu => Err(Failure::new(
            2,
            "--dump --skinning gpu reads the vertex shader's numbers back, which this page does not; \
             use --skinning cpu, or the desktop program",
        )),
        To::Bytes(bytes) => {
            write(bytes, settings).map_err(|e| Failure::new(1, format!("cannot write the dump: {e}")))
        }
    };
    // What the flags' names and values gave rise to, once the dump is written (a failure is one line).
    written.inspect(|()| crate::demo::output::console::say_held_notes())
}

/// What one pass over the frames plays: `mixer`, its own copy of the layers at their start, or,
/// where the flags ask for no layers, the one `clip`.
fn played<'a>(mixer: &'a mut Option<Mixer>, clip: &'a Clip) -> Played<'a> {
    match mixer {
        Some(mixer) => Played::Mixer(mixer),
        None => Played::Clip(clip),
    }
}
