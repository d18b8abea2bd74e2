//! `--method` from the outside: the dump records which method blended and holds the dual-quaternion
//! palette (every DQS position recomputed here from the file alone), the twist's radius and the
//! bend's thickness measured from the dump (chapter 7 quotes both), and the two methods drawn side
//! by side in their colours.

use common::quaternion::{conjugate, hamilton};
use common::{Class, Image, run, run_gl, scratch};
use glam::Vec3;
use serde_json::Value;
use skinning::camera::framing_model;
use skinning_method::frame::{Frame, Pose};
use skinning_method::lbs_or_dqs::{ByMethod, Method, Reference};

fn dump(dir: &std::path::Path, name: &str, args: &[&str]) -> Value {
    let path = dir.join(name);
    let out = run(&[&["--dump", path.to_str().expect("utf-8 temp path")][..], args].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_str(&std::fs::read_to_string(&path).expect("dump written")).expect("valid JSON")
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array().expect("array").iter().map(|x| x.as_f64().expect("number")).collect()
}

#[test]
fn the_dump_says_which_method_blended_and_dqs_can_be_redone_from_it() {
    let dir = scratch("dqs-dump");
    let poses = ["--clip", "twist", "--frames", "6", "--fixed-dt", "0.4", "--time", "0.3"];
    let lbs = dump(&dir, "lbs.json", &poses);
    assert_eq!((lbs["skinning"].as_str(), lbs["method"].as_str()), (Some("cpu"), Some("lbs")));
    assert!(lbs["frames"][0].get("dq_palette").is_none(), "LBS reads no dual quaternions");

    let dqs = dump(&dir, "dqs.json", &[&poses[..], &["--method", "dqs"]].concat());
    assert_eq!((dqs["skinning"].as_str(), dqs["method"].as_str()), (Some("cpu"), Some("dqs")));
    let vertices = dqs["vertices"].as_array().expect("vertices");
    let mut largest_turn = 0.0f64;
    for frame in dqs["frames"].as_array().expect("frames") {
        let palette = frame["palette"].as_array().expect("palette");
        let dq = frame["dq_palette"].as_array().expect("a DQS frame holds its dual quaternions");
        assert_eq!(dq.len(), palette.len(), "one per joint");
        let scale = frame["dq_scale"].as_f64().expect("dq_scale");
        assert!((scale - 1.0).abs() < 1e-6, "the article's joints are not scaled: {scale}");
        let real: Vec<[f64; 4]> = dq.iter().map(|d| numbers(&d["real"]).try_into().expect("xyzw")).collect();
        let dual: Vec<[f64; 4]> = dq.iter().map(|d| numbers(&d["dual"]).try_into().expect("xyzw")).collect();
        // Each dual quaternion's translation, 2 dual real*, is its palette matrix's translation column.
        for (j, m) in palette.iter().enumerate() {
            let m = numbers(m);
            let t = hamilton(dual[j], conjugate(real[j]));
            for axis in 0..3 {
                assert!((2.0 * t[axis] - m[12 + axis]).abs() < 1e-6, "joint {j}: {t:?} vs {m:?}");
            }
            largest_turn = largest_turn.max(real[j][0].abs());
        }
        // Every skinned position, by the formula of dual_quat.rs, from the file's numbers alone.
        for (v, (vertex, skinned)) in vertices.iter().zip(frame["skinned"].as_array().unwrap()).enumerate() {
            let bind = numbers(&vertex["bind"]);
            let influences = vertex["influences"].as_array().expect("influences");
            let first = real[influences[0]["joint"].as_u64().unwrap() as usize];
            let (mut r, mut d) = ([0.0; 4], [0.0; 4]);
            for influence in influences {
                let j = influence["joint"].as_u64().unwrap() as usize;
                let dot: f64 = (0..4).map(|i| real[j][i] * first[i]).sum();
                let w = influence["weight"].as_f64().unwrap() * if dot < 0.0 { -1.0 } else { 1.0 };
                for i in 0..4 {
                    r[i] += w * real[j][i];
                    d[i] += w * dual[j][i];
                }
            }
            let length = r.iter().map(|x| x * x).sum::<f64>().sqrt();
            let (r, d) = (r.map(|x| x / length), d.map(|x| x / length));
            // Rotate: r p r*; translate: 2 d r*.
            let p = [scale * bind[0], scale * bind[1], scale * bind[2], 0.0];
            let rotated = hamilton(hamilton(r, p), conjugate(r));
            let t = hamilton(d, conjugate(r));
            let expected = [0, 1, 2].map(|i| rotated[i] + 2.0 * t[i]);
            let got = numbers(skinned);
            for i in 0..3 {
                assert!((got[i] - expected[i]).abs() < 1e-5, "vertex {v}: {got:?} vs {expected:?}");
            }
        }
    }
    assert!(largest_turn > 0.5, "the frames should twist bone2 well away from the bind pose");
}

#[test]
fn the_twist_radius_at_150_degrees_measured_from_the_dump() {
    // The twist clip holds 150° from 1.5 s to 2.5 s. Vertices 2 and 10 sit 0.05 from the x axis
    // and half on each side of the twisting joint.
    let dir = scratch("dqs-radius");
    let at_150 = ["--clip", "twist", "--time", "2.0"];
    for (method, ratio) in [("lbs", 75f64.to_radians().cos()), ("dqs", 1.0)] {
        let d = dump(&dir, &format!("{method}.json"), &[&at_150[..], &["--method", method]].concat());
        for v in [2, 10] {
            let p = numbers(&d["frames"][0]["skinned"][v]);
            let radius = (p[1] * p[1] + p[2] * p[2]).sqrt();
            println!("{method}: vertex {v} at {radius:.6} from the axis, {:.6} of 0.05", radius / 0.05);
            assert!((radius / 0.05 - ratio).abs() < 1e-5, "{method} vertex {v}: {radius}");
        }
    }
}

/// The distance from `p` to the segment from `a` to `b`.
fn to_segment(p: Vec3, a: Vec3, b: Vec3) -> f32 {
    let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
    p.distance(a + t * (b - a))
}

#[test]
fn the_bend_at_its_strongest_measured_from_the_dump() {
    // Chapter 7's figures: at 2 s the bend clip has bone1 at 30° and bone2 at 40°. The arm is 0.10
    // thick at vertices 2 and 10 in the bind pose; vertex 10, on the outside, 0.05 from bone1.
    let dir = scratch("dqs-bend");
    let at_top = ["--clip", "bend", "--time", "2"];
    for (method, thick, outside) in [("lbs", 0.094, 0.076), ("dqs", 0.100, 0.081)] {
        let d = dump(&dir, &format!("{method}.json"), &[&at_top[..], &["--method", method]].concat());
        let frame = &d["frames"][0];
        let point = |xyz: &[f64]| Vec3::new(xyz[0] as f32, xyz[1] as f32, xyz[2] as f32);
        let (v2, v10) = (point(&numbers(&frame["skinned"][2])), point(&numbers(&frame["skinned"][10])));
        // Each bone as the picture draws it: a segment from its parent's joint to its own, the
        // joint being the translation column of the bone's world matrix.
        let world = frame["world"].as_array().expect("world");
        let joints: Vec<Vec3> = world.iter().map(|m| point(&numbers(m)[12..15])).collect();
        let nearest = d["bones"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .filter_map(|(b, bone)| {
                bone["parent"].as_u64().map(|p| to_segment(v10, joints[p as usize], joints[b]))
            })
            .fold(f32::INFINITY, f32::min);
        let thickness = v2.distance(v10);
        println!(
            "{method}: the arm {thickness:.3} thick at vertices 2 and 10, vertex 10 {nearest:.3} from the nearest bone"
        );
        assert!((thickness - thick).abs() < 5e-4, "{method}: {thickness} thick");
        assert!((nearest - outside).abs() < 5e-4, "{method}: vertex 10 {nearest} from its bones");
    }
}

#[test]
fn a_dump_holds_one_method_so_both_is_refused() {
    let out = run(&["--dump", "unused.json", "--method", "both"]);
    assert_eq!(out.status.code(), Some(2));
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(message.contains("--method lbs or dqs") && message.lines().count() == 1, "{message}");
}

#[test]
fn compare_mode_draws_lbs_in_red_and_dqs_in_orange() {
    let dir = scratch("dqs-pixels");
    let (w, h) = (640u32, 480u32);
    let shot = |method: &str, skinning: &str| {
        let path = dir.join(format!("{method}-{skinning}.png"));
        // No words: the corner line names the method and the skinning, and the pictures must match.
        let args = [
            "--headless",
            "--frames",
            "1",
            "--clip",
            "twist",
            "--time",
            "2.0",
            "--size",
            "640x480",
            "--no-text",
        ];
        let extra = ["--method", method, "--skinning", skinning, "--screenshot", path.to_str().unwrap()];
        run_gl(&[&args[..], &extra].concat()).map(|_| Image::load(&path))
    };
    let Some(both) = shot("both", "cpu") else { return };
    let Some(dqs) = shot("dqs", "cpu") else { return };
    let Some(dqs_gpu) = shot("dqs", "gpu") else { return };
    let Some(both_gpu) = shot("both", "both") else { return };

    let model = skinning_method::scene::article().expect("the article's scene");
    let clips = skinning_method::scene::clips().expect("the article's clips");
    let camera = framing_model(&model, &clips);
    let positions = |method| {
        let mut pose = Pose::new(&model);
        pose.run(
            &model,
            Frame { blending: ByMethod::new(method, Reference).ending(), ..Frame::new(&clips[2], 2.0) },
        )
        .expect("rigid");
        pose.skinned.iter().map(|p| camera.project(Vec3::from(*p), w, h)).collect::<Vec<_>>()
    };
    let (lbs_at, dqs_at) = (positions(Method::Lbs), positions(Method::Dqs));
    // Every DQS vertex shows orange; LBS's pinched vertices 2 and 10, where the two differ, red.
    for (v, at) in dqs_at.iter().enumerate() {
        assert!(both.has_near(at.x, at.y, 2, Class::Orange), "no orange DQS vertex {v} at {at}");
        assert!(dqs.has_near(at.x, at.y, 2, Class::Orange), "--method dqs: no vertex {v} at {at}");
    }
    for v in [2, 10] {
        let at = lbs_at[v];
        assert!(both.has_near(at.x, at.y, 1, Class::Red), "no red LBS vertex {v} at {at}");
    }
    assert_eq!(dqs.count(Class::Red), 0, "--method dqs alone draws no LBS");
    // The GPU's DQS draws the CPU's picture, to a shade: the CPU blends on the fast path
    // (`lanes.rs`), whose sums round differently from the shader's, about 1e-7 of the size apart
    // (`tests/lanes.rs`), which shades the edge of a line one step differently here and there.
    // Measured: 9 pixels of 307,200 differ, each by 1 shade (with the readable loop, `blend.rs` with
    // `dual_quat::DualQuats`, on the CPU, none did). Up to 15 are allowed.
    let shades = dqs_gpu.rgba.iter().zip(&dqs.rgba).map(|(a, b)| a.abs_diff(*b)).max().unwrap_or(0);
    let pixels = dqs_gpu.rgba.chunks_exact(4).zip(dqs.rgba.chunks_exact(4)).filter(|(a, b)| a != b).count();
    println!("--method dqs: the GPU's picture is {pixels} pixels, {shades} shades from the CPU's");
    assert!(
        shades <= 1 && pixels <= 15,
        "--method dqs: the GPU's picture is {pixels} pixels, {shades} shades off"
    );
    // Over both methods on the CPU, the GPU's leaves no red or orange.
    assert!(both_gpu.count(Class::Magenta) > 500);
    assert_eq!((both_gpu.count(Class::Red), both_gpu.count(Class::Orange)), (0, 0), "GPU and CPU disagree");
}
