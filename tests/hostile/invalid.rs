//! Files the Khronos glTF-Validator calls invalid are not read in silence. Where the file still
//! reads one way, it loads, moves as the spec would have it, and one note names the broken rule
//! and what the program did; where it reads two ways, it is refused in one line. Damaged morph
//! data leaves the targets it concerns out, said in one note.

use super::arm::{arm, expected, loads, moves_as_the_spec_says, refused, same_positions, skinned, write};
use common::gltf_build::Gltf;
use glam::{Mat4, Quat, Vec3};
use serde_json::json;

/// `g` written as a `.gltf` for `test`.
fn gltf(test: &str, g: &Gltf) -> std::path::PathBuf {
    write(test, &format!("{test}.gltf"), &g.embedded())
}

#[test]
fn a_scene_that_lists_a_child_keeps_it_under_its_parent() {
    let mut g = arm();
    g.json["scenes"][0]["nodes"] = json!([0, 2, 1]);
    moves_as_the_spec_says(&gltf("scene-child", &g), &["lists node #1 \"arm\" among its roots"]);
}

#[test]
fn a_glb_whose_json_chunk_is_not_padded_finds_its_bin_chunk() {
    let g = arm();
    let mut json = g.json.clone();
    json["buffers"] = json!([{ "byteLength": g.bin.len() }]);
    let mut text = serde_json::to_vec(&json).unwrap();
    while text.len() % 4 != 1 {
        text.push(b' ');
    }
    // The BIN chunk right after the 4k + 1 bytes of JSON, or where padding would have put it.
    for gap in [0, 3] {
        let total = 12 + 8 + text.len() + gap + 8 + g.bin.len();
        let mut glb = b"glTF".to_vec();
        for word in [2, total as u32, text.len() as u32] {
            glb.extend(word.to_le_bytes());
        }
        glb.extend(b"JSON");
        glb.extend(&text);
        glb.extend(std::iter::repeat_n(b' ', gap));
        glb.extend((g.bin.len() as u32).to_le_bytes());
        glb.extend(b"BIN\0");
        glb.extend(&g.bin);
        let model = write(&format!("glb-unpadded-{gap}"), "arm.glb", &glb);
        moves_as_the_spec_says(&model, &["not a multiple of 4 (glTF pads each chunk to 4 bytes)"]);
    }
}

#[test]
fn a_joint_past_the_skin_with_weight_0_is_left_out() {
    let mut g = arm();
    // v0's unused slots name joint 7, which the two-joint skin does not have.
    let joints = g.ints(&[0, 7, 7, 7, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], "VEC4", 5121, false);
    g.json["meshes"][0]["primitives"][0]["attributes"]["JOINTS_0"] = json!(joints);
    moves_as_the_spec_says(
        &gltf("joint-past-skin", &g),
        &["1 vertex names a joint past the end of its skin"],
    );
}

#[test]
fn key_times_before_0_lead_into_the_first_key_after_0() {
    // Keys at -1 s (-90 degrees) and 1 s (90 degrees): at t the arm is at 90 t degrees, as before.
    let mut g = arm();
    let times = g.floats(&[-1.0, 1.0], "SCALAR");
    let turns = [-90f32, 90.0].map(|a| Quat::from_rotation_z(a.to_radians()).to_array());
    let turns = g.floats(turns.as_flattened(), "VEC4");
    g.json["animations"][0]["samplers"][0] = json!({ "input": times, "output": turns });
    moves_as_the_spec_says(&gltf("negative-times", &g), &["has key times before 0 s"]);
}

#[test]
fn a_matrix_and_trs_that_agree_use_the_matrix_and_that_disagree_are_refused() {
    let mut g = arm();
    g.json["nodes"][0]["matrix"] = json!(Mat4::IDENTITY.to_cols_array());
    g.json["nodes"][0]["translation"] = json!([0.0, 0.0, 0.0]);
    moves_as_the_spec_says(&gltf("matrix-and-trs", &g), &["node #0 \"root\" has both a matrix and"]);
    g.json["nodes"][0]["translation"] = json!([0.0, 5.0, 0.0]);
    refused(&gltf("matrix-against-trs", &g), "node #0 \"root\": it has both a matrix and translation");
}

