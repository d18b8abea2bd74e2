//! Meshes become the skin's vertices and the picture's edges (spec, "Geometry").
//!
//! A node with a `mesh` and a `skin` is a **skinned mesh**: each vertex has a bind position
//! (`POSITION`, in the space the inverse bind matrices expect) and its influences (`JOINTS_n`,
//! `WEIGHTS_n`, see `weights.rs`). The spec says to ignore that node's own transform: the joints
//! alone place the skin. A mesh is a list of **primitives**; we take the vertices of every one.
//!
//! A node with a mesh and no skin is a **rigid** mesh: it moves with its node, as a whole. That is
//! article 000's first method, "joint animation", and it fits the skin as it is: the node is a
//! joint whose offset undoes its rest world transform, and each vertex, placed by that transform,
//! has one influence, weight 1. Rigid vertices come after all the skinned ones. A file may have
//! no skin at all (a mesh animated by its morph targets alone, a static prop): every mesh is then
//! rigid, and the model is shown all the same. One whose shown scene holds no mesh loads with
//! nothing to draw ([`nothing_to_draw`] says why, for `--info`).
//!
//! Vertices are taken in file order: skinned mesh nodes by node index, then their primitives in
//! order, then the vertices; then the rigid meshes the same way (`primitives.rs` reads them). Only
//! nodes in the shown scene count. A primitive without JOINTS_0 and WEIGHTS_0 on a node with a skin
//! is drawn rigidly with its node, as three.js draws it, and said once.

use super::error::{ImportError, counted, label};
use super::nodes::Nodes;
use super::primitives::{Meshes, Reading};
use super::skins::{SkinSlots, rest_palette};
use super::weights::has_skin_data;
use glam::Mat4;
use skinning_method::skin::{Joint, Skin};

/// Reads every mesh on a node in the scene. `joints` are the skins' joint slots; one more is added
/// per rigid mesh.
pub fn meshes(
    document: &gltf::Document,
    buffers: &[Vec<u8>],
    nodes: &Nodes,
    mut joints: Vec<Joint>,
    skins: &[SkinSlots],
    notes: &mut Vec<String>,
) -> Result<Meshes, ImportError> {
    // A node with a skin whose mesh has a primitive with skin data; the primitives without it are
    // drawn rigidly with their node, as if it had no skin (as three.js draws them).
    let any = |n: &gltf::Node, skin_data: bool| {
        n.mesh().is_some_and(|m| m.primitives().any(|p| has_skin_data(&p) == skin_data))
    };
    let skinned_node = |n: &gltf::Node| n.skin().is_some() && any(n, true);
    let rigid_node = |n: &gltf::Node| n.skin().is_none() || any(n, false);
    let skinned: Vec<gltf::Node> = nodes.shown_meshes(document).filter(skinned_node).collect();
    let rigid: Vec<gltf::Node> = nodes.shown_meshes(document).filter(rigid_node).collect();
    let rest_world = &nodes.rest_world;
    let rigid_joint = rigid_joints(&rigid, rest_world, &mut joints, notes);

    // Where each vertex lands in the rest pose must fit in 32-bit floats too (`primitives.rs`: `add`).
    let palette = rest_palette(document, rest_world, &joints, skins)?;
    let mut reading = Reading::new(buffers, Skin::new(joints), palette);
    for node in &skinned {
        let (Some(mesh), Some(skin)) = (node.mesh(), node.skin()) else { continue };
        reading.skinned(&mesh, node, &skins[skin.index()].joints)?;
    }
    for (node, joint) in rigid.iter().zip(rigid_joint) {
        let (Some(mesh), Some(joint)) = (node.mesh(), joint) else { continue };
        reading.rigid(&mesh, node, joint, rest_world[node.index()])?;
    }
    Ok(reading.finish(notes))
}

/// A rigid mesh's joint: its node, with the offset that undoes the node's rest world transform,
/// added to `joints`; None for a node whose transform cannot be undone (its mesh is left out).
fn rigid_joints(
    rigid: &[gltf::Node],
    rest_world: &[Mat4],
    joints: &mut Vec<Joint>,
    notes: &mut Vec<String>,
) -> Vec<Option<usize>> {
    let mut rigid_joint = Vec::new();
    for node in rigid {
        let offset = rest_world[node.index()].inverse();
        if offset.is_finite() {
            rigid_joint.push(Some(joints.len()));
            joints.push(Joint { bone: node.index(), offset });
        } else {
            let name = label(node.index(), node.name());
            notes.push(format!("left out the mesh on node {name}: its rest transform has a scale of 0"));
            rigid_joint.push(None);
        }
    }
    rigid_joint
}

/// Why the shown scene has no vertex to draw, in one line that says what to do: its meshes are in
/// another scene (the first one's node named), or the file has none (what it has instead).
pub fn nothing_to_draw(document: &gltf::Document, nodes: &Nodes) -> String {
    let mut outside = nodes.with_mesh.iter().filter(|&&i| !nodes.in_scene[i]);
    if let (Some(&first), Some(scene)) = (outside.next(), &nodes.scene) {
        let node = label(first, document.nodes().nth(first).and_then(|n| n.name()));
        let others = match outside.count() {
            0 => String::new(),
            more => format!(" (and {more} more)"),
        };
        return format!(
            "the mesh on node {node}{others} is not in scene {scene}, the scene shown, which has no mesh \
             to draw; add its node to that scene"
        );
    }
    format!(
        "the file has no mesh to draw (it has {}, {}, {} and {}); give a file with a mesh",
        counted(document.nodes().count(), "node", "nodes"),
        counted(document.meshes().count(), "mesh", "meshes"),
        counted(document.skins().count(), "skin", "skins"),
        counted(document.animations().count(), "animation", "animations")
    )
}
