//! Layers a user can aim (chapter 11), through the program: an additive clip measured against the
//! reference it names (`--additive CLIP[=W][@REF]`), a note for one that adds nothing, and a
//! crossfade from the command line (`--fade-to`), stepped by the library's mixer, so that the dump
//! and the drawn frames hold the same poses.

use common::rigs;
use common::{program, scratch};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The T-posed figure (clips Idle, Wave, and Pose: one key, the left arm lowered 70 degrees).
fn t_pose(test: &str) -> PathBuf {
    let path = scratch(test).join("t-pose.gltf");
    std::fs::write(&path, rigs::t_pose().embedded()).expect("scratch is writable");
    path
}

fn dump(model: Option<&Path>, args: &[&str]) -> (Value, String) {
    let mut command = program();
    if let Some(model) = model {
        command.arg("--model").arg(model);
    }
    let out = command.args(args).args(["--dump", "-"]).output().expect("the program runs");
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?}: {said}");
    (serde_json::from_slice(&out.stdout).expect("JSON"), said)
}

/// The left arm's local rotation in frame `f`, as the angle it turns about z, in degrees.
fn left_arm_degrees(dump: &Value, f: usize) -> f64 {
    let m = dump["frames"][f]["local"][10].as_array().expect("a matrix");
    let (cos, sin) = (m[0].as_f64().expect("a number"), m[1].as_f64().expect("a number"));
    sin.atan2(cos).to_degrees()
}

#[test]
fn an_additive_pose_adds_nothing_against_itself_and_its_pose_against_the_rest_or_a_clip() {
    let model = t_pose("additive");
    // Against its own first pose (the default): nothing, and a note says so.
    let (plain, said) = dump(Some(&model), &["--additive", "Pose"]);
    assert!(left_arm_degrees(&plain, 0).abs() < 1e-4, "{}", left_arm_degrees(&plain, 0));
    assert!(said.contains("note: --additive \"Pose\" adds nothing"), "{said}");
    assert!(said.contains("Pose@rest"), "the note says what to do: {said}");
    // Against the rest pose, or Idle's first pose (the rest pose too): the arm lowered 70 degrees,
    // or half of it at weight 0.5; no note.
    for (flag, degrees) in [("Pose@rest", -70.0), ("Pose=0.5@Idle", -35.0), ("Pose@Idle=0.5", -35.0)] {
        let (added, said) = dump(Some(&model), &["--additive", flag]);
        let got = left_arm_degrees(&added, 0);
        assert!((got - degrees).abs() < 1e-3, "--additive {flag}: {got} degrees");
        assert!(!said.contains("adds nothing"), "{flag}: {said}");
        let layer = &added["frames"][0]["layers"][1];
        assert_eq!(layer["kind"], "additive", "{layer}");
    }
}

/// What `--inspect 2` printed for the last frame: vertex 2's skinned position.
fn inspected(out: &str) -> [f64; 3] {
    let sum = out.lines().find(|l| l.contains("sum = skinned position")).unwrap_or_else(|| panic!("{out}"));
    let numbers: Vec<f64> = sum.split(['(', ')', ',']).filter_map(|n| n.trim().parse::<f64>().ok()).collect();
    numbers.try_into().unwrap_or_else(|n| panic!("three numbers: {n:?}"))
}

#[test]
fn a_crossfade_from_the_command_line_gives_the_dump_the_drawn_frames_poses() {
    // From bend to twist from 1.0 s, over 0.4 s; frames 0.05 s apart from 1.0 s.
    let fade = ["--time", "1.0", "--fade-to", "twist@1.0", "--fade", "0.4", "--fixed-dt", "0.05"];
    let (dumped, _) = dump(None, &[&fade[..], &["--frames", "12"]].concat());
    let weights: Vec<Vec<(String, f64)>> = (dumped["frames"].as_array().expect("frames").iter())
        .map(|f| {
            let layers = f["layers"].as_array().expect("layers");
            layers
                .iter()
                .map(|l| (l["clip"].as_str().unwrap().to_string(), l["weight"].as_f64().unwrap()))
                .collect()
        })
        .collect();
    // At 1.0 s bend alone (twist at 0); at 1.2 s half and half; from 1.4 s twist alone.
    assert_eq!(weights[0], [("bend".to_string(), 1.0), ("twist".to_string(), 0.0)]);
    assert!((weights[4][0].1 - 0.5).abs() < 1e-6 && (weights[4][1].1 - 0.5).abs() < 1e-6, "{:?}", weights[4]);
    assert_eq!(weights[8], [("twist".to_string(), 1.0)]);
    // Drawn frame by frame, headless: the fifth frame (1.2 s) puts vertex 2 where the dump does.
    let dir = scratch("fade-drawn");
    let shot = dir.join("fade.png");
    let out = program()
        .args(fade)
        .args(["--frames", "5", "--headless", "--inspect", "2", "--size", "64x64", "--no-text"])
        .arg("--screenshot")
        .arg(&shot)
        .output()
        .expect("the program runs");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let drawn = inspected(&said);
    let in_dump = dumped["frames"][4]["skinned"][2].as_array().expect("a position");
    for (k, d) in drawn.iter().enumerate() {
        assert!((d - in_dump[k].as_f64().unwrap()).abs() <= 5e-5, "drawn {drawn:?}, dumped {in_dump:?}");
    }
    // Neither clip alone puts it there: the fade is what both show.
    for clip in ["bend", "twist"] {
        let (alone, _) = dump(None, &["--clip", clip, "--time", "1.2"]);
        let p = alone["frames"][0]["skinned"][2].as_array().expect("a position");
        let apart = (0..3).map(|k| (p[k].as_f64().unwrap() - drawn[k]).abs()).fold(0.0, f64::max);
        assert!(apart > 1e-3, "{clip} alone is where the fade is: {apart}");
    }
}