#[test]
fn an_animated_node_with_a_matrix_is_split_into_trs() {
    let mut g = arm();
    g.json["nodes"][1].as_object_mut().expect("a node").remove("translation");
    g.json["nodes"][1]["matrix"] = json!(Mat4::from_translation(Vec3::X).to_cols_array());
    moves_as_the_spec_says(&gltf("animated-matrix", &g), &["node #1 \"arm\" is animated but has a matrix"]);
}

#[test]
fn a_skeleton_root_that_is_not_above_the_joints_is_not_needed() {
    let mut g = arm();
    g.json["skins"][0]["skeleton"] = json!(2);
    let note = "skin #0 names node #2 \"body\" as its skeleton root, but that node is not above";
    moves_as_the_spec_says(&gltf("skeleton-root", &g), &[note]);
}

#[test]
fn two_channels_on_one_property_are_one_if_they_agree_and_refused_if_not() {
    let mut g = arm();
    let channel = g.json["animations"][0]["channels"][0].clone();
    g.json["animations"][0]["channels"].as_array_mut().expect("channels").push(channel);
    moves_as_the_spec_says(
        &gltf("same-channel", &g),
        &["moves the rotation of node #1 \"arm\" with channels 0 and 1"],
    );
    // The second channel with keys of its own: which one plays is a guess.
    let back = [Quat::IDENTITY, Quat::from_rotation_z(-1.0)].map(|q| q.to_array());
    let back = g.floats(back.as_flattened(), "VEC4");
    let input = g.json["animations"][0]["samplers"][0]["input"].clone();
    g.json["animations"][0]["samplers"]
        .as_array_mut()
        .expect("samplers")
        .push(json!({ "input": input, "output": back }));
    g.json["animations"][0]["channels"][1]["sampler"] = json!(1);
    refused(
        &gltf("other-channel", &g),
        "channel 1: it moves the rotation of node #1 \"arm\", as channel 0 does",
    );
}

#[test]
fn broken_morph_data_is_left_out_and_said_once() {
    // A target that would lift v3 by 2 along z, and the mesh's weights, two for one target
    // (MESH_INVALID_WEIGHTS_COUNT): which weight is the target's? The targets are left out, and
    // the arm moves as without them.
    let mut g = arm();
    let lift = g.floats(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0], "VEC3");
    g.json["meshes"][0]["primitives"][0]["targets"] = json!([{ "POSITION": lift }]);
    g.json["meshes"][0]["weights"] = json!([0.5, 0.5]);
    let note = "left out the morph targets of mesh #0 \"strip\": its weights are 2 numbers for 1 target; \
                drawn in its modelled shape";
    moves_as_the_spec_says(&gltf("morph-weights", &g), &[note]);
    // A channel that animates those weights with too few values (ANIMATION_SAMPLER_OUTPUT_ACCESSOR
    // _INVALID_COUNT): two keys of one target need two values, it has one. The channel is left
    // out; the mesh's weight, 0.5, lifts v3 by 1 along z (the arm turns about z: it stays lifted).
    g.json["meshes"][0]["weights"] = json!([0.5]);
    let times = g.json["animations"][0]["samplers"][0]["input"].clone();
    let one = g.floats(&[1.0], "SCALAR");
    let animation = &mut g.json["animations"][0];
    animation["samplers"].as_array_mut().expect("samplers").push(json!({ "input": times, "output": one }));
    let channel = json!({ "sampler": 1, "target": { "node": 2, "path": "weights" } });
    animation["channels"].as_array_mut().expect("channels").push(channel);
    let note = "left out channel 1 of animation \"bend\", which moves morph weights: it has 1 value for 2 \
                keys of 1 target (LINEAR: 1 per target and key)";
    let model = gltf("morph-channel", &g);
    for t in [0.0, 0.25, 0.7] {
        let mut want = expected(t);
        want[3] += Vec3::new(0.0, 0.0, 1.0);
        same_positions(&skinned(&loads(&model, t, &[note])), &want);
    }
}
