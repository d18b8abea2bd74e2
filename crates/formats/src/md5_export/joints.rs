//! Bones become MD5 joints: in an order where every parent comes first, without scale, Z-up.
//!
//! - **Order.** MD5 names a joint's parent by index and requires it to be an earlier joint. The
//!   article's bones may be stored in any order (a glTF node may come before its parent), so the
//!   joints are the bones in the order `compute_world` walks them: a bone, its children, its
//!   siblings. The skin's joint slots all go to their bone's MD5 joint.
//! - **Bind pose.** An md5mesh joint is its bind-pose world transform, the inverse of the skin's
//!   offset (`offset⁻¹`). A bone the skin does not use has no offset; its rest world serves. Two
//!   skin slots on one bone with different offsets cannot both be written: MD5 binds a joint once.
//! - **Scale.** MD5 stores a position and an orientation per joint: no scale. A scale can be baked
//!   exactly only if it is the same on all three axes and never changes (at rest and in every
//!   frame of every clip). Then a bone's world is a rigid motion `W` times its constant scale `c`
//!   (its own and its ancestors' multiplied): dropping every scale while multiplying each local
//!   translation by its parent's `c` gives `W`, and a weight stored as `c · offset · bind` moves
//!   with `W` exactly as the vertex did with `world · offset`. A skeleton may stand at another
//!   scale than it was bound at (a glTF armature scaled 100 over joints bound at 1): with the bind
//!   pose `offset⁻¹ = T R s`, the md5mesh joint is `T(k t) R`, `k = c / s`, which puts every weight
//!   of a vertex at `k · bind`: they agree, and the mesh is written `k` times its bind size, as the
//!   skeleton shows it. That needs one `k` for all the joints of a vertex; anything else is
//!   refused, naming the bone.
//! - **Axes.** id's tools are Z-up with a character's front along +x; the article and glTF are
//!   Y-up with the front along +z. A Y-up model is turned into id's axes as it is written,
//!   `(x, y, z) → (z, x, y)`, so it stands up and faces forward in any MD5 viewer, and in this one,
//!   whose camera turns id's axes back (`model::Up::turn_to_gltf`). Only object
//!   space turns: the root joints and the bind pose. Weights stay in their joints' spaces, untouched.

use super::error::ExportError;
use glam::{Mat4, Quat, Vec3};
use skinning_method::model::{Model, Up};
use skinning_method::printable::{printable, quoted};
use skinning_method::skeleton::{BoneId, Trs};

/// How far (relative) scales may differ and still count as the same: float rounding.
const SAME: f32 = 1e-4;

/// The MD5 joints of a model.
pub struct Md5Joints {
    /// MD5 joint `i` is bone `order[i]`...
    pub order: Vec<BoneId>,
    /// ...and bone `b` is MD5 joint `index[b]`.
    pub index: Vec<usize>,
    /// Each MD5 joint's parent, an earlier MD5 joint.
    pub parent: Vec<Option<usize>>,
    /// Each bone's constant scale, multiplied down the tree: 1 for a model without scale.
    pub scale: Vec<f32>,
    /// Each bone's bind pose without its scale, in the model's own numbers: (position, orientation).
    pub bind: Vec<(Vec3, Quat)>,
    /// Whether object space turns from glTF's axes to id's as it is written.
    pub turn: bool,
}

impl Md5Joints {
    /// A point of object space as written: turned into id's axes if the model is Y-up.
    pub fn up(&self, p: Vec3) -> Vec3 {
        if self.turn { Vec3::new(p.z, p.x, p.y) } else { p }
    }

    /// An orientation in object space as written: the same turn, the camera's undone.
    pub fn up_rotation(&self, q: Quat) -> Quat {
        if self.turn { Up::Z.turn_to_gltf().inverse() * q } else { q }
    }
}

