//! A model's files on the web: which to fetch from beside the page (`fetch.rs`) or which were handed
//! to it (dropped, or chosen with its file button), gathered into the one record of files handed
//! over (`model/files.rs`: `Files`) that the one loader opens (`model/load.rs`). The loaders read a
//! whole model at once and a browser fetches one file at a time, later, so the files are all
//! gathered first, then opened.
//!
//! A page can only ask its own server for files by name, and the names come from the model: a
//! `.gltf`'s buffers and images (`gltf_files.rs`), an `.md5mesh`'s animations (the `.md5anim` files
//! its folder's page lists, where the server lists folders, as `python3 -m http.server` does). As
//! on the desktop (`model_folder.rs` of the formats crate), nothing outside the model's folder is
//! asked for (`model/files.rs`: `inside`).
//!
//! The page's flags come in its address, `?args=...` ([`args`]).

use crate::demo::model::files::has_extension;

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
}
