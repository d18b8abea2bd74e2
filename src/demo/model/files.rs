//! A model's files handed over rather than found in a folder on disk: each name (a path from the
//! page's folder, or the name a dropped file had) and its bytes, or why there are none. A web page
//! fetches them from beside itself, or is handed them dropped (`platform/web/`); the one loader
//! opens them as it opens a file on disk (`load.rs`), the formats crate reading the ones a model
//! names by the same rules (`model_folder.rs`: `Beside::Given`). As on disk, nothing outside the
//! model's folder is named ([`inside`]).

use skinning_method::printable::quoted;
use std::path::Path;

/// Where a model's files are: a file on disk, with the others in its folder (the desktop's), or
/// files handed over by name, the model among them (a web page's, fetched or dropped).
#[derive(Clone, Copy)]
pub enum ModelFiles<'a> {
    Disk(&'a Path),
    /// The page's (its tests run on the desktop too).
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    Handed {
        name: &'a str,
        files: &'a Files,
    },
}

impl ModelFiles<'_> {
    /// The model's own file: its path on disk, or its name among the files handed over.
    pub fn path(&self) -> &Path {
        match *self {
            ModelFiles::Disk(path) => path,
            ModelFiles::Handed { name, .. } => Path::new(name),
        }
    }
}

/// A model's files: each name (a path from the page's folder, or the name a dropped file had),
/// and its bytes or why there are none.
#[derive(Default)]
pub struct Files {
    pub entries: Vec<(String, Result<Vec<u8>, String>)>,
    /// What gathering them could not do, to be said with the loader's notes.
    pub notes: Vec<String>,
}

impl Files {
    /// The bytes of `name`, or why there are none: a file the server did not give, or one the
    /// page was not handed.
    pub fn get(&self, name: &str) -> Result<&[u8], String> {
        match self.entries.iter().find(|(n, _)| n == name) {
            Some((_, Ok(bytes))) => Ok(bytes),
            Some((_, Err(why))) => Err(why.clone()),
            None => Err(format!("{} was not among the files given to the page", quoted(name))),
        }
    }

    /// The `.md5anim` files among these in `folder`, in name order, as the desktop lists a folder.
    pub fn md5anims(&self, folder: &str) -> Vec<String> {
        let mut names: Vec<String> = (self.entries.iter().map(|(n, _)| n))
            .filter(|n| folder_of(n) == folder && has_extension(n, "md5anim"))
            .cloned()
            .collect();
        names.sort();
        names
    }

    /// The model among files handed to the page: the first `.glb`, `.gltf` or `.md5mesh`.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub fn model(&self) -> Option<&str> {
        let models = ["glb", "gltf", "md5mesh"];
        let model = self.entries.iter().find(|(n, _)| models.iter().any(|e| has_extension(n, e)));
        model.map(|(name, _)| name.as_str())
    }
}

/// Whether `name` ends in `.EXTENSION`, in any letter case.
pub fn has_extension(name: &str, extension: &str) -> bool {
    Path::new(name).extension().is_some_and(|e| e.eq_ignore_ascii_case(extension))
}

/// The folder part of `name`, with its slash (`models/` for `models/Fox.glb`), or "".
pub fn folder_of(name: &str) -> &str {
    name.rfind('/').map_or("", |i| &name[..=i])
}

/// `name`, a path relative to `folder`, as a path from the page's folder: `..` is fine as long as
/// it comes back in. None if it leads out of `folder`, is absolute, or names a server of its own.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub fn inside(folder: &str, name: &str) -> Option<String> {
    if name.starts_with('/') || name.contains(':') || name.contains('\\') {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in name.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    let joined = parts.join("/");
    (!joined.is_empty()).then(|| format!("{folder}{joined}"))
}

/// The files in `folder` that are here, each by its path from `folder`: what the formats crate is
/// handed beside the model (`Beside::Given`).
pub fn beside(files: &Files, folder: &str) -> Vec<(String, Vec<u8>)> {
    (files.entries.iter())
        .filter_map(|(name, bytes)| {
            Some((name.strip_prefix(folder)?.to_string(), bytes.as_ref().ok()?.clone()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_stays_inside_the_models_folder() {
        assert_eq!(inside("models/", "Fox.bin").as_deref(), Some("models/Fox.bin"));
        assert_eq!(inside("models/", "tex/../Fox.bin").as_deref(), Some("models/Fox.bin"));
        assert_eq!(inside("models/", "../secret"), None);
        assert_eq!(inside("", "/etc/passwd"), None);
        assert_eq!(inside("", "https://example.com/x.bin"), None);
        assert_eq!(folder_of("models/Fox.glb"), "models/");
        assert_eq!(folder_of("Fox.glb"), "");
    }

    #[test]
    fn files_handed_over_are_found_by_name() {
        let files = Files {
            entries: vec![
                ("hero.md5mesh".into(), Ok(vec![1])),
                ("b.md5anim".into(), Ok(vec![])),
                ("a.md5anim".into(), Err("HTTP 404".into())),
            ],
            notes: Vec::new(),
        };
        assert_eq!(files.model(), Some("hero.md5mesh"));
        assert_eq!(files.md5anims(""), ["a.md5anim", "b.md5anim"]);
        assert_eq!(files.get("hero.md5mesh"), Ok(&[1u8][..]));
        assert_eq!(files.get("a.md5anim"), Err("HTTP 404".to_string()));
        assert!(files.get("c.bin").is_err_and(|e| e.contains("not among the files")));
    }

    #[test]
    fn the_files_beside_a_model_are_named_from_its_folder() {
        let files = Files {
            entries: vec![
                ("m/Fox.gltf".into(), Ok(vec![1])),
                ("m/tex/skin.png".into(), Ok(vec![2])),
                ("m/gone.bin".into(), Err("HTTP 404".into())),
                ("other.bin".into(), Ok(vec![3])),
            ],
            notes: Vec::new(),
        };
        let names: Vec<String> = beside(&files, "m/").into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["Fox.gltf", "tex/skin.png"]);
    }
}
