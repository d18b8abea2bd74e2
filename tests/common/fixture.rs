//! A small glTF character written by the tests; `spec.rs` works out where the glTF specification
//! puts its vertices at any time, from the same numbers, without the loader.
//!
//! ```text
//! scene roots: 0 armature (not a joint: turned 90° about x, scale 0.5, animated about y)
//!                ├─ 1 hip (joint; turned 30° about z, scale 1 x 1.5 x 1; CUBICSPLINE rotation)
//!                │    └─ 2 knee (joint; LINEAR scale)
//!                │         └─ 3 prop (a mesh without a skin: moves rigidly with the knee)
//!                └─ 4 skinned_b (mesh 1, skin 1; its own translation must be ignored)
//!              5 tail (joint; placed by a matrix; STEP translation)
//!              6 skinned_a (mesh 0, skin 0; its own rotation must be ignored)
//!              7 skinned_c (mesh 3, skin 2: no inverse bind matrices, weights summing to 0.9)
//! skins: 0 = [hip, knee], 1 = [tail, hip, knee] (the same nodes, other matrices), 2 = [knee]
//! ```

use super::gltf_build::Gltf;
use glam::{Mat4, Quat, Vec3, Vec4};
use serde_json::json;

pub const PARENT: [Option<usize>; 8] = [None, Some(0), Some(1), Some(2), Some(0), None, None, None];
const TAIL_MATRIX_ANGLE: f32 = 45.0;

/// Rest transforms: (translation, rotation, scale); node 5's comes as a matrix in the file.
pub fn rest() -> [(Vec3, Quat, Vec3); 8] {
    let deg = f32::to_radians;
    [
        (Vec3::new(1.0, 0.0, 0.0), Quat::from_rotation_x(deg(90.0)), Vec3::splat(0.5)),
        (Vec3::new(0.0, 2.0, 0.0), Quat::from_rotation_z(deg(30.0)), Vec3::new(1.0, 1.5, 1.0)),
        (Vec3::new(0.0, 1.0, 0.0), Quat::IDENTITY, Vec3::ONE),
        (Vec3::new(0.5, 0.0, 0.0), Quat::IDENTITY, Vec3::ONE),
        (Vec3::new(100.0, 0.0, 0.0), Quat::IDENTITY, Vec3::ONE),
        (Vec3::new(0.0, 0.0, -2.0), Quat::from_rotation_y(deg(TAIL_MATRIX_ANGLE)), Vec3::ONE),
        (Vec3::ZERO, Quat::from_rotation_y(deg(90.0)), Vec3::ONE),
        (Vec3::new(0.0, -3.0, 0.0), Quat::IDENTITY, Vec3::ONE),
    ]
}

/// Each skin's joints and inverse bind matrices (None: identity). The bind poses differ from the
/// rest pose, and skin 1 binds hip and knee differently from skin 0.
pub fn skins() -> Vec<(Vec<usize>, Option<Vec<Mat4>>)> {
    let bind = |t: Vec3, degrees: f32, s: Vec3| {
        Mat4::from_scale_rotation_translation(s, Quat::from_rotation_z(degrees.to_radians()), t).inverse()
    };
    vec![
        (
            vec![1, 2],
            Some(vec![
                bind(Vec3::new(1.0, 0.0, 1.0), 10.0, Vec3::ONE),
                bind(Vec3::new(1.0, 1.0, 1.0), 0.0, Vec3::new(1.0, 2.0, 1.0)),
            ]),
        ),
        (
            vec![5, 1, 2],
            Some(vec![
                bind(Vec3::new(0.0, 0.0, -2.0), 0.0, Vec3::ONE),
                bind(Vec3::ZERO, -20.0, Vec3::ONE),
                bind(Vec3::Y, 5.0, Vec3::ONE),
            ]),
        ),
        (vec![2], None),
    ]
}

/// A mesh primitive: positions, four joints and four weights per vertex, indices, mode.
pub struct Prim {
    pub positions: Vec<Vec3>,
    pub joints: Vec<[u32; 4]>,
    pub weights: Vec<[f32; 4]>,
    pub indices: Option<Vec<u32>>,
    pub mode: u32,
}

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

