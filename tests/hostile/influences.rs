//! More than four influences, as the spec says: a vertex with five (`JOINTS_1` / `WEIGHTS_1`)
//! loads with nothing to say, and lands where the spec's formula puts it with all five, at 0, 0.5
//! and 0.9 s. (The eight-influence fixture of `tests/influences.rs` tests the blend itself, on the CPU,
//! the GPU and with dual quaternions.)

use super::arm::{arm, expected, loads, run_clean, same_positions, skinned, text, write};
use glam::{Mat4, Vec3};
use serde_json::json;

#[test]
fn five_influences_blend_where_the_spec_puts_the_vertex() {
    // The arm with three more joints: `still` on the root at (0, 1, 0), which does not move, and
    // `hand` and `tip` on the arm, which turn with it. v3 (2, 1, 0) is on all five: 0.05 root,
    // 0.35 arm, 0.1 still, 0.3 hand, 0.2 tip.
    let mut g = arm();
    g.json["nodes"][0]["children"] = json!([1, 3]);
    g.json["nodes"][1]["children"] = json!([4, 5]);
    let nodes = g.json["nodes"].as_array_mut().expect("nodes");
    nodes.push(json!({ "name": "still", "translation": [0.0, 1.0, 0.0] }));
    nodes.push(json!({ "name": "hand", "translation": [1.0, 0.0, 0.0] }));
    nodes.push(json!({ "name": "tip", "translation": [0.5, 0.0, 0.0] }));
    let rest = [Vec3::ZERO, Vec3::X, Vec3::Y, 2.0 * Vec3::X, 1.5 * Vec3::X];
    let ibm: Vec<f32> = rest.iter().flat_map(|&t| Mat4::from_translation(-t).to_cols_array()).collect();
    let ibm = g.floats(&ibm, "MAT4");
    g.json["skins"][0] = json!({ "joints": [0, 1, 3, 4, 5], "inverseBindMatrices": ibm });
    let joints0 = g.ints(&[0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 2, 3], "VEC4", 5121, false);
    let joints1 = g.ints(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0], "VEC4", 5121, false);
    let w0 = [1.0, 0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.05, 0.35, 0.1, 0.3];
    let w1 = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.2, 0.0, 0.0, 0.0];
    let (w0, w1) = (g.floats(&w0, "VEC4"), g.floats(&w1, "VEC4"));
    let attributes = &mut g.json["meshes"][0]["primitives"][0]["attributes"];
    attributes["JOINTS_0"] = json!(joints0);
    attributes["WEIGHTS_0"] = json!(w0);
    attributes["JOINTS_1"] = json!(joints1);
    attributes["WEIGHTS_1"] = json!(w1);
    let model = write("five-influences", "five.gltf", &g.embedded());

    // `--info` gives the most influences on one vertex, and no note: nothing was left out.
    let out = run_clean(&["--model", text(&model), "--info"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let info = String::from_utf8_lossy(&out.stdout);
    let line = "influences: at most 5 on one vertex; 1 vertex has more than 4, and every influence blends";
    assert_eq!(info.lines().filter(|l| *l == line).count(), 1, "{line:?} once in: {info}");
    assert!(info.contains("ignored or mended: nothing"), "{info}");

    // Where each joint alone puts v3: the root and `still` leave it at its bind position, the
    // three joints on the arm turn it with the arm. The spec weighs them all: 0.15 and 0.85.
    let bind = Vec3::new(2.0, 1.0, 0.0);
    for t in [0.0, 0.5, 0.9] {
        let turned = expected(t)[3];
        let mut want = expected(t);
        want[3] = 0.15 * bind + 0.85 * turned;
        same_positions(&skinned(&loads(&model, t, &[])), &want);
    }
}
