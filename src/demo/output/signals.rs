//! Ctrl-C, `kill` and a closed terminal while a file is being written.
//!
//! A file is written to a temporary file beside it and renamed over it at the end (see `output`). A
//! signal that killed the program half-way would leave that temporary file behind. So while one
//! exists, the three signals that ask a program to stop (SIGINT from Ctrl-C, SIGTERM from `kill`,
//! SIGHUP from a closed terminal) only raise a flag. The file's writer checks it before every write
//! (a dump writes every frame or few frames), stops, the temporary file is removed, and then the
//! program dies of that same signal, so whoever started it sees what it always sees: 128 + the
//! signal's number (130, 143, 129).
//!
//! The rest of the time these signals act as if no handler were installed: the default action
//! runs at once. A signal that was ignored when the program started (`nohup` ignores SIGHUP) is
//! left alone and stays ignored.
//!
//! The handlers come from `signal-hook`, which does the part that is easy to get wrong: only
//! async-signal-safe work inside a handler, and re-raising a signal with its default action.
//!
//! One more signal is no request to stop but a write's fault: SIGXFSZ, sent when a write would pass
//! the file-size limit (`ulimit -f`, what a full quota does to some). Its default action kills the
//! program with the temporary file still there; ignored ([`report_file_size_limit`]), the write
//! fails with EFBIG instead, and the failure is said and cleaned up as a full disk's is.

use std::io::{self, Write};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The signals that ask a program to stop.
const STOP_SIGNALS: [i32; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// True while no temporary file exists: a stop signal then takes its default action at once.
static IDLE: AtomicBool = AtomicBool::new(true);
/// The stop signal that arrived while a file was being written, or 0.
static CAUGHT: AtomicUsize = AtomicUsize::new(0);

/// Defers the stop signals while it lives: create it before the temporary file exists and drop it
/// after the file is gone (renamed or removed). Then ask [`caught`].
pub struct Writing(());

pub fn writing() -> Writing {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        for signal in STOP_SIGNALS.into_iter().filter(|&s| !ignored(s)) {
            // Registered in this order, the default action (when idle) runs before the flag is
            // raised. Should registering fail, the signal keeps its default action: a temporary
            // file may then be left behind, but the run still stops.
            let _ = signal_hook::flag::register_conditional_default(signal, &IDLE);
            let _ = signal_hook::flag::register_usize(signal, &CAUGHT, signal as usize);
        }
    });
    IDLE.store(false, Ordering::SeqCst);
    Writing(())
}

impl Drop for Writing {
    fn drop(&mut self) {
        IDLE.store(true, Ordering::SeqCst);
    }
}

/// The stop signal that arrived while a file was being written, if one did.
pub fn caught() -> Option<i32> {
    match CAUGHT.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal as i32),
    }
}

/// Makes a write past the file-size limit fail (EFBIG, "File too large") instead of killing the
/// program (SIGXFSZ), so that the write's failure is said in one line and its temporary file is
/// removed. Called once, first thing.
pub fn report_file_size_limit() {
    // SAFETY: setting a signal's action to "ignore" installs no handler: nothing runs in a signal's
    // context, and the only effect is that the kernel no longer sends SIGXFSZ's default death.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// Ends the process the way `signal` would have without any handler (the shell sees 128 + N).
pub fn die_of(signal: i32) {
    // Returns only for a signal whose default action is to do nothing; none of ours.
    let _ = signal_hook::low_level::emulate_default_handler(signal);
}

/// Whether `signal` is ignored (set so by whoever started us, like `nohup` does for SIGHUP).
fn ignored(signal: i32) -> bool {
    // SAFETY: a null new action only reads the current one into `current`, a plain C struct for
    // which all zeros is a valid value.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut current) == 0 && current.sa_sigaction == libc::SIG_IGN
    }
}

/// A writer that fails once a stop signal has arrived, so a long write ends at its next write.
pub struct StopOnSignal<W>(pub W);

impl<W: Write> Write for StopOnSignal<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match caught() {
            Some(signal) => Err(io::Error::other(format!("stopped by signal {signal}"))),
            None => self.0.write(bytes),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}
