//! One frame of the method, written once: from a time to skinned positions and normals.
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
//! 6. **normals**: every bind normal by the inverse transpose of that vertex's blended matrix, or,
//!    for a mesh that has none, each triangle's own normal from its skinned corners (`normals.rs`).
//!
//! What varies is data, in a [`Frame`]: where the pose comes from ([`Source`]), what adjusts it,
//! what reshapes the mesh, and how steps 5 and 6 run ([`Blending`]): by which method
//! (linear blending or dual quaternions, `frame/method.rs`), and by whom, a [`Skinner`] the frame
//! hands them to (the readable loops of `blend.rs`, the fast path of the `skinning-fast` crate, or
//! the GPU's vertex shader read back), or not at all (the GPU blends from the palette as it draws).
//! No step of it is run anywhere else: whoever needs steps 5 and 6 again runs the frame again.

mod bones;
mod method;
mod shape;
pub mod source;

pub use bones::{Adjust, TakesTravel, local_matrix};
pub use method::{Blender, Method, Palette, Reference, Refused};
pub use shape::Reshape;
pub use source::{ClipAt, Source, Still};

use crate::dual_quat::{DqPalette, NotRigid};
use crate::model::Model;
use crate::normals::face_normals;
use crate::skeleton::BoneId;
use crate::skin::{Shape, Skin, compute_palette};
use crate::transform::Trs;
use glam::{Mat4, Quat, Vec3, Vec3A};
use std::error::Error;

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
    /// Steps 5 and 6: how, by whom, and whether they run.
    pub blending: Blending<'a>,
    /// Compare mode: step 5 once more by dual quaternions, into these positions, by the same
    /// skinner, after the frame's own blend (None for most frames).
    pub compare: Option<&'a mut [Vec3A]>,
}

impl<'a> Frame<'a> {
    /// `source` at `time`, blended linearly by the readable loops, normals included: the frame a
    /// learner reads. The other fields say what else the frame does.
    pub fn new(source: &'a dyn Source, time: f64) -> Frame<'a> {
        let blending = Blending::reference(Method::Lbs);
        Frame { time, source, root_motion: None, adjust: None, reshape: None, blending, compare: None }
    }

    /// The same frame, stopped after the palette and the shape (steps 1 to 4): for whoever reads
    /// only the bones and the palette, as the GPU's vertex shader does.
    pub fn palette_only(self) -> Frame<'a> {
        Frame { blending: Blending::Palette(self.blending.method()), ..self }
    }
}

