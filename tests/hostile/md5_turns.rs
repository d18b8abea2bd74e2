//! An MD5 export plays back what the model plays. A reader turns the shorter way from one frame's
//! orientation to the next, and MD5 keeps only one sign of each (q and -q are the same turn); so
//! where a joint turns half a turn between two keys, frames on the keys alone play it back the
//! other way round. The export then samples finer (`md5_export.rs`: `finer_where_it_turns`), and
//! the reload puts every vertex where the model does, within 1e-5 of its size, at any time.

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
        for (v, (g, m)) in gltf.iter().zip(&md5).enumerate() {
            assert!(g.distance(*m) <= 1e-5 * size, "at {t} s vertex {v}: glTF {g}, MD5 {m}");
        }
    }
    // The model's own turn at half way: a quarter turn, vertex 2 at (1, 1, 0).
    let half = skinned(&loads(&model, 0.5, &[]));
    assert!(half[2].distance(Vec3::new(1.0, 1.0, 0.0)) < 1e-5, "{}", half[2]);
}
