//! The program never writes over a file the model was read from, whatever it writes (a dump, a
//! screenshot, an export): the model's own file, its `.bin` buffers and images, the `.md5anim`
//! files and textures beside an `.md5mesh`, the files `--clips-from` read (the loaders list them:
//! `gltf_import::Imported::files`, `md5_import::Imported::files`).
//!
//! A file is known by its device and inode, not by its name, so every way of naming it is the
//! same file: `./Fox.glb` and `Fox.glb`, a symbolic link to it (followed to its end), a hard link
//! to it, `/dev/fd/N` for it open, and `-` when the shell's `>>` opened it as standard output.

use super::failure::Failure;
use std::fs::{File, Metadata};
use std::io;
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// The files a model was read from, each with the device and inode that make it that file.
pub struct Inputs {
    files: Vec<(PathBuf, (u64, u64))>,
    /// Whether the first of `files` is the model's own file (it is, when a file was loaded).
    first_is_model: bool,
}

/// A file's device and inode.
fn identity(meta: &Metadata) -> (u64, u64) {
    (meta.dev(), meta.ino())
}

impl Inputs {
    /// The files of `read` (the model's file first) that are there now.
    pub fn of(read: &[PathBuf]) -> Inputs {
        let files = read.iter().filter_map(|f| Some((f.clone(), identity(&std::fs::metadata(f).ok()?))));
        Inputs { files: files.collect(), first_is_model: !read.is_empty() }
    }

    /// The input `path` leads to, if it leads to one (`-`: the file standard output is), and
    /// whether that input is the model's own file.
    fn find(&self, path: &Path) -> Option<(&Path, bool)> {
        let meta = match path.as_os_str() == "-" {
            true => File::from(io::stdout().as_fd().try_clone_to_owned().ok()?).metadata(),
            false => std::fs::metadata(path),
        };
        let id = identity(&meta.ok()?);
        let i = self.files.iter().position(|(_, file)| *file == id)?;
        Some((&self.files[i].0, i == 0 && self.first_is_model))
    }

    /// Refuses `path` in one line if it leads to an input, saying what to do instead (`todo`).
    pub fn refuse(&self, path: &Path, todo: &str) -> Result<(), Failure> {
        let Some((input, model)) = self.find(path) else { return Ok(()) };
        let name = match path.as_os_str() == "-" {
            true => "standard output".to_string(),
            false => path.display().to_string(),
        };
        let what = match model {
            true => format!("the model's own file ({})", input.display()),
            false => format!("{}, which the model was read from", input.display()),
        };
        Err(Failure::new(
            1,
            format!(
                "cannot write {name}: that is {what}; the program never writes over a file it read: {todo}"
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_an_input_by_any_name_that_leads_to_it() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let (model, buffer, other) =
            (dir.path().join("m.gltf"), dir.path().join("m.bin"), dir.path().join("o"));
        for file in [&model, &buffer, &other] {
            std::fs::write(file, b"x").unwrap();
        }
        std::os::unix::fs::symlink(&model, dir.path().join("link.gltf")).unwrap();
        std::fs::hard_link(&buffer, dir.path().join("hard.bin")).unwrap();
        let inputs = Inputs::of(&[model.clone(), buffer.clone(), dir.path().join("gone.bin")]);
        let refused = |name: &str| inputs.refuse(&dir.path().join(name), "do this").err().map(|f| f.message);
        let line = refused("link.gltf").expect("a link to the model is the model");
        assert!(line.contains("that is the model's own file (") && line.ends_with(": do this"), "{line}");
        assert!(refused("./m.gltf").is_some());
        let line = refused("hard.bin").expect("a hard link to a buffer is the buffer");
        assert!(line.contains("m.bin, which the model was read from"), "{line}");
        assert_eq!(refused("o"), None, "a file the model was not read from");
        assert_eq!(refused("new.glb"), None, "a file not there yet");
        assert!(Inputs::of(&[]).refuse(&model, "x").is_ok(), "the article's scene was read from no file");
    }
}
