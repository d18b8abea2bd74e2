//! The model every glTF case starts from, what the spec says it does, and how a case is run.
//!
//! The arm: node 0 `root` (joint 0) with its child node 1 `arm` (joint 1) one unit along x, and
//! node 2 `body`, a skinned strip of four vertices: v0 (0, 0, 0) on the root, v1 (1, 0, 0) half on
//! each, v2 (2, 0, 0) and v3 (2, 1, 0) on the arm. The inverse bind matrices undo the rest pose
//! (identity, and a move by -1 along x), and the animation `bend` turns the arm from 0 to 90
//! degrees about z over one second. A case edits this JSON, writes it, runs the program and checks
//! what comes out: [`expected`] is where the spec puts the vertices, worked out here by hand.

use super::support::{Folder, fails_cleanly, program, scratch, stderr};
use common::gltf_build::Gltf;
use glam::{Quat, Vec3};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

/// The arm's bind positions.
pub const BIND: [[f32; 3]; 4] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0], [2.0, 1.0, 0.0]];

/// The arm, as described above.
pub fn arm() -> Gltf {
    let mut g = Gltf::new();
    let positions = g.floats(BIND.as_flattened(), "VEC3");
    // Unused slots name joint 0 with weight 0, as the spec asks.
    let joints = g.ints(&[0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], "VEC4", 5121, false);
    let weights = [[1.0, 0.0], [0.5, 0.5], [1.0, 0.0], [1.0, 0.0]].map(|[a, b]| [a, b, 0.0, 0.0]);
    let weights = g.floats(weights.as_flattened(), "VEC4");
    let indices = g.ints(&[0, 1, 3, 1, 2, 3], "SCALAR", 5123, false);
    let mut ibm = glam::Mat4::IDENTITY.to_cols_array().to_vec();
    ibm.extend(glam::Mat4::from_translation(-Vec3::X).to_cols_array());
    let ibm = g.floats(&ibm, "MAT4");
    let times = g.floats(&[0.0, 1.0], "SCALAR");
    let turns = [Quat::IDENTITY, Quat::from_rotation_z(90f32.to_radians())].map(|q| q.to_array());
    let turns = g.floats(turns.as_flattened(), "VEC4");
    g.push("nodes", json!({ "name": "root", "children": [1] }));
    g.push("nodes", json!({ "name": "arm", "translation": [1.0, 0.0, 0.0] }));
    g.push("nodes", json!({ "name": "body", "mesh": 0, "skin": 0 }));
    g.json["scene"] = json!(0);
    g.json["scenes"] = json!([{ "name": "arm", "nodes": [0, 2] }]);
    g.push("skins", json!({ "joints": [0, 1], "inverseBindMatrices": ibm }));
    let attributes = json!({ "POSITION": positions, "JOINTS_0": joints, "WEIGHTS_0": weights });
    g.push(
        "meshes",
        json!({ "name": "strip", "primitives": [{ "attributes": attributes, "indices": indices }] }),
    );
    let channel = json!({ "sampler": 0, "target": { "node": 1, "path": "rotation" } });
    let sampler = json!({ "input": times, "output": turns });
    g.push("animations", json!({ "name": "bend", "channels": [channel], "samplers": [sampler] }));
    g
}

/// Where the spec puts the arm's vertices at `t` seconds (0 to 1): the arm turned by 90 t degrees
/// about its joint at (1, 0, 0). v0 stays; v1, half on each joint, sits on the joint, which both
/// put at (1, 0, 0); v2 and v3 turn with the arm.
pub fn expected(t: f32) -> Vec<Vec3> {
    let turn = Quat::from_rotation_z((90.0 * t).to_radians());
    let joint = Vec3::X;
    let on_arm = |p: [f32; 3]| joint + turn * (Vec3::from(p) - joint);
    vec![Vec3::ZERO, joint, on_arm(BIND[2]), on_arm(BIND[3])]
}

/// Writes `bytes` as `name` in a fresh folder for `test`; returns the file's path.
pub fn write(test: &str, name: &str, bytes: &[u8]) -> PathBuf {
    let dir = scratch(test);
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("the scratch folder is writable");
    path
}

/// Runs the program with `args` and asserts that nothing it printed holds a control character
/// but the line breaks: a name from the file cannot move the cursor, ring or retitle.
pub fn run_clean(args: &[&str]) -> Output {
    let out = program().args(args).stdin(Stdio::null()).output().expect("the program runs");
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let text = String::from_utf8_lossy(bytes);
        let bad = text.chars().find(|&c| c.is_control() && c != '\n');
        assert!(bad.is_none(), "{stream} holds the control character {bad:?}: {text:?}");
    }
    out
}

/// `--model model --dump DUMP --time t` must succeed, saying on standard error only the notes
/// whose texts contain `notes` (one line each, in order), and write a dump, returned.
pub fn loads(model: &Path, t: f32, notes: &[&str]) -> Value {
    let dump = model.with_file_name("dump.json");
    let time = t.to_string();
    let out = run_clean(&["--model", text(model), "--dump", text(&dump), "--time", &time]);
    let err = stderr(&out);
    assert!(out.status.success(), "{}: {err}", model.display());
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), notes.len(), "{}: one line per note expected: {err}", model.display());
    for (line, note) in lines.iter().zip(notes) {
        assert!(line.starts_with("skinning: note: ") && line.contains(note), "{note:?} not in {line}");
    }
    serde_json::from_slice(&std::fs::read(&dump).expect("the dump is written")).expect("the dump is JSON")
}

/// Where the dump's first frame puts every vertex: the skinned meshes' vertices, then the rigid
/// ones' (the dump keeps them apart).
pub fn skinned(dump: &Value) -> Vec<Vec3> {
    let frame = &dump["frames"][0];
    let points =
        ["skinned", "rigid"].into_iter().flat_map(|part| frame[part].as_array().cloned().unwrap_or_default());
    points.map(|p| Vec3::from_slice(&serde_json::from_value::<Vec<f32>>(p).expect("x, y, z"))).collect()
}

/// Asserts `got` matches `want` vertex by vertex, within float rounding.
pub fn same_positions(got: &[Vec3], want: &[Vec3]) {
    assert_eq!(got.len(), want.len(), "{got:?} != {want:?}");
    for (v, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(g.abs_diff_eq(*w, 1e-5), "vertex {v}: {g} != {w}");
    }
}

/// The file loads, says `notes`, and the arm moves as the spec says at 0, 0.25 and 0.7 s.
pub fn moves_as_the_spec_says(model: &Path, notes: &[&str]) {
    for t in [0.0, 0.25, 0.7] {
        same_positions(&skinned(&loads(model, t, notes)), &expected(t));
    }
}

/// `--model model --dump DUMP` must fail with exit 1 and one line containing `why`, writing
/// nothing: the model's folder holds what it held. Returns the line.
pub fn refused(model: &Path, why: &str) -> String {
    let folder = model.parent().expect("a folder");
    let before = Folder::of(folder);
    let dump = folder.join("refused.json");
    let out = run_clean(&["--model", text(model), "--dump", text(&dump)]);
    let line = fails_cleanly(&out, 1);
    assert!(line.contains(why), "{why:?} not in {line}");
    before.unchanged(folder);
    line
}

pub fn text(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 scratch path")
}
