//! A model's files on the web, once they are here: names and bytes ([`Files`]), fetched from beside
//! the page (`fetch.rs`) or handed to it (dropped, or chosen with its file button). The loaders read
//! a whole model at once and a browser fetches one file at a time, later, so the files are all
//! gathered first, then opened (`open.rs`).
//!
//! A page can only ask its own server for files by name, and the names come from the model: a
//! `.gltf`'s buffers and images (`gltf_files.rs`), an `.md5mesh`'s animations (the `.md5anim` files
//! its folder's page lists, where the server lists folders, as `python3 -m http.server` does). As
//! on the desktop (`model_folder.rs` of the formats crate), nothing outside the model's folder is
//! asked for ([`inside`]).
//!
//! The page's flags come in its address, `?args=...` ([`args`]).

use skinning_method::printable::quoted;
use std::path::Path;

/// A model's files: each name (a path from the page's folder, or the name a dropped file had),
/// and its bytes or why there are none.
#[derive(Default)]
pub struct Files {
    pub entries: Vec<(String, Result<Vec<u8>, String>)>,
    /// What gathering them could not do, to be said with the loader's notes.
    pub notes: Vec<String>,
}

impl Files {
    /// The bytes of `name`, or why there are none: a file the server did not give, or one the
    /// page was not handed.
    pub fn get(&self, name: &str) -> Result<&[u8], String> {
        match self.entries.iter().find(|(n, _)| n == name) {
            Some((_, Ok(bytes))) => Ok(bytes),
            Some((_, Err(why))) => Err(why.clone()),
            None => Err(format!("{} was not among the files given to the page", quoted(name))),
        }
    }

    /// The `.md5anim` files among these in `folder`, in name order, as the desktop lists a folder.
    pub fn md5anims(&self, folder: &str) -> Vec<String> {
        let mut names: Vec<String> = (self.entries.iter().map(|(n, _)| n))
            .filter(|n| folder_of(n) == folder && has_extension(n, "md5anim"))
            .cloned()
            .collect();
        names.sort();
        names
    }

    /// The model among files handed to the page: the first `.glb`, `.gltf` or `.md5mesh`.
    pub fn model(&self) -> Option<&str> {
        let models = ["glb", "gltf", "md5mesh"];
        let model = self.entries.iter().find(|(n, _)| models.iter().any(|e| has_extension(n, e)));
        model.map(|(name, _)| name.as_str())
    }
}

/// Whether `name` ends in `.EXTENSION`, in any letter case.
pub fn has_extension(name: &str, extension: &str) -> bool {
    Path::new(name).extension().is_some_and(|e| e.eq_ignore_ascii_case(extension))
}

/// The folder part of `name`, with its slash (`models/` for `models/Fox.glb`), or "".
pub fn folder_of(name: &str) -> &str {
    name.rfind('/').map_or("", |i| &name[..=i])
}

/// `name`, a path relative to `folder`, as a path from the page's folder: `..` is fine as long as
/// it comes back in. None if it leads out of `folder`, is absolute, or names a server of its own.
pub fn inside(folder: &str, name: &str) -> Option<String> {
    if name.starts_with('/') || name.contains(':') || name.contains('\\') {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in name.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    let joined = parts.join("/");
    (!joined.is_empty()).then(|| format!("{folder}{joined}"))
}

/// The `.md5anim` files a folder's page lists (its `href="..."` links), as paths from the page's
/// folder, in name order.
pub fn listed_md5anims(folder: &str, listing: &str) -> Vec<String> {
    let mut names: Vec<String> = (listing.split("href=\"").skip(1))
        .filter_map(|rest| rest.split('"').next())
        .filter_map(percent_decode)
        .filter(|name| !name.contains('/') && has_extension(name, "md5anim"))
        .map(|name| format!("{folder}{name}"))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// `%20` and the like back to the bytes they stand for (addresses escape spaces and non-ASCII, as
/// a glTF file's URIs do): the glTF loader's own decoding.
pub use skinning_formats::gltf_import::percent_decode;

/// The page's flags from its address's query (`?args=--clip%20bend%20--time%201.5`): the `args`
/// value, %-escapes and `+` decoded, split into words as a shell would split them (spaces, and
/// '...' or "..." kept whole). Err: the one line that says what is wrong.
pub fn args(query: &str) -> Result<Vec<String>, String> {
    let query = query.strip_prefix('?').unwrap_or(query);
    let Some(value) = query.split('&').find_map(|pair| pair.strip_prefix("args=")) else {
        return Ok(Vec::new());
    };
    let text = percent_decode(&value.replace('+', " ")).ok_or(
        "the page's address has a bad %-escape in ?args=; write the flags %-encoded (a space is %20)",
    )?;
    let (mut words, mut word, mut quote) = (Vec::new(), None::<String>, None);
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quote.is_some() {
        return Err("the page's address has a quote in ?args= that is never closed".into());
    }
    words.extend(word);
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_stays_inside_the_models_folder() {
        assert_eq!(inside("models/", "Fox.bin").as_deref(), Some("models/Fox.bin"));
        assert_eq!(inside("models/", "tex/../Fox.bin").as_deref(), Some("models/Fox.bin"));
        assert_eq!(inside("models/", "../secret"), None);
        assert_eq!(inside("", "/etc/passwd"), None);
        assert_eq!(inside("", "https://example.com/x.bin"), None);
        assert_eq!(folder_of("models/Fox.glb"), "models/");
        assert_eq!(folder_of("Fox.glb"), "");
    }

    #[test]
    fn the_address_gives_the_flags_as_words() {
        assert_eq!(
            args("?args=--clip%20bend%20--time%201.5"),
            Ok(["--clip", "bend", "--time", "1.5"].map(String::from).to_vec())
        );
        assert_eq!(
            args("?x=1&args=--model+'my%20fox.glb'"),
            Ok(vec!["--model".to_string(), "my fox.glb".to_string()])
        );
        assert_eq!(args(""), Ok(Vec::new()));
        assert!(args("?args=%zz").is_err_and(|e| !e.contains('\n')));
        assert!(args("?args='open").is_err());
    }

    #[test]
    fn a_folders_page_lists_its_animations_in_name_order() {
        let listing = r#"<a href="walk.md5anim">walk</a><a href="Idle%20B.MD5ANIM">x</a>
            <a href="hero.md5mesh">h</a><a href="sub/run.md5anim">r</a><a href="walk.md5anim">again</a>"#;
        assert_eq!(listed_md5anims("m/", listing), ["m/Idle B.MD5ANIM", "m/walk.md5anim"]);
    }

    #[test]
    fn files_handed_over_are_found_by_name() {
        let files = Files {
            entries: vec![
                ("hero.md5mesh".into(), Ok(vec![1])),
                ("b.md5anim".into(), Ok(vec![])),
                ("a.md5anim".into(), Err("HTTP 404".into())),
            ],
            notes: Vec::new(),
        };
        assert_eq!(files.model(), Some("hero.md5mesh"));
        assert_eq!(files.md5anims(""), ["a.md5anim", "b.md5anim"]);
        assert_eq!(files.get("hero.md5mesh"), Ok(&[1u8][..]));
        assert_eq!(files.get("a.md5anim"), Err("HTTP 404".to_string()));
        assert!(files.get("c.bin").is_err_and(|e| e.contains("not among the files")));
    }
}
