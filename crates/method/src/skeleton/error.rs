//! Why a set of bones is not one tree: what `SkeletonBuilder::build` reports, naming the bone.
//!
//! The names come from files you did not write, so they are printed as chapter 16 prints any such
//! name, made safe first: `printable.rs` says how, and writes this error's message.

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
    /// This bone lies deeper than `limit` bones, counting the root (`skeleton::MAX_DEPTH`): `limit`
    /// or more below it.
    TooDeep {
        bone: String,
        limit: usize,
    },
}
