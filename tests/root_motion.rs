//! Root motion through the program's dump (chapter 17): a walk that goes 2 units forwards in a
//! second, on a Mixamo-named figure the tests build (`tests/common/rigs.rs`: `walker`), played
//! on, in place and as stored; a walk that turns; the Fox's and the robot's clips, which run on
//! the spot; the article's arm, which has no hips.

use common::{program, rigs, sample_model, scratch};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// `mixamorig:Hips`, as the figure numbers its bones.
const HIPS: usize = 1;

fn walker(test: &str) -> PathBuf {
    let path = scratch(test).join("walker.gltf");
    std::fs::write(&path, rigs::walker().embedded()).expect("scratch is writable");
    path
}

/// The dump of `args` on `model` and what the program said on standard error.
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

/// Where bone `b`'s joint is in every frame.
fn path_of(dump: &Value, b: usize) -> Vec<[f64; 3]> {
    let frames = dump["frames"].as_array().expect("frames");
    let at = |f: &Value| [12, 13, 14].map(|i| f["world"][b][i].as_f64().expect("a number"));
    frames.iter().map(at).collect()
}

/// Each frame's step along the floor (y is up), and the median step.
fn steps(path: &[[f64; 3]]) -> (Vec<f64>, f64) {
    let steps: Vec<f64> = path.windows(2).map(|w| (w[1][0] - w[0][0]).hypot(w[1][2] - w[0][2])).collect();
    let mut sorted = steps.clone();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    (steps, median)
}

/// 3.5 loops of the 1 s walk at 60 frames a second: frames 0 to 210.
const LOOPS: [&str; 6] = ["--animation", "Walk", "--frames", "211", "--fixed-dt", "0.016666666666666666"];

#[test]
fn the_walker_in_the_repository_is_the_one_the_tests_build() {
    // `tests/walker.gltf` is there for chapter 17's picture and to be opened. To write it again:
    // SKINNING_WRITE_FIXTURE=1 cargo test --test root_motion the_walker
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/walker.gltf");
    let built = rigs::walker().embedded();
    if std::env::var_os("SKINNING_WRITE_FIXTURE").is_some() {
        std::fs::write(&path, &built).expect("tests/ is writable");
    }
    let stored = std::fs::read(&path).expect("tests/walker.gltf is in the repository");
    assert!(stored == built, "tests/walker.gltf differs from tests/common/rigs.rs: write it again");
}

#[test]
fn three_and_a_half_loops_of_a_two_unit_walk_put_it_seven_units_on_and_no_frame_jumps() {
    let model = walker("root-on");
    let (on, _) = dump(Some(&model), &[&LOOPS[..], &["--root-motion", "on"]].concat());
    let path = path_of(&on, HIPS);
    let last = path[210];
    // Within 1e-4 of the clip's size, its 2 units of travel.
    assert!((last[2] - 7.0).abs() < 2e-4 && last[0].abs() < 2e-4, "{last:?}");
    let (steps, median) = steps(&path);
    let most = steps.iter().copied().fold(0.0, f64::max);
    assert!(most <= 1.5 * median, "a frame moved {most}, the median one {median}");
    // The dump says the travel so far: the hips' place on the floor, no turn.
    let root = &on["frames"][210]["root_motion"];
    assert_eq!((root["mode"].as_str(), root["bone"].as_u64()), (Some("on"), Some(HIPS as u64)), "{root}");
    let offset: Vec<f64> =
        root["offset"].as_array().expect("offset").iter().filter_map(Value::as_f64).collect();
    assert!((offset[2] - 7.0).abs() < 2e-4 && offset[0].abs() < 1e-6 && offset[1] == 0.0, "{offset:?}");
    assert!(root["heading"].as_f64().expect("heading").abs() < 1e-6);
    assert_eq!(root["matrix"][14].as_f64(), Some(offset[2]), "the matrix's translation is the offset");
}

#[test]
fn off_plays_the_walk_as_stored_and_it_jumps_back_at_every_loop() {
    let model = walker("root-off");
    for args in [&LOOPS[..], &[&LOOPS[..], &["--root-motion", "off"]].concat()] {
        let (off, _) = dump(Some(&model), args);
        let path = path_of(&off, HIPS);
        assert!((path[210][2] - 1.0).abs() < 1e-4, "half way through its fourth loop: {:?}", path[210]);
        let (steps, median) = steps(&path);
        let most = steps.iter().copied().fold(0.0, f64::max);
        assert!(most > 1.5 * median, "the jump back: {most} against {median}");
        assert!(off["frames"][0].get("root_motion").is_none(), "no travel is taken, none written");
    }
}

