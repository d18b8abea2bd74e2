//! The model the demo shows, in one record ([`Loaded`]): the article's scene, or a model file read
//! by the loader its extension asks for (`.md5mesh`, in any letter case: MD5; anything else:
//! glTF), with its clips and what the loader had to say. One loader for the desktop and the page:
//! the files come from a folder on disk or are handed over by name ([`ModelFiles`]), and only
//! reading them differs (`load/read.rs`). `--stats` times the load; `--info` prints what the file
//! holds instead; `--clips-from` replaces the clips by another model's (`clips_from.rs`).

mod read;

use super::files::{Files, ModelFiles};
use crate::demo::cli::options::Options;
use crate::demo::cli::values::is_md5mesh;
use crate::demo::output::console;
use crate::demo::output::failure::Failure;
use skinning_formats::gltf_import;
use skinning_formats::material::Looks;
use skinning_formats::md5_import::{self, StoredWeights};
use skinning_method::clip::Clip;
use skinning_method::model::{Axes, Axis, Model};
use skinning_method::morph::MorphTargets;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A model ready to show.
pub struct Loaded {
    pub model: Model,
    /// What its surface looks like (texture coordinates, materials; none for the article).
    pub looks: Looks,
    /// Its meshes' morph targets, kept beside it (glTF only; none for most).
    pub morphs: MorphTargets,
    /// Its clips, shared with the mixer that plays them (`show/layers.rs`).
    pub clips: Arc<[Clip]>,
    /// How many of `clips` are the file's own: after them a loader may add `rest`, the rest pose
    /// (glTF, for a file without animations; MD5, unless a clip is named `rest` already).
    pub own_clips: usize,
    /// What the loader mended or skipped, to be said once.
    pub notes: Vec<String>,
    /// An MD5 model's weights as the file stores them, for the vertex inspector.
    pub stored: Option<StoredWeights>,
    /// The files the model was read from (its own first), which an export never writes over.
    pub read: Vec<PathBuf>,
}

/// What loading came to.
pub enum Loading {
    Show(Box<Loaded>),
    /// `--info` printed what the file holds; nothing more to do.
    Described,
}

/// The model `options` ask for, from disk. A bad file is one line and exit code 1.
pub fn load(options: &Options) -> Result<Loading, Failure> {
    let model = options.model.as_deref().map(ModelFiles::Disk);
    let clips_from = options.motion.clips_from.as_deref().map(ModelFiles::Disk);
    load_from(model, clips_from, options)
}

/// The model `options` ask for, and the `--clips-from` file, from files handed over by name (a
/// page's, fetched from beside it): the same road as [`load`], the names the flags give.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub fn handed(options: &Options, files: &Files) -> Result<Loading, Failure> {
    let name = |path: &Option<PathBuf>| path.as_ref().map(|p| p.to_string_lossy().into_owned());
    let (model, clips_from) = (name(&options.model), name(&options.motion.clips_from));
    let model = model.as_deref().map(|name| ModelFiles::Handed { name, files });
    let clips_from = clips_from.as_deref().map(|name| ModelFiles::Handed { name, files });
    load_from(model, clips_from, options)
}

/// The one road: the model in `model` (the article's scene without one), then, for `--clips-from`,
/// the clips of the model in `clips_from` made its own (`clips_from.rs`), wherever the files are.
fn load_from(
    model: Option<ModelFiles>,
    clips_from: Option<ModelFiles>,
    options: &Options,
) -> Result<Loading, Failure> {
    let loading = match model {
        Some(files) => open(files, options)?,
        None => article(options)?,
    };
    match (loading, clips_from) {
        (Loading::Show(mut loaded), Some(files)) => {
            let name = shown(files.path());
            // Opened without --info, a model is always shown.
            let Loading::Show(other) = open(files, &Options::default())? else {
                return Err(Failure::new(1, format!("--clips-from {name}: nothing was loaded")));
            };
            let (model, own) = (&other.model, other.own_clips);
            loaded.clips = super::clips_from::carry(&loaded.model, model, &other.clips, own, &name)?.into();
            loaded.own_clips = loaded.clips.len();
            // An export never writes over the files the clips came from either.
            loaded.read.extend(other.read);
            Ok(Loading::Show(loaded))
        }
        (loading, _) => Ok(loading),
    }
}

