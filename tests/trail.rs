//! `--trail BONE` draws where the bone's joint has been over the last frames (`src/demo/show/
//! trail.rs`), the line chapter 11's pictures of the Fox's foot are made of. On the article's `seed`,
//! bone1 slides up and down at x = 0.2: its trail is that stretch of line, where the library puts
//! the joint, and nothing else is drawn in its yellow.
//!
//! These need an EGL driver (Mesa's software one will do). Without one they say so and pass, unless
//! `SKINNING_REQUIRE_GL` is set, as it is in CI.

use common::{Image, run, run_gl, scratch};
use skinning::camera::framing_model;
use skinning_method::frame::Pose;
use skinning_method::scene::{self, BONE1};

const W: u32 = 400;
const H: u32 = 300;

/// The trail's yellow, `draw/trail.rs`: [1.0, 0.8, 0.1], and none of the other layers' colours.
fn trail_yellow([r, g, b]: [u8; 3]) -> bool {
    r > 220 && (180..=225).contains(&g) && b < 60
}

/// Four seconds of `seed`, 1/60 s apart, everything hidden but the trail (if asked for).
fn draw(dir: &std::path::Path, name: &str, trail: &[&str]) -> Option<Image> {
    let path = dir.join(name);
    let mut args = vec!["--headless", "--clip", "seed", "--frames", "240", "--fixed-dt", "0.0166667"];
    args.extend(["--hide", "bind,skinned,bones,names", "--no-text", "--size", "400x300", "--screenshot"]);
    args.push(path.to_str().expect("utf-8"));
    args.extend_from_slice(trail);
    run_gl(&args)?;
    Some(Image::load(&path))
}

#[test]
fn a_trail_is_the_path_the_joint_took() {
    let dir = scratch("trail");
    let Some(with) = draw(&dir, "with.png", &["--trail", "bone1"]) else { return };
    let Some(without) = draw(&dir, "without.png", &[]) else { return };
    let model = scene::article().expect("the article's scene");
    let clips = scene::clips().expect("the article's clips");
    let camera = framing_model(&model, &clips);
    // Where the library puts bone1's joint over the clip: the trail passes every one of them.
    let mut pose = Pose::new(&model);
    let mut path = Vec::new();
    for k in 0..40 {
        pose.update(&model, &clips[0], k as f64 * 0.1);
        path.push(camera.project(pose.joint(BONE1), W, H));
    }
    for p in &path {
        assert!(with.any_near(p.x, p.y, 2, trail_yellow), "no trail at {p} (pixels)");
    }
    // And nowhere else: every yellow pixel is on that stretch of line.
    let (top, bottom) = path.iter().fold((f32::MAX, f32::MIN), |(t, b), p| (t.min(p.y), b.max(p.y)));
    let mut yellow = 0;
    for y in 0..H as i64 {
        for x in 0..W as i64 {
            if with.pixel(x, y).is_some_and(trail_yellow) {
                yellow += 1;
                let near =
                    (x as f32 - path[0].x).abs() <= 2.0 && (top - 2.0..=bottom + 2.0).contains(&(y as f32));
                assert!(near, "a yellow pixel at ({x}, {y}), off bone1's path");
            }
        }
    }
    assert!(yellow as f32 >= bottom - top, "the trail is a line as long as the slide: {yellow} pixels");
    let none = (0..H as i64).flat_map(|y| (0..W as i64).map(move |x| (x, y)));
    assert!(none.filter(|&(x, y)| without.pixel(x, y).is_some_and(trail_yellow)).count() == 0);
}

#[test]
fn a_wrong_trail_bone_is_one_line_and_exit_code_2() {
    let out = run(&["--headless", "--frames", "1", "--trail", "bone9"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr.trim(),
        "skinning: unknown bone \"bone9\" for --trail: choose one of root, bone1, bone2, bone31, bone32 (or an index, 0 \
         to 4)"
    );
}
