//! A model's animations are the `.md5anim` files beside its `.md5mesh`: found by listing the
//! folder, in name order, each named by its file stem (`walk.md5anim` plays as `walk`; control
//! characters in it escaped, as the name is printed and drawn).
//!
//! Doom 3 maps animations to a mesh in a `.def` file, which MD5 files do not carry; the folder is
//! the simplest stand-in. A file is opened only if `model_folder::inside` accepts it: a link that
//! leads out of the folder, or one that leads nowhere, is skipped with one line, as is anything
//! that is not a regular file. Whether an animation's joints fit the mesh is decided once it is
//! read (`clips.rs`).

use crate::model_folder::{Refused, inside};
use skinning_method::printable::printable;
use std::path::{Path, PathBuf};

/// The `.md5anim` files in `mesh`'s folder (any case of the extension), in name order: each
/// one's stem and where it really is. What is skipped is said in `notes`.
pub fn animation_files(mesh: &Path, notes: &mut Vec<String>) -> Vec<(String, PathBuf)> {
    let folder = match mesh.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    let entries = match std::fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(e) => {
            notes.push(format!(
                "cannot list {} for its .md5anim files ({e}); showing the bind pose",
                printable(&folder.display().to_string())
            ));
            return Vec::new();
        }
    };
    let mut names: Vec<std::ffi::OsString> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.file_name())
        .filter(|name| Path::new(name).extension().is_some_and(|e| e.eq_ignore_ascii_case("md5anim")))
        .collect();
    names.sort();

    let mut found = Vec::with_capacity(names.len());
    for name in names {
        let shown = name.to_string_lossy().into_owned();
        let skip = |why: String| format!("skipped the animation {}: {why}", printable(&shown));
        match inside(folder, Path::new(&name)) {
            Ok(path) if path.is_file() => {
                let stem =
                    Path::new(&name).file_stem().map_or(String::new(), |s| s.to_string_lossy().into_owned());
                found.push((stem, path));
            }
            Ok(_) => notes.push(skip("it is not a regular file".into())),
            Err(Refused::Outside) => notes.push(skip(Refused::Outside.to_string())),
            Err(e) => notes.push(skip(format!("it cannot be opened ({e})"))),
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn animations_are_listed_in_name_order_and_links_out_are_skipped() {
        let root = tempfile::tempdir().expect("a temporary folder");
        let model = root.path().join("model");
        std::fs::create_dir_all(model.join("sub.md5anim")).unwrap();
        for name in ["walk.md5anim", "Idle.MD5ANIM", "run.md5anim", "notes.txt", "x.md5mesh"] {
            std::fs::write(model.join(name), b"").unwrap();
        }
        std::fs::write(root.path().join("secret.md5anim"), b"").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(root.path().join("secret.md5anim"), model.join("away.md5anim")).unwrap();
        let mut notes = Vec::new();
        let found = animation_files(&model.join("x.md5mesh"), &mut notes);
        let stems: Vec<&str> = found.iter().map(|(stem, _)| stem.as_str()).collect();
        // Byte order: capitals first.
        assert_eq!(stems, ["Idle", "run", "walk"]);
        assert!(notes.iter().any(|n| n.contains("sub.md5anim: it is not a regular file")), "{notes:?}");
        #[cfg(unix)]
        assert!(notes.iter().any(|n| n.contains("away.md5anim: it leads outside")), "{notes:?}");
    }
}
