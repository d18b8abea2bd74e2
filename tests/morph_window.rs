//! Morph targets in a real window (chapter 13): `T` picks a target and the corner line names it,
//! `I` raises its weight a tenth at a time and the robot's face changes, `U` lowers it, `R` lets go
//! and the face is the clip's again. On its own virtual X display (Xvfb), driven by `xdotool`, as
//! `tests/interaction.rs` drives every other key.
//!
//! Needs `Xvfb` and `xdotool` plus Mesa, and the robot (`SKINNING_MODELS`); without them it says
//! SKIPPED and passes, unless `SKINNING_REQUIRE_GL` and `SKINNING_REQUIRE_MODELS` are set, as in CI.

use common::window::start;
use common::{Image, find_text, ink, sample_model};

const W: u32 = 640;
const H: u32 = 480;
/// The rows the corner line takes (two when it wraps).
const CORNER_ROWS: u32 = 40;

fn same_below_the_corner(a: &Image, b: &Image) -> bool {
    let below = (CORNER_ROWS * W * 4) as usize;
    a.rgba[below..] == b.rgba[below..]
}

/// Whether the corner line (one row, or two) says `text` somewhere.
fn corner_says(image: &Image, text: &str) -> bool {
    find_text(image, text, 1, (0..W as i64, 0..CORNER_ROWS as i64 - 8), ink).is_some()
}

#[test]
fn t_picks_a_target_and_u_and_i_change_its_weight_on_the_robots_face() {
    let Some(robot) = sample_model("RobotExpressive.glb") else { return };
    let robot = robot.to_string_lossy().into_owned();
    let size = format!("{W}x{H}");
    let args = ["--model", &robot, "--animation", "Idle", "--camera", "0,-25,1.5", "--size", &size];
    let Some(s) = start("morph", &args, &[]) else { return };
    // Space pauses; R takes the time back to the start.
    s.key("space");
    s.key("r");
    let base = s.shot();

    // T steps through every target, mesh after mesh: Head_2's three, Head_3's, then Head_4's.
    // Picking one changes nothing but the corner line.
    s.key("t");
    let picked = s.shot();
    assert!(corner_says(&picked, "morph Head_2:Angry 0.00"), "the corner line after one T");
    assert!(same_below_the_corner(&picked, &base), "picking a target changed the picture");
    for _ in 0..7 {
        s.key("t");
    }
    assert!(corner_says(&s.shot(), "morph Head_4:Surprised 0.00"), "the corner line after eight T");

    // I ten times: Surprised fully on, held over the clip's 0; the brows rise.
    for _ in 0..10 {
        s.key("i");
    }
    let surprised = s.shot();
    assert!(corner_says(&surprised, "morph Head_4:Surprised 1.00"), "the corner line after ten I");
    assert!(!same_below_the_corner(&surprised, &base), "Surprised at 1 left the face as it was");

    // U: a tenth down.
    s.key("u");
    let lower = s.shot();
    assert!(corner_says(&lower, "morph Head_4:Surprised 0.90"), "the corner line after U");
    assert!(!same_below_the_corner(&lower, &surprised), "U did not change the face");

    // R lets go: the clip's weights again, and its picture; the target stays picked.
    s.key("r");
    let back = s.shot();
    assert!(corner_says(&back, "morph Head_4:Surprised 0.00"), "the corner line after R");
    assert!(same_below_the_corner(&back, &base), "R did not give the clip's face back");
}
