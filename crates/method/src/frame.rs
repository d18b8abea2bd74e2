//! One frame of the method, written once: from a time to skinned positions (and normals).
//!
//! A [`Pose`] holds everything that changes per frame, allocated once and refilled every frame;
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
//! 4. **morph**: each morph target takes its weight for this time from the source, and a mesh with
//!    morph targets takes this frame's shape, `bind + Σ weight * Δ`, in positions of the pose's own
//!    (`morph.rs`); the blend reads those;
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
//! data, in a [`Frame`]: where the pose comes from ([`Source`]), what adjusts it, the morph weights
//! the user holds, and how the frame ends. No step of it is run anywhere else: whoever needs steps 5
//! and 6 again runs the frame again.

mod bones;
pub mod source;

pub use bones::{Adjust, TakesTravel, local_matrix};
pub use source::{ClipAt, Source, Still};

use crate::blend::{Linear, blend_run};
use crate::model::Model;
use crate::morph::{Held, Morphed, sample_weights};
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
    /// Step 1: where the bones' local poses (and the morph weights, step 4) come from.
    pub source: &'a dyn Source,
    /// After step 1: the clip's travel, carried on or taken out (`root_motion.rs`); None for most.
    pub root_motion: Option<&'a mut dyn TakesTravel>,
    /// Step 2: what changes the local pose before the matrices (none for most frames).
    pub adjust: Option<&'a mut dyn Adjust>,
    /// The morph weights the user holds over the clip's, before step 4 (`--morph`, the keys).
    pub held: &'a [Held],
    /// Steps 5 and 6: by whom, and whether they run.
    pub blending: Blending<'a>,
}

impl<'a> Frame<'a> {
    /// `source` at `time`, blended linearly by the readable loop ([`LinearLoop`]): the frame a
    /// learner reads. The other fields say what else the frame does.
    pub fn new(source: &'a dyn Source, time: f64) -> Frame<'a> {
        let blending = Blending::Linear;
        Frame { time, source, root_motion: None, adjust: None, held: &[], blending }
    }

    /// The same frame, stopped after the palette and the morph (steps 1 to 4): for whoever reads
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
    /// Step 4: this frame's morph weights, and the mesh's shape this frame that the blend reads.
    pub morph: Morphed,
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
            morph: Morphed::new(&model.skin, &model.morphs),
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
        // 4. morph: the source's weights, the ones the user holds over them, and the shape.
        sample_weights(frame.source, frame.time, &model.morphs, &mut self.morph.weights);
        self.morph.hold(frame.held);
        self.morph.apply(&model.skin, &model.morphs);
        // 5 and 6. blend (and normals) by the skinner, unless the GPU does them from the palette.
        let mut linear = LinearLoop;
        let (by, normals): (&mut dyn Skinner, bool) = match frame.blending {
            Blending::Linear => (&mut linear, false),
            Blending::Skin { by, normals } => (by, normals),
            Blending::Palette => return Ok(()),
        };
        let normals = if normals { &mut self.normals[..] } else { &mut [] };
        let posed = Posed { palette: &self.palette, morph: &self.morph };
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

    /// The mesh's shape this frame, which the blend reads: the skin's bind positions and normals,
    /// or, for a model with morph targets, this frame's (step 4).
    pub fn shape<'a>(&'a self, model: &'a Model) -> Shape<'a> {
        self.morph.shape(&model.skin)
    }

    /// Where the joint of `bone` is in the world: the origin of its space.
    pub fn joint(&self, bone: BoneId) -> Vec3 {
        self.world[bone].w_axis.truncate()
    }
}

/// What steps 5 and 6 read of a posed frame: its palette, and its morph (this frame's weights, and
/// the mesh's shape the blend reads: `Morphed::shape`).
#[derive(Clone, Copy)]
pub struct Posed<'a> {
    pub palette: &'a [Mat4],
    pub morph: &'a Morphed,
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
        let shape = posed.morph.shape(skin);
        blend_run(skin, shape.positions, &Linear(posed.palette), 0..skin.len(), positions);
        Ok(())
    }
}

/// How a frame ends.
pub enum Blending<'a> {
    /// Step 5 by the core's own skinner, [`LinearLoop`]: positions, linearly.
    Linear,
    /// Steps 5 and 6 run `by` a skinner; the normals too if `normals` (step 6).
    Skin { by: &'a mut dyn Skinner, normals: bool },
    /// The frame stops at the palette (and the morph): the GPU blends from it as it draws.
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
