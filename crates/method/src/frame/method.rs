//! Steps 5 and 6 as data: which method blends ([`Method`]), the palette it reads ([`Palette`]),
//! who runs it on the CPU ([`Blender`]): the readable loops ([`Reference`]) unless the caller hands
//! the frame another, such as the fast path of the `skinning-fast` crate; and why a frame could not
//! end ([`Refused`]).

use crate::blend::{Linear, blend_run};
use crate::dual_quat::{DualQuat, DualQuats, NotRigid};
use crate::normals::{BlendNormal, normals_run};
use crate::skin::{Shape, Skin};
use glam::{Mat4, Vec3A};
use std::error::Error;
use std::fmt;

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
/// per joint and the scale all joints share (see `dual_quat.rs`). A frame's: `Pose::palette_of`.
#[derive(Clone, Copy, Debug)]
pub enum Palette<'a> {
    Lbs(&'a [Mat4]),
    Dqs { joints: &'a [DualQuat], scale: f32 },
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

/// Why a frame could not end as asked.
#[derive(Debug)]
pub enum Refused {
    /// Dual quaternions cannot hold this frame's palette: the joint, and why (`dual_quat.rs`).
    NotRigid(NotRigid),
    /// The skinner the frame handed steps 5 and 6 to failed (a GPU read-back), and says why.
    Skinner(Box<dyn Error + Send + Sync>),
}

impl Refused {
    /// The joint dual quaternions could not hold, if that is why.
    pub fn not_rigid(&self) -> Option<NotRigid> {
        match self {
            Refused::NotRigid(e) => Some(*e),
            Refused::Skinner(_) => None,
        }
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Refused::NotRigid(e) => write!(f, "{e}"),
            Refused::Skinner(e) => write!(f, "{e}"),
        }
    }
}

impl Error for Refused {}
