//! The eight-influence fixture: a small glTF file whose every vertex is moved by eight joints, written
//! by hand here, and where the glTF spec puts its vertices, worked out here from the same numbers
//! (in f64, without the loader).
//!
//! ```text
//! joints: 8 nodes, all scene roots, joint i at P_i = (cos 45°i, sin 45°i, 0), resting unturned;
//!         the clip `swirl` turns joint i by (20 + 15 i)° about its own axis A_i and moves it by D_i
//!         over one second (LINEAR: a slerp and a lerp from the rest pose).
//! mesh:   5 vertices (a square around the middle, raised at its centre), 4 triangles, each vertex
//!         on all eight joints, its weights in 64ths, each vertex's joints in its own order.
//! ```
//!
//! Every weight is a whole number of 64ths, so each vertex's weights sum to exactly 1 in f32: the
//! loader has nothing to mend. [`with_weights`] makes the same fan with another list of weights
//! (nine of them: a vertex the GPU cannot take).

use super::gltf_build::Gltf;
use glam::{DMat3, DMat4, DQuat, DVec3};
use serde_json::json;

/// The weights of every vertex, in 64ths, heaviest first: the four largest hold 54 of the 64.
pub const EIGHT: [u32; 8] = [24, 16, 8, 6, 4, 3, 2, 1];

/// The clip's length and name.
pub const DURATION: f64 = 1.0;
pub const CLIP: &str = "swirl";

/// The bind positions.
pub const BIND: [[f32; 3]; 5] =
    [[-0.5, -0.5, 0.0], [0.5, -0.5, 0.0], [0.5, 0.5, 0.0], [-0.5, 0.5, 0.0], [0.0, 0.0, 0.25]];

/// The bind normals (unit length): leaning out of the square, each its own way.
pub fn normals() -> [[f32; 3]; 5] {
    let n = |x: f32, y: f32, z: f32| {
        let l = (x * x + y * y + z * z).sqrt();
        [x / l, y / l, z / l]
    };
    [n(-0.3, -0.2, 1.0), n(0.2, -0.3, 1.0), n(0.3, 0.2, 1.0), n(-0.2, 0.3, 1.0), n(0.0, 0.1, 1.0)]
}

/// Joint i's place at rest.
pub fn rest(i: usize) -> DVec3 {
    let a = (45.0 * i as f64).to_radians();
    DVec3::new(a.cos(), a.sin(), 0.0)
}

/// Joint i's axis, angle at the end of the clip (degrees) and move over the clip.
fn motion(i: usize) -> (DVec3, f64, DVec3) {
    let axis = DVec3::new(0.3 * i as f64 - 1.0, 1.0 - 0.2 * i as f64, 1.0).normalize();
    let angle = 20.0 + 15.0 * i as f64;
    let shift = DVec3::new(0.05 * i as f64, -0.1, 0.02 * (i as f64 - 3.5));
    (axis, angle, shift)
}

/// Vertex v's joints, in its own order: joint (v + k) mod n in place k, so each vertex starts on
/// another joint (and dual quaternions take another joint's rotation as the first).
pub fn joints_of(v: usize, n: usize) -> Vec<usize> {
    (0..n).map(|k| (v + k) % n).collect()
}

/// The eight-influence fan.
pub fn eight() -> Gltf {
    with_weights(&EIGHT)
}

/// The fan with one joint per weight (in 64ths, summing to 64), every vertex on all of them.
pub fn with_weights(weights: &[u32]) -> Gltf {
    let n = weights.len();
    assert_eq!(weights.iter().sum::<u32>(), 64, "64ths summing to 1");
    let sets = n.div_ceil(4);
    let mut g = Gltf::new();
    let positions = g.floats(BIND.as_flattened(), "VEC3");
    let normals = g.floats(normals().as_flattened(), "VEC3");
    let indices = g.ints(&[0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4], "SCALAR", 5123, false);
    let mut attributes = json!({ "POSITION": positions, "NORMAL": normals });
    for set in 0..sets {
        // Set s holds places 4s to 4s + 3 of every vertex; past the last, joint 0 with weight 0.
        let (mut js, mut ws) = (Vec::new(), Vec::new());
        for v in 0..BIND.len() {
            let joints = joints_of(v, n);
            for k in 4 * set..4 * set + 4 {
                js.push(joints.get(k).map_or(0, |&j| j as u32));
                ws.push(weights.get(k).map_or(0.0, |&w| w as f32 / 64.0));
            }
        }
        attributes[format!("JOINTS_{set}")] = json!(g.ints(&js, "VEC4", 5121, false));
        attributes[format!("WEIGHTS_{set}")] = json!(g.floats(&ws, "VEC4"));
    }
    let ibm: Vec<f32> =
        (0..n).flat_map(|i| DMat4::from_translation(-rest(i)).as_mat4().to_cols_array()).collect();
    let ibm = g.floats(&ibm, "MAT4");
    let times = g.floats(&[0.0, DURATION as f32], "SCALAR");
    let mut channels = Vec::new();
    let mut samplers = Vec::new();
    for i in 0..n {
        let (axis, angle, shift) = motion(i);
        let turn = DQuat::from_axis_angle(axis, angle.to_radians()).as_quat().to_array();
        let turns = g.floats(&[[0.0, 0.0, 0.0, 1.0], turn].concat(), "VEC4");
        let moves = g
            .floats(&[rest(i).as_vec3().to_array(), (rest(i) + shift).as_vec3().to_array()].concat(), "VEC3");
        for (output, path) in [(turns, "rotation"), (moves, "translation")] {
            channels.push(json!({ "sampler": samplers.len(), "target": { "node": i, "path": path } }));
            samplers.push(json!({ "input": times, "output": output }));
        }
        let p = rest(i).as_vec3().to_array();
        g.push("nodes", json!({ "name": format!("joint{i}"), "translation": p }));
    }
    let body = g.push("nodes", json!({ "name": "fan", "mesh": 0, "skin": 0 }));
    let roots: Vec<usize> = (0..=body).collect();
    g.json["scene"] = json!(0);
    g.json["scenes"] = json!([{ "nodes": roots }]);
    g.push("skins", json!({ "joints": (0..n).collect::<Vec<_>>(), "inverseBindMatrices": ibm }));
    let primitive = json!({ "attributes": attributes, "indices": indices });
    g.push("meshes", json!({ "name": "fan", "primitives": [primitive] }));
    g.push("animations", json!({ "name": CLIP, "channels": channels, "samplers": samplers }));
    g
}

