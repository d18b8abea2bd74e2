//! The skinned layer's two choices: **where** it is blended ([`Skinning`], `--skinning`, the key
//! `G`) and **how** ([`Methods`], `--method`, the key `D`), with their names and the order the keys
//! step through them.

use skinning_method::lbs_or_dqs::Method;

/// Where the skinned layer is blended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skinning {
    /// The tutorial's road: the blend on the CPU (`FastPath`, the fast path beside `blend::blend_run`),
    /// positions uploaded every frame.
    Cpu,
    /// The next lesson: the same blend in a vertex shader (`shaders/skinning.vert`, or
    /// `skinning_dqs.vert` for dual quaternions).
    Gpu,
    /// Both, the GPU result drawn in another colour over the CPU one.
    Both,
}

impl Skinning {
    pub fn name(self) -> &'static str {
        match self {
            Skinning::Cpu => "cpu",
            Skinning::Gpu => "gpu",
            Skinning::Both => "both",
        }
    }

    pub fn next(self) -> Skinning {
        match self {
            Skinning::Cpu => Skinning::Gpu,
            Skinning::Gpu => Skinning::Both,
            Skinning::Both => Skinning::Cpu,
        }
    }
}

/// By which method the skinned layer is blended (`--method`, the key `D`): one, or both at once
/// to compare them. Each method itself is a `Blend` of the method's crate (`blend.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Methods {
    /// Linear blend skinning, the article's (`blend::Linear`), in red.
    Lbs,
    /// Dual-quaternion skinning (`dual_quat::DualQuats`), in orange.
    Dqs,
    /// Compare: DQS in orange drawn over LBS in red.
    Both,
}

impl Methods {
    pub fn name(self) -> &'static str {
        match self {
            Methods::Lbs => "lbs",
            Methods::Dqs => "dqs",
            Methods::Both => "lbs+dqs",
        }
    }

    pub fn next(self) -> Methods {
        match self {
            Methods::Lbs => Methods::Dqs,
            Methods::Dqs => Methods::Both,
            Methods::Both => Methods::Lbs,
        }
    }

    /// The method of the first (or only) skinned layer: DQS alone, else LBS.
    pub fn first(self) -> Method {
        if self == Methods::Dqs { Method::Dqs } else { Method::Lbs }
    }
}
