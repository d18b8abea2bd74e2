//! Steps 5 and 6 as data: which method blends ([`Method`]), the palette it reads ([`Palette`]),
//! and who runs it ([`Blender`]): the readable loops ([`Reference`]) unless the caller hands the
//! frame another, such as the fast path of the `skinning-fast` crate.

use super::DqPalette;
use crate::blend::{Linear, blend_run};
use crate::dual_quat::{DualQuat, DualQuats};
use crate::normals::{BlendNormal, normals_run};
use crate::skin::{Shape, Skin};
use glam::{Mat4, Vec3A};

/// How the blend (step 5) moves a vertex with its joints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Linear blend skinning (`blend.rs`: `Linear`): the weighted average of where each joint puts it.
    Lbs,
    /// Dual-quaternion skinning (`dual_quat.rs`: `DualQuats`): the weighted average of the joints'
    /// motions.
    Dqs,
}

impl Method {
    /// The short name the command line and the dump use.
    pub fn name(self) -> &'static str {
        match self {
            Method::Lbs => "lbs",
            Method::Dqs => "dqs",
        }
    }
}

/// The palette a method's blend reads: one matrix per joint for LBS; for DQS one unit dual quaternion
/// per joint and the scale all joints share (see `dual_quat.rs`).
#[derive(Clone, Copy, Debug)]
pub enum Palette<'a> {
    Lbs(&'a [Mat4]),
    Dqs { joints: &'a [DualQuat], scale: f32 },
}

impl<'a> Palette<'a> {
    /// What `method` reads of a pose's palettes.
    pub fn of(method: Method, palette: &'a [Mat4], dq: &'a DqPalette) -> Palette<'a> {
        match method {
            Method::Lbs => Palette::Lbs(palette),
            Method::Dqs => Palette::Dqs { joints: &dq.joints, scale: dq.scale },
        }
    }
}

/// Who runs steps 5 and 6: blends every vertex of `shape` by the influences of `skin` and by
/// `palette` into `positions`, and moves the shape's normals into `normals` unless it is empty.
/// Any two blenders give the same numbers, to a rounding; they differ in how fast.
pub trait Blender: Sync {
    fn blend(
        &self,
        skin: &Skin,
        shape: Shape,
        palette: Palette,
        positions: &mut [Vec3A],
        normals: &mut [Vec3A],
    );
}

/// The readable loops of `blend.rs`, one vertex after another on one thread: what the book shows.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

impl Blender for Reference {
    fn blend(
        &self,
        skin: &Skin,
        shape: Shape,
        palette: Palette,
        positions: &mut [Vec3A],
        normals: &mut [Vec3A],
    ) {
        match palette {
            Palette::Lbs(palette) => both_streams(skin, shape, &Linear(palette), positions, normals),
            Palette::Dqs { joints, scale } => {
                both_streams(skin, shape, &DualQuats { joints, scale }, positions, normals)
            }
        }
    }
}

/// The positions, then the normals unless `normals` is empty, every vertex by `method`.
fn both_streams(
    skin: &Skin,
    shape: Shape,
    method: &impl BlendNormal,
    positions: &mut [Vec3A],
    normals: &mut [Vec3A],
) {
    blend_run(skin, shape.positions, method, 0..skin.len(), positions);
    if !normals.is_empty() {
        normals_run(skin, shape.normals, method, 0..skin.len(), normals);
    }
}

/// How a frame ends.
#[derive(Clone, Copy)]
pub enum Blending<'a> {
    /// The CPU blends by `method`, run `by` a blender; the normals too if `normals` (step 6).
    Cpu { method: Method, by: &'a dyn Blender, normals: bool },
    /// The CPU stops at the palette for `method` (and the morph): the GPU blends from it.
    Palette(Method),
}

impl Blending<'_> {
    /// The CPU blends by `method` with the readable loops, normals included.
    pub fn reference(method: Method) -> Blending<'static> {
        Blending::Cpu { method, by: &Reference, normals: true }
    }

    /// The method whose palette the frame makes.
    pub fn method(&self) -> Method {
        match *self {
            Blending::Cpu { method, .. } | Blending::Palette(method) => method,
        }
    }
}
