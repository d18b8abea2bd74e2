//! Files that belong together (`--export-md5`'s mesh and its animations): every one checked before
//! any is written, then all written or none.
//!
//! The rules, checked for every file before the first byte is written:
//! - the file the user named may be replaced, as any output is (`replace.rs`), but never a file
//!   the model was read from (`inputs.rs`), by any name;
//! - a file the export names itself (each `CLIP.md5anim`) is a new file: it never replaces a file
//!   that is there (two models exported into one folder would share `Walk.md5anim`) unless
//!   `--force` says so, never a file the model was read from even then, and is never written
//!   through a symbolic link, which could lead anywhere.
//!
//! Then each file is written to a temporary file beside it, and the files are moved into place
//! only once every one is whole (`replace.rs`: `replace_all`).

use super::failure::Failure;
use super::inputs::Inputs;
use super::replace::{self, Place, Writer};
use super::target::{self, Target, target};
use super::{cannot_write, make_folders};
use skinning_formats::md5_export::ExportError;
use std::path::{Path, PathBuf};

/// A file to write together with others: where it goes, and how.
pub struct Planned {
    /// The name as the user will read it, for messages.
    shown: PathBuf,
    /// Where it is written: the end of the links, for the file the user named.
    file: PathBuf,
    place: Place,
}

/// Where the file the user named, `named`, really lands: its links followed, once. The files
/// derived from it go beside that file, not beside the link (whose folder may be another).
pub fn landing(named: &Path) -> Result<PathBuf, Failure> {
    match target(named).map_err(|e| cannot_write(named, e))? {
        Target::Replace(file) => Ok(file),
        _ => {
            let why = "it is not a regular file; these files are written together, into one folder";
            Err(Failure::new(1, format!("cannot write {}: {why}", named.display())))
        }
    }
}

/// Checks the file the user named, `named`, which lands at `file` ([`landing`]), and the files
/// derived from it, `derived`, against the rules (`force`: a derived file may replace one that is
/// there); returns how each is to be written, `named` first, or the one line saying what to do for
/// the first that breaks a rule.
pub fn check(
    (named, file): (&Path, PathBuf),
    derived: &[PathBuf],
    inputs: &Inputs,
    force: bool,
) -> Result<Vec<Planned>, Failure> {
    inputs.refuse(&file, "name another file")?;
    // A link to one of the export's own files would have two of them written at one place.
    if let Some(same) = derived.iter().find(|d| **d == file) {
        return Err(Failure::new(
            1,
            format!(
                "cannot write {}: it leads to {}, a file the export writes itself; name another file",
                named.display(),
                same.display()
            ),
        ));
    }
    let mut planned = vec![Planned { shown: named.to_path_buf(), file, place: Place::Replace }];
    for path in derived {
        let place = derived_place(path, inputs, force)?;
        planned.push(Planned { shown: path.clone(), file: path.clone(), place });
    }
    Ok(planned)
}

/// How a derived file may be written, or why it may not.
fn derived_place(path: &Path, inputs: &Inputs, force: bool) -> Result<Place, Failure> {
    let refuse = |why: &str| Err(Failure::new(1, format!("cannot write {}: {why}", path.display())));
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Place::New),
        Err(e) => return Err(cannot_write(path, e)),
    };
    if meta.file_type().is_symlink() {
        return refuse(
            "it is a symbolic link, and an export writes no file it names itself through a link: remove \
             it or export into another folder",
        );
    }
    if !meta.is_file() {
        return refuse(
            "it is there already and is not a regular file: remove it or export into another folder",
        );
    }
    inputs.refuse(path, "export into another folder")?;
    match force {
        true => Ok(Place::Replace),
        false => refuse(
            "a file of that name is there already, and an export replaces only the file it was given: \
             export into another folder, or add --force to replace it",
        ),
    }
}

/// Writes `planned` (from [`check`]) with `writers`, one each in the same order, all or none.
/// The first file's folder is made if it is missing (an MD5 model wants a folder of its own: every
/// `.md5anim` in it is one of its animations), and removed again if the files cannot be written.
pub fn write(planned: &[Planned], writers: Vec<Writer>) -> Result<(), Failure> {
    let made = match planned.first() {
        Some(first) => make_folders(target::folder(&first.file))?,
        None => Vec::new(),
    };
    let files = (planned.iter().zip(writers)).map(|(p, write)| (p.file.as_path(), p.place, write)).collect();
    let written = replace::replace_all(files).map_err(|(i, e)| match &e {
        // A number the model cannot have written stopped an `.md5anim`: the model is to blame.
        replace::Error::Io(io) if let Some(e) = ExportError::inside(io) => cannot_export(e),
        _ => e.into_failure(&planned[i].shown),
    });
    if written.is_err() {
        // Deepest first, and only while empty: nothing of anyone else's is removed.
        for folder in made.iter().rev() {
            let _ = std::fs::remove_dir(folder);
        }
    }
    written
}

/// The one line for a model that cannot be written as MD5 (the files written together are an MD5
/// model's).
pub fn cannot_export(e: &ExportError) -> Failure {
    Failure::new(1, format!("cannot export the model as MD5: {e}"))
}
