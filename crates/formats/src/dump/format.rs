//! What a dump's JSON holds, field by field (see the dump's module comment): each shape serde writes,
//! borrowing the pose's buffers where it can, so a frame is written without copying it.

use glam::{Mat4, Vec3A};
use serde::Serialize;
use skinning_method::transform::Trs;

/// A matrix as JSON: 16 numbers, column by column.
pub(super) type Matrix = [f32; 16];

/// Matrices as JSON, each 16 numbers column by column, straight from the pose's buffers (nothing
/// copied, nothing allocated).
pub(super) struct Matrices<'a>(pub &'a [Mat4]);

impl Serialize for Matrices<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(Mat4::to_cols_array))
    }
}

/// Positions (or normals) as JSON, each `[x, y, z]`.
pub(super) struct Points<'a>(pub &'a [Vec3A]);

impl Points<'_> {
    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Points<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|p| p.to_array()))
    }
}

// What the JSON holds, field by field. serde writes each `f32` in its shortest form (0.7, not
// 0.699999988079071); it would write a NaN or an infinity as `null`, so none reaches it.
#[derive(Serialize)]
pub(super) struct BoneOut<'a> {
    pub name: &'a str,
    pub parent: Option<usize>,
    pub first_child: Option<usize>,
    pub sibling: Option<usize>,
    pub rest_local: Matrix,
    pub rest_world: Matrix,
}

#[derive(Serialize)]
pub(super) struct JointOut {
    pub bone: usize,
    pub offset: Matrix,
}

#[derive(Serialize)]
pub(super) struct InfluenceOut {
    pub joint: usize,
    pub weight: f32,
}

#[derive(Serialize)]
pub(super) struct VertexOut {
    pub bind: [f32; 3],
    /// The bind normal, unit length; absent for a skin without normals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normal: Option<[f32; 3]>,
    pub influences: Vec<InfluenceOut>,
}

#[derive(Serialize)]
pub(super) struct DualQuatOut {
    pub real: [f32; 4],
    pub dual: [f32; 4],
}

#[derive(Serialize)]
pub(super) struct PartOut<'a> {
    pub name: &'a str,
    pub bone: Option<usize>,
    pub first: usize,
    pub count: usize,
    pub skinned: bool,
}

#[derive(Serialize)]
pub(super) struct FrameOut<'a> {
    pub time: f64,
    pub local: Matrices<'a>,
    pub world: Matrices<'a>,
    pub palette: Matrices<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dq_palette: Option<Vec<DualQuatOut>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dq_scale: Option<f32>,
    /// Every morph target's weight this frame (see `morphs.rs`); absent for a model without.
    #[serde(skip_serializing_if = "<[f32]>::is_empty")]
    pub morph_weights: &'a [f32],
    /// The skinned parts' vertices, in order.
    pub skinned: Points<'a>,
    /// The rigid parts' vertices (a glTF mesh without a skin), after them; absent when there are none.
    #[serde(skip_serializing_if = "Points::is_empty")]
    pub rigid: Points<'a>,
    /// The skinned normals of the vertices in `skinned`, in their order; absent for a skin without
    /// normals.
    #[serde(skip_serializing_if = "Points::is_empty")]
    pub normals: Points<'a>,
    /// The same for `rigid`.
    #[serde(skip_serializing_if = "Points::is_empty")]
    pub rigid_normals: Points<'a>,
    /// Each chain's solve (`reach.rs`); absent when nothing reaches.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reach: Vec<super::reach::ReachOut<'a>>,
    /// With layers of clips (`--blend`, `--additive`, `--mask`): each layer, and the blended local
    /// poses (`dump/layers.rs`); absent for one clip.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub mixed: Option<MixedOut<'a>>,
    /// The clip's travel so far (`root_motion.rs`); absent unless `--root-motion` asks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root_motion: Option<super::root_motion::RootOut>,
}

/// A frame's layers of clips and the pose they blend to (`mixer.rs`).
#[derive(Serialize)]
pub(super) struct MixedOut<'a> {
    /// Whether the blend layers play in step (phase sync).
    pub in_step: bool,
    pub layers: Vec<LayerOut<'a>>,
    /// The blended local pose of every bone, what `local` is made from (`local = T * R * S`).
    pub trs: Poses<'a>,
}

/// One layer in a frame: its clip (name and index), what it does, where it was, and the pose its
/// clip gave; a mask's root bone; an additive layer's reference pose.
#[derive(Serialize)]
pub(super) struct LayerOut<'a> {
    pub clip: &'a str,
    pub index: usize,
    /// `blend`, `mask` or `additive`.
    pub kind: &'a str,
    pub weight: f32,
    /// Seconds into the clip (within its loop).
    pub time: f32,
    /// The clip's length: with `in_step`, every blend layer's `time / duration` is the same.
    pub duration: f32,
    /// A masked layer's bone: it and every bone under it (by the bones' `first_child` and
    /// `sibling` links) take the layer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bone: Option<usize>,
    pub pose: Poses<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference: Option<Poses<'a>>,
}

/// Local poses as JSON, each `{"translation": [x, y, z], "rotation": [x, y, z, w], "scale": [x, y,
/// z]}`, straight from the mixer's buffers.
pub(super) struct Poses<'a>(pub &'a [Trs]);

impl Serialize for Poses<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct TrsOut {
            translation: [f32; 3],
            rotation: [f32; 4],
            scale: [f32; 3],
        }
        serializer.collect_seq(self.0.iter().map(|t| TrsOut {
            translation: t.translation.to_array(),
            rotation: t.rotation.to_array(),
            scale: t.scale.to_array(),
        }))
    }
}
