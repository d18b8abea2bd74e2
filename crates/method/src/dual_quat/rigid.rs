//! Is a palette matrix a rotation and a translation, after the scale every joint shares? What
//! `compute_dq_palette` asks of each joint, and what it says when the answer is no.

use crate::skin::JointId;
use glam::{Mat3, Mat4, Quat, Vec3};
use std::fmt;

/// How far a palette matrix may be from a rotation and a translation (after the common scale) and
/// still be taken for one: about what float rounding leaves after a thousand products.
pub const RIGID_TOLERANCE: f32 = 1e-3;

/// A joint whose palette matrix no dual quaternion can hold, and why.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NotRigid {
    pub joint: JointId,
    pub problem: RigidProblem,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RigidProblem {
    /// Stretched differently along its three axes (or by 0 along one): the lengths of its axes.
    Scaled(Vec3),
    /// Scaled by the same amount along every axis, but not by the first joint's scale.
    ScaleDiffers { scale: f32, first: f32 },
    /// Its axes are not at right angles.
    Sheared,
    /// It turns space inside out (a negative scale).
    Mirrored,
}

impl fmt::Display for NotRigid {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "joint {} {}", self.joint, self.problem)
    }
}

impl fmt::Display for RigidProblem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            RigidProblem::Scaled(s) => {
                write!(f, "is scaled by ({}, {}, {})", short(s.x), short(s.y), short(s.z))
            }
            RigidProblem::ScaleDiffers { scale, first } => write!(
                f,
                "is scaled by {} but joint 0 by {}: not one scale for the whole skin",
                short(scale),
                short(first)
            ),
            RigidProblem::Sheared => write!(f, "is sheared"),
            RigidProblem::Mirrored => write!(f, "is mirrored"),
        }
    }
}

impl std::error::Error for NotRigid {}

/// A scale in four significant digits, without trailing zeros: 1.9999999 is "2", 0.0100002 is "0.01".
fn short(x: f32) -> String {
    if x == 0.0 || !x.is_finite() {
        return x.to_string();
    }
    let decimals = (3 - x.abs().log10().floor() as i32).max(0) as usize;
    let text = format!("{x:.decimals$}");
    if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text }
}

/// The lengths of the three axes (the first three columns) of a matrix: its scale along each.
pub(super) fn axis_lengths(m: &Mat4) -> Vec3 {
    Vec3::new(m.x_axis.truncate().length(), m.y_axis.truncate().length(), m.z_axis.truncate().length())
}

/// The rotation R of `m = [common * R | t]`, or what keeps `m` from being one.
pub(super) fn rotation_of(m: &Mat4, common: f32) -> Result<Quat, RigidProblem> {
    let lengths = axis_lengths(m);
    let scale = lengths.element_sum() / 3.0;
    let near = |a: f32, b: f32| (a - b).abs() <= RIGID_TOLERANCE * b;
    let uniform = near(lengths.x, scale) && near(lengths.y, scale) && near(lengths.z, scale);
    if !(lengths.min_element() > 0.0 && lengths.is_finite() && uniform) {
        return Err(RigidProblem::Scaled(lengths));
    }
    if !near(scale, common) {
        return Err(RigidProblem::ScaleDiffers { scale, first: common });
    }
    let axes = Mat3::from_cols(
        m.x_axis.truncate() / lengths.x,
        m.y_axis.truncate() / lengths.y,
        m.z_axis.truncate() / lengths.z,
    );
    let (x, y, z) = (axes.x_axis, axes.y_axis, axes.z_axis);
    if x.dot(y).abs() > RIGID_TOLERANCE
        || y.dot(z).abs() > RIGID_TOLERANCE
        || z.dot(x).abs() > RIGID_TOLERANCE
    {
        return Err(RigidProblem::Sheared);
    }
    if axes.determinant() < 0.0 {
        return Err(RigidProblem::Mirrored);
    }
    Ok(Quat::from_mat3(&axes).normalize())
}
