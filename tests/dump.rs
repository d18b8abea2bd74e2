//! The learner's check: every skinned position in a `--dump` file, recomputed from that file alone
//! (each vertex's bind position and influences, each frame's palette), with no help from the
//! library, in plain `f64` arithmetic as a script would do it, every influence of a vertex however
//! many it has. `tests/dump_normals.rs` does the same for the normals.

use common::{run, scratch};
use serde_json::Value;

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array().expect("an array").iter().map(|x| x.as_f64().expect("a number")).collect()
}

/// A column-major 4x4 matrix (16 numbers, the translation last) times the point (x, y, z, 1).
fn transform(m: &[f64], p: &[f64]) -> [f64; 3] {
    [0, 1, 2].map(|row| m[row] * p[0] + m[4 + row] * p[1] + m[8 + row] * p[2] + m[12 + row])
}

/// Recomputes every skinned position of every frame of `dump` from its vertices' bind positions
/// and influences (all of them, however many) and each frame's palette; returns how many were
/// checked and the farthest any coordinate moved from its bind position.
fn recompute(dump: &Value, what: &str) -> (usize, f64) {
    let vertices = dump["vertices"].as_array().expect("vertices");
    let (mut checked, mut moved) = (0, 0.0f64);
    for frame in dump["frames"].as_array().expect("frames") {
        let palette: Vec<Vec<f64>> =
            frame["palette"].as_array().expect("palette").iter().map(numbers).collect();
        assert_eq!(palette.len(), dump["joints"].as_array().expect("joints").len(), "one matrix per joint");
        for (v, (vertex, skinned)) in
            vertices.iter().zip(frame["skinned"].as_array().expect("skinned")).enumerate()
        {
            // skinned = Σ weight * palette[joint] * bind
            let bind = numbers(&vertex["bind"]);
            let mut sum = [0.0f64; 3];
            for influence in vertex["influences"].as_array().expect("influences") {
                let joint = influence["joint"].as_u64().expect("a joint index") as usize;
                let weight = influence["weight"].as_f64().expect("a weight");
                let candidate = transform(&palette[joint], &bind);
                for axis in 0..3 {
                    sum[axis] += weight * candidate[axis];
                }
            }
            let written = numbers(skinned);
            for axis in 0..3 {
                let difference = (sum[axis] - written[axis]).abs();
                assert!(
                    difference <= 1e-6,
                    "{what} at {}: vertex {v} axis {axis} off by {difference:e}",
                    frame["time"]
                );
                moved = moved.max((written[axis] - bind[axis]).abs());
            }
            checked += 1;
        }
    }
    (checked, moved)
}

#[test]
fn every_skinned_position_can_be_recomputed_from_the_dump_alone() {
    let dir = scratch("learners-check");
    let mut checked = 0;
    for clip in ["seed", "bend", "twist"] {
        let path = dir.join(format!("{clip}.json"));
        let args = ["--clip", clip, "--frames", "6", "--fixed-dt", "0.55", "--time", "0.2", "--dump"];
        let out = run(&[&args[..], &[path.to_str().expect("utf-8")]].concat());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let dump: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("JSON");
        let (n, moved) = recompute(&dump, clip);
        // Frames that never leave the bind pose would check nothing but the identity.
        assert!(moved > 0.05, "{clip}: the skin hardly moved ({moved})");
        checked += n;
    }
    assert_eq!(checked, 3 * 6 * 13, "every vertex of every frame of every clip");
}

#[test]
fn a_vertex_of_eight_influences_is_recomputed_from_the_dump_alone_with_all_eight() {
    let dir = scratch("learners-check-eight");
    let (model, path) = (dir.join("eight.glb"), dir.join("eight.json"));
    std::fs::write(&model, common::eight::eight().glb()).expect("written");
    let args = ["--frames", "5", "--fixed-dt", "0.2", "--time", "0.1", "--dump"];
    let out =
        run(&[&["--model", model.to_str().expect("utf-8")][..], &args, &[path.to_str().expect("utf-8")]]
            .concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let dump: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("JSON");
    for vertex in dump["vertices"].as_array().expect("vertices") {
        assert_eq!(vertex["influences"].as_array().expect("influences").len(), 8, "all eight written");
    }
    let (checked, moved) = recompute(&dump, "the eight-influence fan");
    assert!(moved > 0.05, "the fan hardly moved ({moved})");
    assert_eq!(checked, 5 * 5, "every vertex of every frame");
}

#[test]
fn a_time_before_zero_is_taken_and_said() {
    // -1 s of the 4 s twist is its 3 s (chapter 3's exercise): the same pose, and a note that the
    // time wrapped back from the clip's end, where before it was taken without a word.
    let at = |time: &str| run(&["--dump", "-", "--clip", "twist", "--time", time]);
    let (before, wrapped) = (at("-1"), at("3"));
    assert!(before.status.success(), "{}", String::from_utf8_lossy(&before.stderr));
    let palette = |out: &std::process::Output| {
        let dump: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        numbers(&dump["frames"][0]["palette"][2])
    };
    let (a, b) = (palette(&before), palette(&wrapped));
    assert!(a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-5), "{a:?} against {b:?}");
    let said = String::from_utf8_lossy(&before.stderr);
    assert!(said.contains("note: --time -1 is before 0 s: each clip loops"), "{said}");
    assert!(!String::from_utf8_lossy(&wrapped.stderr).contains("note"));
}
