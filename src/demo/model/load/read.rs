//! Reading a model's files, the one place where the desktop and the page differ: on disk the
//! formats crate opens the model and the files beside it itself (`gltf_import::load`,
//! `md5_import::load`); handed over, it is given the model's bytes and the others by name
//! (`load_with_files`, `load_with_pictures`), and looks them up by the same rules. Either way a bad
//! file is one line, the model's name first.

use crate::demo::model::files::{ModelFiles, beside, folder_of};
use crate::demo::output::failure::Failure;
use skinning_formats::gltf_import::{self, ImportError};
use skinning_formats::md5_import::{self, Md5Error};
use skinning_method::printable::printable;
use std::path::{Path, PathBuf};

/// A file handed over that is not there, as the error its loader gives for a file it cannot read.
fn unread(why: String) -> std::io::Error {
    std::io::Error::other(why)
}

/// A glTF model (`.gltf` or `.glb`) and what it names.
pub fn gltf(from: ModelFiles) -> Result<gltf_import::Imported, Failure> {
    let (name, files) = match from {
        ModelFiles::Disk(path) => {
            return gltf_import::load(path).map_err(|e| match e {
                // That message names the file already.
                ImportError::Read { .. } => Failure::new(1, e.to_string()),
                _ => Failure::new(1, format!("{}: {e}", path.display())),
            });
        }
        ModelFiles::Handed { name, files } => (name, files),
    };
    let shown = printable(name).into_owned();
    let bytes = files.get(name).map_err(|why| {
        Failure::new(1, ImportError::Read { path: shown.clone(), error: unread(why) }.to_string())
    })?;
    let mut imported = gltf_import::load_with_files(bytes, &beside(files, folder_of(name)))
        .map_err(|e| Failure::new(1, format!("{shown}: {e}")))?;
    imported.notes.splice(0..0, files.notes.iter().cloned());
    imported.files = vec![PathBuf::from(name)];
    Ok(imported)
}

/// An MD5 model (`.md5mesh`) with the `.md5anim` files beside it and the pictures it names.
pub fn md5(from: ModelFiles) -> Result<md5_import::Imported, Failure> {
    let (name, files) = match from {
        ModelFiles::Disk(path) => {
            return md5_import::load(path).map_err(|e| match e {
                // That message names the file already.
                Md5Error::Read { .. } => Failure::new(1, e.to_string()),
                _ => Failure::new(1, format!("{}: {e}", path.display())),
            });
        }
        ModelFiles::Handed { name, files } => (name, files),
    };
    let mesh = files.get(name).map_err(|why| {
        Failure::new(1, Md5Error::Read { path: name.to_string(), error: unread(why) }.to_string())
    })?;
    let mut notes = files.notes.clone();
    let mut texts = Vec::new();
    for anim in files.md5anims(folder_of(name)) {
        let stem = Path::new(&anim).file_stem().map_or(String::new(), |s| s.to_string_lossy().into_owned());
        match files.get(&anim) {
            Ok(bytes) => texts.push((stem, String::from_utf8_lossy(bytes).into_owned())),
            Err(e) => notes.push(format!("skipped the animation {}.md5anim: {e}", printable(&stem))),
        }
    }
    let texts: Vec<(&str, &str)> = texts.iter().map(|(stem, text)| (stem.as_str(), text.as_str())).collect();
    let mesh = String::from_utf8_lossy(mesh);
    let mut imported = md5_import::load_with_pictures(&mesh, &texts, &beside(files, folder_of(name)))
        .map_err(|e| Failure::new(1, format!("{}: {e}", printable(name))))?;
    notes.append(&mut imported.notes);
    imported.notes = notes;
    imported.files = vec![PathBuf::from(name)];
    Ok(imported)
}
