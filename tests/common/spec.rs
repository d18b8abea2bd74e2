//! Where the glTF specification puts the fixture's vertices at time `t`, worked out from the
//! fixture's own numbers with the spec's formulas: node world transforms by walking up the parents,
//! each channel sampled by its interpolation (spec, "Animations" and its appendix "Animation Sampler
//! Interpolation Modes"), joint matrix = world(joint) * inverse bind matrix, the weighted sum.
//! Nothing here calls the loader or the library.

use super::fixture::{PARENT, channels, meshes, rest, skins};
use glam::{Mat4, Quat, Vec3, Vec4};

/// A channel's value at `t`, by the spec's rules.
fn sample(interpolation: &str, times: &[f32], values: &[Vec4], t: f32, rotation: bool) -> Vec4 {
    let cubic = interpolation == "CUBICSPLINE";
    let value = |k: usize| if cubic { values[3 * k + 1] } else { values[k] };
    let n = times.len();
    if t <= times[0] {
        return value(0);
    }
    if t >= times[n - 1] {
        return value(n - 1);
    }
    let k = times.iter().rposition(|&x| x <= t).unwrap();
    let (td, s) = (times[k + 1] - times[k], (t - times[k]) / (times[k + 1] - times[k]));
    let result = match interpolation {
        "STEP" => value(k),
        "LINEAR" if rotation => slerp(value(k), value(k + 1), s),
        "LINEAR" => value(k).lerp(value(k + 1), s),
        _ => {
            let (s2, s3) = (s * s, s * s * s);
            let (out_tangent, in_tangent) = (values[3 * k + 2], values[3 * (k + 1)]);
            (2.0 * s3 - 3.0 * s2 + 1.0) * value(k)
                + td * (s3 - 2.0 * s2 + s) * out_tangent
                + (-2.0 * s3 + 3.0 * s2) * value(k + 1)
                + td * (s3 - s2) * in_tangent
        }
    };
    if rotation { result.normalize() } else { result }
}

/// Where the spec puts every vertex at time `t` (0 to 2 s): the skinned meshes' vertices by node
/// index, primitive, vertex; then the rigid prop's. Joint matrix = world(joint) * inverse bind
/// matrix, world including the non-joint armature; the skinned mesh nodes' transforms ignored.
pub fn expected(t: f32) -> (Vec<Vec3>, Vec<Vec3>) {
    let mut local: Vec<(Vec3, Quat, Vec3)> = rest().to_vec();
    for (node, path, interpolation, times, values) in channels() {
        let value = sample(interpolation, &times, &values, t, path == "rotation");
        match path {
            "translation" => local[node].0 = value.truncate(),
            "rotation" => local[node].1 = Quat::from_vec4(value),
            _ => local[node].2 = value.truncate(),
        }
    }
    let world = |mut node: usize| {
        let mut m = Mat4::IDENTITY;
        loop {
            let (t, r, s) = local[node];
            m = Mat4::from_scale_rotation_translation(s, r, t) * m;
            match PARENT[node] {
                Some(p) => node = p,
                None => return m,
            }
        }
    };
    let skins = skins();
    let meshes = meshes();
    let mut skinned = Vec::new();
    // (mesh, skin) of nodes 4, 6 and 7, in node order.
    for (mesh, skin) in [(1, 1), (0, 0), (3, 2)] {
        let (joints, ibm) = &skins[skin];
        let matrix = |j: usize| world(joints[j]) * ibm.as_ref().map_or(Mat4::IDENTITY, |m| m[j]);
        for p in &meshes[mesh] {
            for (i, position) in p.positions.iter().enumerate() {
                let sum: f32 = p.weights[i].iter().sum();
                let blended: Vec3 = (0..4)
                    .filter(|&k| p.weights[i][k] > 0.0)
                    .map(|k| {
                        p.weights[i][k] / sum * matrix(p.joints[i][k] as usize).transform_point3(*position)
                    })
                    .sum();
                skinned.push(blended);
            }
        }
    }
    let rigid = meshes[2][0].positions.iter().map(|p| world(3).transform_point3(*p)).collect();
    (skinned, rigid)
}

/// Spherical interpolation by its definition: along the great arc, the shorter way.
pub fn slerp(a: Vec4, b: Vec4, s: f32) -> Vec4 {
    let (b, cos) = if a.dot(b) < 0.0 { (-b, -a.dot(b)) } else { (b, a.dot(b)) };
    if cos > 0.9999 {
        return a.lerp(b, s).normalize();
    }
    let angle = cos.acos();
    (a * ((1.0 - s) * angle).sin() + b * (s * angle).sin()) / angle.sin()
}