/// The joints of `model`, from its rest and bind poses; each frame of its clips is checked
/// against them as it is sampled ([`check_scales`]).
pub fn md5_joints(model: &Model) -> Result<Md5Joints, ExportError> {
    let skeleton = &model.skeleton;
    let name = |b: BoneId| printable(&skeleton.bone(b).name).into_owned();

    // Parents first: the order of the tree walk.
    let mut order = Vec::with_capacity(skeleton.len());
    let mut stack = vec![skeleton.root()];
    while let Some(bone) = stack.pop() {
        order.push(bone);
        let b = skeleton.bone(bone);
        stack.extend(b.sibling);
        stack.extend(b.first_child);
    }
    let mut index = vec![0; skeleton.len()];
    for (i, &bone) in order.iter().enumerate() {
        index[bone] = i;
    }
    let parent = order.iter().map(|&b| skeleton.bone(b).parent.map(|p| index[p])).collect();

    // Each bone's scale: even on all axes at rest (and the same in every frame: `check_scales`).
    let mut own = Vec::with_capacity(skeleton.len());
    for (b, bone) in skeleton.bones().iter().enumerate() {
        let rest = bone.rest.scale;
        let positive = rest.is_finite() && rest.min_element() > 0.0;
        if !even(rest) || !positive {
            let why = format!("its rest scale is {rest}, not the same positive number on all three axes");
            return Err(ExportError::Scale { bone: name(b), why });
        }
        own.push(if same(rest.x, 1.0) { 1.0 } else { rest.x });
    }
    let mut scale = vec![1.0; skeleton.len()];
    for &b in &order {
        scale[b] = skeleton.bone(b).parent.map_or(1.0, |p| scale[p]) * own[b];
    }

    // The bind pose: offset⁻¹ for the skin's bones, the rest world for the others, each bone bound
    // once; `k`, how many times its bind scale a joint stands at, the same for a vertex's joints.
    let rest_world = skeleton.rest_world();
    let mut bound: Vec<Option<Mat4>> = vec![None; skeleton.len()];
    let mut k = vec![1.0f32; skeleton.len()];
    for joint in model.skin.joints() {
        let world = joint.offset.inverse();
        let b = joint.bone;
        if let Some(first) = bound[b] {
            let size = first.to_cols_array().iter().fold(1.0f32, |a, x| a.max(x.abs()));
            if !first.abs_diff_eq(world, SAME * size) {
                return Err(ExportError::BoundTwice { bone: name(b) });
            }
            continue;
        }
        let s = Trs::from_mat4(world).scale;
        let factor = scale[b] / s.x;
        if !even(s) || !factor.is_finite() || factor <= 0.0 {
            let why = format!("it is bound at scale {s}, not the same positive number on all three axes");
            return Err(ExportError::Scale { bone: name(b), why });
        }
        k[b] = if same(factor, 1.0) { 1.0 } else { factor };
        bound[b] = Some(world);
    }
    for v in 0..model.skin.len() {
        let mut bones = model.skin.influences(v).map(|i| model.skin.joints()[i.joint].bone);
        let first = bones.next().unwrap_or(0);
        if let Some(other) = bones.find(|&b| !same(k[b], k[first])) {
            let why = format!(
                "it stands at {} times the scale it is bound at, {} at {}, and vertex {v} is on both; its \
                 weights could not agree where it is",
                k[other],
                name(first),
                k[first]
            );
            return Err(ExportError::Scale { bone: name(other), why });
        }
    }
    let bind = (0..skeleton.len())
        .map(|b| match bound[b] {
            Some(world) => {
                let Trs { translation, rotation, .. } = Trs::from_mat4(world);
                (k[b] * translation, rotation)
            }
            None => {
                let Trs { translation, rotation, .. } = Trs::from_mat4(rest_world[b]);
                (translation, rotation)
            }
        })
        .collect();
    Ok(Md5Joints { order, index, parent, scale, bind, turn: model.up == Up::Y })
}

/// Checks one frame's local transforms, `locals`, at `t` s into `clip`: each bone's scale must be
/// its rest scale, which is what is baked.
pub fn check_scales(model: &Model, locals: &[Trs], clip: &str, t: f32) -> Result<(), ExportError> {
    for (b, bone) in model.skeleton.bones().iter().enumerate() {
        let (s, rest) = (locals[b].scale, bone.rest.scale);
        if !same(s.x, rest.x) || !even(s) {
            let why = format!(
                "its scale is {s} in clip {} at {t} s, {rest} at rest; only a scale that never changes can be baked",
                quoted(clip)
            );
            return Err(ExportError::Scale { bone: printable(&bone.name).into_owned(), why });
        }
    }
    Ok(())
}

/// Whether two scales are the same, but for rounding.
fn same(a: f32, b: f32) -> bool {
    (a - b).abs() <= SAME * a.abs().max(b.abs())
}

/// Whether a scale is the same on all three axes.
fn even(s: Vec3) -> bool {
    same(s.x, s.y) && same(s.y, s.z)
}

/// One frame's joints as MD5 stores them, in MD5 order: each relative to its parent, its scale
/// baked (the local translation times the parent's constant scale), the roots turned up.
pub fn md5_locals(joints: &Md5Joints, locals: &[Trs], model: &Model) -> Vec<(Vec3, Quat)> {
    joints
        .order
        .iter()
        .map(|&b| {
            let Trs { translation, rotation, .. } = locals[b];
            match model.skeleton.bone(b).parent {
                Some(p) => (joints.scale[p] * translation, rotation),
                None => (joints.up(translation), joints.up_rotation(rotation)),
            }
        })
        .collect()
}
