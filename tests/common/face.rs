//! A small face with morph targets, written by hand (`gltf_build.rs`) for the morph tests, and
//! where the glTF spec puts its vertices, worked out here from its own numbers.
//!
//! The arm of chapter 9: node 0 `root` (joint 0), its child node 1 `arm` (joint 1) one unit along
//! x, and node 2 `face`, a skinned strip: v0 (0, 0, 0) on the root, v1 (1, 0, 0) half on each, v2
//! (2, 0, 0) and v3 (2, 1, 0) on the arm, every normal +z. Two targets, `Smile` and `Frown`:
//!
//! | vertex | Smile: position, normal | Frown: position |
//! |---|---|---|
//! | v1 | 0, 0 | (0, -0.3, 0.2) |
//! | v2 | (0, 0.5, 0), (0, 1, 0) | 0 |
//! | v3 | (0.25, 0, 0), 0 | (0, 0.4, 0) |
//!
//! The mesh's weights are (0.25, 0), the node's own (0.5, 0.1), which win. Node 3 `badge`, a child
//! of the arm at (0, 1, 0) scaled by 2, holds a rigid triangle ([`BADGE`]) with one target moving
//! it by (1, 0, 0), weight 1 by its mesh. The animation `talk` turns the arm from 0
//! to 90 degrees about z over one second (LINEAR) and moves the face's weights (CUBICSPLINE, keys
//! at 0 and 1 s): in-tangents, values, out-tangents (0, 0), (0, 1), (2, -1) at 0 s; (1, 0.5),
//! (1, 0), (0, 0) at 1 s.

use super::gltf_build::Gltf;
use glam::{Mat4, Quat, Vec3};
use serde_json::json;

/// The face's bind positions.
pub const BIND: [Vec3; 4] =
    [Vec3::ZERO, Vec3::new(1.0, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0), Vec3::new(2.0, 1.0, 0.0)];
/// Each target's position displacements, vertex by vertex.
pub const SMILE: [Vec3; 4] = [Vec3::ZERO, Vec3::ZERO, Vec3::new(0.0, 0.5, 0.0), Vec3::new(0.25, 0.0, 0.0)];
pub const FROWN: [Vec3; 4] = [Vec3::ZERO, Vec3::new(0.0, -0.3, 0.2), Vec3::ZERO, Vec3::new(0.0, 0.4, 0.0)];
/// Smile's normal displacements.
pub const SMILE_NORMALS: [Vec3; 4] = [Vec3::ZERO, Vec3::ZERO, Vec3::new(0.0, 1.0, 0.0), Vec3::ZERO];
/// The badge's corners.
pub const BADGE: [Vec3; 3] = [Vec3::new(0.5, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.5, 0.5, 0.0)];
/// The face's weights in the node: they win over the mesh's.
pub const NODE_WEIGHTS: [f32; 2] = [0.5, 0.1];
/// The weight channel's keys, per key: in-tangents, values, out-tangents of both targets.
pub const KEYS: [[[f32; 2]; 3]; 2] =
    [[[0.0, 0.0], [0.0, 1.0], [2.0, -1.0]], [[1.0, 0.5], [1.0, 0.0], [0.0, 0.0]]];

