//! Steps 5 and 6 by either method, chapters 7 and 8 as the frame's skinner: linear blending or dual
//! quaternions ([`Method`]), the palette that method reads ([`Palette`]), who runs its loops on the
//! CPU ([`Blender`]: the readable loops, [`Reference`], or the fast path of the `skinning-fast`
//! crate), normals included, and the skinner that does all this for a frame ([`ByMethod`]).
//!
//! The core's frame (`frame.rs`) knows one method, the linear blend, and one palette of matrices.
//! A learner who wants the other method looks here: a [`ByMethod`] is handed to the frame as its
//! skinner (`Blending::Skin`), and for DQS it makes the dual-quaternion palette from the frame's
//! matrices before it blends, and keeps it: whoever reads that palette asks the skinner that made
//! it, so an older frame's is never read as this one's. Compare mode blends a second time, by dual
//! quaternions, into positions of the skinner's own. Dual quaternions hold only joints that turn
//! and move: a frame that asks them to hold another is refused, and [`not_rigid`] reads the joint
//! back out of the frame's error.

use crate::blend::{Linear, blend_run};
use crate::dual_quat::{DqPalette, DualQuat, DualQuats, NotRigid};
use crate::frame::{Blending, Posed, Refused, Skinner};
use crate::normals::{BlendNormal, normals_run};
use crate::skin::{Shape, Skin};
use glam::{Mat4, Vec3A};
use std::error::Error;

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
/// per joint and the scale all joints share (see `dual_quat.rs`). A frame's: [`ByMethod::palette`].
#[derive(Clone, Copy, Debug)]
pub enum Palette<'a> {
    Lbs(&'a [Mat4]),
    Dqs { joints: &'a [DualQuat], scale: f32 },
}

/// Who runs steps 5 and 6 on the CPU: blends every vertex of `shape` by the influences of `skin` and
/// by `palette` into `positions`, and moves the shape's normals into `normals` unless it is empty.
/// Any two blenders give the same numbers, to a rounding; they differ in how fast. Shared by
/// threads (a crowd's characters), so `&self`; it never fails.
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

/// A blender lent out is a blender: one fast path shared by every character of a crowd.
impl<B: Blender + ?Sized> Blender for &B {
    fn blend(
        &self,
        skin: &Skin,
        shape: Shape,
        palette: Palette,
        positions: &mut [Vec3A],
        normals: &mut [Vec3A],
    ) {
        (**self).blend(skin, shape, palette, positions, normals);
    }
}

/// A blender handed to the frame as it is skins linearly: the frame's shape (the skin's own, or
/// this frame's morphed one) by the frame's matrices. (For DQS, hand the frame a [`ByMethod`].)
impl<B: Blender + ?Sized> Skinner for B {
    fn skin(
        &mut self,
        skin: &Skin,
        posed: Posed,
        positions: &mut [Vec3A],
        normals: &mut [Vec3A],
    ) -> Result<(), Box<dyn Error + Send + Sync>> {
        self.blend(skin, posed.morph.shape(skin), Palette::Lbs(posed.palette), positions, normals);
        Ok(())
    }
}

/// The readable loops of `blend.rs` and `normals.rs`, one vertex after another on one thread: what
/// the book shows.
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

/// The frame's skinner for either method: blends by `method`, run by `blender`, and in compare
/// mode (`compare`) once more by dual quaternions into positions of its own ([`ByMethod::compared`]).
/// It owns the dual-quaternion palette it makes from each frame's matrices; what it made in its
/// last blend is all it gives ([`ByMethod::dq`]). Its buffers take their size in the first frame
/// and are refilled after that: a steady frame allocates nothing.
pub struct ByMethod<B> {
    pub method: Method,
    pub blender: B,
    /// Compare mode: a second blend, by dual quaternions, after the one by `method`.
    pub compare: bool,
    dq: DqPalette,
    /// Whether `dq` and `compared` were made in the last blend.
    made: (bool, bool),
    compared: Vec<Vec3A>,
}

impl<B: Blender> ByMethod<B> {
    /// Blends by `method`, run by `blender`; no compare mode.
    pub fn new(method: Method, blender: B) -> ByMethod<B> {
        let (dq, made) = (DqPalette::new(0), (false, false));
        ByMethod { method, blender, compare: false, dq, made, compared: Vec::new() }
    }

    /// Makes the dual-quaternion palette from `palette` (a frame's matrices), as a blend by DQS
    /// does first: for a frame that stops at the palette, whose dual quaternions the GPU blends.
    pub fn make_dq(&mut self, palette: &[Mat4]) -> Result<&DqPalette, NotRigid> {
        self.made = (false, false);
        self.dq.joints.resize(palette.len(), DualQuat::IDENTITY);
        self.dq.update(palette)?;
        self.made.0 = true;
        Ok(&self.dq)
    }

    /// For a frame that this skinner does not blend (it stops at the palette): what it made in an
    /// older frame is not this one's, and is no longer given.
    pub fn skip(&mut self) {
        self.made = (false, false);
    }

    /// The dual quaternions made in the last blend (or [`ByMethod::make_dq`]); None if it made
    /// none (it blended linearly and compared nothing, was refused, or skipped the frame).
    pub fn dq(&self) -> Option<&DqPalette> {
        self.made.0.then_some(&self.dq)
    }

    /// What `method`'s blend reads of a frame whose matrices are `palette`: those for LBS, the dual
    /// quaternions this skinner made of them for DQS (None where it made none: [`ByMethod::dq`]).
    pub fn palette<'a>(&'a self, method: Method, palette: &'a [Mat4]) -> Option<Palette<'a>> {
        match method {
            Method::Lbs => Some(Palette::Lbs(palette)),
            Method::Dqs => self.dq().map(|dq| Palette::Dqs { joints: &dq.joints, scale: dq.scale }),
        }
    }

    /// The frame's ending by this skinner, normals included (`frame.rs`: `Blending::Skin`).
    pub fn ending(&mut self) -> Blending<'_> {
        Blending::Skin { by: self, normals: true }
    }

    /// Compare mode's positions, by dual quaternions, from the last blend; None if it had none.
    pub fn compared(&self) -> Option<&[Vec3A]> {
        self.made.1.then_some(&self.compared[..])
    }
}

