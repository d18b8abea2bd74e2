//! What a user of the program sees and is told, checked in its pictures and its lines: `--hide`
//! leaves layers out of a picture and the keys bring them back, `skinning FILE` opens FILE as
//! `--model FILE` does.

use common::window::start;
use common::{Class, Image, run, run_gl, sample_model, scratch};

/// One headless picture of `args`, with its words or without (`--no-text`).
fn shot(args: &[&str], words: bool, name: &str) -> Option<Image> {
    let path = scratch(&format!("shown-{name}")).join(name);
    let common = ["--headless", "--frames", "1", "--size", "320x240", "--time", "1.3"];
    let text: &[&str] = if words { &[] } else { &["--no-text"] };
    // The test's own flags last: a flag given twice keeps its last value (`--size`).
    run_gl(&[&common, args, text, &["--screenshot", path.to_str().unwrap()]].concat())?;
    Some(Image::load(&path))
}

fn picture(args: &[&str], name: &str) -> Option<Image> {
    shot(args, false, name)
}

/// Pixels in the words' colour below the corner line (its top 40 rows): the bone names.
fn names_ink(image: &Image) -> usize {
    let below = (40 * image.width * 4) as usize;
    image.rgba[below..].chunks_exact(4).filter(|p| common::ink([p[0], p[1], p[2]])).count()
}

#[test]
fn hide_leaves_out_the_layers_it_names() {
    let Some(all) = picture(&[], "all.png") else { return };
    let counts = |i: &Image| [Class::Green, Class::Red, Class::Blue].map(|c| i.count(c));
    let [green, red, blue] = counts(&all);
    assert!(green > 100 && red > 100 && blue > 100, "{:?}", counts(&all));
    for (hide, shown) in [
        ("bind", [false, true, true]),
        ("skinned", [true, false, true]),
        ("bones", [true, true, false]),
        ("bind,bones", [false, true, false]),
        ("bind,skinned,bones", [false, false, false]),
    ] {
        let Some(image) = picture(&["--hide", hide], &format!("{hide}.png")) else { return };
        let got = counts(&image).map(|n| n > 0);
        assert_eq!(got, shown, "--hide {hide}: green, red, blue pixels {:?}", counts(&image));
    }
    // The article's five names are on by default; --hide names leaves them out, and the corner line.
    let (Some(named), Some(unnamed)) =
        (shot(&[], true, "named.png"), shot(&["--hide", "names"], true, "x.png"))
    else {
        return;
    };
    let corner = |i: &Image| {
        i.rgba[..(40 * 320 * 4)].chunks_exact(4).filter(|p| common::ink([p[0], p[1], p[2]])).count()
    };
    assert!(
        names_ink(&named) > 100 && names_ink(&unnamed) == 0,
        "{} {}",
        names_ink(&named),
        names_ink(&unnamed)
    );
    assert!(corner(&unnamed) > 100, "the corner line went too");
}

#[test]
fn a_model_with_only_its_lit_surface_has_no_bind_pose_and_no_bones() {
    let Some(path) = sample_model("RobotExpressive.glb") else { return };
    let model = path.to_str().unwrap();
    let (Some(all), Some(alone)) = (
        picture(&["--model", model], "robot-all.png"),
        picture(&["--model", model, "--hide", "bind,bones"], "robot.png"),
    ) else {
        return;
    };
    // The robot in its own colours, lit; the background is the corner pixel's colour.
    let drawn = |i: &Image| i.rgba.chunks_exact(4).filter(|p| p[..3] != i.rgba[..3]).count();
    assert!(drawn(&alone) > 5000, "{} pixels drawn", drawn(&alone));
    assert!(all.count(Class::Green) > 100 && all.count(Class::Blue) > 100, "the layers are there");
    assert_eq!((alone.count(Class::Green), alone.count(Class::Blue)), (0, 0));
}

