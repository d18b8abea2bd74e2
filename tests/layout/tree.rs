//! The drawings of chapter 15 kept true where a reader walks them: the method's core (the article's
//! lesson) names none of the later lessons, the method's files form a tree, and the program's
//! folders in `src/demo/` (and the few files beside them) stand in one order, each importing only
//! those below it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::imports::{imports_within, module_of};
use super::{mutual_pairs, top};

/// The method's core and the lessons layered on it (issue 36, item 1): the modules of
/// `crates/method/src` that are the article's lesson, and those no file of them may import
/// (braced and inline paths counted). One constant, so the lead can read and move it whole.
pub const CORE_AND_LAYERS: (&[&str], &[&str]) = (
    &["skeleton", "skin", "blend", "clip", "model", "scene", "frame", "transform"],
    &[
        "normals",
        "dual_quat",
        "lbs_or_dqs",
        "morph",
        "mixer",
        "reach",
        "inspect",
        "axes",
        "printable",
        "root_motion",
        "retarget",
        "look_at",
        "ground",
    ],
);

/// `src/demo`'s parts from the bottom up, each a folder or a file beside them (`time.rs`,
/// `colors.rs`, `dump.rs`): a part imports only parts before it in this list. `mod.rs`, which
/// starts the program, stands above them all. Chapter 15 draws this order.
pub const DEMO_ORDER: [&str; 10] =
    ["time", "colors", "output", "cli", "model", "words", "show", "dump", "draw", "platform"];

/// The first name of a module under the method's `src/`: `frame/source.rs` is `frame`.
fn top_module(file: &Path) -> String {
    module_of(file).first().cloned().unwrap_or_default()
}

/// What issue 36 (items 1 and 2) has still to undo in the method: the core's files that still name
/// a later lesson (the frame, which carries the morph, and the model, which holds the morph
/// targets). The frame's ending knows neither method nor the normals any more (`lbs_or_dqs.rs`
/// does), and no two of the method's files import each other. The checks below fail on any other,
/// and on any of these once it is gone, so this list only shrinks.
pub const STILL_TO_UNDO: [&str; 3] =
    ["frame.rs imports morph.rs", "model/build.rs imports morph.rs", "model.rs imports morph.rs"];

/// `found` holds exactly the entries of [`STILL_TO_UNDO`] that are about `what`: no new one, and
/// none that is already undone.
fn only_what_is_still_to_undo(found: &[String], what: impl Fn(&str) -> bool, kind: &str) {
    let listed: Vec<&str> = STILL_TO_UNDO.iter().copied().filter(|entry| what(entry)).collect();
    let new: Vec<&String> = found.iter().filter(|f| !listed.contains(&f.as_str())).collect();
    assert!(new.is_empty(), "{kind}, and not in STILL_TO_UNDO: {new:#?}");
    let undone: Vec<&&str> = listed.iter().filter(|l| !found.iter().any(|f| f == *l)).collect();
    assert!(undone.is_empty(), "undone at last: remove these from STILL_TO_UNDO: {undone:#?}");
}

#[test]
fn no_two_files_of_the_method_import_each_other() {
    let mutual = mutual_pairs("crates/method/src");
    only_what_is_still_to_undo(&mutual, |entry| entry.contains(" and "), "files that import each other");
}

#[test]
fn the_core_of_the_method_imports_no_later_lesson() {
    let (core, layers) = CORE_AND_LAYERS;
    let imports = imports_within(&top().join("crates/method/src"));
    let reaching_up: Vec<String> = (imports.iter())
        .filter(|(file, _)| core.contains(&top_module(file).as_str()))
        .flat_map(|(file, those)| those.iter().map(move |other| (file, other)))
        .filter(|(_, other)| layers.contains(&top_module(other).as_str()))
        .map(|(file, other)| format!("{} imports {}", file.display(), other.display()))
        .collect();
    only_what_is_still_to_undo(
        &reaching_up,
        |entry| entry.contains(" imports "),
        "the core names a later lesson",
    );
}

/// Which of `src/demo`'s parts (its folders, and the files beside them) import which others;
/// `mod.rs`, the root, is left out.
pub fn demo_folder_imports() -> BTreeMap<String, BTreeSet<String>> {
    let folder = |file: &Path| {
        let module = module_of(file);
        (module.len() >= 2 && module[0] == "demo").then(|| module[1].clone())
    };
    let mut folders: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, those) in imports_within(&top().join("src")) {
        let Some(from) = folder(&file) else { continue };
        for to in those.iter().filter_map(|f| folder(f)).filter(|to| *to != from) {
            folders.entry(from.clone()).or_default().insert(to);
        }
    }
    folders
}

#[test]
fn the_demo_folders_stand_in_one_order() {
    let folders = demo_folder_imports();
    let rank = |name: &str| DEMO_ORDER.iter().position(|f| *f == name);
    let mut wrong = Vec::new();
    for (from, those) in &folders {
        let Some(at) = rank(from) else {
            wrong.push(format!("src/demo/{from} is not in DEMO_ORDER"));
            continue;
        };
        for to in those.iter().filter(|to| rank(to).is_none_or(|r| r >= at)) {
            wrong.push(format!("{from} imports {to}, above it"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}\n{folders:#?}");
    // The check had something to check: the window's platform stands on most of the others.
    assert!(folders.get("platform").is_some_and(|p| p.len() >= 4), "{folders:?}");
}

#[test]
fn show_draws_nothing() {
    // `show/` is what is shown and how the keys change it, with no OpenGL: no path into `draw/`.
    let folders = demo_folder_imports();
    let show = folders.get("show").cloned().unwrap_or_default();
    assert!(!show.contains("draw"), "show/ imports: {show:?}");
}
