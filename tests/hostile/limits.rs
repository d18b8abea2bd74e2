//! The two limits a file may reach, kept honest: a vertex with more than four influences keeps the
//! four largest, said once, in the notes and in `--info`, with how much is left out, and the test
//! works out how far from the spec's position that puts a vertex; morph targets, once left out,
//! now put every vertex where the spec does, and `--info` lists them.

use super::arm::{arm, expected, loads, run_clean, same_positions, skinned, text, write};
use glam::{Mat4, Quat, Vec3};
use serde_json::json;

/// `--info` says `note` exactly once.
fn info_says_once(model: &std::path::Path, note: &str) {
    let out = run_clean(&["--model", text(model), "--info"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let info = String::from_utf8_lossy(&out.stdout);
    assert_eq!(info.matches(note).count(), 1, "{note:?} once in: {info}");
}

#[test]
fn five_influences_keep_the_four_largest_and_say_how_much_was_left_out() {
    // The arm with three more joints: `still` on the root at (0, 1, 0), which does not move, and
    // `hand` and `tip` on the arm, which turn with it. v3 (2, 1, 0) is on all five: 0.05 root,
    // 0.35 arm, 0.1 still, 0.3 hand, 0.2 tip. The four largest leave out the root's 0.05.
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
    let note = "1 vertex had more than 4 influences (JOINTS_1...); kept the 4 largest of each, which \
                left out at most 5.0% of a vertex's weight";
    info_says_once(&model, note);

    // Where each joint alone puts v3: the root and `still` leave it at its bind position, the
    // three joints on the arm turn it with the arm.
    let bind = Vec3::new(2.0, 1.0, 0.0);
    for t in [0.0, 0.5, 0.9] {
        let turned = expected(t)[3];
        let spec = 0.15 * bind + 0.85 * turned;
        let kept = (0.1 * bind + 0.85 * turned) / 0.95;
        let mut want = expected(t);
        want[3] = kept;
        same_positions(&skinned(&loads(&model, t, &[note])), &want);
        // How far that is from the spec: 0.045 of the way from where the arm puts v3 back to its
        // bind position; at 0.9 s, 0.082 of the arm's 2.24 (its box's diagonal), 3.7%.
        let off = kept.distance(spec);
        let expected_off = (0.15 - 0.1 / 0.95) * bind.distance(turned);
        assert!((off - expected_off).abs() < 1e-5, "t {t}: {off} off the spec, {expected_off} expected");
        if t == 0.9 {
            println!("five influences, at 0.9 s: v3 is {off:.4} from the spec's position");
        }
    }
}

#[test]
fn morph_targets_put_a_vertex_where_the_spec_does() {
    // One target moving v3 by 0.5 along y, on at 0.8 by the mesh's default weights: the spec puts
    // v3's shape 0.4 above its bind position, then turns that shape with the arm. Nothing is said.
    let mut g = arm();
    let lift = g.floats(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0], "VEC3");
    g.json["meshes"][0]["primitives"][0]["targets"] = json!([{ "POSITION": lift }]);
    g.json["meshes"][0]["weights"] = json!([0.8]);
    let model = write("morph-spec", "morph.gltf", &g.embedded());
    // --info lists the target: fully on, it moves v3 by 0.5, 22.4% of the arm's 2.236.
    info_says_once(&model, "  \"strip\" on node body, 4 vertices: target 0 0.500 (22.4%)");
    for t in [0.0, 0.5, 0.9] {
        let turn = Quat::from_rotation_z((90.0f32 * t).to_radians());
        let mut want = expected(t);
        want[3] += turn * Vec3::new(0.0, 0.4, 0.0);
        let got = skinned(&loads(&model, t, &[]));
        same_positions(&got, &want);
        // Skinned first and lifted after, v3 would be 0.4 * |turn * y - y| away: 0.56 at 90 degrees.
        let wrong = expected(t)[3] + Vec3::new(0.0, 0.4, 0.0);
        let off = 0.4 * (turn * Vec3::Y - Vec3::Y).length();
        assert!((wrong.distance(want[3]) - off).abs() < 1e-5, "t {t}");
    }
}
