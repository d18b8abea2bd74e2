//! Which vertices form which mesh of a model ([`Part`]).

use crate::skeleton::BoneId;
use std::ops::Range;

/// One mesh of a model: a run of the skin's vertices, named for `--info` and the dump.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub name: String,
    /// Which of the skin's vertices are this mesh's.
    pub vertices: Range<usize>,
    /// The bone (a glTF node) the mesh hangs on, if it hangs on one.
    pub bone: Option<BoneId>,
    /// True for a skinned mesh. False for a mesh that moves rigidly with its bone, article 000's
    /// "joint animation": its vertices each have one influence, weight 1, on that bone's joint.
    pub skinned: bool,
}
