//! The two kinds of MD5 text, written in Doom 3's layout: tabs, one entry a line, each joint's
//! parent named in a comment, as id's own files are.
//!
//! Numbers are written in the shortest form that reads back as the same 32-bit float (`0.2`, not
//! `0.200000003`), never in exponent form, which some MD5 readers do not take. A pose that went
//! through glTF and back comes with float rounding of a few ulps of the model's size on every
//! number: `0` comes back as `0.00000000023293012`, another each trip. So a position's number
//! within a millionth of the model's size of 0 is written 0 (`joints.rs`: `TINY`), and an
//! orientation's component within [`TINY_TURN`] of 0: those stay 0 trip after trip. An orientation is
//! written as x y z of the unit quaternion whose w is not positive: a reader computes
//! `w = -sqrt(1 - x² - y² - z²)` (id's convention), and q and -q are the same turn. Near a half
//! turn w is small, and that square root turns a rounding of x y z into a much larger error in w:
//! at w = 0, x y z rounded to a float's 7 digits leave w anywhere up to 3e-4. So x y z are
//! normalised in f64 and written with 9 decimals.

use super::error::ExportError;
use super::joints::Md5Joints;
use super::names::{COMMAND_LINE, md5_name};
use super::pieces::Piece;
use crate::material::Looks;
use glam::{DQuat, Quat, Vec3};
use skinning_method::model::Model;
use skinning_method::printable::quoted;
use std::collections::HashSet;
use std::fmt::Write;

/// A number as MD5 text: finite, shortest, `0` for either zero.
pub fn number(x: f32, what: &str) -> Result<String, ExportError> {
    match x {
        _ if !x.is_finite() => Err(ExportError::NotFinite(what.to_string())),
        0.0 => Ok("0".into()),
        _ => Ok(format!("{x}")),
    }
}

/// `( x y z )`.
pub fn triple(v: Vec3, what: &str) -> Result<String, ExportError> {
    Ok(format!("( {} {} {} )", number(v.x, what)?, number(v.y, what)?, number(v.z, what)?))
}

/// An orientation's x y z as MD5 stores them: normalised in f64 and turned to the sign whose w is
/// 0 or negative; a component below [`TINY_TURN`] is 0, float rounding.
pub fn orientation(q: Quat) -> [f64; 3] {
    let q = DQuat::from_xyzw(q.x as f64, q.y as f64, q.z as f64, q.w as f64).normalize();
    let q = if q.w > 0.0 { -q } else { q };
    [q.x, q.y, q.z].map(|c| if c.abs() < TINY_TURN { 0.0 } else { c })
}

/// The same for an orientation's components (a unit quaternion's: its size is 1).
pub const TINY_TURN: f64 = 1e-6;