impl<B: Blender> Skinner for ByMethod<B> {
    fn skin(
        &mut self,
        skin: &Skin,
        posed: Posed,
        positions: &mut [Vec3A],
        normals: &mut [Vec3A],
    ) -> Result<(), Box<dyn Error + Send + Sync>> {
        self.made = (false, false);
        if self.method == Method::Dqs || self.compare {
            self.make_dq(posed.palette)?;
        }
        let shape = posed.morph.shape(skin);
        let dqs = Palette::Dqs { joints: &self.dq.joints, scale: self.dq.scale };
        let palette = if self.method == Method::Dqs { dqs } else { Palette::Lbs(posed.palette) };
        self.blender.blend(skin, shape, palette, positions, normals);
        if self.compare {
            self.compared.resize(skin.len(), Vec3A::ZERO);
            self.blender.blend(skin, shape, dqs, &mut self.compared, &mut []);
            self.made.1 = true;
        }
        Ok(())
    }
}

/// The joint dual quaternions could not hold, if that is why the frame was refused.
pub fn not_rigid(refused: &Refused) -> Option<NotRigid> {
    refused.0.downcast_ref::<NotRigid>().copied()
}

/// A skinner that blends by a [`Method`], and the dual quaternions it made in its last blend (None
/// after a linear one): what a dump writes beside each DQS frame. [`ByMethod`] is one; the
/// program's GPU read-back, which makes its own for the vertex shader, is another.
pub trait SkinsByMethod: Skinner {
    fn dq(&self) -> Option<&DqPalette>;
}

impl<B: Blender> SkinsByMethod for ByMethod<B> {
    fn dq(&self) -> Option<&DqPalette> {
        ByMethod::dq(self)
    }
}
