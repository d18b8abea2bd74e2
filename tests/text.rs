//! Words on the picture and the vertex inspector, read back from headless screenshots: the corner
//! line says what plays, bone names sit beside their joints, `--no-text` leaves no word, and the
//! inspector draws each candidate where the library puts it and prints the numbers it drew.
//!
//! The letters are found glyph by glyph in the font the program draws with (`common::find_text`).
//! These need EGL (Mesa's software renderer will do); without it they print SKIPPED and pass, unless
//! `SKINNING_REQUIRE_GL` is set, as in CI.

use common::{Image, find_text, ink, run_gl, scratch};
use glam::{Vec2, Vec3};
use skinning::camera::framing_model;
use skinning_method::frame::Pose;
use skinning_method::inspect::inspect;
use skinning_method::lbs_or_dqs::{ByMethod, Method, Reference};
use skinning_method::scene;

const W: u32 = 640;
const H: u32 = 480;

/// A headless picture of `clip` at `time` with `extra` flags, and what the program printed.
fn shot(name: &str, clip: &str, time: &str, extra: &[&str]) -> Option<(Image, String)> {
    let path = scratch(&format!("text-{name}")).join("shot.png");
    let args = ["--headless", "--frames", "1", "--clip", clip, "--time", time, "--screenshot"];
    let out = run_gl(&[&args[..], &[path.to_str().expect("utf-8")], extra].concat())?;
    Some((Image::load(&path), String::from_utf8_lossy(&out.stdout).into_owned()))
}

/// Where the library puts a point of the article's scene on a 640x480 picture.
fn on_screen(point: Vec3) -> Vec2 {
    let model = scene::article().expect("the article's scene");
    framing_model(&model, &scene::clips().expect("the article's clips")).project(point, W, H)
}

fn posed(clip: &str, time: f64) -> (skinning_method::model::Model, Pose) {
    let model = scene::article().expect("the article's scene");
    let clips = scene::clips().expect("the article's clips");
    let mut pose = Pose::new(&model);
    pose.update(&model, clips.iter().find(|c| c.name == clip).expect("a clip of the scene"), time);
    (model, pose)
}

/// The top band of the picture, where the corner line is.
fn band() -> (std::ops::Range<i64>, std::ops::Range<i64>) {
    (0..40, 0..20)
}

#[test]
fn the_corner_line_says_what_plays_and_where_it_is_skinned() {
    let Some((cpu, _)) = shot("corner-cpu", "twist", "1.5", &[]) else { return };
    let found = find_text(&cpu, "clip twist  t 1.50 s  1x  lbs on cpu", 1, band(), ink);
    assert!(found.is_some(), "the corner line does not read as expected");
    let Some((gpu, _)) = shot("corner-gpu", "twist", "1.5", &["--skinning", "gpu"]) else { return };
    assert!(
        find_text(&gpu, "lbs on gpu  pose ", 1, (0..400, 0..20), ink).is_some(),
        "GPU skinning not named"
    );
    assert!(find_text(&gpu, "lbs on cpu", 1, (0..400, 0..20), ink).is_none());
}

#[test]
fn no_text_leaves_no_word_on_the_picture() {
    let Some((with, _)) = shot("with", "bend", "1.0", &[]) else { return };
    let Some((without, _)) = shot("without", "bend", "1.0", &["--no-text"]) else { return };
    let count = |image: &Image| image.rgba.chunks_exact(4).filter(|p| ink([p[0], p[1], p[2]])).count();
    assert!(count(&with) > 300, "words drawn: {} ink pixels", count(&with));
    assert_eq!(count(&without), 0, "--no-text left ink on the picture");
    // Nothing but the words changed: every pixel without ink or shadow in the first is the same.
    let untouched = (0..(W * H) as usize).filter(|&i| {
        let (a, b) = (&with.rgba[i * 4..i * 4 + 3], &without.rgba[i * 4..i * 4 + 3]);
        a != b && !ink([a[0], a[1], a[2]]) && a != [0, 0, 0]
    });
    assert_eq!(untouched.count(), 0, "the words changed pixels that are not words");
}

#[test]
fn bone_names_sit_beside_their_joints() {
    let Some((image, _)) = shot("names", "bend", "1.0", &[]) else { return };
    let (model, pose) = posed("bend", 1.0);
    for (b, bone) in model.skeleton.bones().iter().enumerate() {
        let joint = on_screen(pose.joint(b));
        let (x, y) = (joint.x as i64, joint.y as i64);
        let found = find_text(&image, &bone.name, 1, (x..x + 16, y - 10..y + 2), ink);
        assert!(found.is_some(), "{}'s name is not beside its joint at {joint}", bone.name);
    }
}

// The first two candidates' colours (dimmed by weight 0.5), and dual quaternions' orange.
fn cyan([r, g, b]: [u8; 3]) -> bool {
    r < 60 && g > 120 && b > 120
}
fn violet([r, g, b]: [u8; 3]) -> bool {
    r > 120 && g > 60 && g < 120 && b > 150
}
fn orange([r, g, b]: [u8; 3]) -> bool {
    r > 230 && (110..170).contains(&g) && b < 50
}

