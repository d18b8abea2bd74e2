//! Bones, the bone tree, world transforms and offsets (article 000, sections 2-1 and 2-2).
//!
//! A **bone is a coordinate space**. Its joint is the origin of that space, placed somewhere in the
//! parent bone's space by the bone's *local* transform. Rotating a bone rotates its whole space, and
//! with it every child space nested inside: that is why bones form a hierarchy.
//!
//! We store the hierarchy the way the article (and DirectX's frame tree) does: each bone knows its
//! **first child** and its **next sibling**. Each bone also records its parent, filled in from those
//! two links when the tree is built; the walk below never needs it, but drawing a bone's line, the
//! dump and the tests do. Bones live in one `Vec` and point at each other by index.
//!
//! The **world transform** of a bone maps bone space to world space:
//! `world[bone] = world[parent] * local[bone]`. We compute it by walking the tree like the article's
//! `ComputeWorldPos`: a bone hands *its own* world to its first child, and its *parent's* world to its
//! sibling (siblings share a parent).
//!
//! With no animation, every bone stands in its **rest pose** (`Bone::rest`). The mesh was modelled
//! around the skeleton in one particular pose, the **bind pose**. In the article the two are the same.
//! The **offset** (inverse bind matrix) of a bone is the inverse of its world transform in the bind
//! pose: it takes a mesh vertex from mesh space into that bone's space, so that the bone's animated
//! world transform can carry it back out (see `skin.rs`). For the article we compute offsets from the
//! rest pose (`compute_offsets`); a glTF file may bind in another pose, so it hands us its own.
//!
//! glam uses column vectors and column-major storage: `a * b * v` applies `b` first, then `a`.

mod error;

pub use crate::transform::Trs;
pub use error::TreeError;
use glam::{Mat4, Vec3};

/// Index of a bone in [`Skeleton::bones`].
pub type BoneId = usize;

/// The most bones from the root to any bone, counting both. Real skeletons stay under a hundred;
/// the limit keeps `compute_world`, which recurses once per level, far from the end of the stack.
pub const MAX_DEPTH: usize = 1000;

/// One bone: a name, its rest placement in its parent's space, and its links in the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Bone {
    pub name: String,
    /// Where this bone's space sits in its parent's space when nothing animates it. In the article
    /// this is only a translation, and it is also the bind pose.
    pub rest: Trs,
    /// The first of this bone's children; the others hang off its `sibling` chain.
    pub first_child: Option<BoneId>,
    /// The next child of this bone's parent.
    pub sibling: Option<BoneId>,
    /// The bone whose space this one lives in, derived from the two links above by
    /// [`SkeletonBuilder::build`]. The tree walk does not need it; drawing a bone's line, the dump
    /// and the tests read it.
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
/// use skinning_method::skeleton::SkeletonBuilder;
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
    /// A link asked for from a bone that does not exist; reported by `build`.
    bad_link: Option<TreeError>,
}

