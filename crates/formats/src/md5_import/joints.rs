//! Joints become bones: MD5's parent indices are the article's first-child / sibling tree, and the
//! md5mesh's joints, which are the bind pose, give each bone its rest transform and its offset.
//!
//! An md5mesh joint stores where it is in **object space**: its world transform in the bind pose,
//! `M(bind) = T(position) · R(orientation)`. An article bone stores where it is in its parent's
//! space, so a bone's rest local transform is `parent world⁻¹ · world`: the rotation
//! `q_parent⁻¹ · q` and the translation `q_parent⁻¹ ⊗ (position - parent position)`. Walking the
//! tree with `compute_world` then gives the joints back where the file put them.
//!
//! The offsets come from the bind pose exactly as the article's do, `compute_offsets` of the
//! bind-pose world transforms: here those are the file's own numbers. Every joint is a joint of
//! the skin, joint `i` bone `i`, as in the article.
//!
//! The children of a joint, in file order: the first becomes its first child, each next one the
//! sibling of the one before. A file with several roots (parent -1) gets one more bone above
//! them, last, that never moves: the article's tree has one root.

use super::error::{Md5Error, quote};
use super::mesh_file::FileJoint;
use glam::{Mat4, Vec3};
use skinning_method::skeleton::{BoneId, Skeleton, SkeletonBuilder, Trs, compute_offsets};
use skinning_method::skin::Joint;

/// The name of the bone added above several roots.
pub const SYNTHETIC_ROOT: &str = "(above the roots)";

/// The bone tree, and the skin's joints with their offsets.
pub struct Bones {
    pub skeleton: Skeleton,
    /// Joint `i` is bone `i`, its offset the inverse of its bind-pose world transform.
    pub joints: Vec<Joint>,
}

/// Builds the tree and the offsets from the md5mesh's joints.
pub fn bones(file: &[FileJoint]) -> Result<Bones, Md5Error> {
    let fail =
        |i: usize, problem: &str| Md5Error::File(format!("joint {i} {}: {problem}", quote(file[i].name)));
    // The bind pose: each joint's world transform, straight from the file.
    let bind_world: Vec<Mat4> =
        file.iter().map(|j| Mat4::from_rotation_translation(j.orientation, j.position)).collect();

    let mut builder = SkeletonBuilder::new();
    for (i, joint) in file.iter().enumerate() {
        // Where the joint sits in its parent's space: parent world⁻¹ · world.
        let rest = match joint.parent {
            None => Trs { translation: joint.position, rotation: joint.orientation, scale: Vec3::ONE },
            Some(p) => {
                let parent = &file[p];
                let turn_back = parent.orientation.inverse();
                Trs {
                    translation: turn_back * (joint.position - parent.position),
                    rotation: (turn_back * joint.orientation).normalize(),
                    scale: Vec3::ONE,
                }
            }
        };
        if !rest.translation.is_finite() {
            return Err(fail(
                i,
                "its position minus its parent's overflows 32-bit floats; scale the model down",
            ));
        }
        builder.bone_with(joint.name, rest);
    }

    // Children in file order: the first child, then each next one as the sibling of the one before.
    let mut last_child: Vec<Option<BoneId>> = vec![None; file.len()];
    let mut roots = Vec::new();
    for (i, joint) in file.iter().enumerate() {
        match joint.parent {
            None => roots.push(i),
            Some(p) => {
                match last_child[p] {
                    None => builder.set_first_child(p, i),
                    Some(previous) => builder.set_sibling(previous, i),
                };
                last_child[p] = Some(i);
            }
        }
    }
    if roots.len() > 1 {
        let root = builder.bone_with(SYNTHETIC_ROOT, Trs::IDENTITY);
        builder.set_first_child(root, roots[0]);
        for pair in roots.windows(2) {
            builder.set_sibling(pair[0], pair[1]);
        }
    }
    // Parents come before their children (checked when read), so this is a tree; `build` checks
    // again, and its depth limit.
    let skeleton =
        builder.build().map_err(|e| Md5Error::File(format!("the joints do not form a tree: {e}")))?;

    let offsets = compute_offsets(&bind_world);
    if let Some(i) = offsets.iter().position(|m| !m.is_finite()) {
        return Err(fail(i, "its bind pose is too far out for 32-bit floats to undo; scale the model down"));
    }
    let joints = offsets.into_iter().enumerate().map(|(bone, offset)| Joint { bone, offset }).collect();
    Ok(Bones { skeleton, joints })
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    fn joint(name: &str, parent: Option<usize>, position: Vec3, orientation: Quat) -> FileJoint<'_> {
        FileJoint { name, parent, position, orientation }
    }

    #[test]
    fn the_tree_gives_back_the_files_object_space_joints() {
        let turn = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        let file = [
            joint("hips", None, Vec3::new(0.0, 0.0, 1.0), turn),
            joint("leg", Some(0), Vec3::new(0.0, 0.5, 1.0), Quat::IDENTITY),
            joint("arm", Some(0), Vec3::new(1.0, 0.0, 2.0), turn * turn),
            joint("prop", None, Vec3::new(5.0, 0.0, 0.0), Quat::IDENTITY),
        ];
        let bones = bones(&file).unwrap();
        let skeleton = &bones.skeleton;
        // Two roots: one more bone above them.
        assert_eq!(skeleton.len(), 5);
        assert_eq!(skeleton.bone(skeleton.root()).name, SYNTHETIC_ROOT);
        assert_eq!((skeleton.bone(1).parent, skeleton.bone(0).first_child), (Some(0), Some(1)));
        assert_eq!(skeleton.bone(1).sibling, Some(2));
        // The leg is 0.5 along +y from hips turned a quarter turn about z; in the hips' own space
        // that is 0.5 along +x (turning +y back a quarter about z gives +x), unturned relative to them
        // by a quarter turn back.
        let leg = skeleton.bone(1).rest;
        assert!(leg.translation.abs_diff_eq(Vec3::new(0.5, 0.0, 0.0), 1e-6), "{}", leg.translation);
        assert!(leg.rotation.abs_diff_eq(turn.inverse(), 1e-6), "{}", leg.rotation);
        // Walking the tree gives every joint back where the file put it, and offset · world = 1.
        let world = skeleton.rest_world();
        for (i, j) in file.iter().enumerate() {
            let expected = Mat4::from_rotation_translation(j.orientation, j.position);
            assert!(world[i].abs_diff_eq(expected, 1e-6), "joint {i}");
            assert!((world[i] * bones.joints[i].offset).abs_diff_eq(Mat4::IDENTITY, 1e-6), "joint {i}");
        }
    }
}
