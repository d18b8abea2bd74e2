//! The two ways step 5 can blend ([`Method`]), and the palette each one reads ([`Palette`]).

use crate::dual_quat::DualQuat;
use glam::Mat4;

/// How the blend (step 5) moves a vertex with its joints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Linear blend skinning (`skin::blend`): the weighted average of where each joint puts it.
    Lbs,
    /// Dual-quaternion skinning (`dual_quat::blend_dqs`): the weighted average of the joints' motions.
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
