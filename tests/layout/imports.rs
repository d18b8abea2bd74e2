//! Which file of a crate imports which: every path a file writes, found whole. A `use` is read as
//! the tree it is (`use crate::{a, b::{c, self}}` names `crate::a`, `crate::b::c` and `crate::b`),
//! and a path in the code (`crate::x::y(...)`, `super::gl::Program`) counts as much as a `use`.
//! Comments, string literals and a file's own `mod tests { ... }` are left out: a test module
//! inside a file is that file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::functions::blank_literals;

/// Every `.rs` file under `dir`, as paths relative to `src`.
pub fn sources(src: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder can be read") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            sources(src, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.strip_prefix(src).expect("under src/").to_path_buf());
        }
    }
}

/// The module a file defines, as its path of names: `demo/draw/render.rs` is
/// `[demo, draw, render]`, `demo/mod.rs` is `[demo]`, `lib.rs` and `main.rs` are `[]`.
pub fn module_of(file: &Path) -> Vec<String> {
    let mut names: Vec<String> = file.with_extension("").iter().map(|n| n.to_string_lossy().into()).collect();
    if matches!(names.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        names.pop();
    }
    names
}

/// The code of a file: comments and literals blanked, and a `mod tests { ... }` written inside
/// it cut off.
pub fn code(text: &str) -> String {
    let text = blank_literals(text);
    match text.find("mod tests {") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// Whether the character can be part of a name.
fn in_name(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Each `use` declaration of `code`, from just after `use` to its `;`, and the code with them
/// blanked out.
fn use_trees(code: &str) -> (Vec<String>, String) {
    let mut trees = Vec::new();
    let mut rest = code.to_string();
    let mut from = 0;
    while let Some(found) = rest[from..].find("use ") {
        let at = from + found;
        let before = rest[..at].chars().next_back();
        if before.is_some_and(|c| in_name(c) || c == ':') {
            from = at + 4;
            continue;
        }
        let end = rest[at..].find(';').map_or(rest.len(), |e| at + e);
        trees.push(rest[at + 4..end].to_string());
        rest.replace_range(at..end, &" ".repeat(end - at));
        from = end;
    }
    (trees, rest)
}

/// The top-level parts of a braced list, split at its commas.
fn split_top(list: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in list.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&list[start..]);
    parts
}

/// The paths a use tree names, each under `prefix`: a brace opens a list of trees, `self` in it
/// names the prefix itself, a glob or a rename (`as`) is dropped from the path it ends.
pub fn expand(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let close = tree.rfind('}').unwrap_or(tree.len());
        let mut head = prefix.to_vec();
        head.extend(names(&tree[..open]));
        for part in split_top(&tree[open + 1..close]) {
            if !part.trim().is_empty() {
                expand(&head, part, out);
            }
        }
        return;
    }
    let tree = tree.split(" as ").next().unwrap_or(tree);
    let mut names = names(tree);
    if names.last().is_some_and(|n| n == "*") {
        names.pop();
    }
    if !prefix.is_empty() && names.first().is_some_and(|n| n == "self") {
        names.remove(0);
    }
    let path: Vec<String> = prefix.iter().cloned().chain(names).collect();
    if !path.is_empty() {
        out.push(path);
    }
}

/// The names of a path written `a::b::c` (a leading `::` or a trailing one dropped).
fn names(path: &str) -> Vec<String> {
    path.split("::").map(str::trim).filter(|n| !n.is_empty()).map(String::from).collect()
}

/// Every path a file's `code` names: its use trees expanded, then each run of the code of the
/// form `a::b::c` (names joined by `::`, spaces allowed around them).
pub fn paths(code: &str) -> Vec<Vec<String>> {
    let (trees, rest) = use_trees(code);
    let mut out = Vec::new();
    for tree in &trees {
        expand(&[], tree, &mut out);
    }
    // A path in the code may start from a name a `use` brought in: `use crate::a::b;` then
    // `b::c(...)` names `crate::a::b::c`.
    let brought: BTreeMap<String, Vec<String>> =
        out.iter().filter_map(|p| Some((p.last()?.clone(), p.clone()))).collect();
    let squeezed = rest.replace(" ::", "::").replace(":: ", "::");
    let inline: Vec<Vec<String>> = (squeezed.split(|c: char| !(in_name(c) || c == ':')))
        .map(|run| run.trim_matches(':'))
        .filter(|run| run.contains("::"))
        .map(names)
        .filter(|path| path.len() > 1 && path.iter().all(|n| n.chars().all(in_name)))
        .map(|path| match brought.get(&path[0]) {
            Some(from) if !["crate", "self", "super"].contains(&path[0].as_str()) => {
                from.iter().chain(&path[1..]).cloned().collect()
            }
            _ => path,
        })
        .collect();
    out.extend(inline);
    out
}

/// The modules a file declares (`mod x;`, `pub(crate) mod x;`, `#[cfg(test)] mod x;`, or with a
/// body), by name.
fn declared(code: &str) -> BTreeSet<String> {
    let words: Vec<&str> = code.split(|c: char| !(in_name(c) || c == ';' || c == '{')).collect();
    let words: Vec<&str> = words.into_iter().filter(|w| !w.is_empty()).collect();
    (words.windows(2))
        .filter(|w| w[0] == "mod")
        .map(|w| w[1].trim_end_matches([';', '{']).to_string())
        .filter(|n| !n.is_empty())
        .collect()
}

/// Which files of the crate in `src` import which others of the same crate.
pub fn imports_within(src: &Path) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let mut files = Vec::new();
    sources(src, src, &mut files);
    // The library's modules, and the program's (main.rs's `mod demo`), by their path of names.
    let by_module: BTreeMap<Vec<String>, PathBuf> =
        files.iter().filter(|f| *f != Path::new("main.rs")).map(|f| (module_of(f), f.clone())).collect();
    let mut imports: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for file in &files {
        let here = module_of(file);
        let text = code(&std::fs::read_to_string(src.join(file)).expect("a source file"));
        let children = declared(&text);
        for path in paths(&text) {
            if let Some(other) = resolve(&path, &here, &children, &by_module).filter(|o| o != file) {
                imports.entry(file.clone()).or_default().insert(other);
            }
        }
    }
    imports
}

/// The file of the crate a path written in module `here` names, if any: where the path starts
/// (the crate's root, or the package's library from the program; this module; a parent; a child
/// module declared here; anything else is another crate), then the longest prefix that is a module
/// of another file.
fn resolve(
    path: &[String],
    here: &[String],
    children: &BTreeSet<String>,
    by_module: &BTreeMap<Vec<String>, PathBuf>,
) -> Option<PathBuf> {
    let (mut at, rest) = match path[0].as_str() {
        "crate" | "skinning" => (Vec::new(), &path[1..]),
        "self" => (here.to_vec(), &path[1..]),
        "super" => {
            let ups = path.iter().take_while(|p| *p == "super").count();
            (here[..here.len().saturating_sub(ups)].to_vec(), &path[ups..])
        }
        child if children.contains(child) => (here.to_vec(), path),
        _ => return None,
    };
    at.extend(rest.iter().cloned());
    for len in (1..=at.len()).rev() {
        if at[..len] == *here {
            return None;
        }
        if let Some(other) = by_module.get(&at[..len]) {
            return Some(other.clone());
        }
    }
    None
}
