//! The look-at's invariants (issue 41, item 3): within the limits the head's forward points at the
//! target within 0.5°; past them each joint stops at its limit; the bones keep their lengths.

use super::{DEFAULT_LIMIT_DEGREES, Look, forward_at_rest, solve};
use crate::reach::chain::Chain;
use crate::reach::{Reach, Solver};
use crate::skeleton::{BoneId, Skeleton, SkeletonBuilder};
use crate::transform::Trs;
use glam::{Quat, Vec3};

/// A body's middle standing up +y: hips, spine, chest, neck, head, and a bone on top of the head;
/// the head's rest turned a quarter about x (as a Blender bone pointing up the neck is), so its own
/// +z is not the model's front.
fn body() -> (Skeleton, BoneId) {
    let mut b = SkeletonBuilder::new();
    let names = ["hips", "spine", "chest", "neck"];
    let ups = [1.0, 0.2, 0.25, 0.3];
    for (name, up) in names.iter().zip(ups) {
        b.bone(name, Vec3::new(0.0, up, 0.0));
    }
    let turned = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    let head =
        b.bone_with("head", Trs { rotation: turned, ..Trs::from_translation(Vec3::new(0.0, 0.1, 0.0)) });
    let top = b.bone_with("top", Trs::from_translation(Vec3::new(0.0, 0.0, 0.2)));
    for (parent, child) in [(0, 1), (1, 2), (2, 3), (3, head), (head, top)] {
        b.set_first_child(parent, child);
    }
    (b.build().expect("a tree"), head)
}

fn look(skeleton: &Skeleton, head: BoneId, joints: usize, limit_degrees: f32) -> Look {
    let forward = forward_at_rest(skeleton, head, Vec3::Z).expect("a forward");
    Look { forward, limit: limit_degrees.to_radians(), joints }
}

/// The rest pose, the chain of `joints` ending at the head, and what solving it for `target` left:
/// the local pose and the angle still off.
fn looked(target: Vec3, joints: usize, limit_degrees: f32) -> (Skeleton, Chain, Vec<Trs>, Vec<Trs>, f32) {
    let (skeleton, head) = body();
    let rest: Vec<Trs> = skeleton.bones().iter().map(|b| b.rest).collect();
    let mut local = rest.clone();
    let bend = vec![Quat::IDENTITY; skeleton.len()];
    let mut chain = Chain::new(&skeleton, head, joints - 1).expect("bones above the head");
    let off = solve(&mut chain, &mut local, &bend, target, look(&skeleton, head, joints, limit_degrees));
    (skeleton, chain, rest, local, off)
}

/// Each joint's distance to the next, in the world, for the whole tree's path to `top`.
fn lengths(skeleton: &Skeleton, local: &[Trs]) -> Vec<f32> {
    let mut world = vec![glam::Mat4::IDENTITY; skeleton.len()];
    let matrices: Vec<glam::Mat4> = local.iter().map(Trs::to_mat4).collect();
    skeleton.compute_world(&matrices, &mut world);
    (1..skeleton.len())
        .map(|b| world[b].w_axis.distance(world[skeleton.bone(b).parent.expect("not the root")].w_axis))
        .collect()
}

#[test]
fn the_forward_at_rest_is_the_models_front_in_the_heads_space() {
    let (skeleton, head) = body();
    // The head's rest turns its +z up the neck; the model's front, +z, is its own -y.
    let forward = forward_at_rest(&skeleton, head, Vec3::Z).expect("a forward");
    assert!(forward.abs_diff_eq(Vec3::NEG_Y, 1e-6), "{forward}");
}

