//! Bones become nodes, a model in other axes is turned into glTF's as it is written, and each mesh
//! gets the node that holds it.
//!
//! Bone `i` is a node with its rest translation, rotation and scale, its children the first child
//! and each next sibling, in the bones' order. One bone is left out: the root a loader adds above
//! a file's several roots ([`SYNTHETIC_ROOT`](crate::gltf_import::SYNTHETIC_ROOT), and MD5's),
//! when nothing but holding them is its job (no turn or move of its own, no joint, no clip moves
//! it): written, a reader would add another above it, and one more each round trip. A mesh hangs
//! on the node it came from where that is a root nothing else needs ([`free_roots`], [`hang`]), else
//! on a new node: either way a scene root, as the spec wants a skinned mesh's node.
//!
//! **Up and front.** glTF is Y-up, a character facing +z (spec, "Coordinate System and Units");
//! an MD5 model has id's axes, Z-up and facing +x, or Blender's, Z-up and facing -y
//! (`model::Axes`). Its numbers are turned into glTF's as the camera turns them
//! (`model::Axes::to_gltf`; for id's axes `(x, y, z) → (y, z, x)`), the turn `T`: every point of the
//! mesh and every normal, and the top bones' rest transforms and keys (`T · local`), so every world
//! transform becomes `T · world`. A joint's offset becomes `offset · T⁻¹`, and then
//! `T·world · offset·T⁻¹ · T·bind = T · (world · offset · bind)`: the same skinned mesh, turned, its
//! front along +z for every glTF viewer. (`md5_export` turns into id's axes, so a round trip comes
//! back facing the way id's tools face.)

use super::buffer::{File, push};
use super::json::Node;
use glam::{Mat4, Quat, Vec3, Vec4};
use skinning_method::model::{Axes, Model, Part};
use skinning_method::skeleton::{BoneId, Skeleton, Trs};

/// How a model's numbers are turned into glTF's axes as they are written: not at all for a model
/// in glTF's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn(pub Axes);

impl Turn {
    pub fn of(model: &Model) -> Turn {
        Turn(model.axes)
    }

    /// Whether nothing turns: the model's axes are glTF's.
    pub fn none(self) -> bool {
        self.0 == Axes::GLTF
    }

    /// A point or a direction, exactly (no rounding: it only moves numbers and changes signs).
    pub fn point(self, p: Vec3) -> Vec3 {
        self.0.to_gltf(p)
    }

    /// An orientation of a top bone: the turn, then it.
    pub fn rotation(self, q: Quat) -> Quat {
        if self.none() { q } else { self.0.turn_to_gltf() * q }
    }

    /// An offset: `offset · T⁻¹`, whose columns are where `T⁻¹` takes glTF's x, y and z.
    pub fn offset(self, offset: Mat4) -> Mat4 {
        let back = |e: Vec3| self.0.from_gltf(e).extend(0.0);
        let back = Mat4::from_cols(back(Vec3::X), back(Vec3::Y), back(Vec3::Z), Vec4::W);
        if self.none() { offset } else { offset * back }
    }

    /// A top bone's rest transform: `T · local`.
    pub fn rest(self, Trs { translation, rotation, scale }: Trs) -> Trs {
        Trs { translation: self.point(translation), rotation: self.rotation(rotation), scale }
    }
}

/// Which node each bone became, and the scene's roots.
pub struct Nodes {
    /// Bone `b` is node `node_of[b]`; None for the root left out.
    pub node_of: Vec<Option<usize>>,
    /// The nodes without a parent.
    pub roots: Vec<usize>,
    /// Whether bone `b` hangs from no node: its transform and keys are turned.
    pub top: Vec<bool>,
}

/// The bones as nodes 0, 1, ... (`animated[b]`: some clip moves bone `b`).
pub fn nodes(file: &mut File, model: &Model, animated: &[bool], turn: Turn) -> Nodes {
    let skeleton = &model.skeleton;
    let is_joint = model.joint_bones();
    let root = skeleton.root();
    let synthetic = [crate::gltf_import::SYNTHETIC_ROOT, crate::md5_import::SYNTHETIC_ROOT];
    let bone = skeleton.bone(root);
    let only_holds = synthetic.contains(&bone.name.as_str())
        && bone.rest == Trs::IDENTITY
        && !is_joint[root]
        && !animated[root]
        && bone.first_child.is_some();
    let mut node_of = vec![None; skeleton.len()];
    let mut next = 0;
    for (b, slot) in node_of.iter_mut().enumerate() {
        if !(only_holds && b == root) {
            *slot = Some(next);
            next += 1;
        }
    }
    let top: Vec<bool> =
        (0..skeleton.len()).map(|b| skeleton.bone(b).parent.is_none_or(|p| node_of[p].is_none())).collect();
    for (b, bone) in skeleton.bones().iter().enumerate() {
        if node_of[b].is_none() {
            continue;
        }
        let Trs { translation, rotation, scale } = if top[b] { turn.rest(bone.rest) } else { bone.rest };
        let children = children(skeleton, bone.first_child).iter().filter_map(|&c| node_of[c]).collect();
        file.root.nodes.push(Node {
            name: bone.name.clone(),
            children,
            translation: (translation != Vec3::ZERO).then(|| translation.to_array()),
            rotation: (rotation != Quat::IDENTITY).then(|| rotation.to_array()),
            scale: (scale != Vec3::ONE).then(|| scale.to_array()),
            ..Node::default()
        });
    }
    let roots = (0..skeleton.len()).filter(|&b| top[b]).filter_map(|b| node_of[b]).collect();
    Nodes { node_of, roots, top }
}

/// A bone's children in the article's order: the first child, then its sibling, and so on.
fn children(skeleton: &Skeleton, first_child: Option<BoneId>) -> Vec<BoneId> {
    std::iter::successors(first_child, |&child| skeleton.bone(child).sibling).collect()
}

/// The bones a mesh may hang on again: roots of their own that nothing else needs (no joint, no
/// child, no key).
pub fn free_roots(model: &Model, nodes: &Nodes, animated: &[bool]) -> Vec<bool> {
    let is_joint = model.joint_bones();
    (0..model.skeleton.len())
        .map(|b| {
            let bone = model.skeleton.bone(b);
            let needed = is_joint[b] || animated[b] || bone.first_child.is_some();
            nodes.top[b] && nodes.node_of[b].is_some() && !needed
        })
        .collect()
}

/// The node that holds `part`'s mesh, skinned by `skin`: the node it came from if that is `free`
/// (and no more, then), else a new one. Returns its index.
pub fn hang(
    file: &mut File,
    part: &Part,
    mesh: usize,
    skin: usize,
    nodes: &Nodes,
    free: &mut [bool],
) -> usize {
    match part.bone.filter(|&b| part.skinned && free[b]) {
        Some(b) => {
            free[b] = false;
            // A free bone has a node (`free_roots`).
            let node = nodes.node_of[b].unwrap_or_default();
            file.root.nodes[node].mesh = Some(mesh);
            file.root.nodes[node].skin = Some(skin);
            node
        }
        None => {
            let name = part.name.clone();
            push(&mut file.root.nodes, Node { name, mesh: Some(mesh), skin: Some(skin), ..Node::default() })
        }
    }
}