/// The numbers on one line of the printed report.
fn numbers(line: &str) -> Vec<f32> {
    line.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter_map(|w| w.parse().ok())
        .collect()
}

#[test]
fn the_inspector_draws_and_prints_the_candidates_on_both_roads() {
    let (model, pose) = posed("twist", 2.0);
    let expected = inspect(&model.skin, model.skin.bind(), &pose.palette, 2);
    let mut pictures = vec![];
    for skinning in ["cpu", "gpu"] {
        let name = format!("inspect-{skinning}");
        let Some((image, stdout)) = shot(&name, "twist", "2.0", &["--inspect", "2", "--skinning", skinning])
        else {
            return;
        };
        // The terminal: the heading, then the table of vertex 2 with the library's numbers.
        let heading = format!("inspect: clip twist at t 2.000 s, lbs on {skinning}");
        assert!(stdout.contains(&heading), "{stdout}");
        let lines: Vec<&str> = stdout.lines().skip_while(|l| !l.starts_with("vertex 2:")).collect();
        for (line, c) in lines[2..4].iter().zip(expected.candidates()) {
            let n = numbers(line);
            let printed = Vec3::new(n[n.len() - 6], n[n.len() - 5], n[n.len() - 4]);
            assert!(printed.abs_diff_eq(c.position, 1e-4), "{line} vs {}", c.position);
        }
        let sum = numbers(lines[4]);
        assert!(Vec3::from_slice(&sum).abs_diff_eq(expected.blended, 1e-4), "{}", lines[4]);
        // The picture: each candidate in its colour where the library puts it, the blend in white.
        for (c, colour) in expected.candidates().iter().zip([&cyan as &dyn Fn([u8; 3]) -> bool, &violet]) {
            let at = on_screen(c.position);
            assert!(
                image.any_near(at.x, at.y, 2, colour),
                "{skinning}: no candidate of joint {} at {at}",
                c.joint
            );
        }
        let blend = on_screen(expected.blended);
        assert!(
            image.any_near(blend.x, blend.y, 1, |p| p == [255, 255, 255]),
            "{skinning}: no blend at {blend}"
        );
        // The sum under the corner line.
        assert!(find_text(&image, "vertex 2 = ", 1, (0..20, 10..30), ink).is_some(), "{skinning}: no sum");
        pictures.push(image);
    }
    // Both roads draw the same inspector: the pictures differ only in the corner line.
    let below_the_corner = |image: &Image| image.rgba[(40 * W * 4) as usize..].to_vec();
    assert!(below_the_corner(&pictures[0]) == below_the_corner(&pictures[1]), "CPU and GPU pictures differ");
}

#[test]
fn with_dual_quaternions_the_inspector_shows_where_they_put_the_vertex() {
    let (model, pose) = posed("twist", 2.0);
    // The dual quaternions a DQS skinner makes of this palette (`lbs_or_dqs.rs`: `ByMethod`).
    let mut dqs_skinner = ByMethod::new(Method::Dqs, Reference);
    let dq = dqs_skinner.make_dq(&pose.palette).expect("the article's palette is rigid");
    let expected = inspect(&model.skin, model.skin.bind(), &pose.palette, 2).with_dqs(
        &model.skin,
        model.skin.bind(),
        &dq.joints,
        dq.scale,
    );
    // Looking down on the arm (as `--camera` turns it): the two blends differ mostly in depth.
    let flags = ["--inspect", "2", "--method", "both", "--camera", "0,80,1.4"];
    let Some((image, stdout)) = shot("inspect-dqs", "twist", "2.0", &flags) else { return };
    let mut camera = framing_model(&model, &scene::clips().expect("the article's clips"));
    camera.orbit(0.0, 80f32.to_radians());
    camera.zoom_by(1.4);
    let on_screen = |p: Vec3| camera.project(p, W, H);
    assert!(stdout.contains("inspect: clip twist at t 2.000 s, lbs+dqs on cpu"), "{stdout}");
    let line = stdout.lines().find(|l| l.contains("dual quaternion skinning (dqs)")).expect("a DQS line");
    let dqs = expected.dqs.expect("asked for");
    assert!(Vec3::from_slice(&numbers(line)).abs_diff_eq(dqs, 1e-4), "{line}");
    // The orange point where dual quaternions put it, the white one where the linear blend does.
    let (at, blend) = (on_screen(dqs), on_screen(expected.blended));
    assert!(at.distance(blend) > 8.0, "the two blends should be apart on screen: {at} {blend}");
    assert!(image.any_near(at.x, at.y, 1, orange), "no orange point at {at}");
    assert!(image.any_near(blend.x, blend.y, 1, |p| p == [255, 255, 255]), "no white point at {blend}");
    assert!(find_text(&image, "lbs+dqs on cpu", 1, (0..400, 0..20), ink).is_some(), "the corner line");
}