/// Meshes 0 to 3; mesh 1's weights are stored as normalized bytes (these are exact in 1/255ths).
pub fn meshes() -> Vec<Vec<Prim>> {
    let quad = Prim {
        positions: vec![v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 2.0, 0.5), v(1.0, 2.0, 0.5)],
        joints: vec![[0, 0, 0, 0], [0, 1, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]],
        weights: vec![
            [1.0, 0.0, 0.0, 0.0],
            [0.75, 0.25, 0.0, 0.0],
            [0.6, 0.4, 0.0, 0.0],
            [1.0, 0.0, 0.0, 0.0],
        ],
        indices: Some(vec![0, 1, 2, 2, 1, 3]),
        mode: 4,
    };
    let b = |x: u32| x as f32 / 255.0;
    let strip = Prim {
        positions: vec![v(0.0, 1.0, 0.0), v(0.5, 1.5, 0.0), v(1.0, 2.5, -0.5)],
        joints: vec![[0, 1, 2, 0], [1, 2, 0, 0], [2, 0, 0, 0]],
        weights: vec![[b(85), b(85), b(85), 0.0], [b(128), b(127), 0.0, 0.0], [b(255), 0.0, 0.0, 0.0]],
        indices: None,
        mode: 3,
    };
    let fan = Prim {
        positions: vec![v(-1.0, 0.0, 0.0), v(-1.0, 1.0, 0.0), v(-2.0, 1.0, 1.0)],
        joints: vec![[1, 0, 0, 0], [1, 2, 0, 0], [2, 1, 0, 0]],
        weights: vec![[b(255), 0.0, 0.0, 0.0], [b(51), b(204), 0.0, 0.0], [b(200), b(55), 0.0, 0.0]],
        indices: None,
        mode: 6,
    };
    let prop = Prim {
        positions: vec![v(0.0, 0.0, 0.0), v(0.2, 0.0, 0.0), v(0.0, 0.3, 0.0)],
        joints: vec![],
        weights: vec![],
        indices: Some(vec![0, 1, 2]),
        mode: 4,
    };
    let sloppy = Prim {
        positions: vec![v(0.0, 0.0, 0.0), v(0.0, 1.0, 0.0)],
        joints: vec![[0, 0, 0, 0], [0, 0, 0, 0]],
        weights: vec![[0.9, 0.0, 0.0, 0.0], [0.45, 0.45, 0.0, 0.0]],
        indices: None,
        mode: 1,
    };
    vec![vec![quad], vec![strip, fan], vec![prop], vec![sloppy]]
}

/// One channel: (node, property, interpolation, key times, values: 3 per key for CUBICSPLINE).
pub type ChannelData = (usize, &'static str, &'static str, Vec<f32>, Vec<Vec4>);

pub fn channels() -> Vec<ChannelData> {
    let q = |q: Quat| Vec4::from(q);
    let rx = Quat::from_rotation_x(90f32.to_radians());
    let t3 = |x: f32, y: f32, z: f32| Vec4::new(x, y, z, 0.0);
    let hip = |deg: f32| q(Quat::from_rotation_z(deg.to_radians()));
    vec![
        (
            0,
            "rotation",
            "LINEAR",
            vec![0.0, 2.0],
            vec![q(rx), q(Quat::from_rotation_y(40f32.to_radians()) * rx)],
        ),
        (
            1,
            "rotation",
            "CUBICSPLINE",
            vec![0.0, 0.5, 2.0], // key intervals 0.5 and 1.5: the tangents scale with them
            vec![
                Vec4::ZERO,
                hip(30.0),
                Vec4::new(0.0, 0.0, 0.3, 0.0),
                Vec4::new(0.0, 0.0, -0.2, 0.1),
                hip(70.0),
                Vec4::new(0.0, 0.0, 0.1, -0.1),
                Vec4::ZERO,
                hip(20.0),
                Vec4::ZERO,
            ],
        ),
        (2, "scale", "LINEAR", vec![0.0, 2.0], vec![t3(1.0, 1.0, 1.0), t3(2.0, 1.0, 1.0)]),
        (
            5,
            "translation",
            "STEP",
            vec![0.0, 0.5, 1.5],
            vec![t3(0.0, 0.0, -2.0), t3(1.0, 0.0, -2.0), t3(1.0, 1.0, -2.0)],
        ),
    ]
}

