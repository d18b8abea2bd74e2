//! Names written into MD5 files: the format quotes a name and has no escapes, so a control
//! character or a `"` in a bone's, a mesh's or a clip's name is written `_`, with a note
//! (`md5_export/names.rs`), never as it is: the files hold text and nothing a terminal obeys, and
//! what reloads is what was written.

use super::arm::{arm, run_clean, text, write};
use super::support::stderr;
use serde_json::json;
use std::path::Path;

/// Exports `model` as MD5 into `dir`; returns the `.md5mesh` and standard error.
fn export(model: &Path, dir: &Path) -> (std::path::PathBuf, String) {
    let mesh = dir.join("arm.md5mesh");
    let out = run_clean(&["--model", text(model), "--export-md5", text(&mesh)]);
    assert!(out.status.success(), "{}", stderr(&out));
    (mesh, stderr(&out))
}

/// Every file of `dir` is text with no control character but tabs and line ends, and every line
/// has its double quotes in pairs.
fn clean_files(dir: &Path) {
    for entry in std::fs::read_dir(dir).expect("the folder") {
        let path = entry.expect("an entry").path();
        let text = std::fs::read_to_string(&path).expect("text");
        let bad = text.chars().find(|&c| c.is_control() && c != '\t' && c != '\n');
        assert!(bad.is_none(), "{} holds {bad:?}", path.display());
        for line in text.lines() {
            assert_eq!(line.matches('"').count() % 2, 0, "{}: {line:?}", path.display());
        }
    }
}

/// The `joints { ... }` block of an `.md5mesh`.
fn joints(mesh: &Path) -> String {
    let text = std::fs::read_to_string(mesh).expect("the mesh");
    let start = text.find("joints {").expect("joints");
    text[start..start + text[start..].find('}').expect("the end")].to_string()
}

#[test]
fn names_with_control_characters_and_quotes_are_written_as_md5_can_hold_them() {
    let mut g = arm();
    g.json["nodes"][0]["name"] = json!("root\u{1b}[2J");
    g.json["nodes"][1]["name"] = json!("arm\u{1}\"x\"");
    g.json["meshes"][0]["name"] = json!("strip\u{7}\"");
    g.json["animations"][0]["name"] = json!("bend\u{1b}]0;owned\u{7}");
    let model = write("md5-names", "arm.gltf", &g.embedded());
    let dir = model.with_file_name("out");
    let (mesh, err) = export(&model, &dir);
    for note in [
        "the bone \"root\\u{1b}[2J\" is written \"root_[2J\"",
        "the clip \"bend\\u{1b}]0;owned\\u{7}\" is written \"bend_]0;owned_\"",
        "the mesh \"strip\\u{7}\"\" is written \"strip__\"",
    ] {
        assert!(err.contains(note), "{note:?} not in {err}");
    }
    clean_files(&dir);
    let written = joints(&mesh);
    assert!(written.contains("\"root_[2J\"") && written.contains("\"arm__x_\""), "{written}");
    let anim = std::fs::read_to_string(dir.join("bend__0_owned_.md5anim")).expect("the clip's file");
    assert!(anim.contains("commandline \"skinning --export-md5: clip bend_]0;owned_\""), "{anim}");
    // What reloads is what was written: the names, and the same files again when exported again.
    let info = run_clean(&["--model", text(&mesh), "--info"]);
    let info = String::from_utf8_lossy(&info.stdout);
    for name in ["root_[2J", "arm__x_", "bend_]0;owned_"] {
        assert!(info.contains(name), "{name} not in {info}");
    }
    let (again, err) = export(&mesh, &model.with_file_name("again"));
    assert!(!err.contains("is written"), "nothing to rename the second time: {err}");
    assert_eq!(joints(&again), written);
}
