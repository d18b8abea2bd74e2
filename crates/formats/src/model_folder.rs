//! The one rule for every file a model points at: it must be inside the model's own folder.
//!
//! A model file may name other files: a glTF buffer's `uri` is a path relative to the model, and an
//! MD5 model's animations are the `.md5anim` files beside its `.md5mesh`. A file you did not write
//! can point anywhere: `../../../../etc/passwd`, or a link in its folder to a file elsewhere, and
//! that file's bytes would come out as vertex positions in `--dump` and in the picture. So before
//! such a file is opened, its path is resolved with every link followed (`canonicalize`), and it is
//! refused unless the place it resolves to lies inside the model's folder, resolved the same way.
//! A subfolder is inside (`buffers/body.bin`); `../` is fine as long as it comes back in
//! (`buffers/../body.bin`).
//!
//! A model's files need not be on disk: a web page fetches them from beside the model, or is
//! handed them dropped ([`Beside::Given`], each file by its path from the model's folder). The loaders
//! take either the same way, and the same rule holds: a name that leads out of the folder
//! (`../secret`) is refused ([`given`]).

use std::fmt;
use std::path::{Path, PathBuf};

/// Why a file a model names may not be opened.
#[derive(Debug)]
pub enum Refused {
    /// It cannot be resolved: missing, or a folder on the way cannot be read.
    Unreadable(std::io::Error),
    /// It resolves to a place outside the model's folder.
    Outside,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Refused::Unreadable(e) => write!(f, "{e}"),
            Refused::Outside => write!(f, "it leads outside the model's folder, which a model may not read"),
        }
    }
}

/// Where the files a model names are: nowhere (a model from its own bytes alone), its folder on
/// disk, or files handed over by name, each a path from the model's folder with its bytes.
#[derive(Clone, Copy, Debug)]
pub enum Beside<'a> {
    None,
    Folder(&'a Path),
    Given(&'a [(String, Vec<u8>)]),
}

/// The bytes of `name`, a path relative to the model's folder, among files handed over: `.` and
/// `..` are followed by their names alone (there are no links), and a name that leads out of the
/// folder is refused as on disk.
pub fn given<'f>(files: &'f [(String, Vec<u8>)], name: &Path) -> Result<&'f [u8], Refused> {
    let mut parts: Vec<&std::ffi::OsStr> = Vec::new();
    for part in name.components() {
        match part {
            std::path::Component::Normal(part) => parts.push(part),
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                parts.pop().ok_or(Refused::Outside)?;
            }
            _ => return Err(Refused::Outside),
        }
    }
    let wanted: PathBuf = parts.iter().collect();
    let same = |given: &str| {
        Path::new(given).components().filter(|c| *c != std::path::Component::CurDir).eq(wanted.components())
    };
    (files.iter().find(|(n, _)| same(n)).map(|(_, bytes)| bytes.as_slice())).ok_or_else(|| {
        Refused::Unreadable(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "not among the files handed over",
        ))
    })
}

/// Where `name`, a path relative to the model's `folder`, really is, links followed; refused if
/// that is outside `folder` (links followed too).
pub fn inside(folder: &Path, name: &Path) -> Result<PathBuf, Refused> {
    // An empty folder is the current one: a model given as `fox.glb`.
    let folder = if folder.as_os_str().is_empty() { Path::new(".") } else { folder };
    let home = folder.canonicalize().map_err(Refused::Unreadable)?;
    let resolved = folder.join(name).canonicalize().map_err(Refused::Unreadable)?;
    if resolved.starts_with(&home) { Ok(resolved) } else { Err(Refused::Outside) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_files_that_resolve_inside_the_folder_are_allowed() {
        let root = tempfile::tempdir().expect("a temporary folder");
        let model = root.path().join("model");
        std::fs::create_dir_all(model.join("buffers")).unwrap();
        std::fs::write(model.join("buffers/body.bin"), b"x").unwrap();
        std::fs::write(root.path().join("secret"), b"x").unwrap();
        assert!(inside(&model, Path::new("buffers/body.bin")).is_ok());
        assert!(inside(&model, Path::new("buffers/../buffers/body.bin")).is_ok());
        assert!(matches!(inside(&model, Path::new("../secret")), Err(Refused::Outside)));
        assert!(matches!(inside(&model, Path::new("missing.bin")), Err(Refused::Unreadable(_))));
        // Files handed over follow the same rule, by their names.
        let files = [("buffers/body.bin".to_string(), vec![1u8]), ("skin.png".to_string(), vec![2u8])];
        assert_eq!(given(&files, Path::new("buffers/body.bin")).unwrap(), [1]);
        assert_eq!(given(&files, Path::new("./buffers/../skin.png")).unwrap(), [2]);
        assert!(matches!(given(&files, Path::new("../skin.png")), Err(Refused::Outside)));
        assert!(matches!(given(&files, Path::new("/skin.png")), Err(Refused::Outside)));
        assert!(matches!(given(&files, Path::new("gone.bin")), Err(Refused::Unreadable(_))));
        #[cfg(unix)]
        {
            // A link inside the folder to a file outside it is outside; a link to a file inside is fine.
            std::os::unix::fs::symlink(root.path().join("secret"), model.join("link.bin")).unwrap();
            assert!(matches!(inside(&model, Path::new("link.bin")), Err(Refused::Outside)));
            std::os::unix::fs::symlink(model.join("buffers/body.bin"), model.join("ok.bin")).unwrap();
            assert!(inside(&model, Path::new("ok.bin")).is_ok());
        }
    }
}
