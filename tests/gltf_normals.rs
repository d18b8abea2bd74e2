//! A file's `NORMAL`s, loaded (`crates/formats/src/gltf_import/normals.rs`): a skinned mesh's as they are, a rigid
//! mesh's turned by its node's rest transform as its positions are moved by it; and a file whose
//! normals cannot all be used is lit with flat normals, with a note, or refused when they do not
//! fit its vertices.

use common::fixture::{self, PARENT};
use common::gltf_build::Gltf;
use glam::{DMat3, DMat4, Vec3};
use serde_json::json;
use skinning_formats::gltf_import::load_from_slice;

#[test]
fn a_skinned_mesh_keeps_its_normals_and_a_rigid_one_turns_them_with_its_node() {
    let imported = load_from_slice(&fixture::build_with_normals().embedded(), None).expect("it loads");
    let model = &imported.model;
    let written = fixture::normals();
    // The rigid prop hangs on node 3, under knee, hip and armature: its rest world transform, from
    // the fixture's own numbers, each node placed in its parent's space.
    let local = |n: usize| {
        let (t, r, s) = fixture::rest()[n];
        DMat4::from_scale_rotation_translation(s.as_dvec3(), r.as_dquat(), t.as_dvec3())
    };
    let mut world = local(3);
    let mut node = 3;
    while let Some(parent) = PARENT[node] {
        world = local(parent) * world;
        node = parent;
    }
    let turn = DMat3::from_mat4(world).inverse().transpose();
    let mut checked = 0;
    for part in &model.parts {
        let mesh: usize = part.name.trim_start_matches("mesh").parse().expect("meshN");
        let file_normals: Vec<Vec3> = written[mesh].concat();
        for (&n, loaded) in file_normals.iter().zip(&model.skin.normals()[part.vertices.clone()]) {
            let expected = match part.skinned {
                true => n,
                false => (turn * n.as_dvec3()).normalize().as_vec3(),
            };
            let loaded = Vec3::from(*loaded);
            assert!(loaded.abs_diff_eq(expected, 1e-6), "{}: {loaded} != {expected}", part.name);
            checked += 1;
        }
    }
    assert_eq!(checked, model.skin.len());
    // The hip's 1 x 1.5 x 1 made the prop's normals lean: turned as points would be, they would not.
    let prop = model.parts.iter().find(|p| !p.skinned).expect("the prop");
    let n = written[2][0][0].as_dvec3();
    let as_a_point = (DMat3::from_mat4(world) * n).normalize();
    let loaded = Vec3::from(model.skin.normals()[prop.vertices.start]).as_dvec3();
    assert!(loaded.angle_between(as_a_point).to_degrees() > 1.0);
}

/// One joint and one triangle on it, with `normals` as its NORMAL.
fn triangle(normals: &[[f32; 3]]) -> Vec<u8> {
    let mut g = Gltf::new();
    let position = g.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    let normal = g.floats(&normals.concat(), "VEC3");
    let joints = g.ints(&[0; 12], "VEC4", 5121, false);
    let weights = g.floats(&[1.0, 0.0, 0.0, 0.0].repeat(3), "VEC4");
    let attributes =
        json!({ "POSITION": position, "NORMAL": normal, "JOINTS_0": joints, "WEIGHTS_0": weights });
    g.push("meshes", json!({ "name": "tri", "primitives": [{ "attributes": attributes }] }));
    g.push("nodes", json!({ "name": "joint" }));
    g.push("nodes", json!({ "mesh": 0, "skin": 0 }));
    g.push("skins", json!({ "joints": [0] }));
    g.push("scenes", json!({ "nodes": [0, 1] }));
    g.json["scene"] = json!(0);
    g.embedded()
}

#[test]
fn normals_a_little_off_are_mended_a_zero_one_means_flat_normals_and_too_few_is_an_error() {
    let mended = load_from_slice(&triangle(&[[0.0, 0.0, 2.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.99]]), None)
        .expect("it loads");
    for n in mended.model.skin.normals() {
        assert!(Vec3::from(*n).abs_diff_eq(Vec3::Z, 1e-6), "{n}");
    }
    assert!(mended.notes.is_empty(), "{:?}", mended.notes);

    let zero = load_from_slice(&triangle(&[[0.0, 0.0, 1.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]]), None)
        .expect("it loads, with flat normals");
    assert!(zero.model.skin.normals().is_empty());
    assert_eq!(
        zero.notes,
        ["vertex 1's normal (0, 0, 0) is not a direction: lit with flat normals throughout"]
    );

    let Err(e) = load_from_slice(&triangle(&[[0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]), None) else {
        panic!("two normals for three vertices should be refused");
    };
    let message = e.to_string();
    assert!(message.contains("NORMAL has 2 entries for 3 vertices"), "{message}");
}
