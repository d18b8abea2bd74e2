//! What the picture's flags do for a user (chapter 15): a headless screenshot without `--frames`
//! draws one frame; a morph weight outside 0 to 1, and a `--blend` of one clip, pass with a note.

use common::{program, run_gl, sample_model, scratch};

#[test]
fn a_headless_screenshot_without_frames_draws_one_frame() {
    let shot = scratch("one-frame").join("arm.png");
    let args = ["--headless", "--size", "64x48", "--stats", "--screenshot", shot.to_str().expect("utf-8")];
    let Some(out) = run_gl(&args) else { return };
    assert!(shot.exists(), "no picture: {}", String::from_utf8_lossy(&out.stderr));
    let picture = common::Image::load(&shot);
    assert_eq!((picture.width, picture.height), (64, 48));
    let stats = String::from_utf8_lossy(&out.stdout);
    assert!(stats.starts_with("stats: 1 frames,"), "{stats}");
    // Without a screenshot, --headless still needs to know when to stop.
    let out = program().arg("--headless").output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--headless needs --frames N (or a --screenshot"));
}

#[test]
fn a_morph_weight_past_one_and_a_blend_of_one_clip_get_a_note() {
    let Some(robot) = sample_model("RobotExpressive.glb") else { return };
    let out = program()
        .arg("--model")
        .arg(&robot)
        .args(["--morph", "Head_4:Surprised=5", "--blend", "Idle", "--dump", "/dev/null"])
        .output()
        .expect("runs");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("note: --morph Head_4:Surprised=5: a morph weight goes from 0"), "{said}");
    assert!(said.contains("note: --blend \"Idle\" plays one clip alone"), "{said}");
    // Within 0 to 1, and two clips: nothing to say.
    let out = program()
        .arg("--model")
        .arg(&robot)
        .args(["--morph", "Head_4:Surprised=1", "--blend", "Idle,Walking", "--dump", "/dev/null"])
        .output()
        .expect("runs");
    assert!(out.status.success() && !String::from_utf8_lossy(&out.stderr).contains("note"));
}
