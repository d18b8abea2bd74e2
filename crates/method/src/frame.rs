//! One frame of the method, written once: from a time to skinned positions and normals.
//!
//! A [`Pose`] holds everything that changes per frame, allocated once and refilled every frame;
//! [`Pose::run`] fills it in this order, and everything that poses a model calls it: the program's
//! window, its dump, the camera's framing, the MD5 export, the DQS check (the inspector reads it).
//!
//! 1. **animate**: the clip (or several, blended: `mixer.rs`) gives every bone its local
//!    translation, rotation and scale for this time (`local`), and every morph target a weight;
//!    A clip that walks may have its travel taken here, from the bone that carries the body
//!    (`root_motion.rs`): carried on over the loops, or kept in place;
//! 2. **reach**: any chain that reaches for a target turns its rotations in `local` there
//!    (`reach.rs`);
//! 3. **matrices**: each bone's `local` as a matrix, with its hand bend; the walk down the tree,
//!    `world = parent world * local`; the palette, `world * offset` once per joint;
//! 4. **morph**: a mesh with morph targets takes this frame's shape, `bind + Σ weight * Δ`, in
//!    positions of the pose's own (`morph.rs`); the blend reads those;
//! 5. **blend**: every vertex, `Σ weight * palette[joint] * bind`, over every influence (`blend.rs`);
//! 6. **normals**: every bind normal by the inverse transpose of that vertex's blended matrix, or,
//!    for a mesh that has none, each triangle's own normal from its skinned corners (`normals.rs`).
//!
//! What varies is data, in a [`Frame`]: where the pose comes from ([`Source`]), the chains that
//! reach, the morph weights the user holds, and how steps 5 and 6 run ([`Blending`]): by which
//! method (linear blending or dual quaternions, `frame/method.rs`), by whom (the readable loops of
//! `blend.rs`, or the fast path of the `skinning-fast` crate), or not at all on the CPU (the GPU
//! blends from the palette).

mod method;
mod source;

pub use method::{Blender, Blending, Method, Palette, Reference};
pub use source::Source;

use crate::dual_quat::{DualQuat, NotRigid, compute_dq_palette};
use crate::model::Model;
use crate::morph::{Held, Morphed};
use crate::normals::face_normals;
use crate::reach::{self, Reach};
use crate::skeleton::{BoneId, Skeleton};
use crate::skin::{Shape, compute_palette};
use crate::transform::Trs;
use glam::{Mat4, Quat, Vec3, Vec3A};

/// What one frame is asked to do: the time, where the pose comes from, and how to finish it.
pub struct Frame<'a> {
    /// Seconds since the animation started.
    pub time: f64,
    /// Step 1: where the bones' local poses and the morph weights come from.
    pub source: Source<'a>,
    /// After step 1: the clip's travel, carried on or taken out (`root_motion.rs`); None for most.
    pub root_motion: Option<&'a mut dyn TakesTravel>,
    /// Step 2: the chains that reach, solved one after the other (none for most frames).
    pub reaches: &'a mut [Reach],
    /// The morph weights the user holds over the clip's, before step 4 (`--morph`, the keys).
    pub held: &'a [Held],
    /// Steps 5 and 6: how, and whether, the CPU blends.
    pub blending: Blending<'a>,
}

impl<'a> Frame<'a> {
    /// `source` at `time`, blended linearly by the readable loops, normals included: the frame a
    /// learner reads. The other fields say what else the frame does.
    pub fn new(source: Source<'a>, time: f64) -> Frame<'a> {
        let blending = Blending::reference(Method::Lbs);
        Frame { time, source, root_motion: None, reaches: &mut [], held: &[], blending }
    }

    /// The same frame, stopped after the palette and the morph (steps 1 to 4): for whoever reads
    /// only the bones and the palette, as the GPU's vertex shader does.
    pub fn palette_only(self) -> Frame<'a> {
        Frame { blending: Blending::Palette(self.blending.method()), ..self }
    }
}

/// What takes a walking clip's travel after step 1, before any chain reaches: `root_motion.rs`'s
/// `RootMotion`, which carries it on over the loops or keeps the body in place. (A trait, so that
/// the frame names no later lesson.)
pub trait TakesTravel {
    /// Changes `local`, the pose step 1 gave for `time`, as the travel asks.
    fn take(&mut self, skeleton: &Skeleton, time: f64, local: &mut [Trs]);
}

