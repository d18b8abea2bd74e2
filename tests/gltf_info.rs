//! `--info` on the test's own file (`common/fixture.rs`), edited to hold what the program leaves
//! unused, and without its animations: it says what the file has and what it lacks, and counts in
//! good English (`1 joint`, not `1 joints`).

use common::fixture;
use common::{run, scratch};
use serde_json::{Value, json};

/// `--info` on the fixture with `edit` applied to its JSON.
fn info(name: &str, edit: impl FnOnce(&mut Value)) -> String {
    let mut gltf = fixture::build();
    edit(&mut gltf.json);
    let path = scratch(name).join("model.gltf");
    std::fs::write(&path, gltf.embedded()).unwrap();
    let out = run(&["--model", path.to_str().unwrap(), "--info"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Nouns `--info` counts: none may follow a count of 1.
const NOUNS: [&str; 12] = [
    "nodes",
    "bones",
    "slots",
    "vertices",
    "joints",
    "edges",
    "channels",
    "keys",
    "primitives",
    "materials",
    "cameras",
    "matrices",
];

#[test]
fn info_lists_what_the_program_leaves_unused_and_counts_in_the_singular() {
    let text = info("info-unused", |json| {
        // Mesh 0 gets a material, normals and a morph target (its own positions, so still valid);
        // the other meshes have no normals, so none are used.
        let primitive = &mut json["meshes"][0]["primitives"][0];
        let position = primitive["attributes"]["POSITION"].clone();
        primitive["attributes"]["NORMAL"] = position.clone();
        primitive["targets"] = json!([{ "POSITION": position }]);
        primitive["material"] = json!(0);
        // Its base colour is drawn; its normal map is not.
        json["materials"] = json!([{ "name": "skin", "normalTexture": { "index": 0 } }]);
        json["textures"] = json!([{ "source": 0 }]);
        json["images"] = json!([{ "uri": "normal.png" }]);
        json["cameras"] = json!([{ "type": "perspective", "perspective": { "yfov": 0.7, "znear": 0.1 } }]);
        json["extensionsUsed"] = json!(["KHR_lights_punctual"]);
    });
    let unused = text.lines().find(|l| l.contains("unused here")).unwrap_or_else(|| panic!("{text}"));
    for expected in
        ["1 material with maps other than its base colour", "1 camera", "the extension KHR_lights_punctual"]
    {
        assert!(unused.contains(expected), "{expected:?} missing: {unused}");
    }
    // NORMAL is read, so it is not unused; but one mesh alone has it, so the loader says so.
    assert!(!unused.contains("NORMAL"), "{unused}");
    // The morph target is listed; the "hold" animation has 1 channel on 1 node with 1 key; skin 2
    // has 1 joint.
    for expected in [
        "on node ",
        "morph targets (shapes added before the skin",
        "primitive 0 has no NORMAL while others have: lit with flat normals throughout",
        "\"hold\": 0.000 s, 1 channel on 1 node",
        "translation STEP 1 key",
        "skin 2: 1 joint (slot 5)",
        "materials: 1, no texture, drawn on the lit surface",
    ] {
        assert!(text.contains(expected), "{expected:?} missing:\n{text}");
    }
    for noun in NOUNS {
        assert!(!text.contains(&format!(" 1 {noun}")), "\"1 {noun}\" in:\n{text}");
    }
}

#[test]
fn info_says_a_file_without_animations_shows_its_rest_pose() {
    let text = info("info-rest", |json| _ = json.as_object_mut().unwrap().remove("animations"));
    assert!(text.contains("animations: none in the file; the program shows the nodes' rest pose"), "{text}");
    assert!(!text.contains("0 \"rest\""), "the rest pose is listed as if the file had it:\n{text}");
    // The plain fixture uses everything the program draws: nothing is unused.
    let plain = info("info-plain", |_| {});
    assert!(!plain.contains("unused here"), "{plain}");
}

#[test]
fn info_with_an_animation_is_refused_whatever_the_name() {
    let Some(fox) = common::sample_model("Fox.glb") else { return };
    let fox = fox.to_str().unwrap();
    // --info lists every clip, so --animation has nothing to choose there: a clip the Fox lacks (it
    // has three) and one it has get the same one line and exit 2, never a silent exit 0.
    for name in ["7", "Run"] {
        let out = run(&["--model", fox, "--info", "--animation", name]);
        assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
        let line = String::from_utf8_lossy(&out.stderr);
        assert!(line.contains("--animation") && line.lines().count() == 1 && out.stdout.is_empty(), "{line}");
    }
}

#[test]
fn a_skin_whose_joint_is_in_no_tree_of_the_scene_is_noted_once() {
    // Node 5, tail, skin 1's first joint, left out of the scene: the validator's
    // NODE_SKIN_NO_SCENE. The loader poses it from its own parents and says so (three.js r187 does
    // not pose such a joint at all: `gltf_import/skins.rs`: `outside_scene`).
    let text = info("info-skin-no-scene", |json| json["scenes"] = json!([{ "nodes": [0, 6, 7] }]));
    let notes: Vec<&str> = text.lines().filter(|l| l.contains("NODE_SKIN_NO_SCENE")).collect();
    assert_eq!(notes.len(), 1, "{text}");
    assert!(
        notes[0].contains("joint node #5") && notes[0].contains("posed from its own parent nodes"),
        "{}",
        notes[0]
    );
    assert!(!info("info-skin-in-scene", |_| {}).contains("NODE_SKIN_NO_SCENE"));
}
