//! The program's text, and what to do when it cannot be written.
//!
//! What the user asked to see goes to standard output: the help, the key list, the `--stats` line,
//! "saved FILE". Messages go to standard error, one line each, starting with "skinning: ".
//!
//! Either stream can fail, and neither failure may turn into a panic:
//! - A reader that stops early (`skinning --help | head -1`) closes the pipe. That is a normal way
//!   to end, so the program stops quietly by dying of SIGPIPE, as `cat` or `seq` do: the shell sees
//!   141, and `set -o pipefail` scripts treat it as they treat those tools.
//! - Any other failure (a full disk, `> /dev/full`) is an error: one line on standard error, exit 1.
//! - A message that standard error cannot take is dropped: there is nowhere left to say it, and the
//!   exit code still tells.
//!
//! When standard output carries the data itself (`--dump -`, `--screenshot -`), the text meant for
//! it goes to standard error instead, so the JSON or PNG on standard output stays intact.
//!
//! A web page has no terminal: there both go onto the page, under the picture (`output/page.rs`),
//! and to the browser's console.

use super::failure::Failure;
use skinning_method::printable::printable;
use std::sync::Mutex;
#[cfg(not(target_arch = "wasm32"))]
use {
    std::io::{self, Write},
    std::sync::atomic::{AtomicBool, Ordering},
};

#[cfg(not(target_arch = "wasm32"))]
static STDOUT_IS_DATA: AtomicBool = AtomicBool::new(false);

/// From now on standard output carries a file's bytes: `show` writes to standard error.
#[cfg(not(target_arch = "wasm32"))]
pub fn stdout_carries_data() {
    STDOUT_IS_DATA.store(true, Ordering::SeqCst);
}

/// Shows `text` to the user (with a line break after it, if it has none), on standard output.
#[cfg(not(target_arch = "wasm32"))]
pub fn show(text: &str) -> Result<(), Failure> {
    let newline = if text.ends_with('\n') { "" } else { "\n" };
    if STDOUT_IS_DATA.load(Ordering::SeqCst) {
        let _ = write_and_flush(&mut io::stderr().lock(), text, newline);
        return Ok(());
    }
    write_and_flush(&mut io::stdout().lock(), text, newline).map_err(stdout_failure)
}

/// Tells the user `message` on standard error as one line, `skinning: ` first. Never fails: if
/// standard error is gone, the message is lost and the exit code is all that is left.
///
/// The names in a message are made printable where it is written; whatever slips through (a
/// library's error quoting a file's text) is escaped here too, so the message stays one line and
/// sends the terminal nothing but text.
pub fn say(message: &str) {
    let line = format!("skinning: {}", printable(message));
    #[cfg(not(target_arch = "wasm32"))]
    let _ = write_and_flush(&mut io::stderr().lock(), &line, "\n");
    #[cfg(target_arch = "wasm32")]
    crate::demo::output::page::say(&line);
}

/// The notes the flags' names and values gave rise to, each with whether it was said yet.
static NOTES: Mutex<Vec<(String, bool)>> = Mutex::new(Vec::new());

/// Holds `note` for [`say_held_notes`], unless this run has it already: a name that two parts of
/// the program look up (a dump's clip, and its layers) is noted once. Held, not said, so that a run
/// that then fails says one line, its failure.
pub fn note_once(note: &str) {
    let mut notes = NOTES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if !notes.iter().any(|(n, _)| n == note) {
        notes.push((note.to_string(), false));
    }
}

/// Says each note held and not said yet, as `skinning: note: ...`: the run goes on (a window
/// opens, or a dump was written).
pub fn say_held_notes() {
    let mut notes = NOTES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    for (note, said) in notes.iter_mut().filter(|(_, said)| !*said) {
        say(&format!("note: {note}"));
        *said = true;
    }
}

/// The page's `show`: the text under the picture, as it is.
#[cfg(target_arch = "wasm32")]
pub fn show(text: &str) -> Result<(), Failure> {
    crate::demo::output::page::show(text);
    Ok(())
}

/// What a failed write to standard output means: a closed pipe ends the run quietly, anything
/// else is worth a line.
#[cfg(not(target_arch = "wasm32"))]
pub fn stdout_failure(e: io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure::by_signal(libc::SIGPIPE)
    } else {
        Failure::new(
            1,
            format!("cannot write to standard output: {e}{}", super::failure::hint(e.kind(), false)),
        )
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn write_and_flush(out: &mut impl Write, text: &str, end: &str) -> io::Result<()> {
    out.write_all(text.as_bytes())?;
    out.write_all(end.as_bytes())?;
    out.flush()
}
