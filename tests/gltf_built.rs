//! A glTF file the test writes itself (`common/fixture.rs`): rotations and scale in the bind pose, a
//! non-joint ancestor, several scene roots, a node placed by a matrix, STEP, LINEAR and CUBICSPLINE
//! channels, three skins of which two share joints with different inverse bind matrices, a rigid
//! mesh, normalized weights and weights that sum to 0.9. Loaded from all three ways of storing a
//! buffer, it must move exactly as the glTF specification says, worked out in the fixture.

use common::fixture;
use common::spec;
use common::{run, scratch};
use glam::Vec3;
use serde_json::Value;
use skinning_formats::gltf_import::{SYNTHETIC_ROOT, load, load_from_slice};
use skinning_method::frame::Pose;

const TIMES: [f32; 8] = [0.0, 0.25, 0.5, 0.8, 1.0, 1.3, 1.6, 1.99];

#[test]
fn the_built_file_moves_as_the_spec_says() {
    let imported = load_from_slice(&fixture::build().embedded(), None).expect("the fixture loads");
    let model = &imported.model;
    assert_eq!(imported.clips.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["moves", "hold"]);
    assert_eq!((imported.clips[0].duration, imported.clips[1].duration), (2.0, 0.0));
    // Skin slots: skin 0's two joints, skin 1's three, skin 2's one, then one for the rigid prop.
    let slots: Vec<_> = imported.skins.iter().map(|s| s.joints.clone()).collect();
    assert_eq!(slots, [0..2, 2..5, 5..6]);
    let bones: Vec<usize> = model.skin.joints().iter().map(|j| j.bone).collect();
    assert_eq!(bones, [1, 2, 5, 1, 2, 2, 3]);
    assert_eq!((model.skin.len(), model.skinned_len()), (15, 12));

    let clip = &imported.clips[0];
    let mut pose = Pose::new(model);
    let mut moved = 0.0f32;
    for t in TIMES {
        let (skinned, rigid) = spec::expected(t);
        pose.update(model, clip, t as f64);
        let got: Vec<Vec3> = pose.skinned.iter().map(|&p| p.into()).collect();
        for (v, (got, want)) in got.iter().zip(skinned.iter().chain(&rigid)).enumerate() {
            assert!(got.abs_diff_eq(*want, 1e-5), "t {t} vertex {v}: {got} != {want}");
        }
        moved = moved.max(got[0].distance(spec::expected(0.0).0[0]));
    }
    assert!(moved > 0.1, "the animation should move the mesh ({moved})");
}

#[test]
fn the_tree_links_children_as_first_child_and_siblings_under_one_synthetic_root() {
    let imported = load_from_slice(&fixture::build().glb(), None).expect("the fixture loads as .glb");
    let skeleton = &imported.model.skeleton;
    assert_eq!(skeleton.len(), 9, "8 nodes and the synthetic root");
    let root = skeleton.root();
    assert_eq!((root, skeleton.bone(root).name.as_str()), (8, SYNTHETIC_ROOT));
    // The scene's roots 0, 5, 6, 7 as the synthetic root's first child and its siblings.
    assert_eq!(skeleton.bone(root).first_child, Some(0));
    assert_eq!([0, 5, 6].map(|b| skeleton.bone(b).sibling), [Some(5), Some(6), Some(7)]);
    // Node 0's children [1, 4]: 1 first, 4 its sibling.
    assert_eq!((skeleton.bone(0).first_child, skeleton.bone(1).sibling), (Some(1), Some(4)));
    assert_eq!(skeleton.bone(3).parent, Some(2));
    let names: Vec<&str> = skeleton.bones().iter().map(|b| b.name.as_str()).collect();
    assert_eq!(&names[..4], ["armature", "hip", "knee", "prop"]);
}

#[test]
fn what_was_mended_is_said_once() {
    let imported = load_from_slice(&fixture::build().embedded(), None).expect("loads");
    let notes = imported.notes.join("\n");
    assert!(notes.contains("renormalised the weights of 2 vertices") && notes.contains("0.9"), "{notes}");
    // Node 5 is placed by a matrix and animated, which glTF forbids; it reads one way, so a note.
    assert!(notes.contains("node #5 \"tail\" is animated but has a matrix"), "{notes}");
    assert_eq!(imported.notes.len(), 2, "{notes}");
}

