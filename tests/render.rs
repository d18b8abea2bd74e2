//! Real pictures through `--headless`'s code path: the three layers land where the math says.
//!
//! These need an EGL driver (Mesa's software one will do). Without one they say so and pass, unless
//! `SKINNING_REQUIRE_GL` is set, as it is in CI.

use common::{Class, Image, run, run_gl, scratch};
use glam::{Vec2, Vec3};
use skinning::camera::{Camera, framing_model};
use skinning_method::frame::Pose;
use skinning_method::model::Model;
use skinning_method::scene;

const W: u32 = 640;
const H: u32 = 480;

/// Draws the `seed` clip at time `t` headless and returns the picture.
fn draw(dir: &std::path::Path, t: f64, extra: &[&str]) -> Option<Image> {
    let path = dir.join(format!("seed-{t}.png"));
    let time = t.to_string();
    let mut args = vec!["--headless", "--clip", "seed", "--frames", "1", "--time", &time, "--screenshot"];
    args.push(path.to_str().expect("utf-8"));
    args.extend_from_slice(extra);
    run_gl(&args)?;
    Some(Image::load(&path))
}

/// Where the library puts everything at time `t`, in pixels.
struct Expected {
    bind: Vec<Vec2>,
    skinned: Vec<Vec2>,
    joints: Vec<Vec2>,
}

fn expected(model: &Model, camera: &Camera, t: f64) -> Expected {
    let mut pose = Pose::new(model);
    pose.update(model, &scene::seed(), t);
    let project = |p: Vec3| camera.project(p, W, H);
    Expected {
        bind: model.skin.bind_positions().map(project).collect(),
        skinned: pose.skinned.iter().map(|&p| project(p.into())).collect(),
        joints: (0..model.skeleton.len()).map(|b| project(pose.joint(b))).collect(),
    }
}

fn far_from(p: Vec2, others: &[Vec2], pixels: f32) -> bool {
    others.iter().all(|o| o.distance(p) > pixels)
}

#[test]
fn the_three_layers_are_where_the_math_puts_them() {
    let dir = scratch("layers");
    let Some(image) = draw(&dir, 1.0, &[]) else { return };
    assert_eq!((image.width, image.height), (W, H));
    let model = scene::article().expect("the article's scene");
    let camera = framing_model(&model, &scene::clips().expect("the article's clips"));
    let e = expected(&model, &camera, 1.0);

    // Joints are drawn last: always blue.
    for (b, j) in e.joints.iter().enumerate() {
        assert!(image.has_near(j.x, j.y, 2, Class::Blue), "no blue at joint {b} {j}");
    }
    // Skinned points are red, unless a joint is drawn over them.
    let mut red = 0;
    for s in e.skinned.iter().filter(|s| far_from(**s, &e.joints, 5.0)) {
        assert!(image.has_near(s.x, s.y, 2, Class::Red), "no red at skinned vertex {s}");
        red += 1;
    }
    // Bind points are green where nothing is drawn over them.
    let mut green = 0;
    for b in e.bind.iter().filter(|b| far_from(**b, &e.joints, 5.0) && far_from(**b, &e.skinned, 5.0)) {
        assert!(image.has_near(b.x, b.y, 2, Class::Green), "no green at bind vertex {b}");
        green += 1;
    }
    assert!(red >= 8 && green >= 6, "too few points checked: {red} red, {green} green");
    // And the background stays background: far from everything there is no colour.
    assert!(!image.has_near(5.0, 5.0, 4, Class::Red) && !image.has_near(5.0, 5.0, 4, Class::Green));
}

#[test]
fn the_red_layer_moves_between_two_times_and_green_stays() {
    let dir = scratch("moves");
    let Some(a) = draw(&dir, 1.0, &[]) else { return };
    let Some(b) = draw(&dir, 3.0, &[]) else { return };
    let model = scene::article().expect("the article's scene");
    let camera = framing_model(&model, &scene::clips().expect("the article's clips"));
    let (ea, eb) = (expected(&model, &camera, 1.0), expected(&model, &camera, 3.0));

    // Where a skinned vertex was at t = 1 and nothing is at t = 3, the red has gone.
    let mut moved = 0;
    for p in &ea.skinned {
        let clear =
            far_from(*p, &eb.skinned, 6.0) && far_from(*p, &eb.joints, 6.0) && far_from(*p, &ea.joints, 6.0);
        if clear {
            assert!(a.has_near(p.x, p.y, 1, Class::Red), "red missing at t=1 at {p}");
            assert!(!b.has_near(p.x, p.y, 1, Class::Red), "red still at {p} at t=3");
            moved += 1;
        }
    }
    assert!(moved >= 5, "only {moved} vertices moved clear of the pose at t=3");
    // The bind mesh is the same in both pictures wherever neither pose covers it.
    let mut stayed = 0;
    for p in &ea.bind {
        let uncovered =
            [&ea.skinned, &eb.skinned, &ea.joints, &eb.joints].iter().all(|o| far_from(*p, o, 6.0));
        if uncovered {
            assert!(a.has_near(p.x, p.y, 1, Class::Green) && b.has_near(p.x, p.y, 1, Class::Green), "{p}");
            stayed += 1;
        }
    }
    assert!(stayed >= 3, "only {stayed} bind vertices uncovered in both pictures");
}