/// The file: everything above, in glTF JSON and one buffer.
pub fn build() -> Gltf {
    let mut g = Gltf::new();
    let rest = rest();
    let children: [&[usize]; 8] = [&[1, 4], &[2], &[3], &[], &[], &[], &[], &[]];
    let names = ["armature", "hip", "knee", "prop", "skinned_b", "tail", "skinned_a", "skinned_c"];
    let extra = [
        json!({}),
        json!({}),
        json!({}),
        json!({"mesh": 2}),
        json!({"mesh": 1, "skin": 1}),
        json!({}),
        json!({"mesh": 0, "skin": 0}),
        json!({"mesh": 3, "skin": 2}),
    ];
    for i in 0..8 {
        let (t, r, s) = rest[i];
        let mut node = json!({ "name": names[i] });
        if i == 5 {
            node["matrix"] = json!(Mat4::from_scale_rotation_translation(s, r, t).to_cols_array());
        } else {
            node["translation"] = json!(t.to_array());
            node["rotation"] = json!(r.to_array());
            node["scale"] = json!(s.to_array());
        }
        if !children[i].is_empty() {
            node["children"] = json!(children[i]);
        }
        for (k, value) in extra[i].as_object().unwrap() {
            node[k] = value.clone();
        }
        g.push("nodes", node);
    }
    g.json["scenes"] = json!([{ "nodes": [0, 5, 6, 7] }]);
    g.json["scene"] = json!(0);
    for (joints, ibm) in skins() {
        let mut skin = json!({ "joints": joints });
        if let Some(ibm) = ibm {
            let data: Vec<f32> = ibm.iter().flat_map(|m| m.to_cols_array()).collect();
            skin["inverseBindMatrices"] = json!(g.floats(&data, "MAT4"));
        }
        g.push("skins", skin);
    }
    for (m, prims) in meshes().into_iter().enumerate() {
        let mut out = Vec::new();
        for p in prims {
            let positions: Vec<f32> = p.positions.iter().flat_map(|v| v.to_array()).collect();
            let mut attributes = json!({ "POSITION": g.floats(&positions, "VEC3") });
            if !p.joints.is_empty() {
                let joints: Vec<u32> = p.joints.concat();
                let weights: Vec<f32> = p.weights.concat();
                // Mesh 1: bytes for both, weights normalized; the others: shorts and floats.
                if m == 1 {
                    let bytes: Vec<u32> = weights.iter().map(|w| (w * 255.0).round() as u32).collect();
                    attributes["JOINTS_0"] = json!(g.ints(&joints, "VEC4", 5121, false));
                    attributes["WEIGHTS_0"] = json!(g.ints(&bytes, "VEC4", 5121, true));
                } else {
                    attributes["JOINTS_0"] = json!(g.ints(&joints, "VEC4", 5123, false));
                    attributes["WEIGHTS_0"] = json!(g.floats(&weights, "VEC4"));
                }
            }
            let mut primitive = json!({ "attributes": attributes, "mode": p.mode });
            if let Some(indices) = &p.indices {
                primitive["indices"] = json!(g.ints(indices, "SCALAR", 5123, false));
            }
            out.push(primitive);
        }
        g.push("meshes", json!({ "name": format!("mesh{m}"), "primitives": out }));
    }
    let (mut samplers, mut targets) = (Vec::new(), Vec::new());
    for (node, path, interpolation, times, values) in channels() {
        let n = if path == "rotation" { 4 } else { 3 };
        let data: Vec<f32> = values.iter().flat_map(|v| v.to_array()[..n].to_vec()).collect();
        let input = g.floats(&times, "SCALAR");
        let output = g.floats(&data, if n == 4 { "VEC4" } else { "VEC3" });
        targets.push(json!({ "sampler": samplers.len(), "target": { "node": node, "path": path } }));
        samplers.push(json!({ "input": input, "output": output, "interpolation": interpolation }));
    }
    g.push("animations", json!({ "name": "moves", "channels": targets, "samplers": samplers }));
    // A second animation: one STEP key, so a clip of no length.
    let input = g.floats(&[0.0], "SCALAR");
    let output = g.floats(&[0.0, 0.0, 0.0], "VEC3");
    g.push(
        "animations",
        json!({ "name": "hold", "channels": [{ "sampler": 0, "target": { "node": 5, "path": "translation" } }],
                "samplers": [{ "input": input, "output": output, "interpolation": "STEP" }] }),
    );
    g
}

/// The normals [`build_with_normals`] gives every vertex of every primitive of every mesh: unit
/// vectors that turn from one vertex to the next, none along an axis, so every joint's non-uniform
/// scale (the hip's 1 x 1.5 x 1, the knee's animated 2 x 1 x 1, skin 0's bind scale 1 x 2 x 1)
/// bends them differently.
pub fn normals() -> Vec<Vec<Vec<Vec3>>> {
    let mut count = 0;
    let mut next = || {
        count += 1;
        let angle = count as f32 * 0.7;
        Vec3::new(angle.cos(), 0.6, angle.sin()).normalize()
    };
    meshes()
        .iter()
        .map(|prims| prims.iter().map(|p| p.positions.iter().map(|_| next()).collect()).collect())
        .collect()
}

/// The fixture with a `NORMAL` on every primitive ([`normals`]).
pub fn build_with_normals() -> Gltf {
    let mut g = build();
    for (m, prims) in normals().into_iter().enumerate() {
        for (p, normals) in prims.into_iter().enumerate() {
            let flat: Vec<f32> = normals.iter().flat_map(|n| n.to_array()).collect();
            let accessor = g.floats(&flat, "VEC3");
            g.json["meshes"][m]["primitives"][p]["attributes"]["NORMAL"] = json!(accessor);
        }
    }
    g
}
