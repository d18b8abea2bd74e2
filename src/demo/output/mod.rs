//! Writing the program's files: the `--dump` JSON, the PNG screenshots, the exported models.
//!
//! What the name points at decides how a file is written:
//! - `-` is standard output, so `skinning --dump - | jq .` works. So is any other name for the file
//!   standard output already is (`/dev/stdout`, `/dev/fd/1`, the file a shell's `>` opened for us):
//!   written the same way, with the text meant for standard output moved to standard error.
//! - A regular file, or a name not taken yet, is written to a temporary file in the same folder,
//!   which is then renamed over it (`replace`). A reader never sees half a file; a failure (a full
//!   disk, Ctrl-C) leaves the folder as it was; the new file keeps the old one's permissions.
//! - A symbolic link is followed: writing through `link.json` replaces the file the link points
//!   to, and the link stays a link, as it would with `cp` or a shell's `>`.
//! - Anything else that already exists (a device like `/dev/null`, a FIFO, a terminal, or an open
//!   file of ours such as `/dev/stderr` or `/dev/fd/3`, links into `/proc/self/fd`) is opened and
//!   written to directly. Renaming over it would replace the device node or the link itself, or
//!   leave the open file behind (`target` tells these apart).
//!
//! A name that can never be a file (`""`, `.`, `..`, `/`, `folder/`) is refused with the command
//! line (`cli`); [`check`] tries the rest before any work starts, so a run of five thousand frames
//! does not end in "cannot write". Files that belong together (`--export-md5`'s mesh and
//! animations) are checked together, then written all or none (`together.rs`). An export never
//! writes over a file the model was read from (`inputs.rs`).

pub mod console;
pub mod failure;
#[cfg(not(target_arch = "wasm32"))]
pub mod inputs;
#[cfg(target_arch = "wasm32")]
pub mod page;
pub mod picture;
#[cfg(not(target_arch = "wasm32"))]
pub mod replace;
#[cfg(not(target_arch = "wasm32"))]
pub mod signals;
#[cfg(not(target_arch = "wasm32"))]
mod target;
#[cfg(not(target_arch = "wasm32"))]
pub mod together;

// Below, the files themselves: the desktop's. A web page has no folders to write into; what it
// writes becomes a download (`platform/web/download.rs`), and these rules do not arise.
#[cfg(not(target_arch = "wasm32"))]
use {
    failure::Failure,
    skinning_formats::dump::Overflow,
    std::fs::OpenOptions,
    std::io::{self, BufWriter, Write},
    std::path::Path,
    target::{Target, target},
};

#[cfg(not(target_arch = "wasm32"))]
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

#[cfg(not(target_arch = "wasm32"))]
fn write_target(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<(), Failure> {
    match target(path).map_err(|e| cannot_write(path, e))? {
        Target::Stdout => {
            console::stdout_carries_data();
            let mut out = BufWriter::new(io::stdout().lock());
            write(&mut out).and_then(|()| out.flush()).map_err(console::stdout_failure)
        }
        Target::Direct(file) => {
            // Appending is what a shell's `3>>` asked for if `/dev/fd/3` is such a file, and makes no
            // difference to a device, FIFO, terminal or a file the shell just emptied with `3>`.
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

#[cfg(not(target_arch = "wasm32"))]
/// Makes `folder` and the folders above it that are missing; returns those it made, outermost first.
fn make_folders(folder: &Path) -> Result<Vec<std::path::PathBuf>, Failure> {
    let missing: Vec<_> =
        folder.ancestors().take_while(|f| !f.as_os_str().is_empty() && !f.exists()).collect();
    std::fs::create_dir_all(folder)
        .map_err(|e| Failure::new(1, format!("cannot make the folder {}: {e}", folder.display())))?;
    Ok(missing.into_iter().rev().map(Path::to_path_buf).collect())
}

#[cfg(not(target_arch = "wasm32"))]
/// Checks, before any work, that `path` can be written: the folder is there and takes new files,
/// an existing file may be written. Creates nothing that stays. For `-` (or another name for
/// standard output) it reserves standard output for the file, so text meant for it goes to
/// standard error from now on; a `binary` file (a PNG, a `.glb`) is refused there when standard
/// output is a terminal, whose screen its bytes would fill with noise.
pub fn check(path: &Path, binary: bool) -> Result<(), Failure> {
    match target(path).map_err(|e| cannot_write(path, e))? {
        Target::Stdout if binary && io::IsTerminal::is_terminal(&io::stdout()) => Err(Failure::new(
            2,
            "cannot write standard output: it is a terminal, and this file is binary (a PNG, a .glb): \
             send it into a file (> shot.png) or a program (| display), or name a file",
        )),
        Target::Stdout => {
            console::stdout_carries_data();
            Ok(())
        }
        // Opening a FIFO would wait for its reader; writing to it is checked when it happens.
        Target::Direct(_) => Ok(()),
        Target::Replace(file) => replace::check(&file).map_err(|e| e.into_failure(path)),
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl replace::Error {
    fn into_failure(self, path: &Path) -> Failure {
        match self {
            replace::Error::Stopped(signal) => Failure::by_signal(signal),
            replace::Error::Io(e) => cannot_write(path, e),
            replace::Error::Folder(folder, e) => {
                Failure::new(1, format!("cannot write {}: {}", path.display(), folder_problem(&folder, &e)))
            }
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// Why no new file can be made in `folder`, said of the folder: a file is replaced through a
/// temporary file made there, so a writable file in a read-only folder cannot be written either.
/// (The error itself names that temporary file, a random name that means nothing to the user.)
fn folder_problem(folder: &Path, e: &io::Error) -> String {
    let name = match folder == Path::new(".") {
        true => "the current folder".to_string(),
        false => format!("the folder {}", folder.display()),
    };
    match e.kind() {
        io::ErrorKind::NotFound => format!("{name} does not exist"),
        io::ErrorKind::NotADirectory => format!("{} is not a folder", folder.display()),
        io::ErrorKind::PermissionDenied => {
            format!("{name} is not writable (the file is written as a new file there, then renamed)")
        }
        io::ErrorKind::ReadOnlyFilesystem => format!("{name} is on a read-only file system"),
        kind => format!("no new file can be made in {name}: {kind}"),
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// The one line for a file that cannot be written, with a hint when the cause suggests one.
fn cannot_write(path: &Path, e: io::Error) -> Failure {
    Failure::new(1, format!("cannot write {}: {e}{}", path.display(), failure::hint(e.kind(), true)))
}