#[test]
fn bind_pose_hides_the_green_layer_under_the_red_one() {
    // At t = 0 the seed clip is in the bind pose, so the skinned mesh covers the bind mesh exactly.
    let dir = scratch("bindpose");
    let Some(image) = draw(&dir, 0.0, &[]) else { return };
    assert!(image.count(Class::Red) > 200, "red: {}", image.count(Class::Red));
    assert_eq!(image.count(Class::Green), 0, "green shows through: the skinned mesh left the bind pose");
}

#[test]
fn screenshots_follow_the_requested_size() {
    let dir = scratch("size");
    let path = dir.join("wide.png");
    let p = path.to_str().expect("utf-8");
    let Some(_) = run_gl(&["--headless", "--frames", "2", "--size", "300x200", "--screenshot", p]) else {
        return;
    };
    let image = Image::load(&path);
    assert_eq!((image.width, image.height), (300, 200));
    assert!(image.count(Class::Blue) > 0 && image.count(Class::Red) > 0);
}

#[test]
fn a_broken_shader_is_reported_with_its_file_name() {
    let dir = scratch("shader");
    for name in ["lines.vert", "lines.frag"] {
        let source = std::fs::read_to_string(format!("shaders/{name}")).expect("shader file");
        std::fs::write(dir.join(name), source).expect("copy");
    }
    let broken = std::fs::read_to_string(dir.join("lines.vert")).expect("copy") + "\nthis is not GLSL;\n";
    std::fs::write(dir.join("lines.vert"), broken).expect("write");
    let out = common::program()
        .args(["--headless", "--frames", "1"])
        .env("SKINNING_SHADERS", &dir)
        .output()
        .expect("runs");
    if out.status.code() == Some(common::NO_GRAPHICS) {
        // No GL at all: run_gl explains (and fails under SKINNING_REQUIRE_GL).
        run_gl(&["--headless", "--frames", "1"]);
        return;
    }
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let last = err.trim_end().lines().last().unwrap_or_default();
    assert!(last.contains("lines.vert") && last.contains("does not compile"), "{err}");
    assert!(!err.contains("panicked"));
}

#[test]
fn an_unwritable_screenshot_fails_cleanly() {
    let dir = scratch("badshot");
    let target = dir.join("missing").join("x.png");
    let out = run(&["--headless", "--frames", "1", "--screenshot", target.to_str().expect("utf-8")]);
    if out.status.code() == Some(common::NO_GRAPHICS) {
        run_gl(&["--headless", "--frames", "1"]);
        return;
    }
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write"));
    assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 0, "a partial file was left");
}

#[test]
fn the_weight_view_colours_by_weight_and_highlights_the_bone() {
    // --weights bone31 at the bind pose: vertex 5 is all bone31 (bright), vertex 0 has none of it
    // (dark), and bone31's joint is highlighted while the others stay blue.
    let dir = scratch("weights");
    let Some(image) = draw(&dir, 0.0, &["--weights", "bone31"]) else { return };
    let model = scene::article().expect("the article's scene");
    let camera = framing_model(&model, &scene::clips().expect("the article's clips"));
    let e = expected(&model, &camera, 0.0);
    let bright = |[r, g, b]: [u8; 3]| r > 230 && g > 220 && (90..=115).contains(&b);
    let dark = |[r, g, b]: [u8; 3]| (50..=80).contains(&r) && g < 30 && b < 30;
    let highlight = |[r, g, b]: [u8; 3]| r > 230 && (200..=245).contains(&g) && b < 80;
    assert!(image.any_near(e.skinned[5].x, e.skinned[5].y, 2, bright), "vertex 5 is not bright");
    assert!(image.any_near(e.skinned[0].x, e.skinned[0].y, 2, dark), "vertex 0 is not dark");
    assert!(!image.any_near(e.skinned[0].x, e.skinned[0].y, 2, bright), "vertex 0 is bright");
    let bone31 = e.joints[scene::BONE31];
    assert!(image.any_near(bone31.x, bone31.y, 2, highlight), "bone31 is not highlighted");
    let bone1 = e.joints[scene::BONE1];
    assert!(
        image.has_near(bone1.x, bone1.y, 2, Class::Blue) && !image.any_near(bone1.x, bone1.y, 2, highlight)
    );
    assert_eq!(image.count(Class::Red), 0, "the weight view replaces the plain red");
}
