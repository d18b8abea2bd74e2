//! The picture checks what the dump checks. Numbers that are each finite can grow past 32-bit
//! floats in a frame: two morph targets of (0, 3e38, 0) at weight 1 add up to infinity, so do
//! `--morph Head_4:Surprised=3e38` and an additive layer at 1e30. `--dump` refuses such a frame in
//! one line (exit 1); the window and `--headless` refuse it with the very same line, before
//! anything is drawn or written, wherever the skin is blended. And blend weights near the float
//! limit are shares like any others: `--blend Survey=3e38,Walk=3e38` is `Survey=1,Walk=1`.

use super::arm::{arm, text};
use super::support::{Folder, Xvfb, fails_cleanly, no_gl, run, scratch, stderr};
use common::sample_model;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The arm with two morph targets on its strip, each moving v3 by (0, 3e38, 0), both at weight 1
/// by the mesh: each displacement is finite, their sum is not. `rising`: at weight 0 instead, and
/// the clip `rise` takes both from 0 to 1 over a second, so v3 overflows from 0.5 s on.
fn two_huge_targets(dir: &Path, rising: bool) -> PathBuf {
    let mut g = arm();
    let lift = [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 3e38, 0.0]];
    let targets: Vec<Value> =
        (0..2).map(|_| json!({ "POSITION": g.floats(lift.as_flattened(), "VEC3") })).collect();
    g.json["meshes"][0]["primitives"][0]["targets"] = json!(targets);
    g.json["meshes"][0]["weights"] = json!([1.0, 1.0]);
    if rising {
        g.json["meshes"][0]["weights"] = json!([0.0, 0.0]);
        let (times, weights) = (g.floats(&[0.0, 1.0], "SCALAR"), g.floats(&[0.0, 0.0, 1.0, 1.0], "SCALAR"));
        let channel = json!({ "sampler": 0, "target": { "node": 2, "path": "weights" } });
        let sampler = json!({ "input": times, "output": weights });
        g.json["animations"] = json!([{ "name": "rise", "channels": [channel], "samplers": [sampler] }]);
    }
    let path = dir.join(if rising { "rising-targets.gltf" } else { "two-huge-targets.gltf" });
    std::fs::write(&path, g.embedded()).expect("the scratch folder is writable");
    path
}

/// Runs `--model model args` as a dump, then drawn offscreen (the CPU blending, then the GPU
/// alone), and, if `window` gives a display, in a window: each must refuse with exit 1 and one
/// line, the same line, naming what overflows, and write nothing. Returns the line.
fn refused_alike(test: &str, model: &Path, args: &[&str], window: Option<&Xvfb>) -> String {
    let dir = scratch(test);
    let before = Folder::of(&dir);
    let (dump, shot) = (dir.join("d.json"), dir.join("s.png"));
    let with = |more: &[&'static str]| -> Vec<String> {
        let all = [&["--model", text(model)][..], args, more].concat();
        all.into_iter().map(String::from).collect()
    };
    let (dump, shot) = (text(&dump).to_string(), text(&shot).to_string());
    let run = |args: Vec<String>| run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let line = fails_cleanly(&run([with(&["--dump"]), vec![dump]].concat()), 1);
    assert!(line.contains("overflow") && line.contains("is not finite"), "{line}");
    // The dump needs no GL: what it leaves is checked here, whatever the runs below can do.
    before.unchanged(&dir);
    for skinning in ["cpu", "gpu"] {
        let drawn = ["--headless", "--frames", "3", "--size", "64x48", "--skinning", skinning];
        let out = run([with(&drawn), vec!["--screenshot".into(), shot.clone()]].concat());
        if no_gl(&out) {
            return line;
        }
        assert_eq!(fails_cleanly(&out, 1), line, "--headless --skinning {skinning} {args:?}");
    }
    if let Some(x) = window {
        let mut window = x.program();
        let out = window
            .args(with(&["--frames", "3", "--size", "64x48", "--screenshot"]))
            .arg(&shot)
            .output()
            .expect("runs");
        // (A window prints its keys on standard output first.)
        let err = stderr(&out);
        let said: Vec<&str> = err.lines().filter(|l| !l.starts_with("skinning: OpenGL")).collect();
        assert_eq!((out.status.code(), said), (Some(1), vec![line.as_str()]), "in a window, {args:?}");
    }
    before.unchanged(&dir);
    line
}

