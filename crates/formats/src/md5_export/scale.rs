//! Scale, which MD5 does not store, baked into the positions where it can be.
//!
//! A scale can be baked exactly where it never changes (at rest and in every frame of every
//! clip) and is the same on all three axes, or, uneven, on a bone with no joint below it (below). Then a bone's world is a rigid motion `W` times its
//! constant scale `c` (its own and its ancestors' multiplied): dropping every scale while
//! multiplying each local translation by its parent's `c` gives `W`, and a weight stored as
//! `c · offset · bind` moves with `W` exactly as the vertex did with `world · offset`. A skeleton
//! may stand at another scale than it was bound at (a glTF armature scaled 100 over joints bound
//! at 1): with the bind pose `offset⁻¹ = T R s`, the md5mesh joint is `T(k t) R`, `k = c / s`, which
//! puts every weight of a vertex at `k · bind`: they agree, and the mesh is written `k` times its
//! bind size, as the skeleton shows it. That needs one `k` for all the joints of a vertex; anything
//! else is refused, naming the bone. Only the bones whose scale is baked into what is written are
//! checked: the joints written and the bones above them (`joints.rs`).
//!
//! A scale that differs between axes (a box stretched along x) is baked too where no joint hangs
//! below its bone, as over a rigid mesh's node: the bone's world is then a rigid motion times a
//! constant stretch `S`, and its weights are written `S · offset · bind`, the vertices as the model
//! shows them. Above another joint it is refused: that joint would be stretched as it turns, which
//! no rigid joint can carry.

use super::error::ExportError;
use glam::{Mat4, Vec3};
use skinning_method::model::Model;
use skinning_method::printable::{printable, quoted};
use skinning_method::skeleton::{BoneId, Trs};

/// How far (relative) scales may differ and still count as the same: float rounding.
const SAME: f32 = 1e-4;

/// What the scales come to.
pub struct Scales {
    /// Each bone's constant scale, multiplied down the tree: 1 for a model without scale. The same
    /// on all three axes but on a bone with no joint below it.
    pub scale: Vec<Vec3>,
    /// Each bone the skin binds: its bind pose `offset⁻¹`, and `k`, how many times the scale it is
    /// bound at it stands at.
    pub bound: Vec<Option<(Mat4, f32)>>,
}

/// The scales of `model`'s bones, `walk` every bone parents first, `needed` the bones whose scale
/// is baked; refused where a scale cannot be baked.
pub fn scales(model: &Model, walk: &[BoneId], needed: &[bool]) -> Result<Scales, ExportError> {
    let skeleton = &model.skeleton;
    // Each bone's scale: even on all axes at rest, but on a bone with no needed bone below it (and
    // the same in every frame: `check_scales`).
    let mut above_another = vec![false; skeleton.len()];
    for &b in walk.iter().filter(|&&b| needed[b]) {
        skeleton.bone(b).parent.into_iter().for_each(|p| above_another[p] = true);
    }
    let mut scale = vec![Vec3::ONE; skeleton.len()];
    for &b in walk.iter().filter(|&&b| needed[b]) {
        let rest = skeleton.bone(b).rest.scale;
        if !rest.is_finite() || rest.min_element() <= 0.0 {
            let why = format!("its rest scale is {rest}, not a positive number on each axis");
            return Err(refused(model, b, why));
        }
        if !even(rest) && above_another[b] {
            let why = format!(
                "its rest scale is {rest}, not the same on all three axes, and joints hang below it; such a \
                 scale is baked only into the vertices of a bone with no joint below"
            );
            return Err(refused(model, b, why));
        }
        let own = if even(rest) && same(rest.x, 1.0) { Vec3::ONE } else { rest };
        scale[b] = skeleton.bone(b).parent.map_or(1.0, |p| scale[p].x) * own;
    }

    // The bind pose: offset⁻¹ for the skin's bones, each bone bound once; `k` the same for the
    // joints of a vertex.
    let mut bound: Vec<Option<(Mat4, f32)>> = vec![None; skeleton.len()];
    for joint in model.skin.joints() {
        let world = joint.offset.inverse();
        let b = joint.bone;
        if let Some((first, _)) = bound[b] {
            let size = first.to_cols_array().iter().fold(1.0f32, |a, x| a.max(x.abs()));
            if !first.abs_diff_eq(world, SAME * size) {
                let bone = printable(&skeleton.bone(b).name).into_owned();
                return Err(ExportError::BoundTwice { bone });
            }
            continue;
        }
        // Bound at the scale it stands at, or at one of which that is a multiple.
        let s = Trs::from_mat4(world).scale;
        let factor = scale[b] / s;
        if !even(factor) || !factor.is_finite() || factor.x <= 0.0 {
            let why = format!("it is bound at scale {s} and stands at {}, not a multiple of it", scale[b]);
            return Err(refused(model, b, why));
        }
        bound[b] = Some((world, if same(factor.x, 1.0) { 1.0 } else { factor.x }));
    }
    let k = |b: BoneId| bound[b].map_or(1.0, |(_, k)| k);
    for v in 0..model.skin.len() {
        let mut bones = model.skin.influences(v).map(|i| model.skin.joints()[i.joint].bone);
        let first = bones.next().unwrap_or(0);
        if let Some(other) = bones.find(|&b| !same(k(b), k(first))) {
            let why = format!(
                "it stands at {} times the scale it is bound at, {} at {}, and vertex {v} is on both; its \
                 weights could not agree where it is",
                k(other),
                printable(&skeleton.bone(first).name),
                k(first)
            );
            return Err(refused(model, other, why));
        }
    }
    Ok(Scales { scale, bound })
}

/// Checks one frame's local transforms, `locals`, at `t` s into `clip`: each baked bone's scale
/// (`needed`) must be its rest scale, which is what is baked.
pub fn check_scales(
    model: &Model,
    needed: &[bool],
    locals: &[Trs],
    clip: &str,
    t: f32,
) -> Result<(), ExportError> {
    for (b, bone) in model.skeleton.bones().iter().enumerate().filter(|&(b, _)| needed[b]) {
        let (s, rest) = (locals[b].scale, bone.rest.scale);
        if !(same(s.x, rest.x) && same(s.y, rest.y) && same(s.z, rest.z)) {
            let why = format!(
                "its scale is {s} in clip {} at {t} s, {rest} at rest; only a scale that never changes can be baked",
                quoted(clip)
            );
            return Err(refused(model, b, why));
        }
    }
    Ok(())
}

/// Bone `b`'s scale cannot be baked: why.
fn refused(model: &Model, b: BoneId, why: String) -> ExportError {
    ExportError::Scale { bone: printable(&model.skeleton.bone(b).name).into_owned(), why }
}

/// Whether two scales are the same, but for rounding.
fn same(a: f32, b: f32) -> bool {
    (a - b).abs() <= SAME * a.abs().max(b.abs())
}

/// Whether a scale is the same on all three axes.
fn even(s: Vec3) -> bool {
    same(s.x, s.y) && same(s.y, s.z)
}
