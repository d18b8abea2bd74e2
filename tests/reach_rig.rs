//! Reaching on rigs as Blender and Mixamo make them (chapter 12), through the program's dump: the
//! default bend of a straight limb (elbows down and back, knees forward), a bone as the pole, a
//! chain named from its start to its end, the note on a chain that turns a body or a control bone,
//! and targets and poles far away. The rigs are `tests/common/rigs.rs`'s.

use common::rigs::{self, ARM_POLE, RIGHT_ARM, RIGHT_FORE_ARM, RIGHT_LEG, RIGHT_UP_LEG};
use common::{program, scratch};
use serde_json::Value;
use std::path::{Path, PathBuf};

type V = [f64; 3];

fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: V, b: V) -> V {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn unit(v: V) -> V {
    let l = dot(v, v).sqrt();
    [v[0] / l, v[1] / l, v[2] / l]
}

/// The T-posed figure written to a scratch folder.
fn t_pose(test: &str) -> PathBuf {
    let path = scratch(test).join("t-pose.gltf");
    std::fs::write(&path, rigs::t_pose().embedded()).expect("scratch is writable");
    path
}

/// The dump of `args` (one frame at 0 s) and what the program said on standard error.
fn dump(model: Option<&Path>, args: &[&str]) -> (Value, String) {
    let mut command = program();
    if let Some(model) = model {
        command.arg("--model").arg(model);
    }
    let out = command.args(args).args(["--dump", "-"]).output().expect("the program runs");
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?}: {said}");
    (serde_json::from_slice(&out.stdout).expect("JSON"), said)
}

/// Where bone `b`'s joint is in the first frame.
fn joint(dump: &Value, b: usize) -> V {
    let m = dump["frames"][0]["world"][b].as_array().expect("a matrix");
    [12, 13, 14].map(|i| m[i].as_f64().expect("a number"))
}

/// How the middle joint of a chain stands off the line from its start to its end: a unit direction.
fn bend(dump: &Value, start: usize, middle: usize, end: usize) -> V {
    let (a, b, c) = (joint(dump, start), joint(dump, middle), joint(dump, end));
    let along = unit(sub(c, a));
    let off = sub(b, a);
    let t = dot(off, along);
    unit(sub(off, [along[0] * t, along[1] * t, along[2] * t]))
}

#[test]
fn the_t_pose_in_the_repository_is_the_one_the_tests_build() {
    // `tests/t-pose.gltf` is there for the book's picture (chapter 12) and to be opened. To write
    // it again: SKINNING_WRITE_FIXTURE=1 cargo test --test reach_rig the_t_pose
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/t-pose.gltf");
    let built = rigs::t_pose().embedded();
    if std::env::var_os("SKINNING_WRITE_FIXTURE").is_some() {
        std::fs::write(&path, &built).expect("tests/ is writable");
    }
    let stored = std::fs::read(&path).expect("tests/t-pose.gltf is in the repository");
    assert!(stored == built, "tests/t-pose.gltf differs from tests/common/rigs.rs: write it again");
}

