//! The dump's check that every number it writes is finite, and the error that names the first
//! one that is not (see the dump's module comment). The program's picture makes the same check on
//! every frame it draws, with [`pose_overflow`] and, near the limit, [`points_overflow`], and
//! refuses with the same [`Overflow`]: a frame that cannot be written cannot be drawn either
//! (`src/demo/show/finite.rs`).

use super::format::{BoneOut, JointOut, VertexOut};
use glam::{Mat4, Vec3A};
use skinning_method::dual_quat::DqPalette;
use skinning_method::frame::Pose;
use skinning_method::model::Model;
use skinning_method::printable::quoted;
use std::fmt;
use std::io;

/// Why a dump stopped: the model's numbers overflow 32-bit floats. It travels inside the
/// [`io::Error`] the dump returns (kind `InvalidData`); [`Overflow::of`] finds it there, so a
/// program can blame the model rather than the file it was writing.
#[derive(Debug, Clone, PartialEq)]
pub struct Overflow {
    /// The frame and its time in seconds; None for the model itself (its rest pose, skin, mesh).
    pub frame: Option<(u64, f64)>,
    /// What is not finite, e.g. `bone 3 "Hips"'s world transform`.
    pub what: String,
}

impl Overflow {
    /// The overflow inside `error`, if that is why the dump stopped.
    pub fn of(error: &io::Error) -> Option<&Overflow> {
        error.get_ref().and_then(|inner| inner.downcast_ref::<Overflow>())
    }

    pub(super) fn into_io(self) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, self)
    }
}

impl fmt::Display for Overflow {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let when = match self.frame {
            Some((frame, time)) => format!("at time {time} s (frame {frame})"),
            None => "before any frame".into(),
        };
        write!(
            f,
            "the model's numbers overflow {when}: {} is not finite (beyond 32-bit floats), which neither \
             JSON nor a picture can hold; scale the model or its animation down, or give smaller weights",
            self.what
        )
    }
}

impl std::error::Error for Overflow {}

/// The first of the model's own numbers that is not finite, named; None when all are.
pub(super) fn model_overflow(
    bones: &[BoneOut],
    joints: &[JointOut],
    vertices: &[VertexOut],
) -> Option<String> {
    let finite = |xs: &[f32]| xs.iter().all(|x| x.is_finite());
    for (i, bone) in bones.iter().enumerate() {
        for (matrix, what) in [(&bone.rest_local, "rest local"), (&bone.rest_world, "rest world")] {
            if !finite(matrix) {
                return Some(format!("bone {i} {}'s {what} transform", quoted(bone.name)));
            }
        }
    }
    if let Some(j) = joints.iter().position(|j| !finite(&j.offset)) {
        return Some(format!("joint {j}'s offset (inverse bind matrix)"));
    }
    let bad_vertex = |v: &VertexOut| {
        !finite(&v.bind)
            || v.normal.is_some_and(|n| !finite(&n))
            || v.influences.iter().any(|i| !i.weight.is_finite())
    };
    vertices.iter().position(bad_vertex).map(|v| format!("vertex {v}'s bind position, normal or weights"))
}

/// The first number of this frame that is not finite, named (the earliest step of the method
/// first: local, world, palette, then the blend); None when all are. `dq`: the dual quaternions
/// the frame's skinner made of its palette, if it blended by them, checked too; `morph_weights`:
/// this frame's (`morph.rs`: `Morphed::weights`), none for a model without morph targets.
pub fn frame_overflow(
    model: &Model,
    pose: &Pose,
    dq: Option<&DqPalette>,
    morph_weights: &[f32],
) -> Option<String> {
    pose_overflow(model, pose, dq, morph_weights)
        .or_else(|| points_overflow(&pose.skinned, "skinned position"))
        .or_else(|| points_overflow(&pose.normals, "skinned normal"))
}

/// [`frame_overflow`] up to the blend: the local and world transforms, the palette (and the dual
/// quaternions `dq`, if the frame has them), the `morph_weights`. For a caller that checks the
/// blended points itself, as the program does where only the GPU blends them.
pub fn pose_overflow(
    model: &Model,
    pose: &Pose,
    dq: Option<&DqPalette>,
    morph_weights: &[f32],
) -> Option<String> {
    let bone = |i: usize| format!("bone {i} {}", quoted(&model.skeleton.bone(i).name));
    let first = |ms: &[Mat4]| ms.iter().position(|m| !m.is_finite());
    if let Some(i) = first(&pose.local_matrices) {
        return Some(format!("{}'s local transform", bone(i)));
    }
    if let Some(i) = first(&pose.world) {
        return Some(format!("{}'s world transform", bone(i)));
    }
    if let Some(j) = first(&pose.palette) {
        return Some(format!("joint {j}'s palette matrix ({})", bone(model.skin.joints()[j].bone)));
    }
    let dq_bad = |d: &skinning_method::dual_quat::DualQuat| !(d.real.is_finite() && d.dual.is_finite());
    if let Some(j) = dq.and_then(|dq| dq.joints.iter().position(dq_bad)) {
        return Some(format!("joint {j}'s dual quaternion"));
    }
    if dq.is_some_and(|dq| !dq.scale.is_finite()) {
        return Some("the dual quaternions' shared scale".into());
    }
    let k = morph_weights.iter().position(|w| !w.is_finite())?;
    Some(format!("morph weight {k}"))
}

/// The first of `points` (one per vertex) that is not finite, as `vertex 12's {what}`.
pub fn points_overflow(points: &[Vec3A], what: &str) -> Option<String> {
    let v = points.iter().position(|p| !p.is_finite())?;
    Some(format!("vertex {v}'s {what}"))
}
