//! Reaching in the program, without a window.

use super::*;
use crate::demo::cli::reach::Goal;
use skinning_method::model::Axes;

#[test]
fn q_twice_comes_back_to_the_command_lines_softened_solver() {
    let model = skinning_method::scene::article().expect("the article's scene is valid");
    let goal = Goal { start: None, end: "bone31".into(), target: Vec3::new(0.5, 0.3, 0.0), pole: None };
    let options = ReachOptions { goals: vec![goal], soften: Some(0.8), ..ReachOptions::default() };
    let mut reaching = Reaching::new(&model, &options).expect("bone31 has two bones above it");
    assert_eq!(reaching.solver, Solver::TwoBone { soften: 0.8 });
    reaching.switch_solver(&model).expect("CCD on three bones fits");
    assert_eq!(reaching.solver, Solver::Ccd { bones: CCD_BONES });
    reaching.switch_solver(&model).expect("two-bone again");
    assert_eq!(reaching.solver, Solver::TwoBone { soften: 0.8 }, "Q forgot --soften");
}

#[test]
fn an_md5_models_targets_are_said_to_be_in_its_z_up_numbers() {
    let goal = Goal { start: None, end: "bone31".into(), target: Vec3::new(0.5, 0.3, 0.0), pole: None };
    let options = ReachOptions { goals: vec![goal], ..ReachOptions::default() };
    let mut model = skinning_method::scene::article().expect("the article's scene is valid");
    for (axes, said) in [(Axes::GLTF, false), (Axes::ID, true)] {
        model.axes = axes;
        let reaching = Reaching::new(&model, &options).expect("bone31 has two bones above it");
        let mut line = String::new();
        reaching.write_status(&mut line);
        assert_eq!(line.contains("targets in the file's Z-up numbers"), said, "{axes:?}: {line}");
    }
    assert!(crate::demo::cli::help::HELP.contains("(an MD5 model's are Z-up"));
}

#[test]
fn the_corner_line_names_a_start_end_chains_own_solver() {
    // root..bone31 turns three bones (bone2, bone1, root): CCD, though no --chain was given.
    let model = skinning_method::scene::article().expect("the article's scene is valid");
    let target = Vec3::new(0.5, 0.3, 0.0);
    let goal = Goal { start: Some("root".into()), end: "bone31".into(), target, pole: None };
    let options = ReachOptions { goals: vec![goal], ..ReachOptions::default() };
    let reaching = Reaching::new(&model, &options).expect("root is above bone31");
    let mut line = String::new();
    reaching.write_status(&mut line);
    assert!(line.contains("reach root-bone31 ccd "), "{line}");
}

#[test]
fn a_look_at_turns_reach_mode_on_says_how_far_off_and_keeps_its_way_through_q() {
    let model = skinning_method::scene::article().expect("the article's scene is valid");
    let look =
        LookOptions { at: Some(("bone31".into(), Vec3::new(1.6, 0.1, 0.0))), ..LookOptions::default() };
    let mut reaching =
        Reaching::new(&model, &ReachOptions::default()).expect("no chains").looking(&model, &look);
    let reaching = reaching.as_mut().expect("bone31 can look");
    assert!(reaching.on, "--look-at starts in reach mode");
    let mut pose = Pose::new(&model);
    let frame = skinning_method::frame::Frame::new(&skinning_method::frame::Still, 0.0);
    let mut chains = reaching.chains();
    let frame = skinning_method::frame::Frame { adjust: Some(&mut chains), ..frame };
    pose.run(&model, frame).expect("linear blending");
    reaching.mark(&pose);
    let mut line = String::new();
    reaching.write_status(&mut line);
    assert_eq!(line, "  look bone1-bone31 0.00 degrees off");
    // Q switches the limbs' solver; the look-at keeps its own.
    reaching.switch_solver(&model).expect("no limb to switch");
    assert!(matches!(reaching.chains()[0].solver, Solver::LookAt(_)));
}
