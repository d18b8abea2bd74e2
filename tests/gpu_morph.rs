//! Morph targets on the GPU (`shaders/skinning.vert`, `src/demo/draw/gpu_morph.rs`): the vertex
//! shader's morph then skin equals the CPU's, every vertex within 1e-5 of the model's size, on the
//! robot's face, and on a skinned face with normal displacements for both ways of blending; a model
//! with more targets than the shaders take is morphed on the CPU and skinned on the GPU, said in one
//! line, with the same result; and the lit surface in the materials' colours shows the morphed face
//! on the GPU as on the CPU.
//!
//! These need EGL (Mesa's software renderer will do): without it they print SKIPPED and pass,
//! unless `SKINNING_REQUIRE_GL` is set, as in CI, where they fail instead.

use common::{run, run_gl, sample_model, scratch};
use serde_json::{Value, json};
use std::path::Path;

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).expect("the dump is written")).expect("the dump is JSON")
}

/// Every number of `key` in every frame of two dumps: the largest difference, and the largest
/// coordinate (for the model's size).
fn differences(cpu: &Value, gpu: &Value, key: &str) -> (f64, f64) {
    let (mut largest, mut extent) = (0.0f64, 0.0f64);
    for (c, g) in cpu["frames"].as_array().unwrap().iter().zip(gpu["frames"].as_array().unwrap()) {
        let (c, g) = (c[key].as_array().unwrap(), g[key].as_array().unwrap());
        assert_eq!(c.len(), g.len(), "{key}");
        for (c, g) in c.iter().zip(g) {
            for axis in 0..3 {
                let (c, g) = (c[axis].as_f64().unwrap(), g[axis].as_f64().unwrap());
                largest = largest.max((c - g).abs());
                extent = extent.max(c.abs());
            }
        }
    }
    (largest, extent)
}

/// Dumps `args` on the CPU and the GPU (the second's standard error returned), and holds the
/// GPU's positions (and normals) to the CPU's: within 1e-5 of the model's size. None without EGL.
fn gpu_equals_cpu(test: &str, args: &[&str]) -> Option<String> {
    let dir = scratch(test);
    let (cpu_path, gpu_path) = (dir.join("cpu.json"), dir.join("gpu.json"));
    let cpu_run = run(&[&["--dump", cpu_path.to_str().unwrap()][..], args].concat());
    assert!(cpu_run.status.success(), "{}", String::from_utf8_lossy(&cpu_run.stderr));
    let gpu_run = run_gl(&[&["--dump", gpu_path.to_str().unwrap(), "--skinning", "gpu"][..], args].concat())?;
    let (cpu, gpu) = (read_json(&cpu_path), read_json(&gpu_path));
    // The model's size: the farthest any skinned position's number reaches from 0.
    let size = differences(&cpu, &cpu, "skinned").1;
    assert_eq!(cpu["frames"][0]["morph_weights"], gpu["frames"][0]["morph_weights"]);
    for key in ["skinned", "rigid", "normals"] {
        if cpu["frames"][0][key].is_null() {
            continue;
        }
        let (largest, _) = differences(&cpu, &gpu, key);
        println!(
            "{test}: {key}: largest CPU/GPU difference {largest:.2e} ({:.1e} of the size)",
            largest / size
        );
        assert!(largest <= 1e-5 * size, "{test}: {key} {largest} apart");
    }
    Some(String::from_utf8_lossy(&gpu_run.stderr).into_owned())
}

#[test]
fn the_gpu_morphs_the_robots_face_as_the_cpu_does() {
    let Some(robot) = sample_model("RobotExpressive.glb") else { return };
    let robot = robot.to_str().unwrap();
    // Six poses of Death (the head falls and turns), the face held half angry and fully surprised.
    let poses = ["--animation", "Death", "--frames", "6", "--fixed-dt", "0.15", "--time", "0.05"];
    let face = ["--morph", "Head_4:Angry=0.5", "--morph", "Head_4:Surprised=1"];
    let args = [&["--model", robot][..], &poses, &face].concat();
    let Some(said) = gpu_equals_cpu("gpu-morph-robot", &args) else { return };
    assert!(!said.contains("the shaders do not morph"), "{said}");
}

#[test]
fn the_gpu_morphs_a_skinned_face_and_its_normals_as_the_cpu_does() {
    let face = scratch("gpu-morph-face-file").join("face.gltf");
    std::fs::write(&face, common::face::face(true).embedded()).expect("writable");
    let args =
        ["--model", face.to_str().unwrap(), "--frames", "5", "--fixed-dt", "0.2", "--morph", "badge:0=0.5"];
    // Both ways of blending: dual quaternions morph the same way first.
    for method in ["lbs", "dqs"] {
        let args = [&args[..], &["--method", method]].concat();
        gpu_equals_cpu(&format!("gpu-morph-face-{method}"), &args);
    }
}

