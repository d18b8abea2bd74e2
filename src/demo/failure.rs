//! Why the program stops early: one line for the user and an exit code.

use std::fmt;

/// One line for the user and the exit code.
///
/// Codes: 1 something failed while running, 2 the command line is wrong, 3 this machine lacks a
/// display, EGL or a recent enough OpenGL.
#[derive(Debug)]
pub struct Failure {
    pub code: u8,
    pub message: String,
}

impl Failure {
    pub fn new(code: u8, message: impl Into<String>) -> Failure {
        Failure { code, message: message.into() }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.message)
    }
}
