//! Every key and mouse action in a real window: the demo runs on its own virtual X display (Xvfb),
//! `xdotool` presses keys and drags the mouse, and `P` screenshots before and after each action are
//! compared. The corner line (the top rows) shows the time each frame takes, which differs from
//! frame to frame, so pictures are compared below it; its words are read glyph by glyph instead.
//! The article's outline has no surface, so `L` is tried on the Fox too (from `SKINNING_MODELS`).
//!
//! Needs `Xvfb` and `xdotool` (Debian: xvfb xdotool) plus Mesa. Without them the test says so and
//! passes, unless `SKINNING_REQUIRE_GL` is set, as it is in CI.

use common::window::start;
use common::{Class, Image, find_text, ink, sample_model};
use glam::Vec2;
use std::time::{Duration, Instant};

const W: u32 = 640;
const H: u32 = 480;
const START: f64 = 0.5;

/// The rows the corner line and the inspector's sum under it take.
const CORNER_ROWS: u32 = 40;

/// The same picture below the corner line.
fn same(a: &Image, b: &Image) -> bool {
    let below = (CORNER_ROWS * W * 4) as usize;
    a.rgba[below..] == b.rgba[below..]
}

/// Pixels of the normals layer's pale green (`colors::NORMALS`, 191 255 217) below the corner line.
fn normals_drawn(image: &Image) -> usize {
    let pale = |p: &[u8]| p[1] > 240 && (170..215).contains(&p[0]) && (195..240).contains(&p[2]);
    image.rgba[(CORNER_ROWS * W * 4) as usize..].chunks_exact(4).filter(|p| pale(p)).count()
}

/// Ink (the words' colour) below the corner line: names, labels.
fn ink_below_the_corner(image: &Image) -> usize {
    image.rgba[(CORNER_ROWS * W * 4) as usize..].chunks_exact(4).filter(|p| ink([p[0], p[1], p[2]])).count()
}

/// Where a point of the article's scene at animation time `t` (seed clip, home camera) is drawn.
fn on_screen(t: f64, joint: usize) -> Vec2 {
    let (camera, pose) = posed(t);
    camera.project(pose.joint(joint), W, H)
}

/// Where skinned vertex `v` of the article's scene at time `t` (seed clip, home camera) is drawn.
fn vertex_on_screen(t: f64, v: usize) -> Vec2 {
    let (camera, pose) = posed(t);
    camera.project(pose.skinned[v].into(), W, H)
}

fn posed(t: f64) -> (skinning::camera::Camera, skinning_method::frame::Pose) {
    let model = skinning_method::scene::article().expect("the article's scene");
    let camera = skinning::camera::framing_model(
        &model,
        &skinning_method::scene::clips().expect("the article's clips"),
    );
    let mut pose = skinning_method::frame::Pose::new(&model);
    pose.update(&model, &skinning_method::scene::seed(), t);
    (camera, pose)
}

