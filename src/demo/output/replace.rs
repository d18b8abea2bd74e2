//! Replacing a regular file without ever showing half of it: write a temporary file in the same
//! folder, then rename it over the target. A rename within one file system is atomic: a reader
//! sees the old file or the new one, never a mix, and a failure before it leaves the old one.
//!
//! The temporary file comes from the `tempfile` crate: a short random hidden name
//! (`.skinning-XXXXXX`, 16 bytes), so it fits wherever the target's name fits, even a 255-byte
//! one, and it never collides with another run; the file is removed if anything fails.
//! The replacement keeps what the old file had: its permission bits, and its owner when we may set
//! it (as root). A new file gets the permissions any new file gets (0666 less the umask).
//! While the temporary file exists, Ctrl-C and friends are deferred ([`super::signals`]).
//! Several files that belong together (an `.md5mesh` and its `.md5anim` files) are all written to
//! temporary files first, and renamed only once every one is whole ([`replace_all`]); those that
//! must not replace anything are renamed by a rename that never replaces ([`Place::New`]).

use super::signals::{self, StopOnSignal};
use super::target::folder;
use std::fs::{File, OpenOptions, Permissions};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// Why a replacement did not happen. Either way the target is as it was.
pub enum Error {
    Io(io::Error),
    /// No temporary file could be made in this folder (the file's own): the folder is to blame.
    Folder(PathBuf, io::Error),
    /// A stop signal arrived while writing; the program should now die of it.
    Stopped(i32),
}

/// Writes `file` (a regular file, or a name not yet taken) through a temporary file beside it.
pub fn replace(file: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<(), Error> {
    let deferred = signals::writing();
    let result = write_and_rename(file, write);
    // The temporary file is gone now (renamed or removed): a signal may act again.
    drop(deferred);
    match signals::caught() {
        Some(signal) => Err(Error::Stopped(signal)),
        None => result,
    }
}

/// Whether `file` can be replaced: an existing one must be writable, and its folder must take a
/// new file (tried with a temporary file, removed at once).
pub fn check(file: &Path) -> Result<(), Error> {
    let deferred = signals::writing();
    let result = (|| {
        if file.exists() {
            // Opening for writing, without truncating, changes nothing in the file.
            OpenOptions::new().write(true).open(file).map_err(Error::Io)?;
        }
        temporary_beside(file).map(drop)
    })();
    drop(deferred);
    match signals::caught() {
        Some(signal) => Err(Error::Stopped(signal)),
        None => result,
    }
}

fn write_and_rename(file: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<(), Error> {
    let temporary = fill_beside(file, write)?;
    temporary.persist(file).map(drop).map_err(|e| Error::Io(e.error))
}

/// How a file written with others ([`replace_all`]) goes into place.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Place {
    /// Renamed over what is there (the file the user named, or one `--force` lets go).
    Replace,
    /// Only where nothing is: moved into place by a rename that fails if the name has been taken
    /// since it was checked (`renameat2` with `RENAME_NOREPLACE`, or a hard link then an unlink,
    /// in `NamedTempFile::persist_noclobber`).
    New,
}

/// What writes one file's bytes, as they are made (an `.md5anim`, frame by frame).
pub type Writer<'a> = Box<dyn FnOnce(&mut dyn Write) -> io::Result<()> + 'a>;

/// Writes several files together, all or none: each into a temporary file beside it first, and
/// only once every one is whole, each moved into place, the new ones first. A failure before then
/// leaves every target as it was; a new file that cannot be placed (its name taken meanwhile) takes
/// the new ones placed before it away again. The error says which file (by its place in `files`)
/// failed.
pub fn replace_all(files: Vec<(&Path, Place, Writer)>) -> Result<(), (usize, Error)> {
    let deferred = signals::writing();
    let result = (|| {
        let mut ready = Vec::with_capacity(files.len());
        for (i, (file, place, write)) in files.into_iter().enumerate() {
            ready.push((i, file, place, fill_beside(file, write).map_err(|e| (i, e))?));
        }
        // New files first: they are the ones whose place can be taken, and they can be taken back.
        ready.sort_by_key(|&(_, _, place, _)| place != Place::New);
        let mut placed: Vec<&Path> = Vec::new();
        for (i, file, place, temporary) in ready {
            let moved = match place {
                Place::New => temporary.persist_noclobber(file),
                Place::Replace => temporary.persist(file),
            };
            if let Err(e) = moved {
                for new in placed {
                    let _ = std::fs::remove_file(new);
                }
                return Err((i, Error::Io(e.error)));
            }
            if place == Place::New {
                placed.push(file);
            }
        }
        Ok(())
    })();
    // Renamed or removed, no temporary file is left: a signal may act again.
    drop(deferred);
    match signals::caught() {
        Some(signal) => Err((0, Error::Stopped(signal))),
        None => result,
    }
}

/// A temporary file beside `file`, filled by `write`, with the old file's owner and permissions
/// if there is one: ready to be renamed over it.
fn fill_beside(
    file: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<NamedTempFile, Error> {
    let old = match std::fs::metadata(file) {
        Ok(meta) => {
            // Renaming would replace a file we may not write; refuse, as `cp` or `>` would.
            OpenOptions::new().write(true).open(file).map_err(Error::Io)?;
            Some(meta)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(Error::Io(e)),
    };
    let temporary = temporary_beside(file)?;
    fill(&temporary, old, write).map_err(Error::Io)?;
    Ok(temporary)
}

/// A new temporary file in `file`'s folder; failing that, the folder is what is wrong.
fn temporary_beside(file: &Path) -> Result<NamedTempFile, Error> {
    let folder = folder(file);
    // `tempfile` asks for 0600; with 0666 the umask decides, as for any new file.
    tempfile::Builder::new()
        .prefix(".skinning-")
        .permissions(Permissions::from_mode(0o666))
        .tempfile_in(folder)
        .map_err(|e| Error::Folder(folder.to_path_buf(), e))
}

fn fill(
    temporary: &NamedTempFile,
    old: Option<std::fs::Metadata>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    {
        let mut out = BufWriter::new(StopOnSignal(temporary.as_file()));
        write(&mut out)?;
        out.flush()?;
    }
    if let Some(old) = old {
        keep_owner_and_mode(temporary.as_file(), &old)?;
    }
    Ok(())
}

/// Gives the new file the old one's permission bits, and its owner if we are allowed to.
fn keep_owner_and_mode(new: &File, old: &std::fs::Metadata) -> io::Result<()> {
    // Only root may give a file away; for anyone else the owner is already us (or cannot change).
    let _ = std::os::unix::fs::fchown(new, Some(old.uid()), Some(old.gid()));
    new.set_permissions(Permissions::from_mode(old.mode() & 0o7777))
}
