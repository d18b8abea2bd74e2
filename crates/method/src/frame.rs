//! One frame of the method, written once: from a time to skinned positions (and normals).
//!
//! A [`Pose`] holds everything the core's steps change per frame, allocated once and refilled every
//! frame (a later lesson's stage keeps what it changes itself, beside the pose);
//! [`Pose::run`] fills it in this order, and everything that poses a model calls it: the program's
//! window, its dump, the camera's framing, the MD5 export, the DQS check (the inspector reads it).
//!
//! 1. **animate**: the source (a clip, or a later lesson's blend of several) gives every bone its
//!    local translation, rotation and scale for this time (`local`);
//!    a walking clip may have its travel taken here ([`TakesTravel`], `root_motion.rs`);
//! 2. **adjust**: a later lesson may change `local` here, before any matrix ([`Adjust`]): reaching
//!    (chapter 12) turns a chain's rotations so its end meets a target;
//! 3. **matrices**: each bone's `local` as a matrix, with its hand bend ([`local_matrix`]); the walk
//!    down the tree, `world = parent world * local`; the palette, `world * offset` once per joint;
//! 4. **shape**: a later lesson may give the mesh this frame's shape here ([`Reshape`]): morph
//!    targets (chapter 13) write every vertex's position and normal, `bind + Σ weight * Δ`, into
//!    streams of their own; the blend reads those, or, with no such stage, the skin's bind shape;
//! 5. **blend**: every vertex, `Σ weight * palette[joint] * bind`, over every influence (`blend.rs`);
//! 6. **normals**: a second stream of the same step, for the skinners that move normals too.
//!
//! Steps 5 and 6 are the [`Skinner`]'s the frame is handed ([`Blending`]): it reads the palette and
//! the shape the blend reads, and writes the positions, and the normals when asked. The core's own
//! is [`LinearLoop`], `blend.rs`'s readable loop, positions only: the frame chapter 4 reads. The
//! later lessons hand the frame theirs: `lbs_or_dqs.rs` blends by either method, linear or dual
//! quaternions (chapter 7), normals included (chapter 8), by the readable loops or the fast path of
//! the `skinning-fast` crate; the program hands it the GPU's vertex shader, read back. Or no skinner
//! at all: the frame stops at the palette, which the GPU blends from as it draws. What varies is
//! data, in a [`Frame`]: where the pose comes from ([`Source`]), what adjusts it, what reshapes the
//! mesh, and how the frame ends. No step of it is run anywhere else: whoever needs steps 5
//! and 6 again runs the frame again.

mod bones;
mod shape;
pub mod source;

pub use bones::{Adjust, TakesTravel, local_matrix};
pub use shape::Reshape;
pub use source::{ClipAt, Source, Still};

use crate::blend::{Linear, blend_run};
use crate::model::Model;
use crate::skeleton::BoneId;
use crate::skin::{Shape, Skin, compute_palette};
use crate::transform::Trs;
use glam::{Mat4, Quat, Vec3, Vec3A};
use std::error::Error;
use std::fmt;

/// What one frame is asked to do: the time, where the pose comes from, and how to finish it.
pub struct Frame<'a> {
    /// Seconds since the animation started.
    pub time: f64,
    /// Step 1: where the bones' local poses (and the numbers a stage of step 4 reads) come from.
    pub source: &'a dyn Source,
    /// After step 1: the clip's travel, carried on or taken out (`root_motion.rs`); None for most.
    pub root_motion: Option<&'a mut dyn TakesTravel>,
    /// Step 2: what changes the local pose before the matrices (none for most frames).
    pub adjust: Option<&'a mut dyn Adjust>,
    /// Step 4: what gives the mesh this frame's shape (morph targets, `morph.rs`: `Morph`); none
    /// for most frames, whose blend reads the skin's bind shape.
    pub reshape: Option<&'a mut dyn Reshape>,
    /// Steps 5 and 6: by whom, and whether they run.
    pub blending: Blending<'a>,
}

impl<'a> Frame<'a> {
    /// `source` at `time`, blended linearly by the readable loop ([`LinearLoop`]): the frame a
    /// learner reads. The other fields say what else the frame does.
    pub fn new(source: &'a dyn Source, time: f64) -> Frame<'a> {
        let blending = Blending::Linear;
        Frame { time, source, root_motion: None, adjust: None, reshape: None, blending }
    }

    /// The same frame, stopped after the palette and the shape (steps 1 to 4): for whoever reads
    /// only the bones and the palette, as the GPU's vertex shader does.
    pub fn palette_only(self) -> Frame<'a> {
        Frame { blending: Blending::Palette, ..self }
    }
}

/// Everything one frame computes, kept between frames so no frame allocates.
#[derive(Clone, Debug)]
pub struct Pose {
    /// Every bone's local translation, rotation and scale (the animation systems' "local pose"):
    /// what the clips give and what a reaching chain turns, before any matrix.
    pub local: Vec<Trs>,
    /// Extra rotation per bone in the bone's own space (article 003's mouse-dragged bones): turned
    /// in after `local`, so the bend rides along with whatever the clip does. Identity unless the
    /// user bends a bone by hand.
    pub bend: Vec<Quat>,
    /// Each bone's local transform as a matrix: `local`, then its bend.
    pub local_matrices: Vec<Mat4>,
    /// World transform of every bone.
    pub world: Vec<Mat4>,
    /// `world * offset` of every joint of the skin.
    pub palette: Vec<Mat4>,
    /// Blended position of every vertex.
    pub skinned: Vec<Vec3A>,
    /// Step 6: the skinned normals, one per vertex, in the order of `skinned`, written by a skinner
    /// that moves them; empty for a skin without bind normals (whoever draws such a mesh finds each
    /// triangle's own from `skinned`: `normals.rs`, flat normals).
    pub normals: Vec<Vec3A>,
}