#[test]
fn every_key_and_mouse_action_changes_what_it_should() {
    let (start_time, size) = (START.to_string(), format!("{W}x{H}"));
    let args = ["--clip", "seed", "--time", &start_time, "--size", &size];
    let Some(s) = start("interaction", &args, &[]) else { return };

    // Space pauses; R takes time back to --time. From here on, `base` is the reference picture.
    s.key("space");
    s.key("r");
    let base = s.shot();
    assert_eq!((base.width, base.height), (W, H));
    assert!(base.count(Class::Green) > 0 && base.count(Class::Red) > 0 && base.count(Class::Blue) > 0);
    std::thread::sleep(Duration::from_millis(300));
    assert!(same(&s.shot(), &base), "paused, yet the picture changed");
    assert!(s.title().contains("paused"), "title: {}", s.title());
    // The corner line says so too, in the picture.
    let corner = (0..40, 0..20);
    assert!(find_text(&base, "clip seed  t 0.50 s  1x  paused  lbs on cpu", 1, corner, ink).is_some());

    // . and , step 1/60 s forward and back; ] and [ scrub 0.1 s.
    for (forward, back) in [("period", "comma"), ("bracketright", "bracketleft")] {
        s.key(forward);
        assert!(!same(&s.shot(), &base), "{forward} did not move the animation");
        s.key(back);
        assert!(same(&s.shot(), &base), "{back} did not come back to the same frame");
    }

    // B, M, S hide the bind mesh, the skinned mesh, the skeleton; pressing again shows them.
    for (key, class) in [("b", Class::Green), ("m", Class::Red), ("s", Class::Blue)] {
        s.key(key);
        let hidden = s.shot();
        assert_eq!(hidden.count(class), 0, "{key} left {class:?} pixels");
        s.key(key);
        assert!(same(&s.shot(), &base), "{key} twice is not back to the start");
    }

    // W: weight view on root, then bone1: the skinned mesh is recoloured, one joint highlighted.
    s.key("w");
    let root_view = s.shot();
    assert!(root_view.count(Class::Red) < base.count(Class::Red), "weight view still all red");
    s.key("w");
    assert!(!same(&s.shot(), &root_view), "the next bone has different weights");
    for _ in 0..4 {
        s.key("w"); // bone2, bone31, bone32, then off
    }
    assert!(same(&s.shot(), &base), "W did not cycle back to off");

    // N hides the bone names (the only words below the corner line); N again shows them.
    assert!(ink_below_the_corner(&base) > 100, "no bone names drawn");
    s.key("n");
    let nameless = s.shot();
    assert_eq!(ink_below_the_corner(&nameless), 0, "N left words beside the joints");
    s.key("n");
    assert!(same(&s.shot(), &base), "N twice is not back to the start");

    // V inspects vertex 0, then 1...: the numbers are printed, the blend is marked in white.
    let white = |p: [u8; 3]| p == [255, 255, 255];
    s.key("v");
    s.expect_line("vertex 0: bind");
    let at = vertex_on_screen(START, 0);
    assert!(s.shot().any_near(at.x, at.y, 1, white), "no blend marked at vertex 0");
    s.key("v");
    s.expect_line("vertex 1: bind");
    for _ in 2..14 {
        s.key("v"); // vertices 2 to 12, then none
    }
    s.expect_line("vertex 12: bind");
    assert!(same(&s.shot(), &base), "V did not cycle back to none");

    // A click near vertex 2 inspects it; a click on empty space stops; neither turns the camera.
    let v2 = vertex_on_screen(START, 2);
    s.click(v2 + Vec2::new(2.0, 1.0));
    s.expect_line("vertex 2: bind");
    let inspected = s.shot();
    assert!(inspected.any_near(v2.x, v2.y, 1, white), "no blend marked at vertex 2");
    // Under the corner line, which takes a second row when its costs have more digits (a pose and
    // blend over 100 µs on a busy machine): so the sum may start on the second row or the third.
    assert!(find_text(&inspected, "vertex 2 = ", 1, (0..20, 10..40), ink).is_some(), "no sum in the corner");
    s.click(Vec2::new(20.0, (H - 20) as f32));
    assert!(same(&s.shot(), &base), "a click on empty space did not clear the inspector");

    // 2 and 3 switch clips; 1 comes back to seed. C steps through them, round to seed again.
    s.key("2");
    assert!(s.title().contains("clip bend"));
    s.key("3");
    assert!(s.title().contains("clip twist"));
    s.key("1");
    assert!(same(&s.shot(), &base), "back on seed at the same time");
    for next in ["clip bend", "clip twist", "clip seed"] {
        s.key("c");
        assert!(s.title().contains(next), "C did not step to {next}: {}", s.title());
    }
    assert!(same(&s.shot(), &base), "C three times is not back to seed");

    // O draws a pale green line along each of the outline's 13 normals; O again hides them.
    assert_eq!(normals_drawn(&base), 0, "normals drawn before O");
    s.key("o");
    let normals = s.shot();
    println!("O on the article: {} pale green pixels", normals_drawn(&normals));
    assert!(normals_drawn(&normals) > 13, "O drew {} pale green pixels", normals_drawn(&normals));
    s.key("o");
    assert!(same(&s.shot(), &base), "O twice is not back to the start");

    // L: the article's outline has no surface to light, so it stays lines (the model test lights one).
    s.key("l");
    assert!(same(&s.shot(), &base), "L changed the article's outline, which has no surface");

    // + and - change the speed (title), R resets it.
    s.key("plus");
    s.key("plus");
    assert!(s.title().contains("| 4x"), "title: {}", s.title());
    s.key("minus");
    assert!(s.title().contains("| 2x"), "title: {}", s.title());
    s.key("r");
    assert!(s.title().contains("| 1x"), "title: {}", s.title());

    // Left-drag orbits: the whole picture turns. R puts the camera back.
    s.drag("1", Vec2::new(300.0, 240.0), Vec2::new(350.0, 250.0), Vec2::new(420.0, 260.0));
    let orbited = s.shot();
    assert!(!same(&orbited, &base), "left-drag did not move the camera");
    s.key("r");
    assert!(same(&s.shot(), &base), "R did not reset the camera");

    // The wheel zooms: more pixels drawn further apart; R resets.
    s.xdotool(&["mousemove", "--window", &s.window, "320", "240"]);
    s.xdotool(&["click", "4"]);
    s.xdotool(&["click", "4"]);
    std::thread::sleep(Duration::from_millis(150));
    let zoomed = s.shot();
    assert!(!same(&zoomed, &base), "the wheel did not zoom");
    s.key("r");
    assert!(same(&s.shot(), &base), "R did not reset the zoom");

    // Right-drag on bone2's joint bends it: bone31's joint leaves its place, bone1's stays.
    let bone2 = on_screen(START, skinning_method::scene::BONE2);
    let bone31 = on_screen(START, skinning_method::scene::BONE31);
    let bone1 = on_screen(START, skinning_method::scene::BONE1);
    s.drag("3", bone2 + Vec2::new(2.0, 0.0), bone2 + Vec2::new(60.0, -30.0), bone2 + Vec2::new(0.0, -60.0));
    let bent = s.shot();
    assert!(base.has_near(bone31.x, bone31.y, 1, Class::Blue));
    assert!(!bent.has_near(bone31.x, bone31.y, 1, Class::Blue), "bone31 did not move");
    assert!(bent.has_near(bone1.x, bone1.y, 1, Class::Blue), "bone1 moved, but only bone2 was bent");
    s.key("r");
    assert!(same(&s.shot(), &base), "R did not undo the bend");

    // G cycles the skinning path, shown in the title.
    s.key("g");
    assert!(s.title().contains("gpu skinning"), "title: {}", s.title());
    s.key("g");
    s.key("g");
    assert!(s.title().contains("cpu skinning"));

    // D switches the blend method: dual quaternions draw the skinned mesh in orange; D twice more
    // comes back to linear blending, red, and the same picture.
    s.key("d");
    assert!(s.title().contains("skinning, dqs"), "title: {}", s.title());
    let dqs = s.shot();
    assert!(dqs.count(Class::Orange) > 100 && dqs.count(Class::Red) == 0, "no orange DQS mesh");
    s.key("d");
    assert!(s.title().contains("skinning, lbs+dqs"), "title: {}", s.title());
    s.key("d");
    assert!(same(&s.shot(), &base), "D three times should come back to the same picture");

    // H prints the keys again.
    s.key("h");
    s.expect_line("keys:");

    // Space resumes: the picture moves on by itself.
    s.key("space");
    std::thread::sleep(Duration::from_millis(300));
    assert!(!same(&s.shot(), &base), "resumed, yet the picture did not change");

    // Escape quits with status 0. The program quits on the press, so only the press is sent: the
    // release `key` sends after it would address a window already closed (X's BadWindow, seen in CI).
    s.xdotool(&["keydown", "--window", &s.window, "Escape"]);
    let mut app = s.app;
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Ok(Some(status)) = app.0.try_wait() {
            break status;
        }
        assert!(Instant::now() < deadline, "Escape did not quit");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "exit status {status}");
}