#[test]
fn embedded_glb_and_external_buffers_load_the_same_and_dump_in_file_order() {
    let dir = scratch("built-forms");
    let gltf = fixture::build();
    let embedded = dir.join("embedded.gltf");
    std::fs::write(&embedded, gltf.embedded()).unwrap();
    let glb = dir.join("binary.glb");
    std::fs::write(&glb, gltf.glb()).unwrap();
    // A buffer file whose name needs %-escaping in the uri.
    let external = gltf.external(&dir, "external.gltf", "the buffer.bin");

    let mut dumps = Vec::new();
    for path in [&embedded, &glb, &external] {
        assert!(load(path).is_ok(), "{} loads", path.display());
        let out = dir.join("dump.json");
        let args = ["--model", path.to_str().unwrap(), "--dump", out.to_str().unwrap()];
        let frames = ["--time", "0.8", "--frames", "3", "--fixed-dt", "0.4"];
        let result = run(&[&args[..], &frames].concat());
        assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
        dumps.push(serde_json::from_str::<Value>(&std::fs::read_to_string(&out).unwrap()).unwrap());
    }
    assert!(dumps[0] == dumps[1] && dumps[1] == dumps[2], "the three forms dump the same");

    // The dump's skinned: nodes 4, 6, 7 in that order, then primitives, then vertices; the rigid
    // prop in its own field; both where the spec puts them.
    let xyz = |p: &Value| {
        Vec3::from_slice(
            &p.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect::<Vec<_>>(),
        )
    };
    for (f, frame) in dumps[0]["frames"].as_array().unwrap().iter().enumerate() {
        let t = 0.8 + 0.4 * f as f32;
        let (skinned, rigid) = spec::expected(t);
        let got: Vec<Vec3> = frame["skinned"].as_array().unwrap().iter().map(xyz).collect();
        let got_rigid: Vec<Vec3> = frame["rigid"].as_array().unwrap().iter().map(xyz).collect();
        assert_eq!((got.len(), got_rigid.len()), (12, 3));
        for (v, (a, b)) in got.iter().zip(&skinned).chain(got_rigid.iter().zip(&rigid)).enumerate() {
            assert!(a.abs_diff_eq(*b, 1e-5), "t {t} vertex {v}: {a} != {b}");
        }
    }
    let meshes: Vec<(&str, bool)> = (dumps[0]["meshes"].as_array().unwrap().iter())
        .map(|m| (m["name"].as_str().unwrap(), m["skinned"].as_bool().unwrap()))
        .collect();
    assert_eq!(meshes, [("mesh1", true), ("mesh0", true), ("mesh3", true), ("mesh2", false)]);
}

#[test]
fn animations_are_picked_by_name_or_index_and_a_wrong_one_lists_them() {
    let dir = scratch("built-animation");
    let path = dir.join("built.glb");
    std::fs::write(&path, fixture::build().glb()).unwrap();
    let out = dir.join("d.json");
    for (wanted, clip) in [("hold", "hold"), ("1", "hold"), ("0", "moves")] {
        let result =
            run(&["--model", path.to_str().unwrap(), "--animation", wanted, "--dump", out.to_str().unwrap()]);
        assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
        let dump: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        assert_eq!(dump["clip"], clip, "--animation {wanted}");
    }
    std::fs::remove_file(&out).unwrap();
    let result =
        run(&["--model", path.to_str().unwrap(), "--animation", "dance", "--dump", out.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(2), "{err}");
    assert!(err.contains("moves, hold") && err.trim_end().lines().count() == 1, "{err}");
    assert!(!out.exists(), "nothing written");
    // Without animations there is one clip to name, the rest pose: no "0 to 0".
    let mut still = fixture::build();
    still.json.as_object_mut().unwrap().remove("animations");
    std::fs::write(&path, still.glb()).unwrap();
    let result =
        run(&["--model", path.to_str().unwrap(), "--animation", "dance", "--dump", out.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&result.stderr);
    assert!(err.contains("the only one is rest (or 0)") && !err.contains("0 to 0"), "{err}");
}

/// The fixture with mesh 0's POSITION accessor made sparse: `with_base` keeps its view and
/// replaces vertex 2 with the same numbers; without it, all four vertices come as sparse values
/// over zeros. Either way the file says the same thing, so it must load the same.
fn sparse_positions(with_base: bool) -> Vec<u8> {
    let mut g = fixture::build();
    let position = g.json["meshes"][0]["primitives"][0]["attributes"]["POSITION"].as_u64().unwrap() as usize;
    let all = [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 2.0, 0.5], [1.0, 2.0, 0.5]];
    let replaced: Vec<usize> = if with_base { vec![2] } else { vec![0, 1, 2, 3] };
    let values: Vec<f32> = replaced.iter().flat_map(|&i| all[i]).collect();
    let values_accessor = g.floats(&values, "VEC3");
    let values_view = g.json["accessors"][values_accessor]["bufferView"].clone();
    let indices: Vec<u32> = replaced.iter().map(|&i| i as u32).collect();
    let indices_accessor = g.ints(&indices, "SCALAR", 5121, false);
    let indices_view = g.json["accessors"][indices_accessor]["bufferView"].clone();
    let accessor = &mut g.json["accessors"][position];
    if !with_base {
        accessor.as_object_mut().unwrap().remove("bufferView");
    }
    accessor["sparse"] = serde_json::json!({
        "count": replaced.len(),
        "indices": { "bufferView": indices_view, "componentType": 5121 },
        "values": { "bufferView": values_view },
    });
    g.embedded()
}

#[test]
fn sparse_accessors_that_spell_out_the_same_numbers_load_the_same() {
    let plain = load_from_slice(&fixture::build().embedded(), None).expect("loads");
    for with_base in [true, false] {
        let sparse = load_from_slice(&sparse_positions(with_base), None).expect("the sparse file loads");
        assert_eq!(plain.model.skin, sparse.model.skin, "with a base view: {with_base}");
    }
    // A sparse index past the end is an error, not a crash.
    let bad = sparse_positions(false);
    let mut json: Value = serde_json::from_slice(&bad).unwrap();
    let position = json["meshes"][0]["primitives"][0]["attributes"]["POSITION"].as_u64().unwrap() as usize;
    json["accessors"][position]["count"] = serde_json::json!(2);
    let err = load_from_slice(&serde_json::to_vec(&json).unwrap(), None).expect_err("refused").to_string();
    assert!(err.contains("sparse"), "{err}");
}
