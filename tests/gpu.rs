//! GPU skinning (`shaders/skinning.vert`, and `shaders/skinning_dqs.vert` for dual quaternions) held
//! against the CPU's blend (the program's `--dump`, on the fast path of `fast.rs`, by either method):
//! the same numbers for every vertex, to a rounding (1e-5),
//! the same pixels on screen, and still no allocation in a steady frame.
//!
//! These need EGL (Mesa's software renderer will do). Without it they print SKIPPED and pass, unless
//! `SKINNING_REQUIRE_GL` is set, as in CI, where they fail instead.

use common::{Class, Image, run, run_gl, scratch};
use glam::Vec3;
use serde_json::Value;
use skinning::camera::framing_model;
use skinning_method::frame::Pose;

/// How far a GPU-skinned coordinate may be from the CPU's. Both compute in f32; only the order of
/// the additions may differ.
const TOLERANCE: f64 = 1e-5;

fn read_json(path: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

fn xyz(v: &Value) -> [f64; 3] {
    let a = v.as_array().expect("[x, y, z]");
    assert_eq!(a.len(), 3);
    [0, 1, 2].map(|i| a[i].as_f64().expect("a number"))
}

#[test]
fn gpu_blend_equals_cpu_blend_for_every_vertex_of_every_clip() {
    let dir = scratch("gpu-dump");
    for (clip, method) in ["seed", "bend", "twist"].into_iter().flat_map(|c| [(c, "lbs"), (c, "dqs")]) {
        // Eight poses, 0.37 s apart, starting off the bind pose: open, curled, twisted, coming back.
        let poses =
            ["--clip", clip, "--frames", "8", "--fixed-dt", "0.37", "--time", "0.1", "--method", method];
        let cpu_path = dir.join(format!("{clip}-{method}-cpu.json"));
        let gpu_path = dir.join(format!("{clip}-{method}-gpu.json"));
        let cpu_run = run(&[&["--dump", cpu_path.to_str().unwrap()][..], &poses].concat());
        assert!(cpu_run.status.success(), "{}", String::from_utf8_lossy(&cpu_run.stderr));
        let gpu_args = [&["--dump", gpu_path.to_str().unwrap(), "--skinning", "gpu"][..], &poses].concat();
        if run_gl(&gpu_args).is_none() {
            return;
        }
        let (cpu, gpu) = (read_json(&cpu_path), read_json(&gpu_path));
        assert_eq!((cpu["skinning"].as_str(), gpu["skinning"].as_str()), (Some("cpu"), Some("gpu")));
        assert_eq!((cpu["method"].as_str(), gpu["method"].as_str()), (Some(method), Some(method)));
        // Everything but the blend is the CPU's in both dumps, so it matches exactly.
        for key in ["clip", "method", "bones", "vertices"] {
            assert_eq!(cpu[key], gpu[key], "{clip}: {key}");
        }
        let (cpu_frames, gpu_frames) = (cpu["frames"].as_array().unwrap(), gpu["frames"].as_array().unwrap());
        assert_eq!((cpu_frames.len(), gpu_frames.len()), (8, 8));
        let binds: Vec<[f64; 3]> =
            cpu["vertices"].as_array().unwrap().iter().map(|v| xyz(&v["bind"])).collect();

        let (mut largest, mut moved) = (0.0f64, 0.0f64);
        for (f, (c, g)) in cpu_frames.iter().zip(gpu_frames).enumerate() {
            for key in ["time", "local", "world", "palette", "dq_palette", "dq_scale"] {
                assert_eq!(c[key], g[key], "{clip} frame {f}: {key}");
            }
            let (cs, gs) = (c["skinned"].as_array().unwrap(), g["skinned"].as_array().unwrap());
            assert_eq!((cs.len(), gs.len()), (binds.len(), binds.len()), "{clip} frame {f}");
            for (v, ((c, g), bind)) in cs.iter().zip(gs).zip(&binds).enumerate() {
                let (c, g) = (xyz(c), xyz(g));
                for axis in 0..3 {
                    let difference = (c[axis] - g[axis]).abs();
                    assert!(
                        difference <= TOLERANCE,
                        "{clip} frame {f} vertex {v}: CPU {c:?}, GPU {g:?} ({difference:e} apart)"
                    );
                    largest = largest.max(difference);
                    moved = moved.max((c[axis] - bind[axis]).abs());
                }
            }
        }
        // Poses that never leave the bind pose would prove nothing.
        assert!(moved > 0.05, "{clip}: the skin hardly moved ({moved})");
        println!(
            "{clip} {method}: largest CPU/GPU difference {largest:e} over 8 poses x {} vertices",
            binds.len()
        );
    }
}

#[test]
fn gpu_layer_covers_exactly_the_pixels_of_the_cpu_layer() {
    let dir = scratch("gpu-pixels");
    // `bend` at 1.3 s: the arm curled well away from its bind pose.
    let (clip, time, (w, h)) = ("bend", 1.3, (640u32, 480u32));
    let shot = |skinning: &str| {
        let path = dir.join(format!("{skinning}.png"));
        // No words: the corner line names the skinning ("cpu", "gpu"), and the pictures must match.
        let args = [
            "--headless",
            "--frames",
            "1",
            "--clip",
            clip,
            "--time",
            "1.3",
            "--size",
            "640x480",
            "--no-text",
        ];
        let extra = ["--skinning", skinning, "--screenshot", path.to_str().unwrap()];
        run_gl(&[&args[..], &extra].concat()).map(|_| Image::load(&path))
    };
    let Some(cpu) = shot("cpu") else { return };
    let Some(both) = shot("both") else { return };
    let Some(gpu) = shot("gpu") else { return };

    // The pose is far from the bind pose, so the comparison is about the blend, not the bind mesh.
    let model = skinning_method::scene::article().expect("the article's scene");
    let clips = skinning_method::scene::clips().expect("the article's clips");
    let mut pose = Pose::new(&model);
    pose.update(&model, clips.iter().find(|c| c.name == clip).unwrap(), time);
    let moved =
        pose.skinned.iter().zip(model.skin.bind_positions()).map(|(s, b)| (Vec3::from(*s) - b).length());
    assert!(moved.fold(0.0, f32::max) > 0.1, "the pose should differ from the bind pose");

    // Every skinned vertex shows in the GPU's colour where the camera puts it.
    let camera = framing_model(&model, &clips);
    for (v, p) in pose.skinned.iter().enumerate() {
        let at = camera.project(Vec3::from(*p), w, h);
        assert!(both.has_near(at.x, at.y, 2, Class::Magenta), "no GPU-skinned vertex {v} at {at}");
    }

    // Pixel for pixel: where the CPU run has red, the both run has magenta, and no red is left.
    // Exactly, with no tolerance: Mesa's software renderer, which --headless picks, computes the same
    // floats as glam. (A shader off by 2e-5 moves 8 pixels here. A driver that fuses multiply-adds
    // could move a few edge pixels; that is where a tolerance would go.)
    let class_at = |image: &Image, i: usize| {
        let p = &image.rgba[i * 4..i * 4 + 3];
        common::classify([p[0], p[1], p[2]])
    };
    let pixels = (w * h) as usize;
    let red_in_cpu = (0..pixels).filter(|&i| class_at(&cpu, i) == Some(Class::Red)).count();
    let mismatched = (0..pixels)
        .filter(|&i| (class_at(&cpu, i) == Some(Class::Red)) != (class_at(&both, i) == Some(Class::Magenta)))
        .count();
    println!(
        "cpu run: {red_in_cpu} red pixels; both run: {} magenta, {} red; {mismatched} pixels differ",
        both.count(Class::Magenta),
        both.count(Class::Red)
    );
    assert!(red_in_cpu > 500, "the CPU layer should be drawn ({red_in_cpu} red pixels)");
    assert_eq!(both.count(Class::Red), 0, "CPU-red pixels left uncovered by the GPU layer");
    assert_eq!(mismatched, 0, "the GPU layer should cover exactly the CPU layer's pixels");
    // And the GPU alone draws the CPU's picture.
    assert!(gpu.rgba == cpu.rgba, "--skinning gpu should draw the same image as --skinning cpu");
}

#[test]
fn a_steady_frame_allocates_nothing_with_gpu_skinning() {
    for (skinning, method) in ["gpu", "both"].into_iter().flat_map(|s| [(s, "lbs"), (s, "dqs"), (s, "both")])
    {
        let args = [
            "--headless",
            "--skinning",
            skinning,
            "--method",
            method,
            "--clip",
            "twist",
            "--frames",
            "200",
            "--fixed-dt",
            "0.016",
            "--size",
            "160x120",
            "--stats",
        ];
        let Some(out) = run_gl(&args) else { return };
        let stdout = String::from_utf8_lossy(&out.stdout);
        let line = stdout.lines().find(|l| l.starts_with("stats:")).expect("a stats line");
        let count = line
            .split(", ")
            .find_map(|part| part.strip_suffix(" allocations drawing frames 4..200"))
            .unwrap_or_else(|| panic!("no allocation count in {line:?}"));
        assert_eq!(count, "0", "--skinning {skinning} --method {method}: {line}");
    }
}

#[test]
fn a_dump_holds_one_blend_so_both_is_refused() {
    let out = run(&["--dump", "unused.json", "--skinning", "both"]);
    assert_eq!(out.status.code(), Some(2));
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(message.contains("--skinning cpu or gpu"), "{message}");
}

/// The skinned positions and normals of every frame of a dump: (frame, vertex) -> [x, y, z].
fn frames_of(dump: &Value, key: &str) -> Vec<Vec<[f64; 3]>> {
    let frames = dump["frames"].as_array().expect("frames");
    frames.iter().map(|f| f[key].as_array().map_or(vec![], |a| a.iter().map(xyz).collect())).collect()
}

#[test]
fn gpu_normals_equal_cpu_normals_on_the_robot_and_a_non_uniformly_scaled_model() {
    let dir = scratch("gpu-normals");
    let stretched = dir.join("stretched.gltf");
    std::fs::write(&stretched, common::fixture::build_with_normals().embedded()).expect("written");
    let mut models = vec![("stretched fixture", stretched, "0")];
    if let Some(robot) = common::sample_model("RobotExpressive.glb") {
        // Walking: every limb turns.
        models.push(("robot", robot, "Walking"));
    }
    for (name, model, animation) in models {
        let poses = [
            "--model",
            model.to_str().unwrap(),
            "--animation",
            animation,
            "--frames",
            "6",
            "--fixed-dt",
            "0.3",
        ];
        let (cpu_path, gpu_path) =
            (dir.join(format!("{name}-cpu.json")), dir.join(format!("{name}-gpu.json")));
        let cpu_run = run(&[&poses[..], &["--dump", cpu_path.to_str().unwrap()]].concat());
        assert!(cpu_run.status.success(), "{}", String::from_utf8_lossy(&cpu_run.stderr));
        let gpu_args = [&poses[..], &["--dump", gpu_path.to_str().unwrap(), "--skinning", "gpu"]].concat();
        if run_gl(&gpu_args).is_none() {
            return;
        }
        let (cpu, gpu) = (read_json(&cpu_path), read_json(&gpu_path));
        let mut largest = 0.0f64;
        let mut count = 0;
        for key in ["normals", "rigid_normals"] {
            let (c, g) = (frames_of(&cpu, key), frames_of(&gpu, key));
            assert_eq!(c.len(), g.len());
            for (f, (c, g)) in c.iter().zip(&g).enumerate() {
                assert_eq!(c.len(), g.len(), "{name} frame {f}: {key}");
                for (v, (c, g)) in c.iter().zip(g).enumerate() {
                    let difference = (0..3).map(|a| (c[a] - g[a]).abs()).fold(0.0, f64::max);
                    assert!(difference <= TOLERANCE, "{name} frame {f} {key} {v}: CPU {c:?}, GPU {g:?}");
                    largest = largest.max(difference);
                    count += 1;
                }
            }
        }
        let vertices = cpu["vertices"].as_array().unwrap().len();
        assert_eq!(count, 6 * vertices, "{name}: every vertex has a normal in every frame");
        println!("{name}: largest CPU/GPU normal difference {largest:e} over 6 poses x {vertices} vertices");
    }
}