#[test]
fn a_straight_arm_bends_its_elbow_down_and_back_and_a_straight_leg_its_knee_forward() {
    let model = t_pose("straight");
    // The right hand to a point in front of the shoulder, nearer than the arm is long; the right
    // foot up and forward. Full names: this test is about the bend, not about names.
    let (dump, said) = dump(
        Some(&model),
        &["--reach", "mixamorig:RightHand=-0.45,1.55,0.2", "--reach", "mixamorig:RightFoot=-0.1,0.35,0.3"],
    );
    let elbow = bend(&dump, RIGHT_ARM, RIGHT_FORE_ARM, RIGHT_FORE_ARM + 1);
    let knee = bend(&dump, RIGHT_UP_LEG, RIGHT_LEG, RIGHT_LEG + 1);
    eprintln!("the elbow stands off the shoulder-to-hand line towards {elbow:.3?}; the knee {knee:.3?}");
    // Down (-y) and back (-z), each by a good part; the knee forward (+z).
    assert!(elbow[1] < -0.3 && elbow[2] < -0.3, "the elbow goes {elbow:?}, not down and back");
    assert!(knee[2] > 0.8, "the knee goes {knee:?}, not forward");
    for says in
        ["takes it for an arm: its elbow bends down and back", "takes it for a leg: its knee bends forward"]
    {
        assert!(said.contains(says), "no note that the default bend chose: {said}");
    }
    // Both hands reached.
    for chain in dump["frames"][0]["reach"].as_array().expect("chains") {
        assert!(chain["distance"].as_f64().expect("a number") < 1e-5, "{chain}");
    }
    // The case: each hand across the chest to the other side. The old solve put the right
    // elbow up over the shoulder and forward, and the left one elsewhere: now both go down and
    // back, mirror images of each other.
    let across =
        ["--reach", "mixamorig:RightHand=0.05,1.35,0.3", "--reach", "mixamorig:LeftHand=-0.05,1.35,0.3"];
    let (crossed, _) = self::dump(Some(&model), &across);
    let right = bend(&crossed, RIGHT_ARM, RIGHT_FORE_ARM, RIGHT_FORE_ARM + 1);
    let left = bend(&crossed, RIGHT_ARM + 4, RIGHT_FORE_ARM + 4, RIGHT_FORE_ARM + 5);
    eprintln!("across the chest, the right elbow goes {right:.3?}, the left {left:.3?}");
    assert!(right[1] < -0.5 && right[2] < -0.3, "the right elbow goes {right:?}");
    assert!((right[0] + left[0]).abs() < 1e-5 && (right[1] - left[1]).abs() < 1e-5, "{right:?} {left:?}");
}

#[test]
fn a_pole_may_be_a_bone_whose_joint_it_follows() {
    let model = t_pose("pole-bone");
    let reach = ["--reach", "mixamorig:RightHand=-0.45,1.55,0.2"];
    let (by_bone, _) = dump(Some(&model), &[&reach[..], &["--pole", "IKArmPole.R"]].concat());
    // At 0 s the pole bone rests at (-0.5, 1.55, -0.4): the same solve as that point.
    let (by_point, said) = dump(Some(&model), &[&reach[..], &["--pole", "-0.5,1.55,-0.4"]].concat());
    let pole = joint(&by_bone, ARM_POLE);
    assert!(sub(pole, [-0.5, 1.55, -0.4]).iter().all(|d| d.abs() < 1e-6), "{pole:?}");
    let rotations = |d: &Value| d["frames"][0]["reach"][0]["rotations"].clone();
    let (a, b) = (rotations(&by_bone), rotations(&by_point));
    for (q, r) in a.as_array().expect("rotations").iter().zip(b.as_array().expect("rotations")) {
        for (x, y) in q.as_array().expect("x y z w").iter().zip(r.as_array().expect("x y z w")) {
            assert!((x.as_f64().expect("a number") - y.as_f64().expect("a number")).abs() < 1e-6, "{a} {b}");
        }
    }
    assert!(!said.contains("default bend"), "a pole was given: {said}");
    // And the elbow is in the plane of the shoulder, the target and the pole, on the pole's side.
    let (shoulder, elbow) = (joint(&by_bone, RIGHT_ARM), joint(&by_bone, RIGHT_FORE_ARM));
    let normal = unit(cross(sub([-0.45, 1.55, 0.2], shoulder), sub(pole, shoulder)));
    assert!(dot(sub(elbow, shoulder), normal).abs() < 1e-5, "the elbow is off the pole's plane");
}