#[test]
fn in_place_keeps_the_hips_over_the_origin_while_the_rest_plays() {
    let model = walker("root-in-place");
    let (in_place, _) = dump(Some(&model), &[&LOOPS[..], &["--root-motion", "in-place"]].concat());
    let (stored, _) = dump(Some(&model), &LOOPS);
    for (f, p) in path_of(&in_place, HIPS).iter().enumerate() {
        assert!(p[0].abs() < 1e-5 && p[2].abs() < 1e-5, "frame {f}: {p:?}");
    }
    // A step's bob stays: at a quarter of the loop the hips are 3 cm up, as stored.
    let (bob, kept) = (path_of(&in_place, HIPS)[15][1], path_of(&stored, HIPS)[15][1]);
    assert!((bob - 1.03).abs() < 1e-5 && (bob - kept).abs() < 1e-6, "{bob} {kept}");
    // The legs swing as stored, seen from the hips.
    let foot = rigs::RIGHT_FOOT;
    let (a, b) = (path_of(&in_place, foot)[40], path_of(&stored, foot)[40]);
    let (ha, hb) = (path_of(&in_place, HIPS)[40], path_of(&stored, HIPS)[40]);
    for i in 0..3 {
        assert!(((a[i] - ha[i]) - (b[i] - hb[i])).abs() < 1e-5, "{a:?} {b:?}");
    }
}

#[test]
fn a_walk_that_turns_keeps_turning_and_four_loops_close_the_circle() {
    let model = walker("root-turn");
    let args =
        ["--animation", "Turn", "--root-motion", "on", "--frames", "241", "--fixed-dt", "0.0333333333333333"];
    let (turn, _) = dump(Some(&model), &args);
    let path = path_of(&turn, HIPS);
    let (first, last) = (path[0], path[240]);
    assert!((0..3).all(|i| (first[i] - last[i]).abs() < 1e-4), "{first:?} {last:?}");
    // A loop later the hips are a quarter circle on: from (0, z) to (2, 2) around (2, 0).
    assert!((path[60][0] - 2.0).abs() < 1e-4 && (path[60][2] - 2.0).abs() < 1e-4, "{:?}", path[60]);
    let heading = turn["frames"][60]["root_motion"]["heading"].as_f64().expect("heading");
    assert!((heading - std::f64::consts::FRAC_PI_2).abs() < 1e-4, "{heading}");
    let (steps, median) = steps(&path);
    assert!(steps.iter().all(|&s| s <= 1.5 * median), "no frame jumps: {median}");
}

#[test]
fn the_fox_and_the_robot_run_on_the_spot_and_root_motion_finds_their_hips() {
    for (file, clips, hips) in
        [("Fox.glb", ["Walk", "Run"], "b_Hip_01"), ("RobotExpressive.glb", ["Walking", "Running"], "Hips")]
    {
        let Some(model) = sample_model(file) else { return };
        for clip in clips {
            let common = ["--animation", clip, "--frames", "30", "--fixed-dt", "0.07"];
            let (in_place, _) = dump(Some(&model), &[&common[..], &["--root-motion", "in-place"]].concat());
            let bone = in_place["frames"][0]["root_motion"]["bone"].as_u64().expect("a bone") as usize;
            assert_eq!(in_place["bones"][bone]["name"].as_str(), Some(hips), "{file} {clip}");
            let size = 1e-4 * path_of(&in_place, bone)[0][1].abs().max(1.0);
            for p in path_of(&in_place, bone) {
                assert!(p[0].abs() < size && p[2].abs() < size, "{file} {clip}: {p:?}");
            }
            // On: the end of each loop is where the next begins, so no frame steps further than
            // the clip as stored does (it jumps back at each loop; on, each loop is turned and
            // moved whole, which keeps its steps).
            let (on, _) = dump(Some(&model), &[&common[..], &["--root-motion", "on"]].concat());
            let (stored, _) = dump(Some(&model), &common);
            let (on_steps, _) = steps(&path_of(&on, bone));
            let (stored_steps, _) = steps(&path_of(&stored, bone));
            let most = |s: &[f64]| s.iter().copied().fold(0.0, f64::max);
            assert!(most(&on_steps) <= most(&stored_steps) * 1.01 + 1e-6, "{file} {clip}");
        }
    }
}

#[test]
fn the_articles_arm_has_no_hips_and_says_so_in_one_line() {
    let (arm, said) = dump(None, &["--root-motion", "on"]);
    let notes: Vec<&str> = said.lines().filter(|l| l.contains("--root-motion")).collect();
    assert_eq!(notes.len(), 1, "{said}");
    assert!(notes[0].contains("this model has no hips") && notes[0].contains("plays as stored"), "{said}");
    assert!(arm["frames"][0].get("root_motion").is_none());
    // Named, a bone carries what it moves: the arm's root does not move, so nothing travels.
    let (named, _) = dump(None, &["--root-motion", "in-place", "--root-bone", "bone1"]);
    assert_eq!(named["frames"][0]["root_motion"]["bone"].as_u64(), Some(1));
}