#[test]
fn beyond_the_shaders_limit_the_cpu_morphs_and_the_gpu_skins() {
    // The face with 130 targets (the shaders take 128 weights): the last 128 move v3 as Frown does.
    let mut g = common::face::face(true);
    let mut targets = g.json["meshes"][0]["primitives"][0]["targets"].as_array().unwrap().clone();
    let frown = targets[1].clone();
    targets.extend(std::iter::repeat_n(frown, 128));
    g.json["meshes"][0]["primitives"][0]["targets"] = json!(targets);
    let weights: Vec<f32> = (0..130).map(|k| if k < 2 { 0.5 } else { 0.004 }).collect();
    g.json["nodes"][2]["weights"] = json!(weights);
    let mesh = g.json["meshes"][0].as_object_mut().unwrap();
    mesh.remove("weights");
    mesh.remove("extras");
    // The weight channel no longer has a value per target: it is left out, said in a note.
    g.json["animations"][0]["channels"].as_array_mut().unwrap().pop();
    let face = scratch("gpu-morph-many-file").join("many.gltf");
    std::fs::write(&face, g.embedded()).expect("writable");
    let args = ["--model", face.to_str().unwrap(), "--frames", "4", "--fixed-dt", "0.25"];
    let Some(said) = gpu_equals_cpu("gpu-morph-many", &args) else { return };
    let line = "note: GPU skinning: the shaders do not morph, they take at most 128 morph targets \
                (MAX_GPU_MORPH_WEIGHTS) and this model's meshes have 131; the CPU morphs and the GPU \
                skins the result";
    assert_eq!(said.matches(line).count(), 1, "{said}");
}

/// A 400x400 picture of one frame of the robot's face, without words, with `extra` flags.
fn face_shot(dir: &Path, name: &str, extra: &[&str]) -> Option<common::Image> {
    let robot = sample_model("RobotExpressive.glb")?;
    let path = dir.join(format!("{name}.png"));
    let args = ["--headless", "--frames", "1", "--no-text", "--size", "400x400", "--screenshot"];
    let face = ["--model", robot.to_str().unwrap(), "--animation", "Idle", "--camera", "0,-25,1.5"];
    run_gl(&[&args[..], &[path.to_str().unwrap()], &face, extra].concat())?;
    Some(common::Image::load(&path))
}

/// How many pixels of `a` and `b` differ, by how much at most in any channel, and how many by more
/// than 2 shades.
fn difference(a: &common::Image, b: &common::Image) -> (usize, u8, usize) {
    let most = a.rgba.iter().zip(&b.rgba).map(|(x, y)| x.abs_diff(*y)).max().unwrap_or(0);
    let pixels = a.rgba.chunks_exact(4).zip(b.rgba.chunks_exact(4)).filter(|(p, q)| p != q).count();
    let apart = |(p, q): &(&[u8], &[u8])| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 2);
    let far = a.rgba.chunks_exact(4).zip(b.rgba.chunks_exact(4)).filter(apart).count();
    (pixels, most, far)
}

#[test]
fn the_gpu_draws_the_morphed_face_lit_in_its_colours_as_the_cpu_does() {
    // The lit surface draws each material's run of triangles with its own texture bound (none for
    // the robot): the displacements' texture must stay bound beside it, on a unit of its own.
    let dir = scratch("gpu-morph-lit");
    let surprised = ["--morph", "Head_4:Surprised=1"];
    let Some(cpu) = face_shot(&dir, "cpu", &surprised) else { return };
    let Some(gpu) = face_shot(&dir, "gpu", &[&surprised[..], &["--skinning", "gpu"]].concat()) else {
        return;
    };
    let Some(plain) = face_shot(&dir, "plain", &["--skinning", "gpu"]) else { return };
    let (pixels, most, far) = difference(&cpu, &gpu);
    let (changed, _, _) = difference(&gpu, &plain);
    println!(
        "the surprised face lit: {pixels} pixels differ between CPU and GPU (by at most {most}, {far} by \
         more than 2); {changed} from the plain face"
    );
    assert!(pixels <= 400 * 400 / 1000, "{pixels} pixels differ");
    // The CPU blends on the fast path (`lanes.rs`), whose sums round differently from the shader's
    // (about 1e-7 of the size apart, `tests/lanes.rs`), so a pixel on the edge of a triangle may
    // fall to the triangle beside it, or to the background, and take its colour. Measured: 3 of the
    // 160,000 pixels differ, 1 of them by more than 2 shades (by 40); with the CPU on the readable
    // loops (`blend.rs`: `blend_run` by `Linear`) none differ. Up to 3 such pixels are allowed.
    assert!(far <= 3, "{far} pixels more than 2 shades apart ({most} at most)");
    assert!(changed > 1000, "the GPU's lit face did not take the target: {changed} pixels changed");
}
