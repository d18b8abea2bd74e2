//! Why the program stops early: one line for the user and an exit code, or a signal to die of.

use std::fmt;

/// One line for the user and the exit code.
///
/// Codes: 1 something failed while running, 2 the command line is wrong, 3 this machine lacks a
/// display, EGL or a recent enough OpenGL.
///
/// A run can also end because of a signal: Ctrl-C (SIGINT), SIGTERM, SIGHUP, or a reader that
/// closed our standard output (SIGPIPE). Then `signal` is set and the message is empty: the program
/// cleans up, says nothing, and dies of that signal as every command-line tool does, so the shell
/// sees 128 + the signal's number (130, 143, 129, 141).
#[derive(Debug)]
pub struct Failure {
    pub code: u8,
    pub message: String,
    pub signal: Option<i32>,
}

impl Failure {
    pub fn new(code: u8, message: impl Into<String>) -> Failure {
        Failure { code, message: message.into(), signal: None }
    }

    /// The run was stopped by `signal`; the caller has cleaned up and ends quietly.
    pub fn by_signal(signal: i32) -> Failure {
        Failure { code: 128u8.saturating_add(signal as u8), message: String::new(), signal: Some(signal) }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// What to add to "cannot write X: <error>" when the error's kind suggests what to do; "" when
/// it does not. `whole`: the file was being written beside its name, to be renamed over it, so a
/// failure left nothing (`replace.rs`); standard output and devices keep what they were sent.
/// Shared by files (`output/mod.rs`) and standard output (`console.rs`).
#[cfg(not(target_arch = "wasm32"))]
pub fn hint(kind: std::io::ErrorKind, whole: bool) -> String {
    use std::io::ErrorKind;
    let nothing = if whole { "; nothing was written" } else { "" };
    match kind {
        ErrorKind::NotFound => " (is the folder there?)".into(),
        ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem => " (is it writable?)".into(),
        // A new file's name taken between the check and the rename (`together.rs`).
        ErrorKind::AlreadyExists => " (another program made it meanwhile; nothing was written)".into(),
        ErrorKind::StorageFull | ErrorKind::QuotaExceeded => {
            format!(" (the disk or your quota is full{nothing}: free some space)")
        }
        ErrorKind::FileTooLarge => {
            format!(" (the file-size limit, `ulimit -f`, was reached{nothing}: raise it)")
        }
        _ => String::new(),
    }
}

/// What a bug's panic says: one line, with where, instead of a backtrace.
pub fn panic_line(info: &std::panic::PanicHookInfo) -> String {
    let payload = info.payload();
    let message = (payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    let place = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
    format!("internal error{place}: {message}; please report it")
}