/// The palette as unit dual quaternions, for dual-quaternion skinning (`dual_quat.rs`): one per
/// joint, and the scale every joint shares, factored out of them.
#[derive(Clone, Debug)]
pub struct DqPalette {
    pub joints: Vec<DualQuat>,
    pub scale: f32,
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
    /// The palette as dual quaternions, when a frame blends by [`Method::Dqs`].
    pub dq: DqPalette,
    /// Step 4: this frame's morph weights, and the mesh's shape this frame that the blend reads.
    pub morph: Morphed,
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
            dq: DqPalette { joints: vec![DualQuat::IDENTITY; joints], scale: 1.0 },
            morph: Morphed::new(&model.skin, &model.morphs),
            skinned: vec![Vec3A::ZERO; model.skin.len()],
            normals: Normals {
                vertex: model.skin.normals().to_vec(),
                face: match model.skin.normals() {
                    [] => vec![Vec3A::ZERO; model.triangles.len()],
                    _ => Vec::new(),
                },
            },
        };
        let rest = Frame::new(Source::Held, 0.0);
        let _linear_blending_takes_any_palette = pose.run(model, rest);
        pose
    }

    /// One frame of the method, the six steps in order, as `frame` asks.
    ///
    /// Dual quaternions need joints that only turn and move: if one does not, the error names it,
    /// the bones and the palette are this frame's, and `skinned` is left as it was.
    pub fn run(&mut self, model: &Model, frame: Frame) -> Result<(), NotRigid> {
        // 1. animate; 2. reach.
        frame.source.animate(model, frame.time, &mut self.local, &mut self.morph.weights);
        if let Some(root_motion) = frame.root_motion {
            root_motion.take(&model.skeleton, frame.time, &mut self.local);
        }
        reach::solve(frame.reaches, &mut self.local, &self.bend);
        // 3. matrices: local, world, palette.
        self.matrices(model);
        // 4. morph, with the weights the user holds over the clip's.
        self.morph.hold(frame.held);
        self.morph.apply(&model.skin, &model.morphs);
        // 5 and 6. blend and normals, unless the GPU does them from the palette.
        let method = frame.blending.method();
        if method == Method::Dqs {
            self.update_dq_palette()?;
        }
        let Blending::Cpu { method, by, normals } = frame.blending else { return Ok(()) };
        let shape = self.morph.shape(&model.skin);
        let palette = Palette::of(method, &self.palette, &self.dq);
        let vertex_normals = if normals { &mut self.normals.vertex[..] } else { &mut [] };
        by.blend(&model.skin, shape, palette, &mut self.skinned, vertex_normals);
        if normals && !self.normals.face.is_empty() {
            // Flat normals, for a mesh with none of its own.
            face_normals(&self.skinned, &model.triangles, &mut self.normals.face);
        }
        Ok(())
    }

    /// The whole method for one frame of `clip` at `time`, linear blend skinning by the readable
    /// loops: [`Pose::run`] with the plainest [`Frame`].
    pub fn update(&mut self, model: &Model, clip: &crate::clip::Clip, time: f64) {
        let _linear_blending_takes_any_palette = self.run(model, Frame::new(Source::Clip(clip), time));
    }

    /// Step 3: each bone's `local` as a matrix with its hand bend after it, then world transforms
    /// and the palette.
    fn matrices(&mut self, model: &Model) {
        for ((matrix, local), bend) in self.local_matrices.iter_mut().zip(&self.local).zip(&self.bend) {
            *matrix = local.to_mat4() * Mat4::from_quat(*bend);
        }
        model.skeleton.compute_world(&self.local_matrices, &mut self.world);
        compute_palette(&self.world, model.skin.joints(), &mut self.palette);
    }

    /// The palette as dual quaternions, for DQS: once per joint, like the palette itself.
    pub fn update_dq_palette(&mut self) -> Result<(), NotRigid> {
        self.dq.scale = compute_dq_palette(&self.palette, &mut self.dq.joints)?;
        Ok(())
    }

    /// What `method`'s blend reads (for DQS, as of the last frame that blended by it).
    pub fn palette_for(&self, method: Method) -> Palette<'_> {
        Palette::of(method, &self.palette, &self.dq)
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
