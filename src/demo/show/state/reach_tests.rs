//! Reaching in the demo, without a window: `E`, `Q`, `R`, a left-drag on a joint, the corner line,
//! and a right-drag bend beside it.

use super::tests::demo;
use super::*;
use crate::demo::cli::reach::{Goal, Pole, ReachOptions};
use glam::Vec2;
use skinning_method::scene::{BONE1, BONE2, BONE31, ROOT};

const SIZE: (u32, u32) = (640, 480);

fn on_screen(d: &Demo, bone: usize) -> Vec2 {
    d.view.camera.project(d.joints[bone], SIZE.0, SIZE.1)
}

#[test]
fn e_then_a_left_drag_on_a_joint_moves_its_target_and_the_arm_reaches() {
    let mut d = demo();
    d.key(" ");
    let clip_pose = d.joints.clone();
    // Off: a press on a joint is no catch (it orbits), and nothing is said or drawn.
    assert!(!d.start_reach(on_screen(&d, BONE31), SIZE, 12.0));
    d.key("e");
    assert!(d.status.line.ends_with("  reach: drag a joint"), "{}", d.status.line);
    // root and bone1 have too few bones above them to end a chain: not caught.
    assert!(!d.start_reach(on_screen(&d, BONE1), SIZE, 12.0));
    assert!(!d.start_reach(on_screen(&d, ROOT), SIZE, 12.0));
    let from = on_screen(&d, BONE31);
    assert!(d.start_reach(from + Vec2::new(2.0, 1.0), SIZE, 12.0), "bone31 is caught");
    let to = from + Vec2::new(-30.0, -50.0);
    d.drag_reach(to + Vec2::new(2.0, 1.0));
    assert!(d.end_reach(), "the release ends the drag");
    // The target followed the cursor in the plane facing the camera, and bone31 went with it.
    assert!(on_screen(&d, BONE31).distance(to) < 0.5, "bone31 is drawn at {}", on_screen(&d, BONE31));
    assert_eq!(d.joints[BONE1], clip_pose[BONE1], "the chain's start stays where the clip has it");
    assert!(d.status.line.ends_with("  reach bone1-bone31 two-bone 0.0000 to go"), "{}", d.status.line);
    let marks = d.scene(SIZE.0, SIZE.1, 1.0).reach.expect("the target is drawn");
    assert_eq!(marks.len(), 4);
    assert!(marks[0].distance(d.joints[BONE31]) < 1e-5, "the target is where bone31 is");

    // Q: CCD on three bones (bone2, bone1 and root turn), which reaches as well.
    assert_eq!(d.key("q"), Reply::Changed);
    assert!(d.status.line.ends_with("  reach root-bone31 ccd 0.0000 to go"), "{}", d.status.line);
    assert!(on_screen(&d, BONE31).distance(to) < 0.5);
    d.key("q");
    assert!(d.status.line.contains("reach bone1-bone31 two-bone"), "{}", d.status.line);

    // E again: the clip alone, no marks. R: the dragged chain is gone.
    d.key("e");
    assert_eq!(d.joints, clip_pose, "reach mode off: the clip's pose");
    assert!(d.scene(SIZE.0, SIZE.1, 1.0).reach.is_none());
    d.key("e");
    d.key("r");
    d.key(" ");
    assert!(d.status.line.ends_with("  reach: drag a joint"), "{}", d.status.line);
}

#[test]
fn the_command_lines_chains_reach_from_the_start_and_a_bend_by_hand_rides_on_top() {
    let model = skinning_method::scene::article().expect("the article's scene");
    let clips = skinning_method::scene::clips().expect("the article's clips");
    let target = glam::Vec3::new(0.3, 0.25, 0.05);
    let pole = Some(Pole::Point(glam::Vec3::new(0.3, 0.0, 0.4)));
    let goal = Goal { start: None, end: "bone31".into(), target, pole };
    let reach = ReachOptions { goals: vec![goal], ..ReachOptions::default() };
    let mut d = Demo::new(model, clips, &Options { reach, ..Options::default() }).expect("valid");
    assert!(d.reach.on, "--reach starts in reach mode");
    assert!(d.joints[BONE31].distance(target) < 1e-5);
    // A press far from every joint and target is no catch: it orbits.
    assert!(!d.start_reach(Vec2::new(5.0, 470.0), SIZE, 12.0));
    // Right-drag bends bone2 by hand: the chain is measured with the bend, so it still reaches.
    let joint = on_screen(&d, BONE2);
    assert!(d.start_bend(joint + Vec2::new(1.0, 0.0), SIZE, 12.0));
    d.drag_bend(joint + Vec2::new(0.0, -40.0));
    d.end_bend();
    assert_ne!(d.pose.bend[BONE2], glam::Quat::IDENTITY, "bone2 is bent");
    assert!(
        d.joints[BONE31].distance(target) < 1e-5,
        "bent, bone31 is {} off",
        d.joints[BONE31].distance(target)
    );
    // R: the command line's target and solver again, and no bend.
    d.key("q");
    assert!(d.status.line.contains(" ccd "), "{}", d.status.line);
    d.key("r");
    assert!(d.status.line.contains("reach bone1-bone31 two-bone 0.0000 to go"), "{}", d.status.line);
    assert_eq!(d.pose.bend[BONE2], glam::Quat::IDENTITY);
    assert!(d.joints[BONE31].distance(target) < 1e-5);
}
