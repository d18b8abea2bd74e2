//! Names from a file reach the terminal and the window escaped. A node, mesh, skin, scene or
//! animation may be named with a terminal escape sequence (`ESC [ 2 J` clears the screen, `ESC ] 0;`
//! retitles the terminal), a bell or a newline; `--info`, the notes, the errors, the inspector,
//! `--weights` and `--animation` and the window title show them as visible escapes (`\u{1b}`,
//! `\n`), and every message stays one line. (The corner line and the names on the picture:
//! `src/demo/show/state/tests.rs`, `src/demo/words/labels/tests.rs`.)

use super::arm::{arm, run_clean, text, write};
use super::display::open_window;
use super::support::{Xvfb, fails_cleanly, no_gl};
use serde_json::json;
use std::process::Command;
use std::time::Duration;

/// A name with a clear-screen sequence, a bell and a newline, and how it must be shown.
const HOSTILE: &str = "\u{1b}[2J\u{7}\nrm -rf";
const SHOWN: &str = "\\u{1b}[2J\\u{7}\\nrm -rf";

/// The arm with every name made hostile (each keeps a word of its own in front).
fn hostile_arm(test: &str) -> std::path::PathBuf {
    let mut g = arm();
    for (list, word) in [("nodes", "node"), ("meshes", "mesh"), ("skins", "skin"), ("scenes", "scene")] {
        for (i, object) in g.json[list].as_array_mut().expect(list).iter_mut().enumerate() {
            object["name"] = json!(format!("{word}{i}{HOSTILE}"));
        }
    }
    g.json["animations"][0]["name"] = json!(format!("bend{HOSTILE}"));
    write(test, "hostile.gltf", &g.embedded())
}

#[test]
fn info_shows_every_name_escaped() {
    let model = hostile_arm("names-info");
    let out = run_clean(&["--model", text(&model), "--info"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let info = String::from_utf8_lossy(&out.stdout);
    for name in ["node0", "node1", "node2", "mesh0", "skin0", "bend"] {
        assert!(info.contains(&format!("{name}{SHOWN}")), "{name} not shown escaped: {info}");
    }
}

#[test]
fn choices_that_list_names_are_one_line() {
    let model = hostile_arm("names-choices");
    let out = run_clean(&["--model", text(&model), "--animation", "nope", "--dump", "-"]);
    let line = fails_cleanly(&out, 2);
    assert!(line.contains(&format!("the only one is bend{SHOWN}")), "{line}");
    let out = run_clean(&["--model", text(&model), "--weights", "nope", "--headless", "--frames", "1"]);
    let line = fails_cleanly(&out, 2);
    assert!(line.contains(&format!("node0{SHOWN}, node1{SHOWN}, node2{SHOWN}")), "{line}");
    // The user's own word is escaped too.
    let out = run_clean(&["--model", text(&model), "--weights", "x\u{1b}[2J", "--headless", "--frames", "1"]);
    assert!(fails_cleanly(&out, 2).contains("unknown bone \"x\\u{1b}[2J\""));
}

#[test]
fn notes_and_errors_that_name_a_node_are_one_line() {
    // A scene listing a child (a note naming the node), then a zero rotation (an error naming it).
    let mut g = arm();
    g.json["nodes"][1]["name"] = json!(format!("arm{HOSTILE}"));
    g.json["scenes"][0]["nodes"] = json!([0, 2, 1]);
    let model = write("names-notes", "note.gltf", &g.embedded());
    let out = run_clean(&["--model", text(&model), "--dump", "/dev/null"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && err.lines().count() == 1, "{err}");
    assert!(err.contains(&format!("node #1 \"arm{SHOWN}\"")), "{err}");
    g.json["nodes"][1]["rotation"] = json!([0.0, 0.0, 0.0, 0.0]);
    let model = write("names-errors", "error.gltf", &g.embedded());
    let line = fails_cleanly(&run_clean(&["--model", text(&model), "--dump", "/dev/null"]), 1);
    assert!(line.contains(&format!("node #1 \"arm{SHOWN}\": its rotation is the zero quaternion")), "{line}");
}

#[test]
fn the_inspector_prints_bone_names_escaped() {
    let model = hostile_arm("names-inspect");
    let out = run_clean(&["--model", text(&model), "--inspect", "2", "--headless", "--frames", "1"]);
    if no_gl(&out) {
        return;
    }
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.starts_with(&format!("inspect: clip bend{SHOWN} at t 0.000 s")), "{report}");
    assert!(report.contains(&format!("node1{SHOWN}")), "{report}");
}

#[test]
fn the_window_title_shows_the_clip_name_escaped() {
    let model = hostile_arm("names-title");
    let Some(x) = Xvfb::start(24) else { return };
    let Some((_app, window)) = open_window(&x, &["--model", text(&model), "--size", "64x48"]) else {
        return;
    };
    // The title is set a few times a second; the first one is the plain "skinning".
    let mut title = String::new();
    for _ in 0..50 {
        let out =
            Command::new("xdotool").args(["getwindowname", &window]).env("DISPLAY", &x.display).output();
        title =
            String::from_utf8_lossy(&out.expect("xdotool runs").stdout).trim_end_matches('\n').to_string();
        if title.contains("clip") {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(!title.chars().any(char::is_control), "{title:?}");
    assert!(title.contains(&format!("clip bend{SHOWN} ")), "{title:?}");
}
