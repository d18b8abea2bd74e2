//! The lit surface and the normals layer, as drawn: a real character lit in many shades of its
//! colour where its lines were one red; the same picture, to a rounding, whether the CPU or the GPU skins it; a
//! line along each normal; and still no allocation in a steady frame.
//!
//! These need EGL (Mesa's software renderer will do): without it they print SKIPPED and pass,
//! unless `SKINNING_REQUIRE_GL` is set, as in CI. The robot and the fox come from `SKINNING_MODELS`.

use common::{Image, run_gl, sample_model, scratch};
use glam::Vec3;
use skinning::camera::framing_model;
use skinning_method::frame::Pose;
use std::collections::HashSet;
use std::path::Path;

/// A 640x480 picture of one frame, without words, with `extra` flags.
fn shot(dir: &Path, name: &str, extra: &[&str]) -> Option<Image> {
    let path = dir.join(format!("{name}.png"));
    let args = ["--headless", "--frames", "1", "--no-text", "--size", "640x480", "--screenshot"];
    run_gl(&[&args[..], &[path.to_str().unwrap()], extra].concat())?;
    Some(Image::load(&path))
}

/// The distinct colours of the pixels where red leads (the skinned mesh, lit or not), and how
/// many such pixels there are.
fn reds(image: &Image) -> (HashSet<[u8; 3]>, usize) {
    let red = |p: &&[u8]| p[0] as i32 > p[1] as i32 + 40 && p[0] as i32 > p[2] as i32 + 40;
    let pixels: Vec<[u8; 3]> = image.rgba.chunks_exact(4).filter(red).map(|p| [p[0], p[1], p[2]]).collect();
    (pixels.iter().copied().collect(), pixels.len())
}

/// The distinct colours of the pixels of the lit surface (in its materials' colours: not the
/// background, nor the bind pose's green or the bones' blue), and how many there are.
fn surface(image: &Image) -> (HashSet<[u8; 3]>, usize) {
    let lit = |p: &&[u8]| {
        let (r, g, b) = (p[0] as i32, p[1] as i32, p[2] as i32);
        let background = r.max(g).max(b) < 40;
        let (green, blue) = (g > r + 40 && g > b + 40, b > r + 40 && b > g + 40);
        !background && !green && !blue
    };
    let pixels: Vec<[u8; 3]> = image.rgba.chunks_exact(4).filter(lit).map(|p| [p[0], p[1], p[2]]).collect();
    (pixels.iter().copied().collect(), pixels.len())
}

#[test]
fn the_robot_is_lit_in_many_shades_where_its_lines_were_one_red() {
    let Some(robot) = sample_model("RobotExpressive.glb") else { return };
    let dir = scratch("lit-robot");
    let model = ["--model", robot.to_str().unwrap(), "--animation", "Walking", "--time", "0.4"];
    let Some(lit) = shot(&dir, "lit", &model) else { return };
    let Some(lines) = shot(&dir, "lines", &[&model[..], &["--surface", "off"]].concat()) else { return };
    let ((lit_shades, lit_pixels), (line_shades, line_pixels)) = (surface(&lit), reds(&lines));
    println!(
        "lit: {} shades over {lit_pixels} pixels; lines: {} shades over {line_pixels} pixels",
        lit_shades.len(),
        line_shades.len()
    );
    // Lit: faces turned from the light darker, facing it brighter: many shades of its colours.
    assert!(lit_shades.len() >= 40, "only {} shades", lit_shades.len());
    // Filled: the robot covers more of the picture than even its dense web of edges, a tenth of it.
    assert!(2 * lit_pixels > 3 * line_pixels && lit_pixels > 640 * 480 / 10, "{lit_pixels} vs {line_pixels}");
    // As lines, one red (where lines cross the bind pose's green or the bones, a few blends).
    assert!(line_shades.len() < 10, "{} shades of red in the lines", line_shades.len());
}

/// How many pixels of `a` and `b` differ, and by how much at most in any channel.
fn difference(a: &Image, b: &Image) -> (usize, u8) {
    let pairs = a.rgba.iter().zip(&b.rgba).map(|(x, y)| x.abs_diff(*y));
    let most = pairs.clone().max().unwrap_or(0);
    let pixels = a.rgba.chunks_exact(4).zip(b.rgba.chunks_exact(4)).filter(|(p, q)| p != q).count();
    (pixels, most)
}

