//! Bones, the bone tree, world transforms and offsets (article 000, sections 2-1 and 2-2).
//!
//! A **bone is a coordinate space**. Its joint is the origin of that space, placed somewhere in the
//! parent bone's space by the bone's *local* transform. Rotating a bone rotates its whole space, and
//! with it every child space nested inside: that is why bones form a hierarchy.
//!
//! We store the hierarchy the way the article (and DirectX's frame tree) does: each bone knows its
//! **first child** and its **next sibling**. A parent link is kept too, but only for drawing the line
//! from a parent joint to a child joint. Bones live in one `Vec` and point at each other by index.
//!
//! The **world transform** of a bone maps bone space to world space:
//! `world[bone] = world[parent] * local[bone]`. We compute it by walking the tree like the article's
//! `ComputeWorldPos`: a bone hands *its own* world to its first child, and its *parent's* world to its
//! sibling (siblings share a parent).
//!
//! The **offset** (inverse bind matrix) of a bone is the inverse of its world transform in the bind
//! pose, the pose the mesh was modelled in. It takes a mesh vertex from mesh space into that bone's
//! space, so that the bone's animated world transform can carry it back out (see `skin.rs`).
//!
//! glam uses column vectors and column-major storage: `a * b * v` applies `b` first, then `a`.

use glam::{Mat4, Vec3};
use std::fmt;

/// Index of a bone in [`Skeleton::bones`].
pub type BoneId = usize;

/// One bone: a name, its bind-pose placement in its parent's space, and its links in the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Bone {
    pub name: String,
    /// Where this bone's space sits in its parent's space in the bind pose (a translation here, as in
    /// the article; animation adds rotation on top).
    pub bind_local: Mat4,
    /// The first of this bone's children; the others hang off its `sibling` chain.
    pub first_child: Option<BoneId>,
    /// The next child of this bone's parent.
    pub sibling: Option<BoneId>,
    /// The bone whose space this one lives in. Only drawing uses it: the tree walk does not need it.
    pub parent: Option<BoneId>,
}

/// A validated bone tree: exactly one root, every bone reached exactly once from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Skeleton {
    bones: Vec<Bone>,
    root: BoneId,
}

/// Builds a [`Skeleton`] with calls that read like the article's `buildBones`.
///
/// ```
/// use skinning::skeleton::SkeletonBuilder;
/// use glam::Vec3;
/// let mut b = SkeletonBuilder::new();
/// let root = b.bone("root", Vec3::ZERO);
/// let arm = b.bone("arm", Vec3::new(0.2, 0.0, 0.0));
/// b.set_first_child(root, arm);
/// let skeleton = b.build().unwrap();
/// assert_eq!(skeleton.bone(arm).parent, Some(root));
/// ```
#[derive(Default)]
pub struct SkeletonBuilder {
    bones: Vec<Bone>,
}

impl SkeletonBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a bone whose joint sits at `position` in its parent's space (the article's `new Bone(x, y, z)`).
    pub fn bone(&mut self, name: &str, position: Vec3) -> BoneId {
        self.bones.push(Bone {
            name: name.to_string(),
            bind_local: Mat4::from_translation(position),
            first_child: None,
            sibling: None,
            parent: None,
        });
        self.bones.len() - 1
    }

    /// The article's `parent->SetFirstChild(child)`.
    pub fn set_first_child(&mut self, parent: BoneId, child: BoneId) -> &mut Self {
        self.bones[parent].first_child = Some(child);
        self
    }

    /// The article's `bone->SetSibling(sibling)`: `sibling` becomes the next child of `bone`'s parent.
    pub fn set_sibling(&mut self, bone: BoneId, sibling: BoneId) -> &mut Self {
        self.bones[bone].sibling = Some(sibling);
        self
    }

    /// Checks the links form one tree and fills in the parent links.
    ///
    /// The article's `SetSibling` copies the parent pointer at call time, so calling it before the
    /// parent is set leaves a bone without a parent. We derive parents from the finished tree instead.
    pub fn build(self) -> Result<Skeleton, TreeError> {
        let mut bones = self.bones;
        let n = bones.len();
        let names = |ids: &[BoneId], bones: &[Bone]| -> Vec<String> {
            ids.iter().map(|&i| bones[i].name.clone()).collect()
        };

        // Every link must point at a bone that exists.
        for bone in &bones {
            for target in [bone.first_child, bone.sibling].into_iter().flatten() {
                if target >= n {
                    return Err(TreeError::MissingBone { bone: bone.name.clone(), index: target });
                }
            }
        }

        // The root is the one bone nobody links to. A root's sibling would be a second root.
        let mut linked = vec![false; n];
        for bone in &bones {
            for target in [bone.first_child, bone.sibling].into_iter().flatten() {
                linked[target] = true;
            }
        }
        let roots: Vec<BoneId> = (0..n).filter(|&i| !linked[i]).collect();
        let root = match roots.as_slice() {
            [] if n == 0 => return Err(TreeError::Empty),
            [] => return Err(TreeError::NoRoot),
            [root] => *root,
            _ => return Err(TreeError::SeveralRoots(names(&roots, &bones))),
        };
        if let Some(second) = bones[root].sibling {
            return Err(TreeError::SeveralRoots(names(&[root, second], &bones)));
        }

        // Walk the tree from the root, setting parents; a bone met twice means a cycle or a shared child.
        let mut reached = vec![false; n];
        let mut stack = vec![(root, None)];
        while let Some((bone, parent)) = stack.pop() {
            if reached[bone] {
                return Err(TreeError::ReachedTwice(bones[bone].name.clone()));
            }
            reached[bone] = true;
            bones[bone].parent = parent;
            if let Some(sibling) = bones[bone].sibling {
                stack.push((sibling, parent));
            }
            if let Some(child) = bones[bone].first_child {
                stack.push((child, Some(bone)));
            }
        }
        if let Some(lost) = (0..n).find(|&i| !reached[i]) {
            return Err(TreeError::Unreached(bones[lost].name.clone()));
        }
        Ok(Skeleton { bones, root })
    }
}

