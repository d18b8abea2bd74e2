//! The figures of chapter 19 worked out again: the article's claw looking at a point, each joint's
//! share of the turn, by the library's look-at, held against the shares' rule where it is exact;
//! past the limits; and a head's forward carried into a bone's own space.

use super::format::{fixed, point_fixed};
use super::{Facts, Work};
use glam::{Quat, Vec3};
use skinning_method::frame::Pose;
use skinning_method::look_at::{Look, forward_at_rest};
use skinning_method::reach::{Reach, Solver};
use skinning_method::scene::{self, BONE1, BONE2, BONE31};
use skinning_method::skeleton::SkeletonBuilder;
use skinning_method::transform::Trs;

pub const COMPUTED: [Work; 3] = [("19-shares", shares), ("19-limit", limit), ("19-forward", forward)];

/// How far a rotation turns, in degrees.
fn turned(from: Quat, to: Quat) -> f64 {
    (from.conjugate() * to).normalize().to_axis_angle().1.to_degrees() as f64
}

/// The article's claw, bone31, in the bind pose, looking at `target` with its front (+z) as forward
/// and joints that turn at most `limit` degrees: each chain joint's turn, in degrees, and the
/// angle left off.
fn claw_looks(target: Vec3, limit: f32) -> ([f64; 3], f64) {
    let model = scene::article().expect("the article's scene");
    let mut pose = Pose::new(&model);
    let before = pose.local.clone();
    let forward = forward_at_rest(&model.skeleton, BONE31, Vec3::Z).expect("a forward");
    let look = Look { forward, limit: limit.to_radians(), joints: 3 };
    let mut reach = Reach::new(&model.skeleton, BONE31, Solver::LookAt(look), target).expect("a chain");
    let reached = reach.solve(&mut pose.local, &pose.bend);
    let turns = [BONE1, BONE2, BONE31].map(|b| turned(before[b].rotation, pose.local[b].rotation));
    (turns, (reached.off as f64).to_degrees())
}

/// Chapter 19's worked example: the claw looks at (1.6, 0.1, 0), 90° to the side of its front.
fn shares() -> Facts {
    let (turns, off) = claw_looks(Vec3::new(1.6, 0.1, 0.0), 60.0);
    // The first share is exact: a third of the whole 90°, before anything has moved.
    assert!((turns[0] - 90.0 / 3.0).abs() < 1e-3, "{turns:?}");
    Ok(vec![
        format!("bone1 turns {}°", fixed(turns[0], 2)),
        format!("bone2 then turns {}°", fixed(turns[1], 2)),
        format!("bone31 {}°", fixed(turns[2], 2)),
        format!("{}° off", fixed(off, 4)),
    ])
}

/// Exercise 1: the claw looks straight behind it, (0.6, 0.1, -1), each joint turning at most 20°.
fn limit() -> Facts {
    let (turns, off) = claw_looks(Vec3::new(0.6, 0.1, -1.0), 20.0);
    assert!(turns.iter().all(|t| (t - 20.0).abs() < 1e-3), "{turns:?}");
    Ok(vec![format!("each turns {}°", fixed(turns[0], 2)), format!("{}° off", fixed(off, 1))])
}

/// Exercise 2: a head bone whose rest pose turns it a quarter about x, as a Blender bone pointing
/// up the neck is: the model's front, +z, in its own space.
fn forward() -> Facts {
    let mut b = SkeletonBuilder::new();
    let neck = b.bone("neck", Vec3::new(0.0, 1.5, 0.0));
    let quarter = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    let rest = Trs { rotation: quarter, ..Trs::from_translation(Vec3::new(0.0, 0.1, 0.0)) };
    let head = b.bone_with("head", rest);
    b.set_first_child(neck, head);
    let skeleton = b.build().expect("a tree");
    let forward = forward_at_rest(&skeleton, head, Vec3::Z).expect("a forward");
    // Its own +z goes up the neck: (quarter * +z) is +y.
    assert!((quarter * Vec3::Z).abs_diff_eq(Vec3::Y, 1e-6));
    Ok(vec![format!("forward is {}", point_fixed(forward.round() + Vec3::ZERO, 0))])
}
