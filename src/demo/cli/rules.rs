//! The rules between flags: which go together and which do not (`--clip` belongs to the article's
//! scene and `--animation` to a model's, `--dump` draws nothing so it takes no `--screenshot`...),
//! each refusal one line saying what to do instead.

use super::layers::{self, Others};
use super::options::{DUMP_DT, MAX_SECONDS, Options};
use crate::demo::cli::choices::{Methods, Skinning};

/// The values flags take from each other: a headless picture without `--frames` is one frame.
pub fn fill_in(options: &mut Options) {
    if options.headless && options.screenshot.is_some() && options.frames.is_none() {
        options.frames = Some(1);
    }
}

/// Checks the rules between the flags `options` holds (`clip_given`: whether `--clip` was given,
/// since its default is a clip too), family by family.
pub fn check(options: &Options, clip_given: bool) -> Result<(), String> {
    exports(options, clip_given)?;
    model_and_clip(options, clip_given)?;
    outputs(options)?;
    super::reach::check(&options.reach, options.info)?;
    super::look::check(&options.look, options.info)?;
    super::ground::check(options.ground, options.info)?;
    // Several clips at once: their own rules (`layers.rs`).
    let others = Others {
        animation: options.animation.is_some(),
        clip: clip_given,
        info: options.info,
        dump: options.dump.is_some(),
    };
    layers::check(&options.layers, others)?;
    super::motion::check(&options.motion, options.layers.any_layer(), options.info)?;
    last_time(options)?;
    fade_time(options)
}

/// `--fade-to CLIP@SECONDS` within the bound `--time` has: a later time is no time a clip's
/// float keys can tell apart.
fn fade_time(options: &Options) -> Result<(), String> {
    match &options.layers.fade_to {
        Some(fade) if fade.at.is_some_and(|at| at.abs() > MAX_SECONDS) => Err(format!(
            "--fade-to {}@{}: the crossfade's time is seconds from -{MAX_SECONDS:e} to {MAX_SECONDS:e}",
            fade.clip,
            fade.at.unwrap_or_default()
        )),
        _ => Ok(()),
    }
}

/// The exports write what would be shown, the article's scene or --model's, all of its clips:
/// they come alone, but for --model, --front, --clips-from (whose clips they write as the model's
/// own) and --export-md5's --force.
fn exports(options: &Options, clip_given: bool) -> Result<(), String> {
    for (export, flag, format) in [
        (options.export_gltf.is_some(), "--export-gltf", "a glTF file"),
        (options.export_md5.is_some(), "--export-md5", "an MD5 model"),
    ] {
        let alone = Options {
            export_gltf: None,
            export_md5: None,
            model: None,
            force: false,
            front: None,
            motion: super::motion::MotionOptions { clips_from: None, ..options.motion.clone() },
            ..options.clone()
        } == Options::default();
        let both = options.export_gltf.is_some() && options.export_md5.is_some();
        if export && (!alone || clip_given || both) {
            return Err(format!(
                "{flag} writes the model shown (the article's scene, or --model FILE) as {format} with \
                 all its clips, then exits: give it alone or with --model, --front and --clips-from"
            ));
        }
    }
    if options.force && options.export_md5.is_none() {
        return Err(
            "--force lets --export-md5 replace .md5anim files already there; it goes with --export-md5 only"
                .into(),
        );
    }
    Ok(())
}

/// --clip names the article's clips, --animation a model's: each belongs to its own scene; and
/// --info describes a model, and only does that.
fn model_and_clip(options: &Options, clip_given: bool) -> Result<(), String> {
    if options.model.is_some() && clip_given {
        return Err("--clip picks one of the article's clips; with --model use --animation NAME|INDEX".into());
    }
    if options.model.is_none() && options.animation.is_some() {
        return Err("--animation picks one of a model's animations: add --model FILE, or use --clip".into());
    }
    if options.model.is_none() && options.info {
        return Err("--info describes a model file: --model FILE --info".into());
    }
    // A flag that picks what is shown, or names a part of the model, has nothing to pick in a
    // description of the whole file: refused, not taken silently.
    let shows = [
        (options.animation.is_some(), "--animation"),
        (options.weights.is_some(), "--weights"),
        (options.trail.is_some(), "--trail"),
        (!options.morphs.is_empty(), "--morph"),
        (options.crowd > 1, "--crowd"),
    ];
    if options.info
        && let Some((_, flag)) = shows.iter().find(|(given, _)| *given)
    {
        return Err(format!(
            "--info only prints what the file holds (every animation, bone and morph target); {flag} \
             chooses what is shown: run it without --info"
        ));
    }
    if options.info && (options.dump.is_some() || options.screenshot.is_some()) {
        return Err("--info only prints what the file holds; run --dump or --screenshot without it".into());
    }
    Ok(())
}

/// What a run ends with: a screenshot after its last frame, a window to close, or a dump, which
/// draws nothing and writes one set of skinned positions.
fn outputs(options: &Options) -> Result<(), String> {
    if options.screenshot.is_some() && options.frames.is_none() {
        return Err("--screenshot needs --frames N: the picture is taken after the last frame".into());
    }
    if options.headless && options.frames.is_none() && options.dump.is_none() {
        return Err("--headless needs --frames N (or a --screenshot, one frame): with no window there is \
                    nothing to close"
            .into());
    }
    if options.dump.is_some() && options.screenshot.is_some() {
        return Err("--dump draws nothing, so it cannot take a --screenshot; run them separately".into());
    }
    if options.dump.is_some() && options.inspect.is_some() {
        return Err(
            "--dump draws nothing, so it has no inspector; its file holds every vertex's numbers".into()
        );
    }
    if options.dump.is_some() && options.crowd > 1 {
        return Err("--dump writes one character's numbers: run it without --crowd".into());
    }
    if options.dump.is_some() && options.skinning == Skinning::Both {
        return Err("--dump writes one set of skinned positions: choose --skinning cpu or gpu".into());
    }
    if options.dump.is_some() && options.method == Methods::Both {
        return Err("--dump writes one set of skinned positions: choose --method lbs or dqs".into());
    }
    Ok(())
}

/// The last frame's time must stay representable (and finite, for the dump's JSON).
fn last_time(options: &Options) -> Result<(), String> {
    let dt = options.fixed_dt.unwrap_or(if options.dump.is_some() { DUMP_DT } else { 0.0 });
    let last = options.time + dt * (options.frames.unwrap_or(1) - 1) as f64;
    if last.abs() > MAX_SECONDS {
        return Err(format!(
            "--time + --fixed-dt x (--frames - 1) reaches {last:e} s; the largest accepted is {MAX_SECONDS:e} s"
        ));
    }
    Ok(())
}