/// Why a set of bones is not one tree.
#[derive(Clone, Debug, PartialEq)]
pub enum TreeError {
    Empty,
    /// A first-child or sibling link names a bone index that does not exist.
    MissingBone {
        bone: String,
        index: BoneId,
    },
    /// Every bone is somebody's child or sibling: the links go round in a circle.
    NoRoot,
    /// More than one bone has no parent.
    SeveralRoots(Vec<String>),
    /// The walk from the root met this bone a second time (a cycle, or a bone linked from two places).
    ReachedTwice(String),
    /// This bone cannot be reached from the root.
    Unreached(String),
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            TreeError::Empty => write!(f, "the skeleton has no bones"),
            TreeError::MissingBone { bone, index } => {
                write!(f, "bone {bone} links to bone #{index}, which does not exist")
            }
            TreeError::NoRoot => write!(f, "every bone has a parent, so the links form a cycle"),
            TreeError::SeveralRoots(names) => {
                write!(f, "the skeleton needs exactly one root, found {}", names.join(", "))
            }
            TreeError::ReachedTwice(name) => {
                write!(f, "bone {name} is reached twice from the root (a cycle or a shared child)")
            }
            TreeError::Unreached(name) => write!(f, "bone {name} cannot be reached from the root"),
        }
    }
}

impl std::error::Error for TreeError {}

impl Skeleton {
    pub fn bones(&self) -> &[Bone] {
        &self.bones
    }

    pub fn bone(&self, id: BoneId) -> &Bone {
        &self.bones[id]
    }

    pub fn len(&self) -> usize {
        self.bones.len()
    }

    /// Always false: a built skeleton has a root.
    pub fn is_empty(&self) -> bool {
        self.bones.is_empty()
    }

    pub fn root(&self) -> BoneId {
        self.root
    }

    /// The bone called `name`, if there is one.
    pub fn find(&self, name: &str) -> Option<BoneId> {
        self.bones.iter().position(|b| b.name == name)
    }

    /// Every bone's bind-pose local transform, in bone order: the pose the mesh was modelled in.
    pub fn bind_locals(&self) -> Vec<Mat4> {
        self.bones.iter().map(|b| b.bind_local).collect()
    }

    /// World transform of every bone, from each bone's local transform (the article's `ComputeWorldPos`).
    ///
    /// `local` and `world` are indexed by bone. Nothing is allocated, so this can run every frame.
    pub fn compute_world(&self, local: &[Mat4], world: &mut [Mat4]) {
        assert_eq!(local.len(), self.bones.len(), "one local transform per bone");
        assert_eq!(world.len(), self.bones.len(), "one world transform per bone");
        self.compute_world_from(self.root, Mat4::IDENTITY, local, world);
    }

    fn compute_world_from(&self, bone: BoneId, parent_world: Mat4, local: &[Mat4], world: &mut [Mat4]) {
        // This bone's space, placed inside its parent's space.
        world[bone] = parent_world * local[bone];
        let links = &self.bones[bone];
        // A sibling lives in the same parent space, so it gets the parent's world, not ours.
        if let Some(sibling) = links.sibling {
            self.compute_world_from(sibling, parent_world, local, world);
        }
        // A child lives inside this bone's space.
        if let Some(child) = links.first_child {
            self.compute_world_from(child, world[bone], local, world);
        }
    }

    /// World transforms of the bind pose.
    pub fn bind_world(&self) -> Vec<Mat4> {
        let mut world = vec![Mat4::IDENTITY; self.len()];
        self.compute_world(&self.bind_locals(), &mut world);
        world
    }
}

/// The offset (inverse bind matrix) of every bone (the article's `ComputeBoneOffset`).
///
/// A mesh is modelled in mesh space, with the bones sitting in their bind pose. To let a bone move a
/// vertex, first express the vertex in that bone's own space: undo the bone's bind-pose world
/// transform. That undo is the offset. For a bone at (0.4, 0, 0) it is a translation by (-0.4, 0, 0),
/// as in the article; with rotations in the bind pose it is the full inverse. Computed once at load.
pub fn compute_offsets(bind_world: &[Mat4]) -> Vec<Mat4> {
    bind_world.iter().map(|world| world.inverse()).collect()
}
