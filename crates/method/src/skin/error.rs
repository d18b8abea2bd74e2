//! Why a vertex cannot join a skin: what `Skin::add_vertex` and `Skin::set_normals` report,
//! naming the vertex.

use glam::Vec3;
use std::fmt;

/// A vertex whose skin info is not usable, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct SkinError {
    /// Index of the offending vertex.
    pub vertex: usize,
    pub problem: SkinProblem,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SkinProblem {
    NoInfluences,
    /// An influence names a joint index past the skin's joints.
    NoSuchJoint(usize),
    /// Negative, infinite or NaN.
    BadWeight(f32),
    WeightsDoNotSumToOne(f32),
    /// Not a direction: zero, infinite or NaN.
    BadNormal(Vec3),
    /// The skin has normals, but none for this vertex.
    NoNormal,
    /// A normal given for a vertex past the last one.
    NoSuchVertex,
}

impl fmt::Display for SkinError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "vertex {}: {}", self.vertex, self.problem)
    }
}

impl fmt::Display for SkinProblem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SkinProblem::NoInfluences => write!(f, "no bone influences it"),
            SkinProblem::NoSuchJoint(j) => write!(f, "influenced by joint #{j}, which does not exist"),
            SkinProblem::BadWeight(w) => write!(f, "weight {w} is not a finite number >= 0"),
            SkinProblem::WeightsDoNotSumToOne(s) => write!(f, "weights sum to {s}, not 1"),
            SkinProblem::BadNormal(n) => write!(f, "normal ({}, {}, {}) is not a direction", n.x, n.y, n.z),
            SkinProblem::NoNormal => write!(f, "it has no normal, but the vertices before it have"),
            SkinProblem::NoSuchVertex => write!(f, "a normal is given for it, but there is no such vertex"),
        }
    }
}

impl std::error::Error for SkinError {}
