//! Names from files you did not write, made safe to print and to draw.
//!
//! A glTF node, a mesh, an animation or an MD5 joint is named by whoever wrote the file, and a name
//! is any string: it may hold a newline (a one-line message becomes two), a bell, or a terminal
//! escape sequence (`ESC [ 2 J` clears the screen; others retitle the window or fake a prompt).
//! It may also hold a **bidirectional control**, invisible, that makes a terminal or a window show
//! the text after it in another order: `Wave\u{202e}gnp.exe` (U+202E, RIGHT-TO-LEFT OVERRIDE) shows
//! as `Waveexe.png` (the "Trojan Source" trick, CVE-2021-42574). Every name the program prints or
//! draws goes through [`printable`] first: control characters, bidirectional controls and the
//! Unicode line and paragraph separators come out as visible escapes (`\n`, `\t`, `\u{1b}`,
//! `\u{202e}`), everything else as it is.

use crate::skeleton::TreeError;
use std::borrow::Cow;
use std::fmt;

/// `name` with every character that [`hides`] text written as an escape: `\n`, `\r`, `\t`,
/// `\u{1b}`, `\u{202e}`... A name without any is returned as it is, without a copy. A
/// backslash is left alone: it cannot start an escape on a terminal, and Windows paths in MD5 files
/// are full of them.
pub fn printable(name: &str) -> Cow<'_, str> {
    if !name.chars().any(hides) {
        return Cow::Borrowed(name);
    }
    let mut out = String::with_capacity(name.len() + 8);
    for c in name.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if hides(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Whether `c` can hide or rearrange the text around it: a control character (C0, DEL, C1), a
/// bidirectional control (the marks U+061C, U+200E, U+200F; the embeddings and overrides U+202A to
/// U+202E; the isolates U+2066 to U+2069), or a line or paragraph separator (U+2028, U+2029).
pub fn hides(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{2028}' | '\u{2029}')
}

/// `name` made [`printable`] and put in double quotes, as messages show a name: `"Hips"`.
pub fn quoted(name: &str) -> String {
    format!("\"{}\"", printable(name))
}

/// The message of the skeleton's error (`skeleton/error.rs`), each bone's name made [`printable`]: the
/// core names no later lesson, so the lesson on names from files prints the core's one error that
/// carries them.
impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            TreeError::Empty => write!(f, "the skeleton has no bones"),
            TreeError::MissingBone { bone, index } => {
                write!(f, "bone {} links to bone #{index}, which does not exist", printable(bone))
            }
            TreeError::NoRoot => write!(f, "every bone has a parent, so the links form a cycle"),
            TreeError::SeveralRoots(names) => {
                let names: Vec<_> = names.iter().map(|n| printable(n)).collect();
                write!(f, "the skeleton needs exactly one root, found {}", names.join(", "))
            }
            TreeError::ReachedTwice(name) => {
                let name = printable(name);
                write!(f, "bone {name} is reached twice from the root (a cycle or a shared child)")
            }
            TreeError::Unreached(name) => {
                write!(f, "bone {} cannot be reached from the root", printable(name))
            }
            TreeError::TooDeep { bone, limit } => {
                write!(f, "bone {} lies deeper than {limit} bones, counting the root", printable(bone))
            }
        }
    }
}

impl std::error::Error for TreeError {}

#[cfg(test)]
mod tests {
    use super::{printable, quoted};

    #[test]
    fn control_characters_become_visible_escapes_and_the_rest_stays() {
        assert_eq!(printable("Hips"), "Hips");
        assert!(matches!(printable("Hips"), std::borrow::Cow::Borrowed(_)));
        assert_eq!(printable("a\nb\tc\rd"), "a\\nb\\tc\\rd");
        // ESC, BEL, DEL and a C1 control (U+009B, a one-character CSI on some terminals).
        assert_eq!(printable("\u{1b}[2J\u{7}x\u{7f}\u{9b}"), "\\u{1b}[2J\\u{7}x\\u{7f}\\u{9b}");
        assert_eq!(printable("f:\\md5\\guard.tga é 骨"), "f:\\md5\\guard.tga é 骨");
        assert!(!printable("\u{1b}\u{0}\n").chars().any(char::is_control));
        assert_eq!(quoted("a\u{7}b"), "\"a\\u{7}b\"");
    }

    #[test]
    fn bidirectional_controls_and_separators_become_visible_escapes() {
        // Shown raw, the override makes this read "Waveexe.png".
        assert_eq!(printable("Wave\u{202e}gnp.exe"), "Wave\\u{202e}gnp.exe");
        let every = "\u{61c}\u{200e}\u{200f}\u{202a}\u{202b}\u{202c}\u{202d}\u{202e}\u{2066}\u{2067}\u{2068}\u{2069}\u{2028}\u{2029}";
        let shown = printable(every);
        assert_eq!(shown.matches("\\u{").count(), every.chars().count(), "{shown}");
        assert!(!shown.chars().any(super::hides), "{shown}");
        // Right-to-left letters themselves are text, shown as they are; so is a joiner.
        assert_eq!(printable("עצם_\u{200d}ع"), "עצם_\u{200d}ع");
    }
}
