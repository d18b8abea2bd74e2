//! Bones become MD5 joints: the skin's joints and what they need, parents first, without scale, in
//! id's axes.
//!
//! - **Which bones.** An MD5 joint is a joint of the skin: every one is bound, every one may carry
//!   weights. So the skin's joints are written, and the bones on the way from one of them up to
//!   another (MD5 names a joint's parent, which must be a joint). The bones above the topmost
//!   joints (a glTF file's `Armature`, its `(scene root)`) and those beside them (a mesh's own node,
//!   a pole target) move no vertex: they are left out, and the turn and the move of those above
//!   are folded into the top joints, whose MD5 transforms are in object space anyway. Written
//!   otherwise, each round trip through glTF would add joints: the mesh nodes and the root the
//!   glTF loader invents would come back as joints, and be written again.
//! - **Order.** MD5 names a joint's parent by index and requires it to be an earlier joint. The
//!   article's bones may be stored in any order (a glTF node may come before its parent), so the
//!   joints are the bones in the order `compute_world` walks them: a bone, its children, its
//!   siblings. The skin's joint slots all go to their bone's MD5 joint.
//! - **Bind pose.** An md5mesh joint is its bind-pose world transform, the inverse of the skin's
//!   offset (`offset⁻¹`). A bone written that the skin does not use has no offset; its rest world
//!   serves. Two skin slots on one bone with different offsets cannot both be written: MD5 binds a
//!   joint once.
//! - **Scale.** MD5 stores a position and an orientation per joint: no scale. A scale can be baked
//!   exactly only if it is the same on all three axes and never changes (at rest and in every
//!   frame of every clip) on the bones written and those above them (`scale.rs`).
//! - **Axes.** id's tools are Z-up with a character's front along +x; the article and glTF are
//!   Y-up with the front along +z, and an MD5 file from Blender faces -y (`model::Axes`). A model
//!   in other axes than id's is turned into them as it is written (for glTF's `(x, y, z) → (z, x,
//!   y)`), so it stands up and faces forward in any MD5 viewer, and in this one. Only object space
//!   turns: the top joints and the bind pose. Weights stay in their joints' spaces, untouched.

use super::error::ExportError;
use super::names::md5_names;
use super::scale::{Scales, scales};
use glam::{Quat, Vec3};
use skinning_method::model::{Axes, Model};
use skinning_method::skeleton::{BoneId, Trs};

/// A position's number closer to 0 than this part of the model's size is float rounding, and
/// written 0 ([`Md5Joints::snap`]): a pose that went through glTF's inverse bind matrices comes
/// back with a few ulps of the model's size on every number, another each round trip.
pub const TINY: f32 = 1e-6;

/// The MD5 joints of a model.
pub struct Md5Joints {
    /// MD5 joint `i` is bone `order[i]`...
    pub order: Vec<BoneId>,
    /// ...and bone `b` is MD5 joint `index[b]` (None: a bone not written).
    pub index: Vec<Option<usize>>,
    /// Each MD5 joint's parent, an earlier MD5 joint.
    pub parent: Vec<Option<usize>>,
    /// Each MD5 joint's name as written (`names.rs`: `md5_names`), and the note if one was renamed.
    pub names: Vec<String>,
    pub renamed: Option<String>,
    /// Each bone's constant scale, multiplied down the tree: 1 for a model without scale; the same
    /// on all three axes but on a bone with no joint below it (`scale.rs`).
    pub scale: Vec<Vec3>,
    /// Whether a bone's scale is baked into what is written: the bones written and those above.
    pub needed: Vec<bool>,
    /// Each bone's bind pose without its scale, in the model's own numbers: (position, orientation).
    pub bind: Vec<(Vec3, Quat)>,
    /// A position's number closer to 0 than this is written 0: [`TINY`] of the model's size.
    rounding: f32,
    /// The model's axes, turned into id's as they are written.
    axes: Axes,
    /// That turn as a rotation.
    to_id: Quat,
}

impl Md5Joints {
    /// A point of object space as written: in id's axes, exactly (numbers moved, signs changed).
    pub fn id_point(&self, p: Vec3) -> Vec3 {
        Axes::ID.from_gltf(self.axes.to_gltf(p))
    }

    /// An orientation in object space as written: the same turn.
    pub fn id_rotation(&self, q: Quat) -> Quat {
        if self.axes == Axes::ID { q } else { self.to_id * q }
    }

    /// A position as written: its numbers closer to 0 than [`TINY`] of the model's size made 0,
    /// float rounding that would come back another each round trip.
    pub fn snap(&self, p: Vec3) -> Vec3 {
        Vec3::select(p.abs().cmple(Vec3::splat(self.rounding)), Vec3::ZERO, p)
    }

    /// The name of MD5 joint `i`'s parent as written, for a comment (empty for a root).
    pub fn parent_name(&self, i: usize) -> &str {
        self.parent[i].map_or("", |p| self.names[p].as_str())
    }
}