#[test]
fn words_keep_their_shape_on_a_screen_scaled_2x() {
    // winit on X11 takes the screen's scale factor from WINIT_X11_SCALE_FACTOR: a high-DPI screen.
    let args = ["--clip", "twist", "--time", "1.5", "--size", "640x480"];
    let Some(s) = start("scaled", &args, &[("WINIT_X11_SCALE_FACTOR", "2")]) else { return };
    s.key("space");
    let image = s.shot();
    // Every font pixel is a 2 x 2 block, and the margin doubles: the corner line reads at scale 2.
    let corner = (0..30, 0..30);
    assert!(find_text(&image, "clip twist  t ", 2, corner.clone(), ink).is_some(), "no corner line at 2x");
    assert!(
        find_text(&image, "  paused  ", 2, (0..W as i64, 0..30), ink).is_some(),
        "the picture is not paused"
    );
    assert!(find_text(&image, "clip twist", 1, corner, ink).is_none(), "letters drawn at 1x on a 2x screen");
    assert!(find_text(&image, "bone1", 2, (0..W as i64, 40..H as i64), ink).is_some(), "no name at 2x");
}

#[test]
fn l_switches_a_models_lit_surface_and_its_lines() {
    let Some(fox) = sample_model("Fox.glb") else { return };
    let fox = fox.to_str().expect("a UTF-8 path").to_string();
    let size = format!("{W}x{H}");
    // Seen from its side, where it covers the most of the picture (the camera starts at its front).
    let args = ["--model", &fox, "--animation", "Walk", "--time", "0.3", "--size", &size, "--camera", "90,0"];
    let Some(s) = start("lit-or-lines", &args, &[]) else { return };
    s.key("space");
    let lit = s.shot();
    // The lit surface: many shades of red. As lines: one red, and far fewer red pixels.
    let reds = |image: &Image| {
        let red = |p: &&[u8]| p[0] as i32 > p[1] as i32 + 40 && p[0] as i32 > p[2] as i32 + 40;
        let pixels: Vec<[u8; 3]> =
            image.rgba.chunks_exact(4).filter(red).map(|p| [p[0], p[1], p[2]]).collect();
        (pixels.iter().collect::<std::collections::HashSet<_>>().len(), pixels.len())
    };
    let (lit_shades, lit_pixels) = reds(&lit);
    assert!(lit_shades >= 20, "only {lit_shades} shades of red: not lit");
    s.key("l");
    let lines = s.shot();
    let (line_shades, line_pixels) = reds(&lines);
    println!(
        "lit: {lit_shades} shades of red over {lit_pixels} pixels; lines: {line_shades} over {line_pixels}"
    );
    assert!(line_shades < lit_shades / 2 && line_pixels < lit_pixels, "L did not turn the surface to lines");
    s.key("l");
    assert!(same(&s.shot(), &lit), "L twice is not back to the lit surface");
    // O draws the normals on the model too (the Fox's are flat: one per triangle).
    s.key("o");
    assert!(normals_drawn(&s.shot()) > 100, "O drew no normals on the Fox");
}
