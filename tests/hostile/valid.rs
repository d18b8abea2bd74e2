//! Valid files are read, and move as the spec says: `extras` of any JSON value, a primitive
//! without JOINTS_0 / WEIGHTS_0 on a node with a skin (drawn rigidly with its node, said once),
//! several scenes (only the shown one's bones are drawn). A name two animations share is refused
//! for `--animation NAME`, with their indices, since either could be meant.

use super::arm::{
    arm, expected, loads, moves_as_the_spec_says, run_clean, same_positions, skinned, text, write,
};
use super::support::{Folder, fails_cleanly};
use glam::{Mat4, Quat, Vec3};
use serde_json::{Value, json};

#[test]
fn extras_of_any_json_value_are_read_past() {
    // The spec: extras is "application-specific data", any JSON value; the validator passes all.
    for (case, extras) in [
        ("null", json!(null)),
        ("array", json!([1, "two", { "three": 3 }])),
        ("string", json!("made by hand")),
        ("number", json!(3.5)),
        ("boolean", json!(true)),
        ("object", json!({ "author": "test" })),
    ] {
        let mut g = arm();
        g.json["extras"] = extras.clone();
        g.json["asset"]["extras"] = extras.clone();
        for list in ["nodes", "meshes", "skins", "scenes", "animations", "accessors", "bufferViews"] {
            for object in g.json[list].as_array_mut().expect(list) {
                object["extras"] = extras.clone();
            }
        }
        g.json["meshes"][0]["primitives"][0]["extras"] = extras.clone();
        g.json["animations"][0]["channels"][0]["target"]["extras"] = extras;
        moves_as_the_spec_says(&write(&format!("extras-{case}"), "extras.gltf", &g.embedded()), &[]);
    }
}

#[test]
fn a_primitive_without_weights_on_a_skinned_node_moves_rigidly_with_that_node() {
    // The body hangs under the arm, one unit along z, with a second primitive of three vertices
    // and no JOINTS_0 or WEIGHTS_0. The skinned strip ignores the body's transform (the joints
    // place it); the plain triangle is placed by it, arm and all, as three.js draws it.
    let mut g = arm();
    let plain = [[0.0f32, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]];
    let positions = g.floats(plain.as_flattened(), "VEC3");
    let primitives = g.json["meshes"][0]["primitives"].as_array_mut().expect("primitives");
    primitives.push(json!({ "attributes": { "POSITION": positions } }));
    g.json["nodes"][1]["children"] = json!([2]);
    g.json["nodes"][2]["translation"] = json!([0.0, 0.0, 1.0]);
    g.json["scenes"][0]["nodes"] = json!([0]);
    let model = write("unskinned-primitive", "mixed.gltf", &g.embedded());
    for t in [0.0f32, 0.4, 0.9] {
        let arm_world =
            Mat4::from_translation(Vec3::X) * Mat4::from_quat(Quat::from_rotation_z((90.0 * t).to_radians()));
        let body_world = arm_world * Mat4::from_translation(Vec3::Z);
        let mut want = expected(t);
        want.extend(plain.map(|p| body_world.transform_point3(Vec3::from(p))));
        let dump = loads(&model, t, &["drew 1 primitive without JOINTS_0 and WEIGHTS_0"]);
        same_positions(&skinned(&dump), &want);
    }
}

#[test]
fn only_the_shown_scenes_bones_are_drawn() {
    // A second scene with a second arm, far away, skinned by a skin of its own.
    let mut g = arm();
    let nodes = g.json["nodes"].as_array_mut().expect("nodes");
    nodes.push(json!({ "name": "other root", "translation": [0.0, 50.0, 0.0], "children": [4] }));
    nodes.push(json!({ "name": "other arm", "translation": [1.0, 0.0, 0.0] }));
    nodes.push(json!({ "name": "other body", "mesh": 0, "skin": 1 }));
    let skin = json!({ "joints": [3, 4], "inverseBindMatrices": g.json["skins"][0]["inverseBindMatrices"] });
    g.json["skins"].as_array_mut().expect("skins").push(skin);
    g.json["scenes"].as_array_mut().expect("scenes").push(json!({ "name": "other", "nodes": [3, 5] }));
    let model = write("two-scenes", "scenes.gltf", &g.embedded());
    let dump = loads(&model, 0.7, &[]);
    same_positions(&skinned(&dump), &expected(0.7));
    // The picture draws a joint for every joint slot: the shown arm's two, not the other's.
    let bones: Vec<u64> =
        dump["joints"].as_array().expect("joints").iter().map(|j| j["bone"].as_u64().unwrap()).collect();
    assert_eq!(bones, [0, 1]);
    let out = run_clean(&["--model", text(&model), "--info"]);
    let info = String::from_utf8_lossy(&out.stdout);
    assert!(info.contains("1 other scene") && info.contains("1 skin not used in the shown scene"), "{info}");
}

#[test]
fn a_name_two_animations_share_is_refused_with_their_indices() {
    // Two animations named "bend": the arm turning one way, then the other way.
    let mut g = arm();
    let back = [Quat::IDENTITY, Quat::from_rotation_z(-90f32.to_radians())].map(|q| q.to_array());
    let back = g.floats(back.as_flattened(), "VEC4");
    let mut second: Value = g.json["animations"][0].clone();
    second["samplers"][0]["output"] = json!(back);
    g.json["animations"].as_array_mut().expect("animations").push(second);
    let model = write("same-name", "twice.gltf", &g.embedded());
    let folder = model.parent().expect("a folder");
    let before = Folder::of(folder);
    let dump = folder.join("dump.json");
    let out = run_clean(&["--model", text(&model), "--animation", "bend", "--dump", text(&dump)]);
    let line = fails_cleanly(&out, 2);
    assert!(line.contains("2 animations are named \"bend\": 0 and 1; give the index"), "{line}");
    before.unchanged(folder);
    // By index, each plays its own.
    for (index, turn) in [("0", 0.5), ("1", -0.5)] {
        let out = run_clean(&[
            "--model",
            text(&model),
            "--animation",
            index,
            "--dump",
            text(&dump),
            "--time",
            "0.5",
        ]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let dump: Value = serde_json::from_slice(&std::fs::read(&dump).unwrap()).unwrap();
        same_positions(&skinned(&dump), &expected(turn));
    }
}
