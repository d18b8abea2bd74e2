//! Names from files you did not write, made safe to print and to draw.
//!
//! A glTF node, a mesh, an animation or an MD5 joint is named by whoever wrote the file, and a name
//! is any string: it may hold a newline (a one-line message becomes two), a bell, or a terminal
//! escape sequence (`ESC [ 2 J` clears the screen; others retitle the window or fake a prompt).
//! Every name the program prints or draws goes through [`printable`] first: control characters
//! come out as visible escapes (`\n`, `\t`, `\u{1b}`), everything else as it is.

use std::borrow::Cow;

/// `name` with every control character written as an escape: `\n`, `\r`, `\t`, `\\u{1b}`...
/// A name without any is returned as it is, without a copy. A backslash is left alone: it cannot
/// start an escape on a terminal, and Windows paths in MD5 files are full of them.
pub fn printable(name: &str) -> Cow<'_, str> {
    if !name.chars().any(char::is_control) {
        return Cow::Borrowed(name);
    }
    let mut out = String::with_capacity(name.len() + 8);
    for c in name.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `name` made [`printable`] and put in double quotes, as messages show a name: `"Hips"`.
pub fn quoted(name: &str) -> String {
    format!("\"{}\"", printable(name))
}

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
}