#[test]
fn start_dot_dot_end_names_the_whole_chain() {
    let model = t_pose("start-end");
    let solved = |from: &str, to: &str| {
        let reach = format!("{from}..{to}=-0.45,1.55,0.2");
        let (dump, _) = dump(Some(&model), &["--reach", &reach]);
        let chain = &dump["frames"][0]["reach"][0];
        let bones: Vec<u64> =
            chain["bones"].as_array().expect("bones").iter().filter_map(Value::as_u64).collect();
        (chain["solver"].as_str().expect("a solver").to_string(), bones)
    };
    assert_eq!(solved("mixamorig:RightArm", "mixamorig:RightHand"), ("two-bone".into(), vec![6, 7, 8]));
    assert_eq!(solved("mixamorig:RightShoulder", "mixamorig:RightHand"), ("ccd".into(), vec![5, 6, 7, 8]));
    assert_eq!(solved("mixamorig:Spine", "mixamorig:RightHand"), ("ccd".into(), vec![2, 5, 6, 7, 8]));
    // Upside down, or on another branch: one line.
    for reach in
        ["mixamorig:RightHand..mixamorig:RightArm=0,1,0", "mixamorig:LeftArm..mixamorig:RightHand=0,1,0"]
    {
        let out = program()
            .arg("--model")
            .arg(&model)
            .args(["--reach", reach, "--dump", "-"])
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!((out.status.code(), err.lines().count()), (Some(2), 1), "{reach}: {err}");
        assert!(err.contains("is not above"), "{reach}: {err}");
    }
}

#[test]
fn a_chain_that_turns_a_body_or_a_control_bone_is_noted_with_one_nearby_that_does_not() {
    let dir = scratch("hung-foot");
    let model = dir.join("hung-foot.gltf");
    std::fs::write(&model, rigs::hung_foot().embedded()).expect("scratch is writable");
    let (_, said) = dump(Some(&model), &["--reach", "Foot.R=-0.1,0.3,0.3"]);
    let note = said
        .lines()
        .find(|l| l.contains("note: --reach Foot.R"))
        .unwrap_or_else(|| panic!("no note: {said}"));
    assert!(note.contains("Armature, FootControl.R move no vertex: control bones"), "{note}");
    assert!(note.ends_with("--reach UpperLeg.R..LowerLeg.R"), "{note}");
    // The knee's chain turns the hips, the top of the body's tree.
    let (_, said) = dump(Some(&model), &["--reach", "LowerLeg.R=-0.1,0.6,0.3"]);
    assert!(said.contains("Hips carries the body"), "{said}");
    // A chain of limbs gets no note.
    let (_, said) = dump(
        Some(&t_pose("no-note")),
        &["--reach", "mixamorig:RightHand=-0.45,1.55,0.2", "--pole", "0,0,-1"],
    );
    assert!(!said.contains("carries") && !said.contains("moves no vertex"), "{said}");
}

#[test]
fn a_target_or_a_pole_far_away_still_gives_the_pose_its_direction_asks_for() {
    // bone1 is at (0.2, 0, 0): a target up and right at any distance stretches the arm at 45°.
    for far in ["1e20", "3e38"] {
        let (dump, _) = dump(None, &["--reach", &format!("bone31={far},{far},0")]);
        let chain = &dump["frames"][0]["reach"][0];
        let distance =
            chain["distance"].as_f64().unwrap_or_else(|| panic!("{far}: distance is {}", chain["distance"]));
        assert!(distance.is_finite() && distance > 1e20, "{far}: {distance}");
        let direction = unit(sub(joint(&dump, 3), joint(&dump, 1)));
        let diagonal = std::f64::consts::FRAC_1_SQRT_2;
        assert!(
            (direction[0] - diagonal).abs() < 1e-6 && (direction[1] - diagonal).abs() < 1e-6,
            "{far}: {direction:?}"
        );
    }
    // A pole straight below bone1, near and far: the same elbow.
    let near = dump(None, &["--reach", "bone31=0.3,0.3,0", "--pole", "0.2,-1,0"]).0;
    let far = dump(None, &["--reach", "bone31=0.3,0.3,0", "--pole", "0.2,-1e20,0"]).0;
    let (a, b) = (joint(&near, 2), joint(&far, 2));
    assert!(sub(a, b).iter().all(|d| d.abs() < 1e-6), "the far pole is not the near one: {a:?} {b:?}");
}
