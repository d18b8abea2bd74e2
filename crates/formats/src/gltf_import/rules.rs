//! Rules of the spec that the schema check does not cover, and what this program does when a file
//! breaks one (the Khronos glTF-Validator reports each as an error).
//!
//! A broken rule is not always a broken file. When the file can still be read only one way, it is
//! read that way and a note says once which rule was broken and what was done; when it could be
//! read two ways, it is refused in one line, naming where, since guessing would show a motion its
//! author may not have meant. Checked here, on the JSON, once the node tree is known to be a tree:
//!
//! - a scene lists only **root** nodes (spec, "Scenes"). A scene that lists a child too: the node
//!   is in the scene either way, under its parent; noted.
//! - a node has a `matrix` **or** `translation` / `rotation` / `scale` (spec, "Transformations").
//!   Both, placing the node alike: the matrix is used, noted. Placing it differently: refused.
//! - an **animated** node has no `matrix`. One that does: the matrix is split into translation,
//!   rotation and scale (exactly: a node's matrix has no shear, `nodes.rs` checks it), and the
//!   animation replaces the parts it moves; noted.
//! - a skin's `skeleton` is the joints' common root or above it (spec, "Skins"). One that is not:
//!   nothing here reads it (each joint is placed by its own ancestors, as `compute_world` walks
//!   them), so it is noted and ignored.
//! - one animation moves each node property with **one channel** (spec, "Animations"). Two on the
//!   same property that read the same keys: one is used, noted. Two with different keys: refused.

use super::error::{ImportError, counted, label};
use glam::{Mat4, Quat, Vec3};
use gltf::json;
use skinning_method::skeleton::Skeleton;
use skinning_method::transform::Trs;
use std::collections::HashMap;

/// Checks every rule above on `root`, whose nodes `skeleton` holds (bone `i` is node `i`). Adds a
/// note per rule broken in a way that reads one way; refuses the first that does not.
pub fn check(root: &json::Root, skeleton: &Skeleton, notes: &mut Vec<String>) -> Result<(), ImportError> {
    let node_label = |i: usize| label(i, root.nodes[i].name.as_deref());
    // A node's parent in the file (the synthetic root above several roots is not a node).
    let parent = |i: usize| skeleton.bone(i).parent.filter(|&p| p < root.nodes.len());

    let mut listed_children = root.scenes.iter().enumerate().flat_map(|(s, scene)| {
        scene.nodes.iter().map(move |n| (s, n.value())).filter(|&(_, n)| parent(n).is_some())
    });
    if let Some((s, n)) = listed_children.next() {
        let scene = label(s, root.scenes[s].name.as_deref());
        let node = node_label(n);
        let above = parent(n).map(node_label).unwrap_or_default();
        notes.push(format!(
            "scene {scene} lists node {node} among its roots, but it is a child of node {above}{} \
             (glTF: a scene lists root nodes only); each such node stays under its parent",
            more(listed_children.count(), "such node", "such nodes")
        ));
    }

    matrix_and_trs(root, notes)?;
    animated_matrices(root, notes);
    skeleton_roots(root, skeleton, notes);
    one_channel_per_property(root, notes)
}

/// Nodes with both a matrix and translation, rotation or scale: the matrix when both place the
/// node alike (within float rounding), refused when they do not.
fn matrix_and_trs(root: &json::Root, notes: &mut Vec<String>) -> Result<(), ImportError> {
    let both = root.nodes.iter().enumerate().filter(|(_, n)| {
        n.matrix.is_some() && (n.translation.is_some() || n.rotation.is_some() || n.scale.is_some())
    });
    let Some((first, _)) = both.clone().next() else { return Ok(()) };
    for (i, node) in both.clone() {
        let matrix = Mat4::from_cols_array(&node.matrix.unwrap_or_default());
        let rotation = Quat::from_array(node.rotation.as_ref().map_or([0.0, 0.0, 0.0, 1.0], |r| r.0));
        let trs = Trs {
            translation: Vec3::from(node.translation.unwrap_or([0.0; 3])),
            rotation: if rotation.length() > 1e-6 { rotation.normalize() } else { Quat::NAN },
            scale: Vec3::from(node.scale.unwrap_or([1.0; 3])),
        };
        let size = matrix.to_cols_array().iter().fold(1.0f32, |a, x| a.max(x.abs()));
        if !trs.to_mat4().abs_diff_eq(matrix, 1e-5 * size) {
            return Err(ImportError::Node {
                node: label(i, node.name.as_deref()),
                problem: "it has both a matrix and translation, rotation or scale, and they place it \
                          differently (glTF allows one or the other, so the file reads two ways); \
                          remove one"
                    .into(),
            });
        }
    }
    notes.push(format!(
        "node {} has both a matrix and translation, rotation or scale{} (glTF: one or the other); \
         they place it alike, so the matrix is used",
        label(first, root.nodes[first].name.as_deref()),
        more(both.count() - 1, "node", "nodes")
    ));
    Ok(())
}

