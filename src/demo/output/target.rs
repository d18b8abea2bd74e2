//! Where a file name leads, and so how to write it (the kinds are listed in `output`'s comment).
//!
//! Two things are found out here that the name alone does not say:
//! - Whether it names a file that is already open: `/dev/stdout`, `/dev/stderr` and `/dev/fd/N`
//!   are links into `/proc/self/fd`, whose entries stand for our open descriptors (`/dev/fd` is
//!   itself a link, so the folder a name is in is followed too, not only the name). Such a name is
//!   written through, never replaced: a new file renamed over `w.json` in `--dump /dev/fd/1 > w.json`
//!   would leave the shell's descriptor on the old, deleted file, and the rest of our output with it.
//! - Whether it is our standard output itself (the same file: same device and inode as
//!   descriptor 1, once links are followed). Then it is written as `-` is, and the text meant for
//!   standard output (`--stats`, `load: ...`) goes to standard error instead of into the file.

use std::fs::{File, Metadata};
use std::io;
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Where a file name leads, and so how to write it.
#[derive(Debug, PartialEq)]
pub enum Target {
    /// `-`, or another name for the file our standard output is: the bytes go to standard output.
    Stdout,
    /// A regular file (existing or not, links already followed): written beside it, renamed over it.
    Replace(PathBuf),
    /// An existing device, FIFO or socket, or an open file under `/proc`: opened and written as it is.
    Direct(PathBuf),
}

/// How many symbolic links in a row we follow, as Linux itself does (its ELOOP limit is 40).
const MAX_LINKS: usize = 40;

/// Where `path` leads: follows symbolic links one at a time to see what is at the end.
pub fn target(path: &Path) -> io::Result<Target> {
    if path.as_os_str() == "-" {
        return Ok(Target::Stdout);
    }
    let stdout = stdout_identity();
    let is_stdout = |meta: &Metadata| stdout == Some((meta.dev(), meta.ino()));
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        // A name in /proc, wherever the links on the way were: an open file, whatever kind it is.
        if let Ok(folder) = std::fs::canonicalize(folder(&current))
            && folder.starts_with("/proc")
        {
            return open_file(&current, &folder, is_stdout);
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
        } else if is_stdout(&meta) {
            // `--dump out.json > out.json`, or the terminal's own device: the file is already open.
            return Ok(Target::Stdout);
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

/// `path`, in the /proc folder `folder`: one of our descriptors (`/proc/self/fd/N`, where
/// `/dev/fd/N` leads) or another open file there, written directly.
fn open_file(path: &Path, folder: &Path, is_stdout: impl Fn(&Metadata) -> bool) -> io::Result<Target> {
    let ours = std::fs::canonicalize("/proc/self/fd").is_ok_and(|ours| ours == folder);
    let number = path.file_name().and_then(|n| n.to_str()?.parse::<u32>().ok()).filter(|_| ours);
    if number == Some(1) {
        return Ok(Target::Stdout);
    }
    match std::fs::metadata(path) {
        Ok(meta) if is_stdout(&meta) => Ok(Target::Stdout),
        Ok(_) => Ok(Target::Direct(path.to_path_buf())),
        Err(e) => match number {
            Some(n) if e.kind() == io::ErrorKind::NotFound => {
                Err(io::Error::other(format!("no file is open as descriptor {n}")))
            }
            _ => Err(e),
        },
    }
}

/// The device and inode of the file our standard output is, if it is one the user gave us.
fn stdout_identity() -> Option<(u64, u64)> {
    let file = File::from(io::stdout().as_fd().try_clone_to_owned().ok()?);
    file.metadata().ok().map(|meta| (meta.dev(), meta.ino()))
}

/// The folder `file` is in (`.` for a bare name).
pub fn folder(file: &Path) -> &Path {
    match file.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_by_kind() {
        assert_eq!(target(Path::new("-")).ok(), Some(Target::Stdout));
        let new = Path::new("/no-such-folder-here/x.json");
        assert_eq!(target(new).ok(), Some(Target::Replace(new.into())));
        assert!(target(Path::new("/")).is_err());
        // Whatever descriptor 1 is in the test harness, these names are it.
        for name in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
            assert_eq!(target(Path::new(name)).ok(), Some(Target::Stdout), "{name}");
        }
    }

    #[test]
    fn an_open_descriptor_is_written_directly_and_a_closed_one_is_refused() {
        let file = tempfile::tempfile().expect("a temporary file");
        let fd = std::os::fd::AsRawFd::as_raw_fd(&file);
        for name in [format!("/dev/fd/{fd}"), format!("/proc/self/fd/{fd}")] {
            assert_eq!(target(Path::new(&name)).ok(), Some(Target::Direct(name.clone().into())));
        }
        // A number far above any descriptor limit (a closed small one could be reused at once by
        // another test's thread).
        let e = target(Path::new("/dev/fd/2000000000")).expect_err("not open");
        assert!(e.to_string().contains("no file is open as descriptor 2000000000"), "{e}");
    }
}
