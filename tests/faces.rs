//! A mesh's faces: glTF's triangles, strips and fans become the model's triangles, each turned
//! counter-clockwise seen from the front, as the spec orders them; an outline has none.

use common::gltf_build::Gltf;
use glam::Vec3;
use serde_json::json;
use skinning_formats::gltf_import::load_from_slice;

/// One joint, and one primitive of `mode` over `positions` in the z = 0 plane, every vertex on the joint.
fn file(mode: u32, positions: &[[f32; 3]]) -> Vec<u8> {
    let mut g = Gltf::new();
    let flat: Vec<f32> = positions.iter().flatten().copied().collect();
    let n = positions.len();
    let position = g.floats(&flat, "VEC3");
    let joints = g.ints(&vec![0; 4 * n], "VEC4", 5121, false);
    let weights = g.floats(&[1.0, 0.0, 0.0, 0.0].repeat(n), "VEC4");
    let attributes = json!({ "POSITION": position, "JOINTS_0": joints, "WEIGHTS_0": weights });
    g.push("meshes", json!({ "primitives": [{ "attributes": attributes, "mode": mode }] }));
    g.push("nodes", json!({ "name": "joint" }));
    g.push("nodes", json!({ "mesh": 0, "skin": 0 }));
    g.push("skins", json!({ "joints": [0] }));
    g.push("scenes", json!({ "nodes": [0, 1] }));
    g.json["scene"] = json!(0);
    g.embedded()
}

/// Whether a triangle faces +z: its corners go round counter-clockwise seen from z > 0.
fn faces_front(corners: [Vec3; 3]) -> bool {
    (corners[1] - corners[0]).cross(corners[2] - corners[0]).z > 0.0
}

#[test]
fn strips_and_fans_become_triangles_all_facing_the_same_way() {
    // A strip of five vertices zig-zagging up a column, and a fan around the origin: every face is
    // counter-clockwise seen from +z once the spec's order is followed (a strip's second triangle,
    // taken in file order 1, 2, 3, goes clockwise).
    let strip = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 2.0, 0.0]];
    let fan = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [-1.0, 1.0, 0.0]];
    let list = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    // glTF's modes: 4 triangles, 5 strip, 6 fan. A strip of 5 has 3 faces, a fan of 5 has 3.
    for (mode, positions, faces) in [(4, &list[..], 1), (5, &strip[..], 3), (6, &fan[..], 3)] {
        let model = load_from_slice(&file(mode, positions), None).expect("loads").model;
        assert_eq!(model.triangles.len(), faces, "mode {mode}");
        let bind: Vec<Vec3> = model.skin.bind_positions().collect();
        if mode == 5 {
            assert!(!faces_front([bind[1], bind[2], bind[3]]), "the strip's second triangle, as stored");
        }
        for t in &model.triangles {
            let corners = t.map(|i| bind[i as usize]);
            assert!(faces_front(corners), "mode {mode}, triangle {t:?}");
            // Each face's edges are drawn.
            for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                assert!(model.edges.contains(&[a.min(b), a.max(b)]), "mode {mode}: edge {a}-{b}");
            }
        }
    }
}

#[test]
fn an_outline_has_no_faces_and_a_face_past_the_mesh_is_refused() {
    let article = skinning_method::scene::article().expect("the scene");
    assert!(article.triangles.is_empty(), "the article's mesh is a line loop");
    let n = article.skin.len() as u32;
    let err = article.with_triangles(vec![[0, 1, n]]).expect_err("vertex 13 does not exist");
    assert_eq!(err.to_string(), "triangle 0 has a corner at vertex 13, which the mesh does not have");
    // Lines make no faces.
    let model = load_from_slice(&file(1, &[[0.0; 3], [1.0, 0.0, 0.0]]), None).expect("loads").model;
    assert!(model.triangles.is_empty() && model.edges.len() == 1);
}
