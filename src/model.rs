//! A skinned model, and one frame of the method from start to finish.
//!
//! A [`Model`] is what a file would load: a skeleton, a skin, and the offsets computed once from
//! the bind pose. A [`Pose`] holds everything that changes per frame, allocated once and refilled
//! every frame in the article's order:
//!
//! 1. **animate**: the clip gives every bone a local transform for this time;
//! 2. **world**: walk the tree, `world = parent world * local`;
//! 3. **palette**: `world * offset` once per bone;
//! 4. **blend**: every vertex, `Σ weight * palette[bone] * bind`.

use crate::clip::Clip;
use crate::skeleton::{BoneId, Skeleton, compute_offsets};
use crate::skin::{Skin, blend, compute_palette};
use glam::{Mat4, Quat, Vec3A};
use std::fmt;

/// A skeleton, the skin bound to it, and the bind-pose data derived from them.
#[derive(Clone, Debug)]
pub struct Model {
    pub skeleton: Skeleton,
    pub skin: Skin,
    /// World transform of every bone in the bind pose.
    pub bind_world: Vec<Mat4>,
    /// Inverse of `bind_world`: mesh space to each bone's space.
    pub offsets: Vec<Mat4>,
}

/// The skin was made for a skeleton of another size.
#[derive(Clone, Debug, PartialEq)]
pub struct BoneCountMismatch {
    pub skeleton: usize,
    pub skin: usize,
}

impl fmt::Display for BoneCountMismatch {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "the skin expects {} bones but the skeleton has {}", self.skin, self.skeleton)
    }
}

impl std::error::Error for BoneCountMismatch {}

impl Model {
    /// Binds `skin` to `skeleton` and computes the offsets, once.
    pub fn new(skeleton: Skeleton, skin: Skin) -> Result<Self, BoneCountMismatch> {
        if skin.bone_count() != skeleton.len() {
            return Err(BoneCountMismatch { skeleton: skeleton.len(), skin: skin.bone_count() });
        }
        let bind_world = skeleton.bind_world();
        let offsets = compute_offsets(&bind_world);
        Ok(Model { skeleton, skin, bind_world, offsets })
    }
}

/// Everything one frame computes, kept between frames so no frame allocates.
#[derive(Clone, Debug)]
pub struct Pose {
    /// Local transform of every bone: the clip's, then any hand bend on top.
    pub local: Vec<Mat4>,
    /// Extra rotation per bone, applied in the bone's own space after the clip (article 003's
    /// mouse-dragged bones). Identity unless the user bends a bone by hand.
    pub bend: Vec<Quat>,
    /// World transform of every bone.
    pub world: Vec<Mat4>,
    /// `world * offset` of every bone.
    pub palette: Vec<Mat4>,
    /// Blended position of every vertex.
    pub skinned: Vec<Vec3A>,
}

impl Pose {
    /// Buffers sized for `model`, holding its bind pose.
    pub fn new(model: &Model) -> Self {
        let bones = model.skeleton.len();
        let mut pose = Pose {
            local: model.skeleton.bind_locals(),
            bend: vec![Quat::IDENTITY; bones],
            world: vec![Mat4::IDENTITY; bones],
            palette: vec![Mat4::IDENTITY; bones],
            skinned: vec![Vec3A::ZERO; model.skin.len()],
        };
        pose.compute(model);
        pose
    }

    /// The whole method for one frame: the clip's pose at `time`, then world, palette and blend.
    pub fn update(&mut self, model: &Model, clip: &Clip, time: f64) {
        self.update_palette(model, clip, time);
        blend(&model.skin, &self.palette, &mut self.skinned);
    }

    /// Steps 1 to 3 only: the bones and the palette, no blend. For when the blend runs elsewhere,
    /// as in GPU skinning, where the vertex shader blends with this palette; `skinned` is left as it was.
    pub fn update_palette(&mut self, model: &Model, clip: &Clip, time: f64) {
        clip.sample(&model.skeleton, time, &mut self.local);
        // A hand bend turns the bone in its own space, on top of what the clip did.
        for (local, bend) in self.local.iter_mut().zip(&self.bend) {
            *local *= Mat4::from_quat(*bend);
        }
        model.skeleton.compute_world(&self.local, &mut self.world);
        compute_palette(&self.world, &model.offsets, &mut self.palette);
    }

    /// Steps 2 to 4 for whatever pose is in `local`.
    pub fn compute(&mut self, model: &Model) {
        model.skeleton.compute_world(&self.local, &mut self.world);
        compute_palette(&self.world, &model.offsets, &mut self.palette);
        blend(&model.skin, &self.palette, &mut self.skinned);
    }

    /// Where the joint of `bone` is in the world: the origin of its space.
    pub fn joint(&self, bone: BoneId) -> glam::Vec3 {
        self.world[bone].w_axis.truncate()
    }
}