#[test]
fn the_keys_bring_back_what_hide_left_out() {
    let Some(s) = start("hide-keys", &["--hide", "bind,skinned,bones", "--no-text"], &[]) else { return };
    s.key("space");
    let none = s.shot();
    assert_eq!([Class::Green, Class::Red, Class::Blue].map(|c| none.count(c)), [0, 0, 0]);
    for key in ["b", "m", "s"] {
        s.key(key);
    }
    let all = s.shot();
    assert!([Class::Green, Class::Red, Class::Blue].iter().all(|&c| all.count(c) > 100));
}

#[test]
fn a_file_alone_opens_as_with_model() {
    let Some(path) = sample_model("Fox.glb") else { return };
    let fox = path.to_str().unwrap();
    let Some(alone) = picture(&[fox, "--animation", "Walk"], "alone.png") else { return };
    let Some(flag) = picture(&["--model", fox, "--animation", "Walk"], "flag.png") else { return };
    assert!(alone.rgba.chunks_exact(4).filter(|p| p[..3] != alone.rgba[..3]).count() > 1000);
    assert!(alone.rgba == flag.rgba, "skinning FILE and --model FILE drew different pictures");
    // --info too, and the same refusals.
    let (a, b) = (run(&[fox, "--info"]), run(&["--model", fox, "--info"]));
    assert!(a.status.success() && a.stdout == b.stdout);
    let both = run(&[fox, "--model", fox]);
    assert_eq!(both.status.code(), Some(2));
    let err = String::from_utf8_lossy(&both.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("both name a model"), "{err}");
}

#[test]
fn stats_round_the_final_time() {
    // 29 steps of 0.1 s add up to 2.9000000000000012 in floats: said 2.9.
    let args = ["--headless", "--frames", "30", "--fixed-dt", "0.1", "--size", "32x24", "--stats"];
    let Some(out) = run_gl(&args) else { return };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().find(|l| l.starts_with("stats:")).expect("a stats line");
    assert!(line.ends_with(", final time 2.9 s"), "{line}");
    // A time that needs its digits keeps them, to the nanosecond.
    let args = ["--headless", "--frames", "2", "--time", "0.123456789123", "--fixed-dt", "0", "--stats"];
    let Some(out) = run_gl(&args) else { return };
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(", final time 0.123456789 s"), "{stdout}");
}

/// Pixels of the normals layer's pale green (0.75, 1, 0.85), and of everything else drawn (the lit
/// surface, in the model's colours); the background is the corner pixel's colour.
fn normals_and_surface(image: &Image) -> (usize, usize) {
    let pale = |p: &[u8]| p[1] > 200 && p[0] > 140 && p[2] > 150 && p[0] < p[1];
    let drawn = image.rgba.chunks_exact(4).filter(|p| p[..3] != image.rgba[..3]);
    let normals = drawn.clone().filter(|p| pale(p)).count();
    (normals, drawn.count() - normals)
}

#[test]
fn the_normals_layer_leaves_the_robot_visible() {
    // The robot: 7,214 vertices, many of its faces small (its joints are balls). Its normals
    // drawn a fixed 2% of its size long covered 46% of this picture of it, a fuzz; scaled to the
    // edges where each stands, 9%.
    let Some(path) = sample_model("RobotExpressive.glb") else { return };
    let robot = path.to_str().unwrap();
    let args = [robot, "--hide", "bind,bones", "--size", "800x600", "--normals"];
    let Some(image) = picture(&args, "robot-normals.png") else { return };
    let (normals, surface) = normals_and_surface(&image);
    let share = normals as f32 / (normals + surface) as f32;
    println!(
        "the robot's normals cover {:.1}% of the figure ({normals} of {} pixels)",
        100.0 * share,
        normals + surface
    );
    assert!(normals > 500, "the normals are drawn: {normals} pixels");
    assert!(share < 0.15, "the normals cover {:.1}% of the figure", 100.0 * share);
    // The article's arm, 13 vertices, keeps its lines: 2% of its size, as long as ever.
    let Some(arm) = picture(&["--normals", "--hide", "bind,bones", "--size", "800x600"], "arm.png") else {
        return;
    };
    assert!(normals_and_surface(&arm).0 > 100, "{:?}", normals_and_surface(&arm));
}
