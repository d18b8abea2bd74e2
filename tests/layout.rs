//! The house rules of chapter 15, kept true: in each crate, no two files import each other (the
//! modules form a tree you can draw); no file is longer than 300 lines, and no function of the
//! program longer than 80 (`layout/functions.rs`); and the crates use only what the drawing of
//! chapter 15 lets them (the method glam alone, no `unsafe`). Reads the sources and the manifests
//! only; builds and runs nothing.
//!
//! A file "imports" another when one of its paths (`use`, or a path in the code) names a module
//! defined by the other: `crate::skin::compute_palette` in the library names `crates/method/src/skin.rs`; `super::gl` in
//! `src/demo/draw/render.rs` names `src/demo/draw/gl.rs`; `error::TreeError` in `crates/method/src/skeleton.rs`,
//! where `mod error;` is declared, names `crates/method/src/skeleton/error.rs`. Comments and a file's own
//! `mod tests { ... }` are left out: a test module inside a file is that file.

#[path = "layout/functions.rs"]
mod functions;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The longest a source file may be (chapter 15).
const MAX_LINES: usize = 300;

/// Each crate's source folder, from the top of the workspace: the program, then the three below it.
const CRATES: [&str; 4] = ["src", "crates/method/src", "crates/fast/src", "crates/formats/src"];

/// The top of the workspace.
fn top() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

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

/// Which files of the crate in `src` import which others of the same crate.
fn imports_within(src: &Path) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let mut files = Vec::new();
    sources(src, src, &mut files);
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
            // Where the path starts: the crate's root (or the package's library, from the program),
            // this module, a parent, or a child module declared here; anything else is another crate.
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
    imports
}

#[test]
fn no_two_files_import_each_other() {
    let mut mutual = Vec::new();
    for krate in CRATES {
        let imports = imports_within(&top().join(krate));
        mutual.extend(
            (imports.iter())
                .flat_map(|(a, those)| those.iter().map(move |b| (a, b)))
                .filter(|(a, b)| a < b && imports.get(*b).is_some_and(|back| back.contains(*a)))
                .map(|(a, b)| format!("{krate}/{} and {krate}/{}", a.display(), b.display())),
        );
        // The check found something to check: each crate's files import others.
        assert!(imports.len() > 3, "{krate}: {imports:?}");
    }
    assert!(mutual.is_empty(), "files that import each other: {mutual:?}");
    let program = imports_within(&top().join("src"));
    let render = PathBuf::from("demo/draw/render.rs");
    assert!(
        program.get(&render).is_some_and(|i| i.contains(Path::new("demo/draw/strokes.rs"))),
        "{program:?}"
    );
}

#[test]
fn no_source_file_is_longer_than_300_lines() {
    let mut files = Vec::new();
    for krate in CRATES {
        let src = top().join(krate);
        let mut found = Vec::new();
        sources(&src, &src, &mut found);
        files.extend(found.into_iter().map(|f| Path::new(krate).join(f)));
    }
    assert!(files.len() > 150, "the sources were found: {files:?}");
    let long: Vec<String> = (files.iter())
        .map(|f| (f, std::fs::read_to_string(top().join(f)).expect("a source file").lines().count()))
        .filter(|&(_, lines)| lines > MAX_LINES)
        .map(|(f, lines)| format!("{}: {lines} lines", f.display()))
        .collect();
    assert!(long.is_empty(), "split these along the ideas a learner would name: {long:?}");
}

/// The names in a manifest's `[dependencies]` table (not its dev-dependencies).
fn dependencies(manifest: &str) -> Vec<String> {
    let text = std::fs::read_to_string(top().join(manifest)).expect("a manifest");
    let table = text.split("\n[dependencies]\n").nth(1).expect("a [dependencies] table");
    let table = table.split("\n[").next().unwrap_or(table);
    (table.lines())
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split(['=', '.']).next())
        .map(|name| name.trim().to_string())
        .collect()
}

#[test]
fn each_crate_uses_only_what_the_drawing_lets_it() {
    // docs/15's drawing: the method on glam alone; the fast path and the formats on the method and
    // their own few crates, never on each other; the program on top of all three.
    assert_eq!(dependencies("crates/method/Cargo.toml"), ["glam"]);
    let fast = dependencies("crates/fast/Cargo.toml");
    let formats = dependencies("crates/formats/Cargo.toml");
    for (name, deps) in [("fast", &fast), ("formats", &formats)] {
        assert!(deps.contains(&"skinning-method".to_string()), "{name}: {deps:?}");
        assert!(!deps.iter().any(|d| d == "skinning-fast" || d == "skinning-formats"), "{name}: {deps:?}");
        for window in ["winit", "glutin", "glutin-winit", "glow"] {
            assert!(!deps.iter().any(|d| d == window), "{name} uses {window}");
        }
    }
    let program = dependencies("Cargo.toml");
    for part in ["skinning-method", "skinning-fast", "skinning-formats", "winit", "glow"] {
        assert!(program.iter().any(|d| d == part), "the program: {program:?}");
    }
    // The method has no `unsafe`, and the compiler holds it to that.
    let lib = std::fs::read_to_string(top().join("crates/method/src/lib.rs")).expect("the method's lib.rs");
    assert!(lib.contains("#![forbid(unsafe_code)]"));
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
