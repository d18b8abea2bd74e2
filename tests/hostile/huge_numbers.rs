//! Numbers in a file at the edge of 32-bit floats, and a weight set without its other half: each
//! is read for what it is, or refused or noted for what it is. A weight of 3e38 (a glTF weight,
//! an MD5 bias) is a weight like any other (two of them are half each); a displacement of 3e38 is 3e38 long, not `inf`; a
//! weight that is not finite is called that; and a `JOINTS_1` without its `WEIGHTS_1` is left out
//! with a note, not silently.

use super::arm::{arm, loads, same_positions, skinned, text, write};
use super::support::{run, stderr};
use glam::Vec3;
use serde_json::json;

/// The arm, its vertex v2 (2, 0, 0) weighed `weights` on its two slots: the arm's joint, then the
/// root's (the file's JOINTS_0 for v2 are 1, 0).
fn arm_weighing_v2(test: &str, weights: [f32; 2]) -> std::path::PathBuf {
    let mut g = arm();
    let table = [[1.0, 0.0], [0.5, 0.5], weights, [1.0, 0.0]].map(|[a, b]| [a, b, 0.0, 0.0]);
    let accessor = g.floats(table.as_flattened(), "VEC4");
    g.json["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"] = json!(accessor);
    write(test, "weights.gltf", &g.embedded())
}

#[test]
fn weights_near_the_float_limit_are_shares_like_any_others() {
    // 3e38 + 3e38 overflows a 32-bit sum: dividing by it made both weights 0.
    for (i, weights) in [[3e38, 3e38], [f32::MAX, f32::MAX], [1e38, 3e38]].into_iter().enumerate() {
        let model = arm_weighing_v2(&format!("huge-weights-{i}"), weights);
        let dump = loads(&model, 0.5, &["renormalised the weights of 1 vertex"]);
        let on_arm = f64::from(weights[0]) / (f64::from(weights[0]) + f64::from(weights[1]));
        let v2 = &dump["vertices"][2]["influences"][0];
        assert_eq!(v2["joint"], 1, "{v2}");
        assert!((v2["weight"].as_f64().expect("a weight") - on_arm).abs() < 1e-6, "{weights:?}: {v2}");
        // At 0.5 s the arm has turned 45°: v2 is between where the root keeps it and where the
        // arm carries it, by the shares.
        let (by_root, by_arm) = (Vec3::new(2.0, 0.0, 0.0), super::arm::expected(0.5)[2]);
        let want = by_root * (1.0 - on_arm as f32) + by_arm * on_arm as f32;
        same_positions(&skinned(&dump)[2..3], &[want]);
    }
}

#[test]
fn a_node_weight_that_is_not_finite_is_called_that() {
    // The arm's strip with a target, and its node's weights [1e39, 0]: 1e39 is past 32-bit floats.
    let mut g = arm();
    let lift = g.floats(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0], "VEC3");
    g.json["meshes"][0]["primitives"][0]["targets"] = json!([{ "POSITION": lift }, { "POSITION": lift }]);
    g.json["nodes"][2]["weights"] = json!([1e39, 0.0]);
    let model = write("huge-node-weights", "node-weights.gltf", &g.embedded());
    let out = run(&["--model", text(&model), "--dump", "/dev/null"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("its node's weights hold a number beyond 32-bit floats (about 3.4e38), read as inf"),
        "{err}"
    );
    // The count is said only where it is wrong.
    g.json["nodes"][2]["weights"] = json!([1.0, 0.0, 0.5]);
    let model = write("huge-node-weights-3", "node-weights.gltf", &g.embedded());
    let err = stderr(&run(&["--model", text(&model), "--dump", "/dev/null"]));
    assert!(err.contains("its node's weights are 3 numbers for 2 targets"), "{err}");
}

#[test]
fn info_shows_a_finite_displacement_of_3e38_as_a_number() {
    let mut g = arm();
    let lift = g.floats(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3e38, 0.0], "VEC3");
    g.json["meshes"][0]["primitives"][0]["targets"] = json!([{ "POSITION": lift }]);
    let model = write("huge-info", "displacement.gltf", &g.embedded());
    let out = run(&["--model", text(&model), "--info"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let info = String::from_utf8_lossy(&out.stdout);
    let line = info.lines().find(|l| l.contains("\"strip\" on node body")).expect("the morph line");
    assert!(line.ends_with("target 0 3.000e38 (1.3e40%)"), "{line}");
    assert!(!info.contains(" inf"), "{info}");
}

#[test]
fn a_joints_set_without_its_weights_is_left_out_with_a_note() {
    // JOINTS_1 naming joint 1 for every vertex, and no WEIGHTS_1 to say how much.
    let mut g = arm();
    let joints = g.ints(&[1; 16], "VEC4", 5121, false);
    g.json["meshes"][0]["primitives"][0]["attributes"]["JOINTS_1"] = json!(joints);
    let model = write("unpaired-joints", "unpaired.gltf", &g.embedded());
    let note =
        "left out JOINTS_1 of 1 primitive (mesh #0 \"strip\" primitive 0): it has no WEIGHTS_1 to go with";
    let dump = loads(&model, 0.25, &[note]);
    // Drawn by the first set alone, as the spec puts the arm.
    same_positions(&skinned(&dump), &super::arm::expected(0.25));
}

#[test]
fn md5_biases_near_the_float_limit_are_shares_too() {
    // The hand-made MD5 model's v1, half on each joint, with biases of 3e38 (and its positions
    // made small enough that the vertex stays finite): they sum past 32-bit floats.
    let mesh = common::md5_hand::MESH
        .replace("weight 1 0 0.5 ( 1 0.2 0 )", "weight 1 0 3e38 ( 2e-38 0 0 )")
        .replace("weight 2 1 0.5 ( 0.2 0 0 )", "weight 2 1 3e38 ( 0 0 0 )");
    let model = write("huge-biases", "hand.md5mesh", mesh.as_bytes());
    let dump = loads(
        &model,
        0.0,
        &["divided the biases of 1 vertex by their sum, which was not 1 (worst sum 6.000e38)"],
    );
    let v1 = &dump["vertices"][1]["influences"];
    let shares: Vec<f64> = (0..2).map(|i| v1[i]["weight"].as_f64().expect("a weight")).collect();
    assert_eq!(shares, [0.5, 0.5], "{v1}");
}
