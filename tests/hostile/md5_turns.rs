//! An MD5 export plays back what the model plays. A reader turns the shorter way from one frame's
//! orientation to the next, and MD5 keeps only one sign of each (q and -q are the same turn); so
//! where a joint turns half a turn between two keys, frames on the keys alone play it back the
//! other way round. The export then samples finer (`md5_export.rs`: `finer_where_it_turns`), and
//! the reload puts every vertex where the model does, within 1e-5 of its size, at every time
//! tried (six through a turn, four through a stretch).

use super::arm::{arm, loads, skinned, text, write};
use glam::Vec3;
use serde_json::json;

#[test]
fn half_a_turn_between_two_keys_plays_back_the_same_way() {
    let mut g = arm();
    // The arm turns 0 to 180 degrees about z in one key step, over one second.
    let turns = g.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0], "VEC4");
    g.json["animations"][0]["samplers"][0]["output"] = json!(turns);
    let model = write("md5-half-turn", "arm.gltf", &g.embedded());
    let mesh = model.with_file_name("md5").join("arm.md5mesh");
    let out = super::arm::run_clean(&["--model", text(&model), "--export-md5", text(&mesh)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The arm is 2.24 long: 1e-5 of it.
    let size = Vec3::new(2.0, 1.0, 0.0).length();
    for t in [0.1, 0.25, 0.5, 0.625, 0.75, 0.9] {
        let gltf = skinned(&loads(&model, t, &[]));
        // MD5 is in id's axes: glTF's (x, y, z) is id's (z, x, y).
        let md5: Vec<Vec3> =
            skinned(&loads(&mesh, t, &[])).iter().map(|p| Vec3::new(p.y, p.z, p.x)).collect();
        assert_eq!((gltf.len(), md5.len()), (4, 4), "the arm's 4 vertices, both ways");
        for (v, (g, m)) in gltf.iter().zip(&md5).enumerate() {
            assert!(g.distance(*m) <= 1e-5 * size, "at {t} s vertex {v}: glTF {g}, MD5 {m}");
        }
    }
    // The model's own turn at half way: a quarter turn, vertex 2 at (1, 1, 0).
    let half = skinned(&loads(&model, 0.5, &[]));
    assert!(half[2].distance(Vec3::new(1.0, 1.0, 0.0)) < 1e-5, "{}", half[2]);
}

#[test]
fn a_rigid_mesh_stretched_along_one_axis_is_written_as_it_is_shown() {
    let mut g = arm();
    // A triangle on a node of its own, without a skin (a rigid mesh), hanging from the arm: turned
    // a sixth of a turn about z and stretched 2 along x, 0.5 along z. MD5 stores no scale: the
    // stretch goes into its vertices, and the reload moves them as the model does.
    let corners = g.floats(&[0.0, 0.0, 0.0, 0.5, 0.0, 0.2, 0.0, 0.5, -0.2], "VEC3");
    g.push("meshes", json!({ "name": "lid", "primitives": [{ "attributes": { "POSITION": corners } }] }));
    let lid = g.push(
        "nodes",
        json!({
            "name": "lid", "mesh": 1, "translation": [0.5, 0.2, 0.0],
            "rotation": glam::Quat::from_rotation_z(60f32.to_radians()).to_array(),
            "scale": [2.0, 1.0, 0.5]
        }),
    );
    g.json["nodes"][1]["children"] = json!([lid]);
    let model = write("md5-stretched", "arm.gltf", &g.embedded());
    let mesh = model.with_file_name("md5").join("arm.md5mesh");
    let out = super::arm::run_clean(&["--model", text(&model), "--export-md5", text(&mesh)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let size = Vec3::new(2.0, 1.0, 0.0).length();
    for t in [0.0, 0.3, 0.7, 1.0] {
        let gltf = skinned(&loads(&model, t, &[]));
        let md5: Vec<Vec3> =
            skinned(&loads(&mesh, t, &[])).iter().map(|p| Vec3::new(p.y, p.z, p.x)).collect();
        assert_eq!((gltf.len(), md5.len()), (7, 7), "the arm's 4 vertices and the lid's 3");
        for (v, (g, m)) in gltf.iter().zip(&md5).enumerate() {
            assert!(g.distance(*m) <= 1e-5 * size, "at {t} s vertex {v}: glTF {g}, MD5 {m}");
        }
    }
    // At rest the lid's second corner is (0.5, 0, 0.2) stretched to (1, 0, 0.1), turned 60°
    // about z and moved to the arm's (1, 0, 0) plus (0.5, 0.2, 0).
    let rest = skinned(&loads(&mesh, 0.0, &[]));
    let corner =
        Vec3::new(1.5, 0.2, 0.0) + glam::Quat::from_rotation_z(60f32.to_radians()) * Vec3::new(1.0, 0.0, 0.1);
    let written = Vec3::new(rest[5].y, rest[5].z, rest[5].x);
    assert!(written.distance(corner) < 1e-5, "{written}, not {corner}");
}
