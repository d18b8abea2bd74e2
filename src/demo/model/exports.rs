//! `--export-gltf` and `--export-md5`: the model shown, with its own clips, written as a glTF file
//! or as an MD5 model, then one line saying what was written.
//!
//! A model with no clips of its own shows its rest pose, a clip named `rest` (`model/load.rs`).
//! A glTF file keeps that pose in its nodes; an MD5 model keeps only its bind pose, so it gets the
//! `rest` clip, and shows what the program showed.
//!
//! Everything is checked before anything is written: the files (never over one the model was read
//! from, `inputs.rs`; the `.md5anim` files and pictures never over a file already there unless
//! `--force` says so, `together.rs`), then the model
//! (what the format cannot hold, and the MD5 export's budget). An `.md5anim` is written frame by
//! frame as its clip is sampled (`md5_export/anim.rs`), so memory does not grow with the clips; a
//! glTF file is laid out first, then written as its buffer is made (`gltf_export.rs`: `Export`).

use crate::demo::model::load::Loaded;
use crate::demo::output::failure::Failure;
use crate::demo::output::inputs::Inputs;
use crate::demo::output::replace::Writer;
use crate::demo::output::{console, together, write_file};
use skinning_formats::gltf_export::{Container, Export};
use skinning_formats::gltf_import::counted;
use skinning_formats::md5_export::{Md5Export, file_stems};
use skinning_method::clip::Clip;
use skinning_method::printable::printable;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The clips written as MD5: the model's own, or the rest pose it shows when it has none.
fn md5_clips(loaded: &Loaded) -> &[Clip] {
    let own = loaded.own_clips.max(1).min(loaded.clips.len());
    &loaded.clips[..own]
}

/// How many animations, and their names.
fn animations(clips: &[Clip]) -> String {
    match clips {
        [] => "no animation (the nodes keep the rest pose)".to_string(),
        _ => format!("{} ({})", counted(clips.len(), "animation", "animations"), names(clips)),
    }
}

/// The clips' names, for the line said.
fn names(clips: &[Clip]) -> String {
    let names: Vec<String> = clips.iter().map(|c| printable(&c.name).into_owned()).collect();
    names.join(", ")
}

/// Writes the model as a glTF file at `path` (all of it or none), then says so.
pub fn gltf(path: &Path, container: Container, loaded: &Loaded) -> Result<(), Failure> {
    Inputs::of(&loaded.read).refuse(path, "name another file")?;
    let clips = &loaded.clips[..loaded.own_clips];
    // Laid out first (the JSON says how long the buffer is), then written as it is made: the file
    // is never held whole (`gltf_export.rs`: `Export`).
    let export = Export::plan(&loaded.model, &loaded.looks, &loaded.morphs, clips, container)
        .map_err(|e| Failure::new(1, format!("cannot export the model as glTF: {e}")))?;
    write_file(path, |file| export.write_to(file))?;
    let model = &loaded.model;
    let kind = match container {
        Container::Gltf => "glTF JSON",
        Container::Glb => "binary glTF",
    };
    let name = match path == Path::new("-") {
        true => "standard output".to_string(),
        false => printable(&path.display().to_string()).into_owned(),
    };
    // Morph targets, where the model has any: they go out with their meshes (`gltf_export/morphs.rs`).
    let targets: usize = loaded.morphs.iter().map(|m| m.target_count()).sum();
    let morphs = match targets {
        0 => String::new(),
        n => format!(", {}", counted(n, "morph target", "morph targets")),
    };
    console::show(&format!(
        "wrote {name} ({kind}, {} bytes): {}, {}{morphs}, {}",
        export.bytes(),
        counted(model.skeleton.len(), "bone", "bones"),
        counted(model.skin.len(), "vertex", "vertices"),
        animations(clips)
    ))
}

/// Writes the model as an MD5 model, `path` and beside it an `.md5anim` per clip and the pictures
/// its shaders name (all or none), then says so. `force`: an `.md5anim` or a picture may replace a
/// file of its name (never one the model was read from).
pub fn md5(path: &Path, loaded: &Loaded, force: bool) -> Result<(), Failure> {
    let clips = md5_clips(loaded);
    let stems = file_stems(clips);
    // Where the mesh really lands (a link followed once): everything else goes beside it.
    let mesh = together::landing(path)?;
    let animations: Vec<PathBuf> =
        stems.iter().map(|stem| mesh.with_file_name(format!("{stem}.md5anim"))).collect();
    let export =
        Md5Export::new(&loaded.model, &loaded.looks, clips).map_err(|e| together::cannot_export(&e))?;
    let pictures: Vec<PathBuf> = export.pictures.iter().map(|(file, _)| mesh.with_file_name(file)).collect();
    let derived: Vec<PathBuf> = animations.iter().chain(&pictures).cloned().collect();
    let planned = together::check((path, mesh.clone()), &derived, &Inputs::of(&loaded.read), force)?;
    if !loaded.morphs.is_empty() {
        console::say("note: MD5 has no morph targets: the model is written in its modelled shape");
    }
    export.notes.iter().for_each(|note| console::say(&format!("note: {note}")));
    // References, which each writer's `move` closure copies.
    let export = &export;
    let images = &loaded.looks.materials.images;
    let mut writers: Vec<Writer> =
        vec![Box::new(|out: &mut dyn Write| out.write_all(export.mesh.as_bytes()))];
    for i in 0..animations.len() {
        writers.push(Box::new(move |out: &mut dyn Write| export.write_animation(i, out)));
    }
    for &(_, image) in &export.pictures {
        writers.push(Box::new(move |out: &mut dyn Write| out.write_all(&images[image].bytes)));
    }
    together::write(&planned, writers)?;
    let stems: Vec<String> = (animations.iter())
        .map(|file| printable(&file.file_name().unwrap_or_default().to_string_lossy()).into_owned())
        .collect();
    let folder = match mesh.parent().map(|p| p.display().to_string()) {
        Some(p) if !p.is_empty() => printable(&p).into_owned(),
        _ => ".".to_string(),
    };
    let mesh = printable(&mesh.file_name().unwrap_or_default().to_string_lossy()).into_owned();
    let pictures = match &export.pictures[..] {
        [] => String::new(),
        some => {
            let files: Vec<String> = some.iter().map(|(file, _)| printable(file).into_owned()).collect();
            format!("; {}: {}", counted(files.len(), "picture", "pictures"), files.join(", "))
        }
    };
    console::show(&format!(
        "wrote {mesh} and {} in {folder}: {} (clips {}; each clip's own name is inside its file){pictures}",
        counted(stems.len(), "animation", "animations"),
        stems.join(", "),
        names(clips)
    ))
}