/// The article's scene. An edit to it that breaks it is reported, naming what is wrong.
fn article(options: &Options) -> Result<Loading, Failure> {
    let invalid = |e: skinning_method::scene::SceneError| {
        Failure::new(1, format!("the built-in scene is invalid: {e}"))
    };
    let mut model = skinning_method::scene::article().map_err(|e| invalid(e.into()))?;
    facing(&mut model, options)?;
    let clips = skinning_method::scene::clips().map_err(invalid)?;
    let own_clips = clips.len();
    let (looks, notes, stored, read) = (Looks::default(), Vec::new(), None, Vec::new());
    let (clips, morphs) = (clips.into(), MorphTargets::default());
    Ok(Loading::Show(Box::new(Loaded { model, looks, morphs, clips, own_clips, notes, stored, read })))
}

/// The model in `from`, by the loader its name asks for, whichever way its files came: the one
/// road for the desktop and the page. `--info` describes it instead; `--stats` times it.
pub fn open(from: ModelFiles, options: &Options) -> Result<Loading, Failure> {
    let path = from.path();
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("md5anim")) {
        let problem = "an .md5anim is one animation of an MD5 model; give its .md5mesh, and the .md5anim \
                       files beside it play as its animations";
        return Err(Failure::new(1, format!("{}: {problem}", shown(path))));
    }
    let started = crate::demo::time::Instant::now();
    let (loaded, description) = if is_md5mesh(path) {
        let mut imported = read::md5(from)?;
        facing(&mut imported.model, options)?;
        // --front says the front itself: the loader's note about the one it found goes.
        if let (Some(_), Some(note)) = (options.front, imported.front.note()) {
            imported.notes.retain(|n| *n != note);
        }
        let info = options.info.then(|| crate::demo::model::md5_info::describe(path, &imported));
        let own_clips = imported.animations.len();
        let md5_import::Imported { model, looks, clips, stored, notes, files, .. } = imported;
        let (clips, morphs, stored) = (clips.into(), MorphTargets::default(), Some(stored));
        (Loaded { model, looks, morphs, clips, own_clips, notes, stored, read: files }, info)
    } else {
        let mut imported = read::gltf(from)?;
        facing(&mut imported.model, options)?;
        let info = options.info.then(|| crate::demo::model::info::describe(path, &imported));
        // A file with nothing in its scene to draw loads for --info, and is refused for the rest.
        if let (Some(why), None) = (&imported.nothing_to_draw, &info) {
            return Err(Failure::new(1, format!("{}: {why}", shown(path))));
        }
        let own_clips = if imported.rest_only { 0 } else { imported.clips.len() };
        let gltf_import::Imported { model, looks, morphs, clips, notes, files, .. } = imported;
        (
            Loaded { model, looks, morphs, clips: clips.into(), own_clips, notes, stored: None, read: files },
            info,
        )
    };
    if options.stats {
        say_load_time(path, started, loaded.model.skin.len())?;
    }
    // `--info --animation` names a clip it would not play: the same mistake, and exit code, as
    // without `--info`.
    if description.is_some() && options.animation.is_some() {
        options.clip_index(&loaded.clips).map_err(|e| Failure::new(2, e))?;
    }
    match description {
        Some(text) => console::show(&text).map(|()| Loading::Described),
        None => Ok(Loading::Show(Box::new(loaded))),
    }
}

/// A model's name as its messages give it.
fn shown(path: &Path) -> String {
    skinning_method::printable::printable(&path.display().to_string()).into_owned()
}

/// `--front AXIS`: the model faces that axis of its own numbers, whatever its loader found. The
/// picture looks at that side, and the exports write it as their format's front. It must lie
/// across the model's up (a command-line mistake, exit 2, if it lies along it).
fn facing(model: &mut Model, options: &Options) -> Result<(), Failure> {
    let Some(front) = options.front else { return Ok(()) };
    let up = model.axes.up();
    model.axes = Axes::new(up, front).ok_or_else(|| {
        let across: Vec<String> = Axis::ALL.iter().filter(|a| !a.parallel(up)).map(Axis::to_string).collect();
        Failure::new(
            2,
            format!(
                "--front {front} lies along the model's up, {up}; a front lies across it: {}",
                across.join(", ")
            ),
        )
    })?;
    Ok(())
}

/// `--stats`: how long the file took to load.
fn say_load_time(path: &Path, started: crate::demo::time::Instant, vertices: usize) -> Result<(), Failure> {
    let ms = started.elapsed().as_secs_f64() * 1e3;
    console::show(&format!("load: {} in {ms:.1} ms ({vertices} vertices)", shown(path)))
}

#[cfg(test)]
mod tests;
