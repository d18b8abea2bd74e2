//! The house rules of chapter 15, kept true: in `src/`, no two files import each other (the
//! modules form a tree you can draw), and no file of the program around the method (`src/demo/`)
//! is longer than 300 lines. Reads the sources only; builds and runs nothing.
//!
//! A file "imports" another when one of its paths (`use`, or a path in the code) names a module
//! defined by the other: `crate::skin::compute_palette` in the library names `src/skin.rs`; `super::gl` in
//! `src/demo/draw/render.rs` names `src/demo/draw/gl.rs`; `error::TreeError` in `src/skeleton.rs`,
//! where `mod error;` is declared, names `src/skeleton/error.rs`. Comments and a file's own
//! `mod tests { ... }` are left out: a test module inside a file is that file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The longest a file of `src/demo/` may be (chapter 15).
const DEMO_LINES: usize = 300;

/// Every `.rs` file under `dir`, as paths relative to `src/`.
fn sources(src: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ can be read") {
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
fn module_of(file: &Path) -> Vec<String> {
    let mut names: Vec<String> = file.with_extension("").iter().map(|n| n.to_string_lossy().into()).collect();
    if matches!(names.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        names.pop();
    }
    names
}

/// The text of a file without its comments and without a `mod tests { ... }` written inside it.
fn code(text: &str) -> String {
    let text: String =
        text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    match text.find("mod tests {") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// Every path in `code` of the form `a::b::c`: a run of letters, digits, `_` and `:` that holds a
/// `::` (a trailing `::`, as in `use a::b::{c, d}`, is left off).
fn paths(code: &str) -> Vec<Vec<&str>> {
    code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .map(|run| run.trim_matches(':'))
        .filter(|run| run.contains("::"))
        .map(|run| run.split("::").collect::<Vec<_>>())
        .filter(|path| path.iter().all(|name| !name.is_empty()))
        .collect()
}

#[test]
fn no_two_files_import_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &src, &mut files);
    // The library's modules, and the program's (main.rs's `mod demo`), by their path of names.
    let by_module: BTreeMap<Vec<String>, PathBuf> =
        files.iter().filter(|f| *f != Path::new("main.rs")).map(|f| (module_of(f), f.clone())).collect();
    let mut imports: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for file in &files {
        let here = module_of(file);
        let text = code(&std::fs::read_to_string(src.join(file)).expect("a source file"));
        let children: BTreeSet<&str> = (text.lines())
            .filter_map(|l| l.trim().trim_start_matches("pub ").strip_prefix("mod "))
            .filter_map(|l| l.strip_suffix(';'))
            .collect();
        for path in paths(&text) {
            // Where the path starts: the crate's root (or the library's, from the program), this
            // module, a parent, or a child module declared here; anything else is another crate.
            let (mut at, rest) = match path[0] {
                "crate" | "skinning" => (Vec::new(), &path[1..]),
                "self" => (here.clone(), &path[1..]),
                "super" => {
                    let ups = path.iter().take_while(|&&p| p == "super").count();
                    (here[..here.len().saturating_sub(ups)].to_vec(), &path[ups..])
                }
                child if children.contains(child) => (here.clone(), &path[..]),
                _ => continue,
            };
            at.extend(rest.iter().map(|s| s.to_string()));
            // The longest prefix that is a module of another file (not this file's own module).
            for len in (1..=at.len()).rev() {
                if at[..len] == here[..] {
                    break;
                }
                if let Some(other) = by_module.get(&at[..len]).filter(|o| *o != file) {
                    imports.entry(file.clone()).or_default().insert(other.clone());
                    break;
                }
            }
        }
    }
    let mutual: Vec<String> = (imports.iter())
        .flat_map(|(a, those)| those.iter().map(move |b| (a, b)))
        .filter(|(a, b)| a < b && imports.get(*b).is_some_and(|back| back.contains(*a)))
        .map(|(a, b)| format!("src/{} and src/{}", a.display(), b.display()))
        .collect();
    assert!(mutual.is_empty(), "files that import each other: {mutual:?}");
    // The check found something to check: the program's files do import others.
    let render = PathBuf::from("demo/draw/render.rs");
    assert!(imports.get(&render).is_some_and(|i| i.contains(Path::new("demo/draw/layer.rs"))), "{imports:?}");
}

#[test]
fn no_file_of_the_program_is_longer_than_300_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &src.join("demo"), &mut files);
    assert!(files.len() > 20, "the program's files were found: {files:?}");
    let long: Vec<String> = (files.iter())
        .map(|f| (f, std::fs::read_to_string(src.join(f)).expect("a source file").lines().count()))
        .filter(|&(_, lines)| lines > DEMO_LINES)
        .map(|(f, lines)| format!("src/{}: {lines} lines", f.display()))
        .collect();
    assert!(long.is_empty(), "split these along the ideas a learner would name: {long:?}");
}

#[test]
fn a_path_is_found_whole_and_a_test_module_is_left_out() {
    let text = code(
        "use super::gl::{A, B}; // crate::not::this\nlet x = crate::skin::compute_palette(a);\nmod tests {\n use super::x::y;\n}",
    );
    let found: Vec<String> = paths(&text).iter().map(|p| p.join("::")).collect();
    assert_eq!(found, ["super::gl", "crate::skin::compute_palette"]);
    assert_eq!(module_of(Path::new("demo/mod.rs")), ["demo"]);
    assert_eq!(module_of(Path::new("demo/draw/render.rs")), ["demo", "draw", "render"]);
    assert!(module_of(Path::new("lib.rs")).is_empty());
}
