//! Masked layers: a clip that drives one bone and everything under it, and leaves the rest alone
//! (the robot waves with its upper body while its legs walk).
//!
//! The bones under a bone are its **subtree**, and the first-child / sibling tree of article 000
//! finds them with the same walk as `compute_world` (`skeleton.rs`): from the bone's first child,
//! every bone reached by first-child and sibling links is under it; the bone's own siblings are
//! not. [`Mask::new`] marks them once, when the layer is made. Each frame, inside the mask the
//! layer's pose is laid over the blend below it at the layer's weight (`weighted::mix`: the whole
//! of it at weight 1); outside it every bone keeps the blend below, exactly. This is
//! ozz-animation's `partial_blend` sample with one weight per layer: there, the joints under the
//! chosen root get the upper layer's weight and the lower layer gets what remains.

use crate::skeleton::{BoneId, Skeleton};

/// The bones a masked layer drives: `root` and every bone under it.
#[derive(Clone, Debug, PartialEq)]
pub struct Mask {
    pub root: BoneId,
    /// For each bone of the skeleton, whether it is `root` or under it.
    pub bones: Vec<bool>,
}

impl Mask {
    /// The subtree of `root` in `skeleton`.
    ///
    /// # Panics
    /// If `root` is not a bone of `skeleton`.
    pub fn new(skeleton: &Skeleton, root: BoneId) -> Mask {
        let mut bones = vec![false; skeleton.len()];
        bones[root] = true;
        if let Some(child) = skeleton.bone(root).first_child {
            mark_from(skeleton, child, &mut bones);
        }
        Mask { root, bones }
    }

    /// How many bones the mask holds.
    pub fn count(&self) -> usize {
        self.bones.iter().filter(|&&inside| inside).count()
    }
}

/// Marks `first`, its siblings, and everything under each of them.
fn mark_from(skeleton: &Skeleton, first: BoneId, inside: &mut [bool]) {
    // `first` and its siblings share a parent, which is in the mask: so are they. (A loop along the
    // siblings and a call for each first child, as `compute_world` walks.)
    let mut next = Some(first);
    while let Some(bone) = next {
        inside[bone] = true;
        if let Some(child) = skeleton.bone(bone).first_child {
            mark_from(skeleton, child, inside);
        }
        next = skeleton.bone(bone).sibling;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{self, BONE1, BONE2, BONE31, BONE32, ROOT};

    #[test]
    fn the_mask_of_a_bone_is_it_and_every_bone_under_it() {
        let skeleton = scene::article().expect("the article's scene").skeleton;
        // root -> bone1 -> bone2 -> (bone31, bone32): worked out from the article's tree.
        let under = |root| Mask::new(&skeleton, root).bones;
        let mut expected = vec![false; 5];
        for (root, members) in [
            (ROOT, &[ROOT, BONE1, BONE2, BONE31, BONE32][..]),
            (BONE1, &[BONE1, BONE2, BONE31, BONE32]),
            (BONE2, &[BONE2, BONE31, BONE32]),
            (BONE31, &[BONE31]),
            (BONE32, &[BONE32]),
        ] {
            expected.fill(false);
            members.iter().for_each(|&b| expected[b] = true);
            assert_eq!(under(root), expected, "the subtree of bone {root}");
        }
        // bone31's sibling, bone32, is not under bone31.
        assert!(!Mask::new(&skeleton, BONE31).bones[BONE32]);
    }

    #[test]
    fn every_bone_whose_parents_lead_to_the_root_is_in_its_mask() {
        // Checked another way, by the parent links the walk does not use, on a wider tree.
        let mut b = crate::skeleton::SkeletonBuilder::new();
        let ids: Vec<_> = (0..9).map(|i| b.bone(&format!("b{i}"), glam::Vec3::X)).collect();
        b.set_first_child(ids[0], ids[1]).set_sibling(ids[1], ids[2]).set_sibling(ids[2], ids[3]);
        b.set_first_child(ids[2], ids[4]).set_sibling(ids[4], ids[5]).set_first_child(ids[5], ids[6]);
        b.set_first_child(ids[3], ids[7]).set_first_child(ids[7], ids[8]);
        let skeleton = b.build().expect("a tree");
        for root in 0..skeleton.len() {
            let mask = Mask::new(&skeleton, root);
            for bone in 0..skeleton.len() {
                let mut up = Some(bone);
                while up.is_some_and(|u| u != root) {
                    up = skeleton.bone(up.unwrap()).parent;
                }
                assert_eq!(mask.bones[bone], up == Some(root), "bone {bone} under {root}");
            }
        }
        assert_eq!(Mask::new(&skeleton, ids[2]).count(), 4, "b2, b4, b5 and b6");
    }
}
