//! Skins become joint slots: glTF's `skins` are the article's offsets (spec, "Skins").
//!
//! A glTF skin lists its `joints`, node indices, and their `inverseBindMatrices`: the article's
//! **offsets**, given by the file instead of computed from the rest pose (a file may bind its mesh
//! in another pose than the one its nodes rest in). When the matrices are absent, each is the
//! identity. A skinned vertex's JOINTS_n values (every set) index this list, not the nodes.
//!
//! Our [`Skin`](skinning_method::skin::Skin) has one list of joint slots, each a bone and its offset. A file
//! may have several skins, even over the same nodes with different matrices, so every glTF skin
//! becomes its own **range of slots**: skin 0's joints first, then skin 1's, and so on. A vertex
//! of a mesh skinned by skin `s` with JOINTS value `j` uses slot `first slot of s + j`. The palette
//! is then per slot, `world[bone] * offset`, exactly the article's formula.
//!
//! A skin that no mesh of the shown scene uses (it belongs to another scene) gets no slots: its
//! joints move nothing that is drawn, so they are not the bones of what is shown either.

use super::accessors::read_floats;
use super::error::{ImportError, counted, label};
use super::nodes::Nodes;
use glam::{Mat4, Vec4};
use skinning_method::skin::{Joint, compute_palette};
use std::ops::Range;

/// One glTF skin: its name and the joint slots it became.
#[derive(Clone, Debug, PartialEq)]
pub struct SkinSlots {
    pub name: String,
    /// Slots `joints.start..joints.end` of the model's skin are this skin's joints, in its order.
    pub joints: Range<usize>,
}

/// Every skin's joints, one after the other, with their offsets; `used[s]` says whether a mesh of
/// the shown scene uses skin `s` (an unused one gets an empty range of slots).
pub fn joint_slots(
    document: &gltf::Document,
    buffers: &[Vec<u8>],
    used: &[bool],
) -> Result<(Vec<Joint>, Vec<SkinSlots>), ImportError> {
    let mut joints = Vec::new();
    let mut skins = Vec::new();
    for skin in document.skins() {
        if !used[skin.index()] {
            let name = skin.name().unwrap_or_default().to_string();
            skins.push(SkinSlots { name, joints: joints.len()..joints.len() });
            continue;
        }
        let name = label(skin.index(), skin.name());
        let fail = |problem: String| ImportError::Skin { skin: name.clone(), problem };
        let bones: Vec<usize> = skin.joints().map(|node| node.index()).collect();
        if bones.is_empty() {
            return Err(fail("it lists no joints".into()));
        }
        let offsets = match skin.inverse_bind_matrices() {
            None => vec![Mat4::IDENTITY; bones.len()],
            Some(accessor) => {
                let usage = format!("inverseBindMatrices of skin {name}");
                let matrices = read_floats::<16>(&accessor, buffers, &usage)?;
                if matrices.len() < bones.len() {
                    return Err(fail(format!(
                        "it has {} but only {}; each joint needs one",
                        counted(bones.len(), "joint", "joints"),
                        counted(matrices.len(), "inverse bind matrix", "inverse bind matrices")
                    )));
                }
                let mut offsets = Vec::with_capacity(bones.len());
                for (j, m) in matrices.iter().take(bones.len()).enumerate() {
                    let m = Mat4::from_cols_array(m);
                    // An affine matrix: the blend moves points with it as such (spec: last row 0 0 0 1).
                    if !m.row(3).abs_diff_eq(Vec4::W, 1e-3) {
                        return Err(fail(format!("inverse bind matrix {j}'s last row is not 0 0 0 1")));
                    }
                    offsets.push(m);
                }
                offsets
            }
        };
        let first = joints.len();
        joints.extend(bones.iter().zip(offsets).map(|(&bone, offset)| Joint { bone, offset }));
        skins.push(SkinSlots {
            name: skin.name().unwrap_or_default().to_string(),
            joints: first..joints.len(),
        });
    }
    Ok((joints, skins))
}

/// For every skin, whether a node of the shown scene has a mesh and that skin.
pub fn used(document: &gltf::Document, nodes: &Nodes) -> Vec<bool> {
    let mut used = vec![false; document.skins().len()];
    for node in nodes.shown_meshes(document) {
        if let Some(skin) = node.skin() {
            used[skin.index()] = true;
        }
    }
    used
}

/// A note for each skin a mesh of the shown scene uses whose joints are not all in that scene's
/// node trees (the validator's NODE_SKIN_NO_SCENE: the spec wants a skin's common root in the
/// scene of the mesh that uses it). Nothing is refused: each joint is posed from its own parent
/// nodes, and the camera frames the mesh where the joints put it. (three.js r187 does not pose
/// such joints at all: their world matrices stay as they were, so its mesh neither stands where
/// the joints' parents put it nor moves.)
pub fn outside_scene(document: &gltf::Document, nodes: &Nodes, used: &[bool]) -> Vec<String> {
    let Some(scene) = &nodes.scene else { return Vec::new() };
    let mut notes = Vec::new();
    for skin in document.skins().filter(|s| used[s.index()]) {
        let mut outside = skin.joints().filter(|j| !nodes.in_scene[j.index()]);
        let Some(first) = outside.next() else { continue };
        let more = match outside.count() {
            0 => String::new(),
            n => format!(" and {} more", counted(n, "joint", "joints")),
        };
        notes.push(format!(
            "skin {}'s joint node {}{more} is in no node tree of scene {scene}, which shows its mesh (the \
             validator's NODE_SKIN_NO_SCENE): posed from its own parent nodes, and framed where they \
             put the mesh",
            label(skin.index(), skin.name()),
            label(first.index(), first.name())
        ));
    }
    notes
}

/// The palette of the rest pose, `rest world * offset` for every joint slot (`rest_world` from
/// the nodes, already finite). Each factor may be finite while the product is not (a node at 3e38
/// with an inverse bind matrix that moves it 3e38 further); such a joint is refused, named, since
/// a still model uses this palette every frame. `skins` are the glTF skins' slots; a slot after theirs
/// is a rigid mesh's, and its node is named instead.
pub fn rest_palette(
    document: &gltf::Document,
    rest_world: &[Mat4],
    joints: &[Joint],
    skins: &[SkinSlots],
) -> Result<Vec<Mat4>, ImportError> {
    let mut palette = vec![Mat4::IDENTITY; joints.len()];
    compute_palette(rest_world, joints, &mut palette);
    let Some(slot) = palette.iter().position(|m| !m.is_finite()) else {
        return Ok(palette);
    };
    let bone = joints[slot].bone;
    let node = label(bone, document.nodes().nth(bone).and_then(|n| n.name()));
    let problem = "in the rest pose, its node's world transform times its inverse bind matrix \
                   overflows 32-bit floats; the file's numbers are too large, scale the model down";
    match skins.iter().enumerate().find(|(_, s)| s.joints.contains(&slot)) {
        Some((k, s)) => Err(ImportError::Skin {
            skin: label(k, Some(&s.name)),
            problem: format!("joint {} (node {node}): {problem}", slot - s.joints.start),
        }),
        None => Err(ImportError::Node {
            node,
            problem: "in the rest pose, its mesh's palette matrix overflows 32-bit floats; the file's \
                      numbers are too large, scale the model down"
                .into(),
        }),
    }
}