/// The face, as described above; `animated`: with the animation `talk`.
pub fn face(animated: bool) -> Gltf {
    let mut g = Gltf::new();
    let flat = |points: &[Vec3]| points.iter().flat_map(|p| p.to_array()).collect::<Vec<f32>>();
    let positions = g.floats(&flat(&BIND), "VEC3");
    let normals = g.floats(&[0.0, 0.0, 1.0].repeat(4), "VEC3");
    let joints = g.ints(&[0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], "VEC4", 5121, false);
    let weights = [[1.0, 0.0], [0.5, 0.5], [1.0, 0.0], [1.0, 0.0]].map(|[a, b]| [a, b, 0.0, 0.0]);
    let weights = g.floats(weights.as_flattened(), "VEC4");
    let indices = g.ints(&[0, 1, 3, 1, 2, 3], "SCALAR", 5123, false);
    let smile = g.floats(&flat(&SMILE), "VEC3");
    let smile_normals = g.floats(&flat(&SMILE_NORMALS), "VEC3");
    let frown = g.floats(&flat(&FROWN), "VEC3");
    let mut ibm = Mat4::IDENTITY.to_cols_array().to_vec();
    ibm.extend(Mat4::from_translation(-Vec3::X).to_cols_array());
    let ibm = g.floats(&ibm, "MAT4");
    let badge = g.floats(&flat(&BADGE), "VEC3");
    let badge_normal = g.floats(&[0.0, 0.0, 1.0].repeat(3), "VEC3");
    let badge_lift = g.floats(&[1.0, 0.0, 0.0].repeat(3), "VEC3");

    g.push("nodes", json!({ "name": "root", "children": [1] }));
    g.push("nodes", json!({ "name": "arm", "translation": [1.0, 0.0, 0.0], "children": [3] }));
    g.push("nodes", json!({ "name": "face", "mesh": 0, "skin": 0, "weights": NODE_WEIGHTS }));
    g.push(
        "nodes",
        json!({ "name": "badge", "mesh": 1, "translation": [0.0, 1.0, 0.0], "scale": [2.0, 2.0, 2.0] }),
    );
    g.json["scene"] = json!(0);
    g.json["scenes"] = json!([{ "nodes": [0, 2] }]);
    g.push("skins", json!({ "joints": [0, 1], "inverseBindMatrices": ibm }));
    let attributes =
        json!({ "POSITION": positions, "NORMAL": normals, "JOINTS_0": joints, "WEIGHTS_0": weights });
    let targets = json!([{ "POSITION": smile, "NORMAL": smile_normals }, { "POSITION": frown }]);
    g.push(
        "meshes",
        json!({
            "name": "face",
            "primitives": [{ "attributes": attributes, "indices": indices, "targets": targets }],
            "weights": [0.25, 0.0],
            "extras": { "targetNames": ["Smile", "Frown"] }
        }),
    );
    g.push(
        "meshes",
        json!({
            "name": "badge",
            "primitives": [{
                "attributes": { "POSITION": badge, "NORMAL": badge_normal },
                "targets": [{ "POSITION": badge_lift }]
            }],
            "weights": [1.0]
        }),
    );
    if animated {
        let times = g.floats(&[0.0, 1.0], "SCALAR");
        let turns = [Quat::IDENTITY, Quat::from_rotation_z(90f32.to_radians())].map(|q| q.to_array());
        let turns = g.floats(turns.as_flattened(), "VEC4");
        let keys: Vec<f32> = KEYS.iter().flatten().flatten().copied().collect();
        let keys = g.floats(&keys, "SCALAR");
        let channels = json!([
            { "sampler": 0, "target": { "node": 1, "path": "rotation" } },
            { "sampler": 1, "target": { "node": 2, "path": "weights" } }
        ]);
        let samplers = json!([
            { "input": times, "output": turns },
            { "input": times, "output": keys, "interpolation": "CUBICSPLINE" }
        ]);
        g.push("animations", json!({ "name": "talk", "channels": channels, "samplers": samplers }));
    }
    g
}

/// The face's weights at `t` (0 to 1 s) by the spec's cubic Hermite spline, the tangents scaled by
/// the key interval (1 s here).
pub fn weights(t: f32) -> [f32; 2] {
    let (s2, s3) = (t * t, t * t * t);
    let [[_, p0, out0], [in1, p1, _]] = KEYS;
    [0, 1].map(|k| {
        (2.0 * s3 - 3.0 * s2 + 1.0) * p0[k]
            + (s3 - 2.0 * s2 + t) * out0[k]
            + (-2.0 * s3 + 3.0 * s2) * p1[k]
            + (s3 - s2) * in1[k]
    })
}

/// Where the spec puts every vertex with the face's `w` weights and the arm turned by `degrees`:
/// first each vertex's shape, `bind + Σ w Δ`, then the skin, `Σ weight * world(joint) * inverse
/// bind matrix * shape`; the face's four, then the badge's three, `world(badge) * (p + 1 * Δ)`.
pub fn expected(w: [f32; 2], degrees: f32) -> Vec<Vec3> {
    let arm = Mat4::from_translation(Vec3::X) * Mat4::from_quat(Quat::from_rotation_z(degrees.to_radians()));
    let joints = [Mat4::IDENTITY, arm * Mat4::from_translation(-Vec3::X)];
    let influences =
        [[(0, 1.0)].to_vec(), [(0, 0.5), (1, 0.5)].to_vec(), [(1, 1.0)].to_vec(), [(1, 1.0)].to_vec()];
    let mut out: Vec<Vec3> = (0..4)
        .map(|v| {
            let shape = BIND[v] + w[0] * SMILE[v] + w[1] * FROWN[v];
            influences[v].iter().map(|&(j, weight)| weight * joints[j].transform_point3(shape)).sum()
        })
        .collect();
    let badge = arm * Mat4::from_scale_rotation_translation(Vec3::splat(2.0), Quat::IDENTITY, Vec3::Y);
    out.extend(BADGE.map(|p| badge.transform_point3(p + Vec3::X)));
    out
}
