//! The skin: joint slot `j` is a node and its offset, glTF's inverse bind matrix. One glTF skin
//! holds every slot when no two slots bind one bone differently; a glTF skin lists each node once
//! (spec, "Skins"), so otherwise each part gets a skin of the slots its vertices use (`meshes.rs`
//! asks for which).

use super::buffer::{File, push};
use super::error::ExportError;
use super::json::Skin;
use super::nodes::{Nodes, Turn};
use skinning_method::model::{Model, Part};
use skinning_method::printable::printable;
use std::collections::BTreeMap;

/// A glTF skin: the slots it holds, and where each slot of the model's skin is in it.
pub struct SkinOf {
    pub slots: Vec<usize>,
    /// Where each slot of the model's skin is in this one.
    pub index: BTreeMap<usize, usize>,
}

/// A glTF skin's joints and inverse bind matrices; returns the skin's index.
pub fn write_skin(file: &mut File, model: &Model, nodes: &Nodes, skin: &SkinOf, turn: Turn) -> usize {
    let joints = model.skin.joints();
    // An inverse bind matrix's last row must be exactly 0 0 0 1 (spec, "Skins"); an offset worked
    // out as an inverse may miss it by a rounding.
    let affine = |m: glam::Mat4| glam::Mat4::from(glam::Affine3A::from_mat4(m));
    let offsets: Vec<[f32; 16]> =
        skin.slots.iter().map(|&j| affine(turn.offset(joints[j].offset)).to_cols_array()).collect();
    let inverse_bind_matrices = file.accessor(&offsets, None, false);
    // A joint's node: a bone left out (a synthetic root) is never a joint (`nodes.rs`).
    let joints = skin.slots.iter().filter_map(|&j| nodes.node_of[joints[j].bone]).collect();
    push(&mut file.root.skins, Skin { name: "skin".into(), joints, inverse_bind_matrices })
}

/// The slots the vertices of `part` use, in order.
pub fn used_slots(model: &Model, part: &Part) -> Vec<usize> {
    let mut used = vec![false; model.skin.joints().len()];
    for v in part.vertices.clone() {
        for influence in model.skin.influences(v) {
            used[influence.joint] = true;
        }
    }
    (0..used.len()).filter(|&j| used[j]).collect()
}

/// A glTF skin of `slots`: two slots on one bone with the same offset become one joint; with
/// different offsets they cannot be one skin, and the error names the bone.
pub fn skin_of(model: &Model, slots: &[usize]) -> Result<SkinOf, ExportError> {
    let joints = model.skin.joints();
    let mut skin = SkinOf { slots: Vec::new(), index: BTreeMap::new() };
    for &j in slots {
        let same_bone = skin.slots.iter().position(|&k| joints[k].bone == joints[j].bone);
        let at = match same_bone {
            Some(i) if joints[skin.slots[i]].offset.abs_diff_eq(joints[j].offset, 1e-6) => i,
            Some(_) => {
                let bone = printable(&model.skeleton.bone(joints[j].bone).name).into_owned();
                return Err(ExportError::BoundTwice { bone });
            }
            None => push(&mut skin.slots, j),
        };
        skin.index.insert(j, at);
    }
    Ok(skin)
}
