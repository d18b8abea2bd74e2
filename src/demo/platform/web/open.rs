//! A model's files, gathered (`folder.rs`), opened by the loader its name asks for, as the desktop
//! opens a model file (`show/loaded.rs`): `.md5mesh` is MD5 with the `.md5anim` files beside it,
//! anything else glTF. The loaders are the same; only where the bytes come from differs, so a bad
//! file gets the same one line as on the desktop, the model's name first.

use super::folder::{Files, folder_of, inside};
use super::gltf_files::{is_gltf, with_data_uris};
use crate::demo::cli::values::is_md5mesh;
use crate::demo::model::load::Loaded;
use crate::demo::output::failure::Failure;
use skinning_formats::gltf_import::{self, ImportError};
use skinning_formats::md5_import::{self, Md5Error};
use skinning_method::printable::printable;
use std::path::{Path, PathBuf};

/// A model opened: what to show, and what `--info` says of it when asked.
pub struct Opened {
    pub loaded: Loaded,
    pub info: Option<String>,
}

/// Opens the model `name` from `files`; `info` asks for `--info`'s description too.
pub fn open(name: &str, files: &Files, info: bool) -> Result<Opened, Failure> {
    let path = Path::new(name);
    let shown = printable(name).into_owned();
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("md5anim")) {
        let problem = "an .md5anim is one animation of an MD5 model; give its .md5mesh, and the .md5anim \
                       files beside it play as its animations";
        return Err(Failure::new(1, format!("{shown}: {problem}")));
    }
    let unread = |why: String| std::io::Error::other(why);
    if is_md5mesh(path) {
        let mesh = files.get(name).map_err(|why| {
            Failure::new(1, Md5Error::Read { path: name.to_string(), error: unread(why) }.to_string())
        })?;
        let mut notes = files.notes.clone();
        let mut texts = Vec::new();
        for anim in files.md5anims(folder_of(name)) {
            let stem =
                Path::new(&anim).file_stem().map_or(String::new(), |s| s.to_string_lossy().into_owned());
            match files.get(&anim) {
                Ok(bytes) => texts.push((stem, String::from_utf8_lossy(bytes).into_owned())),
                Err(e) => notes.push(format!("skipped the animation {}.md5anim: {e}", printable(&stem))),
            }
        }
        let texts: Vec<(&str, &str)> =
            texts.iter().map(|(stem, text)| (stem.as_str(), text.as_str())).collect();
        // The pictures its shaders name that the page has, by their names from the model's folder.
        let mesh = String::from_utf8_lossy(mesh);
        let folder = folder_of(name);
        let pictures: Vec<(String, Vec<u8>)> = (md5_import::pictures_named(&mesh).into_iter())
            .filter_map(|p| Some((p.clone(), files.get(&inside(folder, &p)?).ok()?.to_vec())))
            .collect();
        let mut imported = md5_import::load_with_pictures(&mesh, &texts, &pictures)
            .map_err(|e| Failure::new(1, format!("{shown}: {e}")))?;
        notes.append(&mut imported.notes);
        imported.notes = notes;
        let info = info.then(|| crate::demo::model::md5_info::describe(path, &imported));
        let own_clips = imported.animations.len();
        let md5_import::Imported { model, looks, clips, stored, notes, .. } = imported;
        let read = vec![PathBuf::from(name)];
        let loaded = Loaded { model, looks, clips, own_clips, notes, stored: Some(stored), read };
        return Ok(Opened { loaded, info });
    }
    let bytes = files.get(name).map_err(|why| {
        Failure::new(1, ImportError::Read { path: shown.clone(), error: unread(why) }.to_string())
    })?;
    let mut notes = files.notes.clone();
    let failed = |e: ImportError| Failure::new(1, format!("{shown}: {e}"));
    let bytes = match is_gltf(bytes) {
        true => with_data_uris(bytes, folder_of(name), files, &mut notes).map_err(failed)?,
        false => bytes.to_vec(),
    };
    let mut imported = gltf_import::load_from_slice(&bytes, None).map_err(failed)?;
    notes.append(&mut imported.notes);
    imported.notes = notes;
    let info = info.then(|| crate::demo::model::info::describe(path, &imported));
    let own_clips = if imported.rest_only { 0 } else { imported.clips.len() };
    let gltf_import::Imported { model, looks, clips, notes, .. } = imported;
    let read = vec![PathBuf::from(name)];
    Ok(Opened { loaded: Loaded { model, looks, clips, own_clips, notes, stored: None, read }, info })
}

#[cfg(test)]
mod tests;