/// Animated nodes that have a matrix: it is split into the parts the animation moves.
fn animated_matrices(root: &json::Root, notes: &mut Vec<String>) {
    let mut animated = vec![false; root.nodes.len()];
    for channel in root.animations.iter().flat_map(|a| &a.channels) {
        animated[channel.target.node.value()] = true;
    }
    let mut with_matrix = (0..root.nodes.len()).filter(|&i| animated[i] && root.nodes[i].matrix.is_some());
    if let Some(first) = with_matrix.next() {
        notes.push(format!(
            "node {} is animated but has a matrix{} (glTF: an animated node has translation, rotation \
             and scale instead); the matrix is split into them, and the animation replaces what it moves",
            label(first, root.nodes[first].name.as_deref()),
            more(with_matrix.count(), "node", "nodes")
        ));
    }
}

/// Skins whose `skeleton` is not a joint's ancestor (or the joint itself): noted, as nothing reads it.
fn skeleton_roots(root: &json::Root, skeleton: &Skeleton, notes: &mut Vec<String>) {
    let above = |top: usize, mut node: usize| loop {
        if node == top {
            return true;
        }
        match skeleton.bone(node).parent {
            Some(p) => node = p,
            None => return false,
        }
    };
    let mut misplaced = root.skins.iter().enumerate().filter_map(|(s, skin)| {
        let top = skin.skeleton?.value();
        let joint = skin.joints.iter().map(|j| j.value()).find(|&j| !above(top, j))?;
        Some((s, top, joint))
    });
    if let Some((s, top, joint)) = misplaced.next() {
        notes.push(format!(
            "skin {} names node {} as its skeleton root, but that node is not above its joint node {}{} \
             (glTF: the skeleton root is the joints' common root or above it); nothing here reads it: \
             each joint is placed by its own ancestors",
            label(s, root.skins[s].name.as_deref()),
            label(top, root.nodes[top].name.as_deref()),
            label(joint, root.nodes[joint].name.as_deref()),
            more(misplaced.count(), "skin", "skins")
        ));
    }
}

/// Two channels of one animation on the same node property: one is used when both read the same
/// keys (the same input and output accessors, the same interpolation); refused otherwise.
fn one_channel_per_property(root: &json::Root, notes: &mut Vec<String>) -> Result<(), ImportError> {
    let mut repeated = Vec::new();
    for (a, animation) in root.animations.iter().enumerate() {
        let mut first_channel = HashMap::new();
        for (c, channel) in animation.channels.iter().enumerate() {
            let (node, property) = (channel.target.node.value(), property_name(&channel.target.path));
            let Some(&earlier) = first_channel.get(&(node, property)) else {
                first_channel.insert((node, property), c);
                continue;
            };
            let keys = |c: usize| {
                let sampler = &animation.samplers[animation.channels[c].sampler.value()];
                (sampler.input.value(), sampler.output.value(), format!("{:?}", sampler.interpolation))
            };
            let node = label(node, root.nodes[node].name.as_deref());
            if keys(earlier) != keys(c) {
                return Err(ImportError::Animation {
                    animation: label(a, animation.name.as_deref()),
                    channel: c,
                    problem: format!(
                        "it moves the {property} of node {node}, as channel {earlier} does, with other \
                         keys (glTF: one channel per node and property, so the file reads two ways); \
                         remove one"
                    ),
                });
            }
            repeated.push((label(a, animation.name.as_deref()), earlier, c, property, node));
        }
    }
    if let Some((animation, earlier, c, property, node)) = repeated.first() {
        notes.push(format!(
            "animation {animation} moves the {property} of node {node} with channels {earlier} and {c}{} \
             (glTF: one channel per node and property); they read the same keys, so one is used",
            more(repeated.len() - 1, "pair", "pairs")
        ));
    }
    Ok(())
}

fn property_name(path: &json::validation::Checked<json::animation::Property>) -> &'static str {
    use json::animation::Property;
    match path {
        json::validation::Checked::Valid(Property::Translation) => "translation",
        json::validation::Checked::Valid(Property::Rotation) => "rotation",
        json::validation::Checked::Valid(Property::Scale) => "scale",
        json::validation::Checked::Valid(Property::MorphTargetWeights) => "morph weights",
        json::validation::Checked::Invalid => "unknown property",
    }
}

/// `, and 2 more nodes` after the first one named; nothing when there are none.
fn more(n: usize, one: &str, many: &str) -> String {
    if n == 0 { String::new() } else { format!(", and {} more", counted(n, one, many)) }
}