impl SkeletonBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a bone whose joint sits at `position` in its parent's space (the article's `new Bone(x, y, z)`).
    pub fn bone(&mut self, name: &str, position: Vec3) -> BoneId {
        self.bone_with(name, Trs::from_translation(position))
    }

    /// Adds a bone placed in its parent's space by a full transform (a glTF node's TRS).
    pub fn bone_with(&mut self, name: impl Into<String>, rest: Trs) -> BoneId {
        self.bones.push(Bone { name: name.into(), rest, first_child: None, sibling: None, parent: None });
        self.bones.len() - 1
    }

    /// The article's `parent->SetFirstChild(child)`.
    pub fn set_first_child(&mut self, parent: BoneId, child: BoneId) -> &mut Self {
        match self.bones.get_mut(parent) {
            Some(bone) => bone.first_child = Some(child),
            None => self.remember_missing(parent),
        }
        self
    }

    /// The article's `bone->SetSibling(sibling)`: `sibling` becomes the next child of `bone`'s parent.
    pub fn set_sibling(&mut self, bone: BoneId, sibling: BoneId) -> &mut Self {
        match self.bones.get_mut(bone) {
            Some(b) => b.sibling = Some(sibling),
            None => self.remember_missing(bone),
        }
        self
    }

    fn remember_missing(&mut self, index: BoneId) {
        self.bad_link.get_or_insert(TreeError::MissingBone { bone: format!("#{index}"), index });
    }

    /// Checks the links form one tree and fills in the parent links.
    ///
    /// The article's `SetSibling` copies the parent pointer at call time, so calling it before the
    /// parent is set leaves a bone without a parent. We derive parents from the finished tree instead.
    pub fn build(self) -> Result<Skeleton, TreeError> {
        if let Some(error) = self.bad_link {
            return Err(error);
        }
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
        let mut stack = vec![(root, None, 1)];
        while let Some((bone, parent, depth)) = stack.pop() {
            if reached[bone] {
                return Err(TreeError::ReachedTwice(bones[bone].name.clone()));
            }
            if depth > MAX_DEPTH {
                return Err(TreeError::TooDeep { bone: bones[bone].name.clone(), limit: MAX_DEPTH });
            }
            reached[bone] = true;
            bones[bone].parent = parent;
            if let Some(sibling) = bones[bone].sibling {
                stack.push((sibling, parent, depth));
            }
            if let Some(child) = bones[bone].first_child {
                stack.push((child, Some(bone), depth + 1));
            }
        }
        if let Some(lost) = (0..n).find(|&i| !reached[i]) {
            return Err(TreeError::Unreached(bones[lost].name.clone()));
        }
        Ok(Skeleton { bones, root })
    }
}

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

    /// Every bone's rest local transform, in bone order.
    pub fn rest_locals(&self) -> Vec<Mat4> {
        self.bones.iter().map(|b| b.rest.to_mat4()).collect()
    }

    /// World transform of every bone, from each bone's local transform (the article's `ComputeWorldPos`).
    ///
    /// `local` and `world` are indexed by bone. Nothing is allocated, so this can run every frame.
    pub fn compute_world(&self, local: &[Mat4], world: &mut [Mat4]) {
        assert_eq!(local.len(), self.bones.len(), "one local transform per bone");
        assert_eq!(world.len(), self.bones.len(), "one world transform per bone");
        self.compute_world_from(self.root, Mat4::IDENTITY, &|bone| local[bone], world);
    }

    /// The walk itself, from `first` and its siblings down; `local(bone)` is a bone's local transform.
    fn compute_world_from(
        &self,
        first: BoneId,
        parent_world: Mat4,
        local: &impl Fn(BoneId) -> Mat4,
        world: &mut [Mat4],
    ) {
        // `first` and its siblings all live in the same parent space, so they all get the parent's
        // world. (The article recurses into the sibling; a loop does the same without a deep stack.)
        let mut next = Some(first);
        while let Some(bone) = next {
            // This bone's space, placed inside its parent's space.
            world[bone] = parent_world * local(bone);
            // A child lives inside this bone's space, so it gets this bone's world.
            if let Some(child) = self.bones[bone].first_child {
                self.compute_world_from(child, world[bone], local, world);
            }
            next = self.bones[bone].sibling;
        }
    }

    /// World transforms of the rest pose (for the article, the bind pose). Each rest local
    /// transform is made as the walk reaches its bone, not stored first: a file may have a million.
    pub fn rest_world(&self) -> Vec<Mat4> {
        let mut world = vec![Mat4::IDENTITY; self.len()];
        self.compute_world_from(
            self.root,
            Mat4::IDENTITY,
            &|bone| self.bones[bone].rest.to_mat4(),
            &mut world,
        );
        world
    }
}

/// The offset (inverse bind matrix) of every bone, from the bind pose's world transforms (the
/// article's `ComputeBoneOffset`).
///
/// A mesh is modelled in mesh space, with the bones sitting in their bind pose. To let a bone move a
/// vertex, first express the vertex in that bone's own space: undo the bone's bind-pose world
/// transform. That undo is the offset. For a bone at (0.4, 0, 0) it is a translation by (-0.4, 0, 0),
/// as in the article; with rotations in the bind pose it is the full inverse. Computed once at load.
pub fn compute_offsets(bind_world: &[Mat4]) -> Vec<Mat4> {
    bind_world.iter().map(|world| world.inverse()).collect()
}