/// A component of an orientation as text: 9 decimals, fewer where they end in zeros.
pub fn decimal(x: f64) -> String {
    let text = format!("{x:.9}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" || text.is_empty() { "0".to_string() } else { text.to_string() }
}

/// An orientation's x y z as text: `( x y z )`.
pub fn turn([x, y, z]: [f64; 3]) -> String {
    format!("( {} {} {} )", decimal(x), decimal(y), decimal(z))
}

/// The `.md5mesh`: the joints in their bind pose, then one `mesh` per piece of the model (a part,
/// or a part's triangles of one material: `pieces.rs`), with its shader (`shaders.rs`).
pub fn mesh(
    model: &Model,
    looks: &Looks,
    joints: &Md5Joints,
    pieces: &[Piece],
    shaders: &[String],
) -> Result<String, ExportError> {
    let skeleton = &model.skeleton;
    let mut out = String::new();
    writeln!(out, "MD5Version 10\ncommandline \"{COMMAND_LINE}\"\n").ok();
    writeln!(out, "numJoints {}\nnumMeshes {}\n\njoints {{", joints.order.len(), pieces.len()).ok();
    for (i, &b) in joints.order.iter().enumerate() {
        let (position, rotation) = joints.bind[b];
        let what = format!("joint {}'s bind pose", quoted(&skeleton.bone(b).name));
        let name = &joints.names[i];
        let parent = joints.parent[i].map_or(-1, |p| p as i64);
        let comment = joints.parent_name(i);
        let (place, turn) = (joints.id_point(position), orientation(joints.id_rotation(rotation)));
        writeln!(
            out,
            "\t\"{name}\"\t{parent} {} {}\t\t// {comment}",
            triple(joints.snap(place), &what)?,
            self::turn(turn)
        )
        .ok();
    }
    writeln!(out, "}}").ok();

    for (piece, shader) in pieces.iter().zip(shaders) {
        let part = &model.parts[piece.part];
        let name = md5_name(&part.name);
        writeln!(out, "\nmesh {{\n\t// meshes: {name}\n\tshader \"{shader}\"\n").ok();
        writeln!(out, "\tnumverts {}", piece.vertices.len()).ok();
        let mut next_weight = 0;
        for (v, &vertex) in piece.vertices.iter().enumerate() {
            // The texture coordinates as they are: skinning never moves them (`material.rs`).
            let st = looks.texcoords.get(vertex).copied().unwrap_or_default();
            let what = format!("vertex {v}'s texture coordinates");
            let (s, t) = (number(st.x, &what)?, number(st.y, &what)?);
            // Every influence of the vertex becomes one weight, however many it has.
            let count = model.skin.influences(vertex).count();
            writeln!(out, "\tvert {v} ( {s} {t} ) {next_weight} {count}").ok();
            next_weight += count;
        }
        // The piece's own numbering of its vertices (they are in order: a binary search finds one).
        let local = |v: u32| piece.vertices.binary_search(&(v as usize)).unwrap_or_default();
        // Counter-clockwise triangles written clockwise, Doom 3's winding.
        writeln!(out, "\n\tnumtris {}", piece.triangles.len()).ok();
        for (k, &[a, b, c]) in piece.triangles.iter().enumerate() {
            writeln!(out, "\ttri {k} {} {} {}", local(a), local(c), local(b)).ok();
        }
        writeln!(out, "\n\tnumweights {next_weight}").ok();
        let mut w = 0;
        for &vertex in &piece.vertices {
            for line in weights(model, joints, vertex)? {
                writeln!(out, "\tweight {w} {line}").ok();
                w += 1;
            }
        }
        writeln!(out, "}}").ok();
    }
    Ok(out)
}

/// A vertex's weights, `joint bias ( position )` each: the position is the bind vertex taken into
/// the joint's space, `offset · bind`, the offset applied ahead of time, per weight (times the
/// bone's constant scale, if the skeleton has one to bake; `joints.rs`).
fn weights(model: &Model, joints: &Md5Joints, v: usize) -> Result<Vec<String>, ExportError> {
    let bind = Vec3::from(model.skin.bind()[v]);
    (model.skin.influences(v))
        .map(|influence| {
            let joint = model.skin.joints()[influence.joint];
            let local = joints.scale[joint.bone] * joint.offset.transform_point3(bind);
            let bone = joint.bone;
            let what = format!("vertex {v}'s weight");
            Ok(format!(
                "{} {} {}",
                joints.index[bone].unwrap_or_default(),
                number(influence.weight, &what)?,
                triple(joints.snap(local), &what)?
            ))
        })
        .collect()
}

/// The edges no triangle has as a side, each as a flat triangle `[a, b, b]`, so MD5, which has
/// only triangles, keeps them.
pub fn lonely_edges(model: &Model) -> Vec<[u32; 3]> {
    let sides: HashSet<[u32; 2]> = (model.triangles.iter())
        .flat_map(|&[a, b, c]| [[a, b], [b, c], [c, a]])
        .map(|[a, b]| [a.min(b), a.max(b)])
        .collect();
    (model.edges.iter())
        .filter(|e| !sides.contains(&[e[0].min(e[1]), e[0].max(e[1])]))
        .map(|&[a, b]| [a, b, b])
        .collect()
}
