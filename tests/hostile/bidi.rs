//! Names that reorder what is shown. A bidirectional control is invisible and makes a terminal
//! show the text after it in another order: a clip named `Wave\u{202e}gnp.exe` shows as
//! `Waveexe.png`. Every name reaches the terminal, the notes, the errors, the inspector and the
//! window title with these escaped (`\u{202e}`), as control characters are (`names.rs`; the words
//! on the picture: `src/demo/words/labels/tests.rs`).

use super::arm::{arm, text, write};
use super::display::open_window;
use super::support::{Xvfb, fails_cleanly, no_gl, run, stderr};
use serde_json::json;
use std::process::{Command, Output};
use std::time::Duration;

/// Every bidirectional control (the marks, the embeddings and overrides, the isolates) and the
/// Unicode line and paragraph separators, after an override that makes `gnp.exe` read `exe.png`.
const BIDI: &str = "\u{202e}gnp.exe\u{61c}\u{200e}\u{200f}\u{202a}\u{202b}\u{202c}\u{202d}\u{2066}\u{2067}\u{2068}\u{2069}\u{2028}\u{2029}";
const SHOWN: &str = "\\u{202e}gnp.exe\\u{61c}\\u{200e}\\u{200f}\\u{202a}\\u{202b}\\u{202c}\\u{202d}\\u{2066}\\u{2067}\\u{2068}\\u{2069}\\u{2028}\\u{2029}";

/// Whether `c` is one of the characters of [`BIDI`] that must never be printed raw.
fn reorders(c: char) -> bool {
    matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Asserts that nothing the program printed holds one of them raw.
fn shown_escaped(out: &Output) {
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let text = String::from_utf8_lossy(bytes);
        let raw = text.chars().find(|&c| reorders(c));
        assert!(raw.is_none(), "{stream} holds {raw:?} raw: {text:?}");
    }
}

/// The arm with every name (nodes, mesh, skin, scene, clip, and two morph targets) ending in
/// [`BIDI`]; with `note`, its scene lists a child too, which the loader notes, naming the node.
fn bidi_arm(test: &str, note: bool) -> std::path::PathBuf {
    let mut g = arm();
    for (list, word) in [("nodes", "node"), ("meshes", "mesh"), ("skins", "skin"), ("scenes", "scene")] {
        for (i, object) in g.json[list].as_array_mut().expect(list).iter_mut().enumerate() {
            object["name"] = json!(format!("{word}{i}{BIDI}"));
        }
    }
    g.json["animations"][0]["name"] = json!(format!("Wave{BIDI}"));
    let lift = g.floats(&[0.0; 12], "VEC3");
    g.json["meshes"][0]["primitives"][0]["targets"] = json!([{ "POSITION": lift }, { "POSITION": lift }]);
    g.json["meshes"][0]["extras"] = json!({ "targetNames": [format!("Smile{BIDI}"), "Frown"] });
    if note {
        g.json["scenes"][0]["nodes"] = json!([0, 2, 1]);
    }
    write(test, "bidi.gltf", &g.embedded())
}

#[test]
fn info_shows_every_name_with_its_bidirectional_controls_escaped() {
    let model = bidi_arm("bidi-info", false);
    let out = run(&["--model", text(&model), "--info"]);
    shown_escaped(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    let info = String::from_utf8_lossy(&out.stdout);
    for name in ["node0", "node1", "node2", "mesh0", "skin0", "Wave", "Smile"] {
        assert!(info.contains(&format!("{name}{SHOWN}")), "{name} not shown escaped: {info}");
    }
}

#[test]
fn notes_and_errors_show_names_with_their_bidirectional_controls_escaped() {
    let model = bidi_arm("bidi-lines", true);
    let out = run(&["--model", text(&model), "--dump", "/dev/null"]);
    shown_escaped(&out);
    let err = stderr(&out);
    assert!(out.status.success() && err.contains(&format!("node #1 \"node1{SHOWN}\"")), "{err}");
    let out = run(&["--model", text(&model), "--animation", "nope", "--dump", "/dev/null"]);
    shown_escaped(&out);
    assert!(fails_cleanly(&out, 2).contains(&format!("Wave{SHOWN}")));
    let out = run(&["--model", text(&model), "--morph", "2:nope=1", "--dump", "/dev/null"]);
    shown_escaped(&out);
    assert!(fails_cleanly(&out, 2).contains(&format!("Smile{SHOWN}")));
    // The user's own words too.
    let out = run(&["--model", text(&model), "--animation", &format!("x{BIDI}"), "--dump", "/dev/null"]);
    shown_escaped(&out);
    assert!(fails_cleanly(&out, 2).contains(&format!("x{SHOWN}")));
}

#[test]
fn the_inspector_and_the_window_title_show_names_escaped() {
    let model = bidi_arm("bidi-drawn", false);
    let out = run(&["--model", text(&model), "--inspect", "2", "--headless", "--frames", "1"]);
    if no_gl(&out) {
        return;
    }
    shown_escaped(&out);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.starts_with(&format!("inspect: clip Wave{SHOWN} at t 0.000 s")), "{report}");
    assert!(report.contains(&format!("node1{SHOWN}")), "{report}");
    let Some(x) = Xvfb::start(24) else { return };
    let Some((_app, window)) = open_window(&x, &["--model", text(&model), "--size", "64x48"]) else {
        return;
    };
    let mut title = String::new();
    for _ in 0..50 {
        let out =
            Command::new("xdotool").args(["getwindowname", &window]).env("DISPLAY", &x.display).output();
        title = String::from_utf8_lossy(&out.expect("xdotool runs").stdout).trim_end().to_string();
        if title.contains("clip") {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(!title.chars().any(reorders), "{title:?}");
    assert!(title.contains(&format!("clip Wave{SHOWN} ")), "{title:?}");
}
