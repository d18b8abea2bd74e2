//! A made-up character of 28,672 vertices and 65 joints, written by the tests as glTF: big enough
//! to time (`tests/gltf_speed.rs`), and with normals to light (`tests/normal_rules.rs`).

use super::gltf_build::Gltf;
use glam::{Mat4, Quat, Vec3};
use serde_json::json;

pub const LIMBS: usize = 4;
/// Joints per limb; with the root, 65 joints.
const LIMB_JOINTS: usize = 16;
pub const RINGS: usize = 448;
pub const RING: usize = 16;
const KEYS: usize = 30;

/// Four limbs out from a root, each a chain of 16 joints one unit apart, wrapped in a tube of rings;
/// every vertex on the four nearest joints of its limb; one animation turning every joint. With
/// `normals`, each vertex has a `NORMAL` pointing straight out of its tube.
pub fn character(normals: bool) -> Gltf {
    let mut g = Gltf::new();
    let directions = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y];
    // Node 0 is the root joint, then each limb's chain.
    let mut nodes = vec![
        json!({ "name": "root", "children": (0..LIMBS).map(|l| 1 + l * LIMB_JOINTS).collect::<Vec<_>>() }),
    ];
    for (l, direction) in directions.iter().enumerate() {
        for j in 0..LIMB_JOINTS {
            let index = 1 + l * LIMB_JOINTS + j;
            let mut node = json!({ "name": format!("limb{l}_{j}"), "translation": (*direction * if j == 0 { 0.5 } else { 1.0 }).to_array() });
            if j + 1 < LIMB_JOINTS {
                node["children"] = json!([index + 1]);
            }
            nodes.push(node);
        }
    }
    let joint_count = nodes.len();
    // Rest world of every joint: along its limb; the inverse bind matrices undo them.
    let world: Vec<Mat4> = (0..joint_count)
        .map(|i| match i {
            0 => Mat4::IDENTITY,
            _ => {
                let (l, j) = ((i - 1) / LIMB_JOINTS, (i - 1) % LIMB_JOINTS);
                Mat4::from_translation(directions[l] * (0.5 + j as f32))
            }
        })
        .collect();
    let ibm: Vec<f32> = world.iter().flat_map(|m| m.inverse().to_cols_array()).collect();
    let ibm = g.floats(&ibm, "MAT4");
    let mesh_node = joint_count;
    nodes.push(json!({ "name": "body", "mesh": 0, "skin": 0 }));
    for node in nodes {
        g.push("nodes", node);
    }
    g.json["scenes"] = json!([{ "nodes": [0, mesh_node] }]);
    g.push("skins", json!({ "joints": (0..joint_count).collect::<Vec<_>>(), "inverseBindMatrices": ibm }));

    let (mut positions, mut joints, mut weights, mut indices) = (vec![], vec![], vec![], vec![]);
    let mut outward = vec![];
    for (l, direction) in directions.iter().enumerate() {
        let side = direction.any_orthonormal_vector();
        let up = direction.cross(side);
        for r in 0..RINGS {
            let along = 0.5 + (r as f32 + 0.5) / RINGS as f32 * (LIMB_JOINTS - 1) as f32;
            let nearest = ((along - 0.5).floor() as usize).min(LIMB_JOINTS - 4);
            let bell: Vec<f32> =
                (0..4).map(|k| (-(along - 0.5 - (nearest + k) as f32).powi(2)).exp()).collect();
            let sum: f32 = bell.iter().sum();
            for k in 0..RING {
                let angle = std::f32::consts::TAU * k as f32 / RING as f32;
                let out = side * angle.cos() + up * angle.sin();
                let p = *direction * along + 0.2 * out;
                positions.extend(p.to_array());
                outward.extend(out.to_array());
                joints.extend((0..4).map(|n| (1 + l * LIMB_JOINTS + nearest + n) as u32));
                weights.extend(bell.iter().map(|w| w / sum));
            }
            if r + 1 < RINGS {
                let base = ((l * RINGS + r) * RING) as u32;
                for k in 0..RING as u32 {
                    let (a, b) = (base + k, base + (k + 1) % RING as u32);
                    indices.extend([a, b, a + RING as u32, b, b + RING as u32, a + RING as u32]);
                }
            }
        }
    }
    let mut attributes = json!({
        "POSITION": g.floats(&positions, "VEC3"),
        "JOINTS_0": g.ints(&joints, "VEC4", 5123, false),
        "WEIGHTS_0": g.floats(&weights, "VEC4"),
    });
    if normals {
        attributes["NORMAL"] = json!(g.floats(&outward, "VEC3"));
    }
    let indices = g.ints(&indices, "SCALAR", 5125, false);
    g.push(
        "meshes",
        json!({ "name": "body", "primitives": [{ "attributes": attributes, "indices": indices }] }),
    );

    // Every joint but the root turns about z, a little later than the one before.
    let times: Vec<f32> = (0..KEYS).map(|k| k as f32 / (KEYS - 1) as f32 * 2.0).collect();
    let (mut channels, mut samplers) = (vec![], vec![]);
    let input = g.floats(&times, "SCALAR");
    for joint in 1..joint_count {
        let keys: Vec<f32> = (times.iter())
            .flat_map(|t| {
                Quat::from_rotation_z(0.2 * (std::f32::consts::TAU * t / 2.0 - joint as f32 * 0.3).sin())
                    .to_array()
            })
            .collect();
        let output = g.floats(&keys, "VEC4");
        channels.push(json!({ "sampler": samplers.len(), "target": { "node": joint, "path": "rotation" } }));
        samplers.push(json!({ "input": input, "output": output }));
    }
    g.push("animations", json!({ "name": "wave", "channels": channels, "samplers": samplers }));
    g
}
