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
#[path = "layout/imports.rs"]
mod imports;

use std::path::{Path, PathBuf};

use imports::{code, imports_within, module_of, paths, sources};

/// The longest a source file may be (chapter 15).
const MAX_LINES: usize = 300;

/// Each crate's source folder, from the top of the workspace: the program, then the three below it.
const CRATES: [&str; 4] = ["src", "crates/method/src", "crates/fast/src", "crates/formats/src"];

#[path = "layout/tree.rs"]
mod tree;

/// The top of the workspace.
fn top() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The pairs of files of a crate that import each other, each written `a and b`.
fn mutual_pairs(krate: &str) -> Vec<String> {
    let imports = imports_within(&top().join(krate));
    // The check found something to check: each crate's files import others.
    assert!(imports.len() > 3, "{krate}: {imports:?}");
    (imports.iter())
        .flat_map(|(a, those)| those.iter().map(move |b| (a, b)))
        .filter(|(a, b)| a < b && imports.get(*b).is_some_and(|back| back.contains(*a)))
        .map(|(a, b)| format!("{krate}/{} and {krate}/{}", a.display(), b.display()))
        .collect()
}

#[test]
fn no_two_files_import_each_other() {
    let mutual: Vec<String> =
        ["src", "crates/fast/src", "crates/formats/src"].into_iter().flat_map(mutual_pairs).collect();
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

/// The paths of `text` as the checks read them, each joined with `::`.
fn found(text: &str) -> Vec<String> {
    paths(&code(text)).iter().map(|p| p.join("::")).collect()
}

#[test]
fn a_path_is_found_whole_and_a_test_module_is_left_out() {
    let text = "use super::gl::{A, B}; // crate::not::this\nlet x = crate::skin::compute_palette(a);\nmod tests {\n use super::x::y;\n}";
    assert_eq!(found(text), ["super::gl::A", "super::gl::B", "crate::skin::compute_palette"]);
    assert_eq!(module_of(Path::new("demo/mod.rs")), ["demo"]);
    assert_eq!(module_of(Path::new("demo/draw/render.rs")), ["demo", "draw", "render"]);
    assert!(module_of(Path::new("lib.rs")).is_empty());
}

#[test]
fn braced_nested_self_and_inline_paths_are_all_seen() {
    // Braces, nested braces, `self` in braces, a glob, a rename, and `pub use` over lines.
    let text = "pub use crate::{\n    a,\n    b::{c, d::{self, E}},\n    f::*,\n};\nuse super::g as h;\n";
    assert_eq!(
        found(text),
        ["crate::a", "crate::b::c", "crate::b::d", "crate::b::d::E", "crate::f", "super::g"]
    );
    // An inline path, one that starts from a name a `use` brought in, and none in a string.
    let text =
        "use crate::demo::draw;\nfn f() { draw::render::go(); crate::x::y(1); let s = \"crate::no::path\"; }";
    assert_eq!(found(text), ["crate::demo::draw", "crate::demo::draw::render::go", "crate::x::y"]);
}

#[test]
fn a_cycle_through_braces_is_a_cycle() {
    // A parent that re-exports its child in braces and the child that reaches back up through
    // `super`: the pair the old reading (which skipped braces) let pass.
    let dir = std::env::temp_dir().join(format!("layout-cycle-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("frame")).expect("a temporary folder");
    std::fs::write(dir.join("lib.rs"), "pub mod frame;\npub mod skin;\n").expect("written");
    std::fs::write(
        dir.join("frame.rs"),
        "mod method;\npub use method::{Method, Palette};\npub struct Pose;\n",
    )
    .expect("written");
    std::fs::write(dir.join("frame/method.rs"), "use super::Pose;\npub struct Method;\n").expect("written");
    std::fs::write(dir.join("skin.rs"), "pub fn f() { crate::frame::method_free(); }\n").expect("written");
    let imports = imports_within(&dir);
    std::fs::remove_dir_all(&dir).expect("removed");
    let frame = PathBuf::from("frame.rs");
    let method = PathBuf::from("frame/method.rs");
    assert!(imports[&frame].contains(&method), "{imports:?}");
    assert!(imports[&method].contains(&frame), "{imports:?}");
    assert!(imports[&PathBuf::from("skin.rs")].contains(&frame), "{imports:?}");
}

/// Every `// SAFETY` note of the workspace's sources, whole (its following comment lines joined),
/// with the file it is in.
fn safety_notes() -> Vec<(String, String)> {
    let mut notes = Vec::new();
    for folder in CRATES.iter().chain(&["benches"]) {
        let src = top().join(folder);
        let mut files = Vec::new();
        sources(&src, &src, &mut files);
        for file in files {
            let text = std::fs::read_to_string(src.join(&file)).expect("a source file");
            let lines: Vec<&str> = text.lines().map(str::trim).collect();
            for (at, line) in lines.iter().enumerate().filter(|(_, l)| l.starts_with("// SAFETY")) {
                let rest =
                    lines[at + 1..].iter().take_while(|l| l.starts_with("//") && !l.contains("SAFETY"));
                let note = std::iter::once(*line)
                    .chain(rest.map(|l| l.trim_start_matches("//")))
                    .collect::<Vec<_>>();
                notes.push((format!("{folder}/{}", file.display()), note.join(" ")));
            }
        }
    }
    notes
}

#[test]
fn each_safety_note_argues_its_own_block() {
    // Chapter 15's rule for `unsafe`: the note above a block says why that block is sound. A note
    // written twice, word for word, is a stock sentence, and one that sends the reader elsewhere
    // ("as above", "as the caller guarantees", "the file's head") argues nothing here.
    let notes = safety_notes();
    assert!(notes.len() > 40, "the notes were found: {}", notes.len());
    let mut seen = std::collections::BTreeMap::new();
    let mut wrong = Vec::new();
    for (file, note) in &notes {
        if let Some(first) = seen.insert(note.clone(), file.clone()) {
            wrong.push(format!("{file} and {first}: {note}"));
        }
        let elsewhere = [
            "as above",
            "as the caller guarantees.",
            "the file's head",
            "file's first SAFETY",
            "as in `new`.",
        ];
        if elsewhere.iter().any(|e| note.contains(e)) {
            wrong.push(format!("{file}: {note}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}