#[test]
fn two_targets_that_add_up_past_the_floats_are_refused_drawn_as_dumped() {
    let dir = scratch("overflow-targets-model");
    let model = two_huge_targets(&dir, false);
    let x = Xvfb::start(24);
    let line = refused_alike("overflow-targets", &model, &[], x.as_ref());
    assert!(line.contains("at time 0 s (frame 0): vertex 3's skinned position"), "{line}");
}

#[test]
fn a_later_frame_that_overflows_ends_the_run_there_drawn_as_dumped() {
    // Frames at 0.375, 0.5 and 0.625 s (exact in binary, so both say the same time): v3 is at
    // 2.25e38 and 3e38 + 1, then past the floats.
    let dir = scratch("overflow-later-model");
    let model = two_huge_targets(&dir, true);
    let frames = ["--time", "0.375", "--fixed-dt", "0.125", "--frames", "3"];
    let x = Xvfb::start(24);
    let line = refused_alike("overflow-later", &model, &frames, x.as_ref());
    assert!(line.contains("at time 0.625 s (frame 2): vertex 3's skinned position"), "{line}");
}

#[test]
fn a_held_morph_weight_past_the_floats_is_refused_drawn_as_dumped() {
    let Some(robot) = sample_model("RobotExpressive.glb") else { return };
    let line = refused_alike("overflow-morph", &robot, &["--morph", "Head_4:Surprised=3e38"], None);
    assert!(line.contains("skinned position"), "{line}");
}

#[test]
fn an_additive_layer_past_the_floats_is_refused_drawn_as_dumped() {
    let Some(fox) = sample_model("Fox.glb") else { return };
    let line = refused_alike("overflow-additive", &fox, &["--additive", "Survey=1e30"], None);
    assert!(line.contains("bone 0 \"root\"'s local transform"), "{line}");
}

/// The first frame's skinned positions of `--model model --blend blend`.
fn blended(model: &Path, blend: &str, dir: &Path) -> Value {
    let dump = dir.join("blend.json");
    let out = run(&["--model", text(model), "--blend", blend, "--time", "0.3", "--dump", text(&dump)]);
    assert!(out.status.success(), "{blend}: {}", stderr(&out));
    let dump: Value = serde_json::from_slice(&std::fs::read(&dump).expect("written")).expect("JSON");
    dump["frames"][0]["skinned"].clone()
}

/// The picture of `--model model --blend blend`, as PNG bytes; None without OpenGL.
fn drawn(model: &Path, blend: &str, dir: &Path) -> Option<Vec<u8>> {
    let shot = dir.join("blend.png");
    let size = ["--size", "96x72", "--no-text", "--time", "0.3"];
    let args = [&["--model", text(model), "--blend", blend, "--headless", "--frames", "1"][..], &size];
    let out = run(&[&args.concat()[..], &["--screenshot", text(&shot)]].concat());
    if no_gl(&out) {
        return None;
    }
    assert!(out.status.success(), "{blend}: {}", stderr(&out));
    Some(std::fs::read(&shot).expect("written"))
}

#[test]
fn equal_blend_weights_are_equal_shares_at_any_size() {
    let Some(fox) = sample_model("Fox.glb") else { return };
    let dir = scratch("overflow-blend");
    let ones = blended(&fox, "Survey=1,Walk=1", &dir);
    for huge in ["Survey=3e38,Walk=3e38", "Survey=3.4e38,Walk=3.4e38", "Survey=1e-45,Walk=1e-45"] {
        assert!(blended(&fox, huge, &dir) == ones, "{huge} is not Survey=1,Walk=1");
    }
    // Not the same as Survey alone, which is what an overflowing sum gave.
    assert!(blended(&fox, "Survey=1", &dir) != ones);
    // Three at 3e38 each: thirds, as at 1 each.
    let thirds = blended(&fox, "Survey=1,Walk=1,Run=1", &dir);
    assert!(blended(&fox, "Survey=3e38,Walk=3e38,Run=3e38", &dir) == thirds);
    let Some(picture) = drawn(&fox, "Survey=1,Walk=1", &dir) else { return };
    assert!(drawn(&fox, "Survey=3e38,Walk=3e38", &dir) == Some(picture), "the picture differs");
}
