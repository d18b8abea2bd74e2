//! A clip's name, made into a file name that every system takes, and kept whole inside the file.
//!
//! An MD5 model's animations are the `.md5anim` files beside its `.md5mesh`, and a reader names
//! each clip after its file. A clip's own name may hold what a file name should not: Mixamo's
//! clips are called `Armature|mixamo.com|Layer0`, and `|`, `:`, `*`, `?`, `"`, `<`, `>` and `\` are
//! refused by Windows, `/` by every system. So the file's name is made safe ([`file_stem`]): every
//! character but a letter, a digit, `-`, `_` and `.` becomes `_`, and a name two clips would share
//! gets `_2`, `_3`... The clip's own name goes inside the file, in the `commandline` line that MD5
//! files carry for the command that wrote them: `commandline "skinning --export-md5: clip NAME"`.
//! This program's loader reads it back from there ([`clip_name_in`]); other MD5 readers ignore it
//! and name the clip after the file.
//!
//! Every name an MD5 file holds (a joint's, a shader's, the clip's in the `commandline`) sits
//! between double quotes on one line, and the format has no escapes: a `"` would end the name
//! early, a line end would break the line, and other control characters (ESC, `\x01`) would go to
//! whoever prints the file. So each of those characters is written `_` ([`md5_name`]); a joint's
//! name that then equals another's gets `_2`, `_3`... (a clip's joints are found by name), and a
//! note says what was renamed ([`md5_names`]). What reloads is what was written.

use std::borrow::Cow;
use std::collections::HashSet;

/// What the `commandline` of every file this program writes starts with.
pub const COMMAND_LINE: &str = "skinning --export-md5";

/// What comes between [`COMMAND_LINE`] and a clip's name in an `.md5anim`'s `commandline`.
const CLIP: &str = ": clip ";

/// The longest file stem written, in bytes: room for `.md5anim` and `_NN` within the 255 bytes a
/// file name may take on most systems.
const LONGEST: usize = 200;

/// The `commandline` text of the `.md5anim` of the clip `name` (which holds no `"` or line end).
pub fn commandline(name: &str) -> String {
    format!("{COMMAND_LINE}{CLIP}{name}")
}

/// The clip name an `.md5anim`'s `commandline` keeps, if this program wrote it.
pub fn clip_name_in(commandline: &str) -> Option<&str> {
    commandline.strip_prefix(COMMAND_LINE)?.strip_prefix(CLIP)
}

/// `name` as an MD5 file can hold it between its double quotes: each control character (line ends
/// included) and each `"` made `_`; tabs too, which a reader may take for the gap between fields.
pub fn md5_name(name: &str) -> Cow<'_, str> {
    let bad = |c: char| c.is_control() || c == '"';
    match name.contains(bad) {
        true => Cow::Owned(name.chars().map(|c| if bad(c) { '_' } else { c }).collect()),
        false => Cow::Borrowed(name),
    }
}

/// The names of `what` (`"bone"`, `"mesh"`, `"clip"`) as written ([`md5_name`]), each renamed one
/// made unique among them all with `_2`, `_3`...; and the note that says so, if any was renamed.
pub fn md5_names<'n>(names: impl IntoIterator<Item = &'n str>, what: &str) -> (Vec<String>, Option<String>) {
    let names: Vec<&str> = names.into_iter().collect();
    let mut taken: HashSet<String> = names.iter().map(|n| n.to_string()).collect();
    let mut renamed = Vec::new();
    let written = (names.iter())
        .map(|&name| {
            let safe = md5_name(name);
            if let Cow::Borrowed(same) = safe {
                return same.to_string();
            }
            let mut unique = safe.to_string();
            let mut n = 1;
            while !taken.insert(unique.clone()) {
                n += 1;
                unique = format!("{safe}_{n}");
            }
            renamed.push((name, unique.clone()));
            unique
        })
        .collect();
    let note = renamed.first().map(|(name, new)| {
        let others = match renamed.len() {
            1 => String::new(),
            n => format!(" and {} more", n - 1),
        };
        format!(
            "an MD5 name holds no control character or double quote: the {what} {} is written {}{others}",
            skinning_method::printable::quoted(name),
            skinning_method::printable::quoted(new)
        )
    });
    (written, note)
}

/// A file stem for the clip `name` that is safe on every system and not yet in `taken` (compared
/// without letter case, as some file systems compare), added to it.
pub fn file_stem(name: &str, taken: &mut HashSet<String>) -> String {
    let safe = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_' | '.');
    let mut stem: String = name.chars().map(|c| if safe(c) { c } else { '_' }).collect();
    // A leading dot hides a file (and `.`, `..` are folders); a trailing dot or space Windows drops.
    if stem.starts_with('.') {
        stem.replace_range(..1, "_");
    }
    while stem.len() > LONGEST {
        stem.pop();
    }
    if stem.ends_with('.') {
        stem.pop();
        stem.push('_');
    }
    if stem.is_empty() {
        stem = "clip".into();
    }
    // Windows keeps these names for devices, with any extension.
    let device = stem.split('.').next().unwrap_or("").to_ascii_uppercase();
    let devices = ["CON", "PRN", "AUX", "NUL"];
    let numbered = ["COM", "LPT"].iter().any(|d| device.len() == 4 && device.starts_with(d));
    if devices.contains(&device.as_str()) || numbered {
        stem.insert(0, '_');
    }
    let mut unique = stem.clone();
    let mut n = 1;
    while !taken.insert(unique.to_lowercase()) {
        n += 1;
        unique = format!("{stem}_{n}");
    }
    unique
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_characters_become_underscores_and_names_stay_unique() {
        let mut taken = HashSet::new();
        assert_eq!(file_stem("Armature|mixamo.com|Layer0", &mut taken), "Armature_mixamo.com_Layer0");
        assert_eq!(file_stem("Armature/mixamo.com|Layer0", &mut taken), "Armature_mixamo.com_Layer0_2");
        assert_eq!(file_stem("Walk", &mut taken), "Walk");
        assert_eq!(file_stem("walk", &mut taken), "walk_2", "letter case aside, the name is taken");
        assert_eq!(file_stem("..", &mut taken), "__");
        assert_eq!(file_stem("", &mut taken), "clip");
        assert_eq!(file_stem("nul", &mut taken), "_nul");
        assert_eq!(file_stem("Ходьба: 2", &mut taken), "Ходьба__2");
        assert!(file_stem(&"x".repeat(300), &mut taken).len() <= LONGEST);
    }

    #[test]
    fn names_lose_their_control_characters_and_quotes_and_stay_unique() {
        assert_eq!(md5_name("Hips"), "Hips");
        assert_eq!(md5_name("a\u{1b}[31m\"b\"\tc\n"), "a_[31m_b__c_");
        let (names, note) = md5_names(["a\u{1}", "a_", "a\u{2}", "b"], "bone");
        assert_eq!(names, ["a__2", "a_", "a__3", "b"]);
        let note = note.expect("a note");
        assert!(note.contains("is written \"a__2\" and 1 more"), "{note}");
        assert_eq!(md5_names(["x", "y"], "bone"), (vec!["x".to_string(), "y".to_string()], None));
    }

    #[test]
    fn the_name_comes_back_from_the_commandline() {
        let line = commandline("Armature|mixamo.com|Layer0");
        assert_eq!(clip_name_in(&line), Some("Armature|mixamo.com|Layer0"));
        assert_eq!(clip_name_in("skinning --export-md5"), None, "a mesh's commandline names no clip");
        assert_eq!(clip_name_in("mesh models/imp.mb -dest imp"), None, "id's own commandline");
    }
}
