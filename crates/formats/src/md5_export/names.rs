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
    fn the_name_comes_back_from_the_commandline() {
        let line = commandline("Armature|mixamo.com|Layer0");
        assert_eq!(clip_name_in(&line), Some("Armature|mixamo.com|Layer0"));
        assert_eq!(clip_name_in("skinning --export-md5"), None, "a mesh's commandline names no clip");
        assert_eq!(clip_name_in("mesh models/imp.mb -dest imp"), None, "id's own commandline");
    }
}