/// Joint i's palette matrix at `t` seconds, as the spec has it: its world transform (rest place
/// moved by `t` of its shift, turned by `t` of its angle) times its inverse bind matrix.
pub fn palette(i: usize, t: f64) -> DMat4 {
    let (axis, angle, shift) = motion(i);
    let s = (t / DURATION).clamp(0.0, 1.0);
    let world = DMat4::from_rotation_translation(
        DQuat::from_axis_angle(axis, s * angle.to_radians()),
        rest(i) + s * shift,
    );
    world * DMat4::from_translation(-rest(i))
}

/// Vertex v's influences as the file gives them: (joint, weight).
pub fn influences(v: usize, weights: &[u32]) -> Vec<(usize, f64)> {
    joints_of(v, weights.len()).into_iter().zip(weights.iter().map(|&w| w as f64 / 64.0)).collect()
}

/// Vertex v's bind position and bind normal.
pub fn bind(v: usize) -> (DVec3, DVec3) {
    (DVec3::from(BIND[v].map(f64::from)), DVec3::from(normals()[v].map(f64::from)))
}

/// The spec's linear blend of vertex v at `t`, over the given influences.
pub fn blend(v: usize, influences: &[(usize, f64)], t: f64) -> DVec3 {
    blend_from(bind(v).0, influences, t)
}

/// The same for a vertex at `bind` (a morphed one).
pub fn blend_from(bind: DVec3, influences: &[(usize, f64)], t: f64) -> DVec3 {
    influences.iter().map(|&(j, w)| w * palette(j, t).transform_point3(bind)).sum()
}

/// The normal rule at `t`: the bind normal by the inverse transpose of the blended matrix
/// (`det(M) M⁻ᵀ`, turned round where the determinant is negative), normalised.
pub fn normal(v: usize, influences: &[(usize, f64)], t: f64) -> DVec3 {
    normal_from(bind(v).1, influences, t)
}

/// The same for a bind normal `n` (a morphed one).
pub fn normal_from(n: DVec3, influences: &[(usize, f64)], t: f64) -> DVec3 {
    let m: DMat3 = influences.iter().fold(DMat3::ZERO, |m, &(j, w)| m + DMat3::from_mat4(palette(j, t)) * w);
    (m.inverse().transpose() * n).normalize()
}

/// Dual-quaternion skinning at `t` (Kavan et al.), over the given influences: each joint's motion
/// as a rotation q and a translation, summed as (q, ½ (t, 0) q) with each term on the side of the
/// first influence's rotation, normalised, applied to the bind position. Returns the position and
/// the bind normal turned by the blended rotation.
pub fn dqs(v: usize, influences: &[(usize, f64)], t: f64) -> (DVec3, DVec3) {
    dqs_from(bind(v), influences, t)
}

/// The same for a vertex at `bind` with the bind normal `n` (a morphed one).
pub fn dqs_from((bind, n): (DVec3, DVec3), influences: &[(usize, f64)], t: f64) -> (DVec3, DVec3) {
    let motions: Vec<(DQuat, DQuat)> = influences
        .iter()
        .map(|&(j, _)| {
            let (_, rotation, translation) = palette(j, t).to_scale_rotation_translation();
            let dual = DQuat::from_xyzw(translation.x, translation.y, translation.z, 0.0) * rotation * 0.5;
            (rotation, dual)
        })
        .collect();
    let first = motions[0].0;
    let (mut real, mut dual) = (DQuat::from_xyzw(0.0, 0.0, 0.0, 0.0), DQuat::from_xyzw(0.0, 0.0, 0.0, 0.0));
    for (&(r, d), &(_, w)) in motions.iter().zip(influences) {
        let w = if r.dot(first) < 0.0 { -w } else { w };
        real += r * w;
        dual += d * w;
    }
    let length = real.length();
    let (real, dual) = (real * (1.0 / length), dual * (1.0 / length));
    let translation = dual * real.conjugate() * 2.0;
    (real * bind + DVec3::new(translation.x, translation.y, translation.z), real * n)
}

/// The old rule: the four largest influences, their weights divided by their sum.
pub fn four_largest(influences: &[(usize, f64)]) -> Vec<(usize, f64)> {
    let mut kept = influences.to_vec();
    kept.sort_by(|a, b| b.1.total_cmp(&a.1));
    kept.truncate(4);
    let sum: f64 = kept.iter().map(|i| i.1).sum();
    kept.into_iter().map(|(j, w)| (j, w / sum)).collect()
}

/// The model's size: the diagonal of the box around its bind positions.
pub fn size() -> f64 {
    let (mut min, mut max) = (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY));
    for p in BIND {
        let p = DVec3::from(p.map(f64::from));
        (min, max) = (min.min(p), max.max(p));
    }
    (max - min).length()
}