#[test]
fn within_the_limits_the_head_faces_the_target_and_the_lengths_stay() {
    let mut checked = 0;
    for x in [-2.0, -0.5, 0.0, 0.7, 3.0] {
        for y in [0.0, 1.8, 4.0] {
            for z in [0.5, 2.0] {
                let target = Vec3::new(x, y, z);
                let (skeleton, chain, rest, local, off) = looked(target, 3, DEFAULT_LIMIT_DEGREES);
                assert!(off.to_degrees() < 0.5, "{target}: {}° off", off.to_degrees());
                assert!(
                    off.to_degrees() < 1e-3,
                    "{target}: {}° off: the head takes what is left",
                    off.to_degrees()
                );
                for (a, b) in lengths(&skeleton, &rest).iter().zip(lengths(&skeleton, &local)) {
                    assert!((a - b).abs() < 1e-6, "{target}: a length went from {a} to {b}");
                }
                for &bone in chain.bones() {
                    let turned = rest[bone].rotation.angle_between(local[bone].rotation);
                    assert!(turned <= DEFAULT_LIMIT_DEGREES.to_radians() + 1e-5, "{target}: {turned}");
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 30);
}

#[test]
fn the_top_joint_takes_its_share_and_the_bones_below_the_chain_stay() {
    // 90° to the head's left, level with it: the top of three joints turns a third of that.
    let (skeleton, head) = body();
    let target = Vec3::new(5.0, 1.85, 0.0);
    let (_, chain, rest, local, off) = looked(target, 3, 60.0);
    let top = chain.bones()[0];
    assert_eq!(skeleton.bone(top).name, "chest");
    let first = rest[top].rotation.angle_between(local[top].rotation).to_degrees();
    assert!((first - 30.0).abs() < 1e-3, "the chest turned {first}°, not a third of 90°");
    assert!(off.to_degrees() < 1e-3);
    for bone in [0, 1] {
        assert_eq!(local[bone], rest[bone], "{} is above the chain", skeleton.bone(bone).name);
    }
    assert_eq!(chain.end(), head);
}

#[test]
fn past_the_limits_each_joint_stops_at_its_limit() {
    // Straight behind, and a little up: more than three joints of 30° can turn.
    for joints in [2, 3, 4] {
        let target = Vec3::new(0.3, 2.2, -3.0);
        let (_, chain, rest, local, off) = looked(target, joints, 30.0);
        for &bone in chain.bones() {
            let turned = rest[bone].rotation.angle_between(local[bone].rotation).to_degrees();
            assert!((turned - 30.0).abs() < 1e-3, "{joints} joints: bone {bone} turned {turned}°");
        }
        assert!(off.to_degrees() > 45.0, "{joints} joints: only {}° off", off.to_degrees());
    }
}

#[test]
fn a_target_at_the_head_turns_nothing() {
    let (skeleton, head) = body();
    let at = skeleton.rest_world()[head].w_axis.truncate();
    let (_, _, rest, local, _) = looked(at, 3, 60.0);
    assert_eq!(local, rest);
}

#[test]
fn as_a_reach_it_keeps_the_weight() {
    let (skeleton, head) = body();
    let target = Vec3::new(-2.0, 3.0, 1.0);
    let solver = Solver::LookAt(look(&skeleton, head, 3, 60.0));
    let mut reach = Reach::new(&skeleton, head, solver, target).expect("bones above the head");
    let rest: Vec<Trs> = skeleton.bones().iter().map(|b| b.rest).collect();
    let bend = vec![Quat::IDENTITY; skeleton.len()];
    let mut local = rest.clone();
    let reached = reach.solve(&mut local, &bend);
    assert!(reached.off.to_degrees() < 1e-3, "{}", reached.off.to_degrees());
    assert_eq!(reach.bones().len(), 3);
    // Half weight: every joint halfway, so the head is off by something between.
    reach.weight = 0.5;
    let mut half = rest.clone();
    let reached = reach.solve(&mut half, &bend);
    assert!(reached.off.to_degrees() > 5.0, "{}", reached.off.to_degrees());
    for &bone in reach.bones() {
        let (whole, halfway) = (
            rest[bone].rotation.angle_between(local[bone].rotation),
            rest[bone].rotation.angle_between(half[bone].rotation),
        );
        assert!((whole / 2.0 - halfway).abs() < 1e-4, "{bone}: {whole} {halfway}");
    }
    // Weight 0: the clip's pose to the last bit.
    reach.weight = 0.0;
    let mut none = rest.clone();
    reach.solve(&mut none, &bend);
    assert_eq!(none, rest);
}
