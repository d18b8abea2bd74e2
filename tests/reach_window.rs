//! Reaching in a real window (chapter 12): `E` turns reach mode on, a left-drag on bone31 moves its
//! target and the arm follows, `Q` switches the solver, a left-drag elsewhere still orbits, a
//! right-drag still bends, `E` again gives the clip back. On its own virtual X display (Xvfb),
//! driven by `xdotool`, as `tests/interaction.rs` drives every other key.
//!
//! Needs `Xvfb` and `xdotool` plus Mesa; without them it says SKIPPED and passes, unless
//! `SKINNING_REQUIRE_GL` is set, as in CI.

use common::window::start;
use common::{Class, Image, find_text, ink};
use glam::Vec2;
use skinning_method::scene::{BONE1, BONE31, ROOT};

const W: u32 = 640;
const H: u32 = 480;
const TIME: f64 = 1.0;
/// The rows the corner line takes (two when it wraps).
const CORNER_ROWS: u32 = 40;

fn same_below_the_corner(a: &Image, b: &Image) -> bool {
    let below = (CORNER_ROWS * W * 4) as usize;
    a.rgba[below..] == b.rgba[below..]
}

/// Where a joint of the article's arm is drawn at `TIME` of the bend clip, from the home camera.
fn on_screen(bone: usize) -> Vec2 {
    let model = skinning_method::scene::article().expect("the article's scene");
    let clips = skinning_method::scene::clips().expect("the article's clips");
    let camera = skinning::camera::framing_model(&model, &clips);
    let mut pose = skinning_method::frame::Pose::new(&model);
    pose.update(&model, &clips[1], TIME);
    camera.project(pose.joint(bone), W, H)
}

/// The target's marker (`draw/reach_marks.rs`: TARGET).
fn cyan([r, g, b]: [u8; 3]) -> bool {
    r < 90 && g > 200 && b > 200
}

/// Whether the corner line (one row, or two) says `text` somewhere.
fn corner_says(image: &Image, text: &str) -> bool {
    find_text(image, text, 1, (0..W as i64, 0..30), ink).is_some()
}

#[test]
fn a_left_drag_in_reach_mode_moves_a_target_and_the_arm_reaches_for_it() {
    let (time, size) = (TIME.to_string(), format!("{W}x{H}"));
    let Some(s) = start("reach", &["--clip", "bend", "--time", &time, "--size", &size], &[]) else { return };
    // Space pauses; R takes the time back to --time.
    s.key("space");
    s.key("r");
    let base = s.shot();
    assert!(base.has_near(on_screen(BONE31).x, on_screen(BONE31).y, 1, Class::Blue));

    // E: reach mode, with nothing to reach for yet; the picture is the clip's.
    s.key("e");
    let empty = s.shot();
    assert!(corner_says(&empty, "reach: drag a joint"), "the corner line does not invite a drag");
    assert!(same_below_the_corner(&empty, &base), "reach mode alone changed the picture");

    // A left-drag from bone31's joint: its target follows the cursor, and the arm reaches for it.
    let (from, to) = (on_screen(BONE31), on_screen(BONE31) + Vec2::new(-40.0, -45.0));
    s.drag("1", from + Vec2::new(1.0, 0.0), from + Vec2::new(-20.0, -20.0), to + Vec2::new(1.0, 0.0));
    let reached = s.shot();
    assert!(reached.any_near(to.x, to.y, 2, cyan), "no target marked where the drag ended");
    assert!(reached.has_near(to.x, to.y, 8, Class::Blue), "bone31 did not follow its target");
    assert!(!reached.has_near(from.x, from.y, 3, Class::Blue), "bone31 is still where the clip put it");
    assert!(reached.has_near(on_screen(BONE1).x, on_screen(BONE1).y, 1, Class::Blue), "bone1 moved");
    assert!(corner_says(&reached, "reach bone1-bone31 two-bone 0.0000 to go"), "the corner line");

    // Q: CCD on three bones, which reaches the same target.
    s.key("q");
    let ccd = s.shot();
    assert!(corner_says(&ccd, "reach root-bone31 ccd 0.0000 to go"), "the corner line after Q");
    assert!(ccd.has_near(to.x, to.y, 8, Class::Blue), "with CCD, bone31 left its target");
    s.key("q");

    // A right-drag bends the root by hand beside it: bone1 swings away, and the chain, measured
    // with the bend, still reaches (bone31 stays on its target).
    let root = on_screen(ROOT);
    s.drag("3", root + Vec2::new(2.0, 0.0), root + Vec2::new(40.0, -5.0), root + Vec2::new(40.0, -12.0));
    let bent = s.shot();
    assert!(!bent.has_near(on_screen(BONE1).x, on_screen(BONE1).y, 1, Class::Blue), "the root was not bent");
    assert!(
        bent.any_near(to.x, to.y, 2, cyan) && bent.has_near(to.x, to.y, 8, Class::Blue),
        "bent, it let go"
    );
    assert!(corner_says(&bent, "reach bone1-bone31 two-bone 0.0000 to go"), "the corner line, bent");

    // A left-drag on empty space still orbits: the whole picture turns.
    s.drag("1", Vec2::new(500.0, 400.0), Vec2::new(540.0, 410.0), Vec2::new(600.0, 420.0));
    assert!(!same_below_the_corner(&s.shot(), &bent), "a left-drag away from the joints did not orbit");

    // R: camera, bend and targets back; E: the clip alone again, as at the start.
    s.key("r");
    s.key("e");
    assert!(same_below_the_corner(&s.shot(), &base), "R and E did not give the clip's picture back");
}
