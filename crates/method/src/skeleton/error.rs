//! Why a set of bones is not one tree: what `SkeletonBuilder::build` reports, naming the bone.

use crate::printable::printable;
use std::fmt;

/// Why a set of bones is not one tree.
#[derive(Clone, Debug, PartialEq)]
pub enum TreeError {
    Empty,
    /// A first-child or sibling link names a bone index that does not exist.
    MissingBone {
        bone: String,
        index: usize,
    },
    /// Every bone is somebody's child or sibling: the links go round in a circle.
    NoRoot,
    /// More than one bone has no parent.
    SeveralRoots(Vec<String>),
    /// The walk from the root met this bone a second time (a cycle, or a bone linked from two places).
    ReachedTwice(String),
    /// This bone cannot be reached from the root.
    Unreached(String),
    /// This bone hangs more than `limit` bones below the root (`skeleton::MAX_DEPTH`).
    TooDeep {
        bone: String,
        limit: usize,
    },
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            TreeError::Empty => write!(f, "the skeleton has no bones"),
            TreeError::MissingBone { bone, index } => {
                write!(f, "bone {} links to bone #{index}, which does not exist", printable(bone))
            }
            TreeError::NoRoot => write!(f, "every bone has a parent, so the links form a cycle"),
            TreeError::SeveralRoots(names) => {
                let names: Vec<_> = names.iter().map(|n| printable(n)).collect();
                write!(f, "the skeleton needs exactly one root, found {}", names.join(", "))
            }
            TreeError::ReachedTwice(name) => {
                let name = printable(name);
                write!(f, "bone {name} is reached twice from the root (a cycle or a shared child)")
            }
            TreeError::Unreached(name) => {
                write!(f, "bone {} cannot be reached from the root", printable(name))
            }
            TreeError::TooDeep { bone, limit } => {
                write!(f, "bone {} is more than {limit} bones below the root", printable(bone))
            }
        }
    }
}

impl std::error::Error for TreeError {}
