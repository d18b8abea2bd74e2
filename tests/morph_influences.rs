//! A morph target on vertices of eight influences: the two weighted sums of chapter 13 at once.
//! The shape comes first (`bind + w Δ`), and then every one of the eight influences moves the
//! shaped vertex; the second pass that finishes a vertex past its four slots (`blend.rs`:
//! `finish_extras`, position and normal, by either method) must read the shaped bind position too,
//! as the four-slot loop does. On the CPU and the GPU (where the shader reads the morph attribute at
//! location 8 beside the second set of joints and weights at 5 and 6), by both methods, against
//! the spec recomputed here in f64.

use common::eight::{self, EIGHT};
use common::{run, run_gl, scratch};
use glam::DVec3;
use serde_json::{Value, json};

/// How far the program may be from the spec, as a share of the model's size (normals: in length).
const TOLERANCE: f64 = 1e-5;
const TIMES: [f64; 3] = [0.0, 0.5, 0.95];
/// The target's weight: the mesh's default.
const WEIGHT: f64 = 0.6;

/// Vertex v's displacements: of its position, and of its normal.
fn displacement(v: usize) -> (DVec3, DVec3) {
    let v = v as f64;
    (DVec3::new(0.05 * v, -0.1, 0.2), DVec3::new(0.1, 0.2 - 0.05 * v, -0.3))
}

/// The spec's morphed bind position and normal of vertex v: `p + w Δp`, `normalize(n + w Δn)`.
fn morphed(v: usize) -> (DVec3, DVec3) {
    let ((p, n), (dp, dn)) = (eight::bind(v), displacement(v));
    (p + WEIGHT * dp, (n + WEIGHT * dn).normalize())
}

fn xyz(v: &Value) -> DVec3 {
    let a: Vec<f64> = v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    DVec3::new(a[0], a[1], a[2])
}

#[test]
fn a_morphed_vertex_of_eight_influences_blends_its_shape_with_every_influence() {
    // The eight-influence fan, with one target, `Lift`, on at 0.6 by the mesh's weights.
    let mut g = eight::eight();
    let (mut dp, mut dn) = (Vec::new(), Vec::new());
    for v in 0..eight::BIND.len() {
        let (p, n) = displacement(v);
        dp.extend(p.as_vec3().to_array());
        dn.extend(n.as_vec3().to_array());
    }
    let (dp, dn) = (g.floats(&dp, "VEC3"), g.floats(&dn, "VEC3"));
    g.json["meshes"][0]["primitives"][0]["targets"] = json!([{ "POSITION": dp, "NORMAL": dn }]);
    g.json["meshes"][0]["weights"] = json!([WEIGHT]);
    g.json["meshes"][0]["extras"] = json!({ "targetNames": ["Lift"] });
    let dir = scratch("morph-influences");
    let path = dir.join("fan.glb");
    std::fs::write(&path, g.glb()).unwrap();

    let size = eight::size();
    for (skinning, method) in [("cpu", "lbs"), ("cpu", "dqs"), ("gpu", "lbs"), ("gpu", "dqs")] {
        let name = format!("{skinning}-{method}");
        let (mut worst, mut worst_normal, mut unmorphed) = (0.0f64, 0.0f64, f64::INFINITY);
        for t in TIMES {
            let out = dir.join(format!("{name}.json"));
            let time = t.to_string();
            let args = ["--model", path.to_str().unwrap(), "--dump", out.to_str().unwrap(), "--time", &time];
            let args = [&args[..], &["--frames", "1", "--skinning", skinning, "--method", method]].concat();
            if skinning == "gpu" {
                if run_gl(&args).is_none() {
                    return;
                }
            } else {
                let ran = run(&args);
                assert!(ran.status.success(), "{args:?}: {}", String::from_utf8_lossy(&ran.stderr));
            }
            let file: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
            assert_eq!(file["skinning"], skinning, "{name}: blended where it was asked to be");
            let frame = &file["frames"][0];
            let weights: Vec<f32> = frame["morph_weights"]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| w.as_f64().unwrap() as f32)
                .collect();
            assert_eq!(weights, [WEIGHT as f32], "{name}: the frame's weight");
            for v in 0..eight::BIND.len() {
                let all = eight::influences(v, &EIGHT);
                assert_eq!(all.len(), 8, "vertex {v} is on eight joints");
                let (bind, normal) = morphed(v);
                let (position, normal) = match method {
                    "lbs" => (eight::blend_from(bind, &all, t), eight::normal_from(normal, &all, t)),
                    _ => eight::dqs_from((bind, normal), &all, t),
                };
                let got = xyz(&frame["skinned"][v]);
                worst = worst.max(got.distance(position) / size);
                worst_normal = worst_normal.max(xyz(&frame["normals"][v]).distance(normal));
                // Without the shape the vertex would be elsewhere: the check can fail.
                let plain = match method {
                    "lbs" => eight::blend(v, &all, t),
                    _ => eight::dqs(v, &all, t).0,
                };
                unmorphed = unmorphed.min(got.distance(plain) / size);
            }
        }
        println!(
            "{name}: morphed and blended with all eight, positions {worst:.1e} of the model's size from \
             the spec, normals {worst_normal:.1e}; the unmorphed blend at least {unmorphed:.3} away"
        );
        assert!(worst <= TOLERANCE && worst_normal <= TOLERANCE, "{name}: {worst:e}, {worst_normal:e}");
        assert!(unmorphed > 100.0 * TOLERANCE, "{name}: the target moved nothing ({unmorphed:e})");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