#[test]
fn the_gpu_lights_the_surface_as_the_cpu_does() {
    let dir = scratch("lit-gpu");
    for (name, animation) in [("Fox.glb", "Walk"), ("RobotExpressive.glb", "Walking")] {
        let Some(path) = sample_model(name) else { continue };
        let model = ["--model", path.to_str().unwrap(), "--animation", animation, "--time", "0.3"];
        let Some(cpu) = shot(&dir, &format!("{name}-cpu"), &model) else { return };
        let Some(gpu) = shot(&dir, &format!("{name}-gpu"), &[&model[..], &["--skinning", "gpu"]].concat())
        else {
            return;
        };
        let (pixels, most) = difference(&cpu, &gpu);
        println!("{name}: {pixels} pixels differ between the CPU's and the GPU's surface, by at most {most}");
        // The fox's flat normals come from its skinned corners, found by the same shader; the robot's
        // skinned normals agree to 1e-7 (tests/gpu.rs), a shade at most. The CPU's corners come from
        // the fast path (`lanes.rs`), a rounding from the shader's. Measured: 16 of the fox's pixels
        // differ and 1 of the robot's, each by 1 shade.
        assert!(pixels <= 640 * 480 / 1000 && most <= 2, "{name}: {pixels} pixels, {most} apart");
        assert!(reds(&cpu).0.len() >= 40, "{name}: the surface should be lit");
    }
}

#[test]
fn the_normals_layer_draws_a_line_along_every_normal() {
    let dir = scratch("normals-layer");
    let Some(image) = shot(&dir, "article", &["--clip", "bend", "--time", "1.0", "--normals"]) else {
        return;
    };
    let model = skinning_method::scene::article().expect("the article's scene");
    let clips = skinning_method::scene::clips().expect("its clips");
    let camera = framing_model(&model, &clips);
    let mut pose = Pose::new(&model);
    common::update_with_normals(&mut pose, &model, &clips[1], 1.0);
    // Each line is 0.02 of the framed box's diagonal long (`show/normal_lines.rs`): its middle is
    // half that along the normal from the vertex, drawn in the layer's pale green.
    let length = 0.02 * 2.0 * camera.radius();
    let pale = |[r, g, b]: [u8; 3]| g > 230 && (170..215).contains(&r) && (190..240).contains(&b);
    for (v, (p, n)) in pose.skinned.iter().zip(&pose.normals).enumerate() {
        let middle = Vec3::from(*p + 0.5 * length * *n);
        let at = camera.project(middle, 640, 480);
        assert!(image.any_near(at.x, at.y, 1, pale), "no normal line through {at} (vertex {v})");
    }
    // Without the flag, none.
    let Some(plain) = shot(&dir, "plain", &["--clip", "bend", "--time", "1.0"]) else { return };
    assert!(!plain.rgba.chunks_exact(4).any(|p| pale([p[0], p[1], p[2]])));
}

#[test]
fn a_steady_lit_frame_allocates_nothing() {
    let dir = scratch("lit-allocations");
    let fixture = dir.join("stretched.gltf");
    std::fs::write(&fixture, common::fixture::build_with_normals().embedded()).expect("written");
    let flat = dir.join("flat.gltf");
    std::fs::write(&flat, common::fixture::build().embedded()).expect("written");
    for (model, skinning) in [(&fixture, "cpu"), (&fixture, "gpu"), (&flat, "cpu"), (&flat, "both")] {
        let args = [
            "--model",
            model.to_str().unwrap(),
            "--skinning",
            skinning,
            "--normals",
            "--headless",
            "--frames",
            "100",
            "--fixed-dt",
            "0.02",
            "--size",
            "160x120",
            "--stats",
        ];
        let Some(out) = run_gl(&args) else { return };
        let stdout = String::from_utf8_lossy(&out.stdout);
        let line = stdout.lines().find(|l| l.starts_with("stats:")).expect("a stats line");
        assert!(
            line.contains(" 0 allocations drawing frames 4..100"),
            "{} on {skinning}: {line}",
            model.display()
        );
    }
}
