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