/// The joints of `model`, from its rest and bind poses; each frame of its clips is checked
/// against them as it is sampled (`scale.rs`: `check_scales`).
pub fn md5_joints(model: &Model) -> Result<Md5Joints, ExportError> {
    let skeleton = &model.skeleton;
    let written = written(model);
    // Parents first, the order of the tree walk; the MD5 joints are the bones written, in it.
    let mut walk = Vec::with_capacity(skeleton.len());
    let mut stack = vec![skeleton.root()];
    while let Some(bone) = stack.pop() {
        walk.push(bone);
        let b = skeleton.bone(bone);
        stack.extend(b.sibling);
        stack.extend(b.first_child);
    }
    let order: Vec<BoneId> = walk.iter().copied().filter(|&b| written[b]).collect();
    let mut index = vec![None; skeleton.len()];
    for (i, &bone) in order.iter().enumerate() {
        index[bone] = Some(i);
    }
    // A written bone's parent is written too, or it is a top joint (`written`).
    let parent = order.iter().map(|&b| skeleton.bone(b).parent.and_then(|p| index[p])).collect();
    let (names, renamed) = md5_names(order.iter().map(|&b| skeleton.bone(b).name.as_str()), "bone");
    let mut needed = written.clone();
    for &b in &order {
        let mut above = skeleton.bone(b).parent;
        while let Some(p) = above.filter(|&p| !needed[p]) {
            needed[p] = true;
            above = skeleton.bone(p).parent;
        }
    }
    let Scales { scale, bound } = scales(model, &walk, &needed)?;
    let rest_world = skeleton.rest_world();
    let bind = (0..skeleton.len())
        .map(|b| match bound[b] {
            Some((world, k)) => {
                let Trs { translation, rotation, .. } = Trs::from_mat4(world);
                (k * translation, rotation)
            }
            None => {
                let Trs { translation, rotation, .. } = Trs::from_mat4(rest_world[b]);
                (translation, rotation)
            }
        })
        .collect();
    let axes = model.axes;
    let to_id = Axes::ID.turn_to_gltf().inverse() * axes.turn_to_gltf();
    // The size of the model as written: each vertex `k` times its bind position (`scale.rs`).
    let (mut min, mut max) = (Vec3::INFINITY, Vec3::NEG_INFINITY);
    for (v, bind) in model.skin.bind().iter().enumerate() {
        let joint = model.skin.influences(v).next().map(|i| model.skin.joints()[i.joint].bone);
        let k = joint.and_then(|b| bound[b]).map_or(1.0, |(_, k)| k);
        let p = k * Vec3::from(*bind);
        (min, max) = (min.min(p), max.max(p));
    }
    let size = (max - min).length();
    let rounding = if size.is_finite() { TINY * size } else { 0.0 };
    Ok(Md5Joints { order, index, parent, names, renamed, scale, needed, bind, rounding, axes, to_id })
}

/// Which bones are written: every joint of the skin, and every bone between one of them and the
/// next joint above it.
fn written(model: &Model) -> Vec<bool> {
    let skeleton = &model.skeleton;
    let is_joint = model.joint_bones();
    let mut written = is_joint.clone();
    let mut between = Vec::new();
    for bone in (0..skeleton.len()).filter(|&b| is_joint[b]) {
        between.clear();
        let mut above = skeleton.bone(bone).parent;
        while let Some(p) = above {
            if is_joint[p] || written[p] {
                between.iter().for_each(|&b| written[b] = true);
                break;
            }
            between.push(p);
            above = skeleton.bone(p).parent;
        }
    }
    written
}

/// One frame's joints as MD5 stores them, in MD5 order: each relative to its parent, its scale
/// baked (the local translation times the parent's constant scale). A top joint is in object
/// space: the bones above it folded in, the whole turned into id's axes.
pub fn md5_locals(joints: &Md5Joints, locals: &[Trs], model: &Model) -> Vec<(Vec3, Quat)> {
    let skeleton = &model.skeleton;
    // A bone's local transform, its translation scaled by its parent's constant scale.
    let baked = |b: BoneId| {
        let Trs { translation, rotation, .. } = locals[b];
        (skeleton.bone(b).parent.map_or(1.0, |p| joints.scale[p].x) * translation, rotation)
    };
    (joints.order.iter().zip(&joints.parent))
        .map(|(&b, parent)| {
            if parent.is_some() {
                return baked(b);
            }
            // From the skeleton's root down to the top joint: each bone's local after its parent's.
            let mut chain = vec![b];
            chain.extend(std::iter::successors(skeleton.bone(b).parent, |&p| skeleton.bone(p).parent));
            let (translation, rotation) =
                chain.iter().rev().fold((Vec3::ZERO, Quat::IDENTITY), |(t, r), &a| {
                    let (local_t, local_r) = baked(a);
                    (t + r * local_t, r * local_r)
                });
            (joints.id_point(translation), joints.id_rotation(rotation))
        })
        .collect()
}
