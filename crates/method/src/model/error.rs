//! Why a skeleton, a skin and a mesh do not make a model: the error `Model::new` and its checks
//! return, naming the bone, joint, vertex, edge or triangle at fault.

use crate::skeleton::{BoneId, TreeError};
use crate::skin::SkinError;
use std::fmt;

/// Why a skeleton, a skin and a mesh do not make a model.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelError {
    /// The bones do not form one tree.
    Tree(TreeError),
    /// A vertex's skin info is unusable.
    Skin(SkinError),
    /// A joint of the skin names a bone the skeleton does not have.
    NoSuchBone { joint: usize, bone: BoneId },
    /// An edge names a vertex the skin does not have.
    NoSuchVertex { edge: usize, vertex: u32 },
    /// A triangle names a vertex the skin does not have.
    NoSuchTriangleVertex { triangle: usize, vertex: u32 },
    /// The parts do not cover the vertices in order, skinned ones first.
    BadParts(String),
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ModelError::Tree(e) => write!(f, "{e}"),
            ModelError::Skin(e) => write!(f, "{e}"),
            ModelError::NoSuchBone { joint, bone } => {
                write!(f, "joint {joint} is bone #{bone}, which the skeleton does not have")
            }
            ModelError::NoSuchVertex { edge, vertex } => {
                write!(f, "edge {edge} ends at vertex {vertex}, which the mesh does not have")
            }
            ModelError::NoSuchTriangleVertex { triangle, vertex } => {
                write!(f, "triangle {triangle} has a corner at vertex {vertex}, which the mesh does not have")
            }
            ModelError::BadParts(why) => write!(f, "the meshes' vertex ranges are wrong: {why}"),
        }
    }
}

impl std::error::Error for ModelError {}

impl From<TreeError> for ModelError {
    fn from(e: TreeError) -> Self {
        ModelError::Tree(e)
    }
}

impl From<SkinError> for ModelError {
    fn from(e: SkinError) -> Self {
        ModelError::Skin(e)
    }
}