impl Pose {
    /// Buffers sized for `model`, holding its rest pose.
    pub fn new(model: &Model) -> Self {
        let (bones, joints) = (model.skeleton.len(), model.skin.joints().len());
        let mut pose = Pose {
            local: model.skeleton.bones().iter().map(|b| b.rest).collect(),
            bend: vec![Quat::IDENTITY; bones],
            local_matrices: vec![Mat4::IDENTITY; bones],
            world: vec![Mat4::IDENTITY; bones],
            palette: vec![Mat4::IDENTITY; joints],
            skinned: vec![Vec3A::ZERO; model.skin.len()],
            normals: model.skin.normals().to_vec(),
        };
        let rest = Frame::new(&Still, 0.0);
        let _linear_blending_takes_any_palette = pose.run(model, rest);
        pose
    }

    /// One frame of the method, the six steps in order, as `frame` asks.
    ///
    /// The skinner may fail (dual quaternions refuse a joint that does not only turn and move, a
    /// GPU read-back may stop), and says why: the bones and the palette are then this frame's.
    pub fn run(&mut self, model: &Model, frame: Frame) -> Result<(), Refused> {
        // 1. animate; 2. adjust (reach).
        frame.source.pose(&model.skeleton, frame.time, &mut self.local);
        if let Some(root_motion) = frame.root_motion {
            root_motion.take(&model.skeleton, frame.time, &mut self.local);
        }
        if let Some(adjust) = frame.adjust {
            adjust.adjust(&mut self.local, &self.bend);
        }
        // 3. matrices: local, world, palette.
        self.matrices(model);
        // 4. shape: this frame's, from the stage that reshapes the mesh; else the skin's own.
        let shape = match frame.reshape {
            Some(stage) => stage.reshape(&model.skin, frame.source, frame.time),
            None => model.skin.shape(),
        };
        // 5 and 6. blend (and normals) by the skinner, unless the GPU does them from the palette.
        let mut linear = LinearLoop;
        let (by, normals): (&mut dyn Skinner, bool) = match frame.blending {
            Blending::Linear => (&mut linear, false),
            Blending::Skin { by, normals } => (by, normals),
            Blending::Palette => return Ok(()),
        };
        let normals = if normals { &mut self.normals[..] } else { &mut [] };
        let posed = Posed { palette: &self.palette, shape };
        by.skin(&model.skin, posed, &mut self.skinned, normals).map_err(Refused)
    }

    /// The whole method for one frame of `clip` at `time`, linear blend skinning by the readable
    /// loop, positions only: [`Pose::run`] with the plainest [`Frame`].
    pub fn update(&mut self, model: &Model, clip: &crate::clip::Clip, time: f64) {
        let _linear_blending_takes_any_palette = self.run(model, Frame::new(clip, time));
    }

    /// Step 3: each bone's `local` as a matrix with its hand bend after it, then world transforms
    /// and the palette.
    fn matrices(&mut self, model: &Model) {
        for (bone, matrix) in self.local_matrices.iter_mut().enumerate() {
            *matrix = local_matrix(&self.local, &self.bend, bone);
        }
        model.skeleton.compute_world(&self.local_matrices, &mut self.world);
        compute_palette(&self.world, model.skin.joints(), &mut self.palette);
    }

    /// Where the joint of `bone` is in the world: the origin of its space.
    pub fn joint(&self, bone: BoneId) -> Vec3 {
        self.world[bone].w_axis.truncate()
    }
}

/// What steps 5 and 6 read of a posed frame: its palette, and the mesh's shape the blend reads
/// (step 4's, or the skin's own).
#[derive(Clone, Copy)]
pub struct Posed<'a> {
    pub palette: &'a [Mat4],
    pub shape: Shape<'a>,
}

/// Steps 5 and 6 as the frame hands them on: skins every vertex of `skin` as `posed` into
/// `positions`, and moves its normals into `normals` unless that is empty. It may keep what it
/// makes on the way (`&mut self`: a later lesson's palette of its own); it may fail (a GPU
/// read-back, or dual quaternions given a joint they cannot hold), and says why.
pub trait Skinner {
    fn skin(
        &mut self,
        skin: &Skin,
        posed: Posed,
        positions: &mut [Vec3A],
        normals: &mut [Vec3A],
    ) -> Result<(), Box<dyn Error + Send + Sync>>;
}

/// The core's skinner: the readable loop of `blend.rs`, linear blend skinning, one vertex after
/// another, positions only (normals are chapter 8's). It never fails.
#[derive(Clone, Copy, Debug, Default)]
pub struct LinearLoop;

impl Skinner for LinearLoop {
    fn skin(
        &mut self,
        skin: &Skin,
        posed: Posed,
        positions: &mut [Vec3A],
        _normals: &mut [Vec3A],
    ) -> Result<(), Box<dyn Error + Send + Sync>> {
        blend_run(skin, posed.shape.positions, &Linear(posed.palette), 0..skin.len(), positions);
        Ok(())
    }
}

/// How a frame ends.
pub enum Blending<'a> {
    /// Step 5 by the core's own skinner, [`LinearLoop`]: positions, linearly.
    Linear,
    /// Steps 5 and 6 run `by` a skinner; the normals too if `normals` (step 6).
    Skin { by: &'a mut dyn Skinner, normals: bool },
    /// The frame stops at the palette (and the shape): the GPU blends from it as it draws.
    Palette,
}

/// Why a frame could not end as asked: the skinner's own error, as it gave it (a later lesson
/// reads its own kind back out: `lbs_or_dqs.rs`, `not_rigid`).
#[derive(Debug)]
pub struct Refused(pub Box<dyn Error + Send + Sync>);

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl Error for Refused {}
