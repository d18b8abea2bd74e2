//! Writing the program's files: the `--dump` JSON and the PNG screenshots.
//!
//! What the name points at decides how a file is written:
//! - `-` is standard output, so `skinning --dump - | jq .` works.
//! - A regular file, or a name not taken yet, is written to a temporary file in the same folder,
//!   which is then renamed over it (`replace`). A reader never sees half a file; a failure (a full
//!   disk, Ctrl-C) leaves the folder as it was; the new file keeps the old one's permissions.
//! - A symbolic link is followed: writing through `link.json` replaces the file the link points
//!   to, and the link stays a link, as it would with `cp` or a shell's `>`.
//! - Anything else that already exists (a device like `/dev/null`, a FIFO, a terminal, or an open
//!   file of ours such as `/dev/stdout`, which is a link into `/proc/self/fd`) is opened and
//!   written to directly. Renaming over it would replace the device node or the link itself.
//!
//! A name that can never be a file (`""`, `.`, `..`, `/`, `folder/`) is refused with the command
//! line (`cli`); [`check`] tries the rest before any work starts, so a run of five thousand frames
//! does not end in "cannot write".

mod picture;
mod replace;

pub use picture::save_png;

use super::console;
use super::failure::Failure;
use skinning::dump::Overflow;
use std::fs::OpenOptions;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Where a file name leads, and so how to write it.
#[derive(Debug, PartialEq)]
enum Target {
    /// `-`: the bytes go to standard output.
    Stdout,
    /// A regular file (existing or not, links already followed): written beside it, renamed over it.
    Replace(PathBuf),
    /// An existing device, FIFO or socket, or an open file under `/proc`: opened and written as it is.
    Direct(PathBuf),
}

/// How many symbolic links in a row we follow, as Linux itself does (its ELOOP limit is 40).
const MAX_LINKS: usize = 40;

/// Writes `path` with `write`: see the module's comment for what happens with each kind of target.
/// On failure the target is as it was before (standard output keeps what it was sent), and the
/// error names it; but a dump that stops because the model's numbers overflow
/// ([`Overflow`]) blames the model, not the file, which could be written.
pub fn write_file(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<(), Failure> {
    let mut overflow = None;
    let write =
        |out: &mut dyn Write| write(out).inspect_err(|e| overflow = Overflow::of(e).map(Overflow::to_string));
    let written = write_target(path, write);
    match overflow {
        Some(message) => Err(Failure::new(1, message)),
        None => written,
    }
}

fn write_target(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<(), Failure> {
    match target(path).map_err(|e| cannot_write(path, e))? {
        Target::Stdout => {
            console::stdout_carries_data();
            let mut out = BufWriter::new(io::stdout().lock());
            write(&mut out).and_then(|()| out.flush()).map_err(console::stdout_failure)
        }
        Target::Direct(file) => {
            // Appending is what a shell's `>>` asked for if `/dev/stdout` is such a file, and makes no
            // difference to a device, FIFO, terminal or a file the shell just emptied with `>`.
            let opened = OpenOptions::new().append(true).open(&file);
            let mut out = BufWriter::new(opened.map_err(|e| cannot_write(path, e))?);
            write(&mut out).and_then(|()| out.flush()).map_err(|e| match e.kind() {
                // A FIFO whose reader left: the reader stopped us, as with standard output.
                io::ErrorKind::BrokenPipe => console::stdout_failure(e),
                _ => cannot_write(path, e),
            })
        }
        Target::Replace(file) => replace::replace(&file, write).map_err(|e| e.into_failure(path)),
    }
}

/// Checks, before any work, that `path` can be written: the folder is there and takes new files,
/// an existing file may be written. Creates nothing that stays. For `-` it reserves standard
/// output for the file, so text meant for it goes to standard error from now on.
pub fn check(path: &Path) -> Result<(), Failure> {
    match target(path).map_err(|e| cannot_write(path, e))? {
        Target::Stdout => {
            console::stdout_carries_data();
            Ok(())
        }
        // Opening a FIFO would wait for its reader; writing to it is checked when it happens.
        Target::Direct(_) => Ok(()),
        Target::Replace(file) => replace::check(&file).map_err(|e| e.into_failure(path)),
    }
}

/// Where `path` leads: follows symbolic links one at a time to see what is at the end.
fn target(path: &Path) -> io::Result<Target> {
    if path.as_os_str() == "-" {
        return Ok(Target::Stdout);
    }
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        // `/proc/self/fd/N` (where `/dev/stdout` and `/dev/fd/N` lead) is a file we already have
        // open, whatever kind it is: writing it must reach that open file, not rename over a name.
        if current.starts_with("/proc") {
            return Ok(Target::Direct(current));
        }
        let meta = match std::fs::symlink_metadata(&current) {
            Ok(meta) => meta,
            // Nothing there yet (the name, or the end of a dangling link): a new file.
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Target::Replace(current)),
            Err(e) => return Err(e),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            // A relative link is relative to the folder it is in.
            let link = std::fs::read_link(&current)?;
            current = current.parent().map_or(link.clone(), |folder| folder.join(&link));
        } else if kind.is_file() {
            return Ok(Target::Replace(current));
        } else if kind.is_dir() {
            return Err(io::Error::new(io::ErrorKind::IsADirectory, "it is a folder"));
        } else {
            return Ok(Target::Direct(current));
        }
    }
    Err(io::Error::other(format!("more than {MAX_LINKS} symbolic links in a row")))
}

impl replace::Error {
    fn into_failure(self, path: &Path) -> Failure {
        match self {
            replace::Error::Stopped(signal) => Failure::by_signal(signal),
            replace::Error::Io(e) => cannot_write(path, e),
        }
    }
}

/// The one line for a file that cannot be written, with a hint when the cause suggests one.
fn cannot_write(path: &Path, e: io::Error) -> Failure {
    let hint = match e.kind() {
        io::ErrorKind::NotFound => " (is the folder there?)",
        io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem => " (is it writable?)",
        _ => "",
    };
    Failure::new(1, format!("cannot write {}: {e}{hint}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_by_kind() {
        assert_eq!(target(Path::new("-")).ok(), Some(Target::Stdout));
        assert_eq!(target(Path::new("/dev/null")).ok(), Some(Target::Direct("/dev/null".into())));
        // /dev/stdout -> /proc/self/fd/1: stop at /proc, whatever fd 1 is.
        assert!(matches!(target(Path::new("/dev/stdout")), Ok(Target::Direct(p)) if p.starts_with("/proc")));
        let new = Path::new("/no-such-folder-here/x.json");
        assert_eq!(target(new).ok(), Some(Target::Replace(new.into())));
        assert!(target(Path::new("/")).is_err());
    }
}