/// The skinned normals (step 6): one per vertex where the skin has bind normals, else one per
/// triangle, found from its skinned corners (flat normals). The other is empty.
#[derive(Clone, Debug)]
pub struct Normals {
    /// Each vertex's normal, in the order of `Pose::skinned`.
    pub vertex: Vec<Vec3A>,
    /// Each triangle's normal, in the order of `Model::triangles`.
    pub face: Vec<Vec3A>,
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
    /// The palette as dual quaternions, when a frame blends by [`Method::Dqs`]: read through
    /// [`Pose::dq`], which gives it only while it is this frame's.
    dq: DqPalette,
    /// Whether `dq` was made from this frame's palette.
    dq_is_current: bool,
    /// Blended position of every vertex.
    pub skinned: Vec<Vec3A>,
    /// Step 6: the skinned normals.
    pub normals: Normals,
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
            dq: DqPalette::new(joints),
            dq_is_current: false,
            skinned: vec![Vec3A::ZERO; model.skin.len()],
            normals: Normals {
                vertex: model.skin.normals().to_vec(),
                face: match model.skin.normals() {
                    [] => vec![Vec3A::ZERO; model.triangles.len()],
                    _ => Vec::new(),
                },
            },
        };
        let rest = Frame::new(&Still, 0.0);
        let _linear_blending_takes_any_palette = pose.run(model, rest);
        pose
    }

    /// One frame of the method, the six steps in order, as `frame` asks.
    ///
    /// Dual quaternions need joints that only turn and move: if one does not, the error names it,
    /// the bones and the palette are this frame's, and `skinned` is left as it was. A skinner may
    /// fail too (a GPU read-back), and says why.
    pub fn run(&mut self, model: &Model, frame: Frame) -> Result<(), Refused> {
        // 1. animate; 2. adjust (reach).
        frame.source.pose(&model.skeleton, frame.time, &mut self.local);
        if let Some(root_motion) = frame.root_motion {
            root_motion.take(&model.skeleton, frame.time, &mut self.local);
        }
        if let Some(adjust) = frame.adjust {
            adjust.adjust(&mut self.local, &self.bend);
        }
        // 3. matrices: local, world, palette (the dual quaternions made from the last are now old).
        self.matrices(model);
        self.dq_is_current = false;
        // 4. shape: this frame's, from the stage that reshapes the mesh; else the skin's own.
        let shape = match frame.reshape {
            Some(stage) => stage.reshape(&model.skin, frame.source, frame.time),
            None => model.skin.shape(),
        };
        // 5 and 6. blend and normals by the skinner, unless the GPU does them from the palette.
        if frame.blending.method() == Method::Dqs || frame.compare.is_some() {
            self.update_dq_palette().map_err(Refused::NotRigid)?;
        }
        let Blending::Skin { method, by, normals } = frame.blending else { return Ok(()) };
        let dq = Palette::Dqs { joints: &self.dq.joints, scale: self.dq.scale };
        let palette = if method == Method::Dqs { dq } else { Palette::Lbs(&self.palette) };
        let vertex_normals = if normals { &mut self.normals.vertex[..] } else { &mut [] };
        let posed = Posed { palette, shape };
        by.skin(&model.skin, posed, &mut self.skinned, vertex_normals).map_err(Refused::Skinner)?;
        if normals && !self.normals.face.is_empty() {
            // Flat normals, for a mesh with none of its own.
            face_normals(&self.skinned, &model.triangles, &mut self.normals.face);
        }
        if let Some(compared) = frame.compare {
            let posed = Posed { palette: dq, shape };
            by.skin(&model.skin, posed, compared, &mut []).map_err(Refused::Skinner)?;
        }
        Ok(())
    }

    /// The whole method for one frame of `clip` at `time`, linear blend skinning by the readable
    /// loops: [`Pose::run`] with the plainest [`Frame`].
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

    /// The palette as dual quaternions, for DQS: once per joint, like the palette itself. A frame
    /// that blends by DQS makes it; compare mode and the `D` key ask for it after a frame.
    pub fn update_dq_palette(&mut self) -> Result<(), NotRigid> {
        self.dq_is_current = false;
        self.dq.update(&self.palette)?;
        self.dq_is_current = true;
        Ok(())
    }

    /// This frame's palette as dual quaternions; None unless it was made from this frame's
    /// palette (by a frame that blends by DQS, or [`Pose::update_dq_palette`] after it), so an older
    /// frame's is never read as this one's.
    pub fn dq(&self) -> Option<&DqPalette> {
        self.dq_is_current.then_some(&self.dq)
    }

    /// What `method`'s blend reads of this frame: the palette for LBS, the dual quaternions for DQS
    /// (None where this frame has not made them: [`Pose::dq`]).
    pub fn palette_of(&self, method: Method) -> Option<Palette<'_>> {
        match method {
            Method::Lbs => Some(Palette::Lbs(&self.palette)),
            Method::Dqs => self.dq().map(|dq| Palette::Dqs { joints: &dq.joints, scale: dq.scale }),
        }
    }

    /// Where the joint of `bone` is in the world: the origin of its space.
    pub fn joint(&self, bone: BoneId) -> Vec3 {
        self.world[bone].w_axis.truncate()
    }
}

/// What steps 5 and 6 read of a posed frame: the palette of the method it blends by, and the
/// mesh's shape the blend reads (step 4's, or the skin's own).
#[derive(Clone, Copy)]
pub struct Posed<'a> {
    pub palette: Palette<'a>,
    pub shape: Shape<'a>,
}

/// Steps 5 and 6 as the frame hands them on: skins every vertex of `skin` as `posed` into
/// `positions`, and moves its normals into `normals` unless that is empty. The CPU's blenders
/// ([`Blender`]: the readable loops, the fast path) never fail; one outside the CPU (the GPU's
/// vertex shader, read back) may, and says why.
pub trait Skinner {
    fn skin(
        &self,
        skin: &Skin,
        posed: Posed,
        positions: &mut [Vec3A],
        normals: &mut [Vec3A],
    ) -> Result<(), Box<dyn Error + Send + Sync>>;
}

/// A blender skins the frame's shape: the skin's own, or the one step 4 gave it this frame.
impl<B: Blender + ?Sized> Skinner for B {
    fn skin(
        &self,
        skin: &Skin,
        posed: Posed,
        positions: &mut [Vec3A],
        normals: &mut [Vec3A],
    ) -> Result<(), Box<dyn Error + Send + Sync>> {
        self.blend(skin, posed.shape, posed.palette, positions, normals);
        Ok(())
    }
}

/// How a frame ends.
#[derive(Clone, Copy)]
pub enum Blending<'a> {
    /// Steps 5 and 6 by `method`, run `by` a skinner; the normals too if `normals` (step 6).
    Skin { method: Method, by: &'a dyn Skinner, normals: bool },
    /// The frame stops at the palette for `method` (and the shape): the GPU blends from it as it
    /// draws.
    Palette(Method),
}

impl Blending<'_> {
    /// Steps 5 and 6 by `method` with the readable loops, normals included.
    pub fn reference(method: Method) -> Blending<'static> {
        Blending::Skin { method, by: &Reference, normals: true }
    }

    /// The method whose palette the frame makes.
    pub fn method(&self) -> Method {
        match *self {
            Blending::Skin { method, .. } | Blending::Palette(method) => method,
        }
    }
}
