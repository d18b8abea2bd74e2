//! Reaching through the program: the dump of a solve checked from the file alone (the learner's
//! check of chapter 12), the GPU's blend of a solved pose against the CPU's, and one line for each
//! mistake in the reaching flags.
//!
//! The dump's check uses nothing of the library: each frame's `"local"` matrices and each bone's
//! `"parent"` give the world transforms, in `f64`; a dump of the same frames without `--reach`
//! gives the bone lengths the solve had to keep.

use common::{run, run_gl, sample_model, scratch};
use serde_json::Value;
use std::path::Path;

type Matrix = [f64; 16];

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array().expect("an array").iter().map(|x| x.as_f64().expect("a number")).collect()
}

fn matrix(v: &Value) -> Matrix {
    numbers(v).try_into().expect("16 numbers")
}

/// `a * b`, both column-major.
fn mul(a: &Matrix, b: &Matrix) -> Matrix {
    let mut m = [0.0; 16];
    for col in 0..4 {
        for row in 0..4 {
            m[col * 4 + row] = (0..4).map(|k| a[k * 4 + row] * b[col * 4 + k]).sum();
        }
    }
    m
}

fn point(m: &Matrix) -> [f64; 3] {
    [m[12], m[13], m[14]]
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    dot(sub(a, b), sub(a, b)).sqrt()
}

/// Every bone's world transform in `frame`, from its `"local"` matrices and the bones' parents.
fn worlds(dump: &Value, frame: &Value) -> Vec<Matrix> {
    let bones = dump["bones"].as_array().expect("bones");
    let local: Vec<Matrix> = frame["local"].as_array().expect("local").iter().map(matrix).collect();
    fn world(b: usize, bones: &[Value], local: &[Matrix], done: &mut [Option<Matrix>]) -> Matrix {
        if let Some(m) = done[b] {
            return m;
        }
        let m = match bones[b]["parent"].as_u64() {
            Some(p) => mul(&world(p as usize, bones, local, done), &local[b]),
            None => local[b],
        };
        done[b] = Some(m);
        m
    }
    let mut done = vec![None; bones.len()];
    (0..bones.len()).map(|b| world(b, bones, &local, &mut done)).collect()
}

fn dump(dir: &Path, name: &str, args: &[&str]) -> Value {
    let path = dir.join(format!("{name}.json"));
    let out = run(&[args, &["--dump", path.to_str().expect("utf-8")]].concat());
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("JSON")
}

/// The worst of each check over every chain of every frame, as fractions of the chain's length.
#[derive(Debug, Default)]
struct Worst {
    reached: f64,
    lengths: f64,
    plane: f64,
    rotations: f64,
    chains: usize,
}

/// Checks the solve of every frame of `reaching` from the file alone, against `plain`, the same
/// frames without `--reach`.
fn check_from_the_file(plain: &Value, reaching: &Value) -> Worst {
    let mut worst = Worst::default();
    let frames = reaching["frames"].as_array().expect("frames");
    for (frame, before) in frames.iter().zip(plain["frames"].as_array().expect("frames")) {
        let (after, clip) = (worlds(reaching, frame), worlds(plain, before));
        let mut turned = vec![false; after.len()];
        for chain in frame["reach"].as_array().expect("each frame says how it reached") {
            let bones: Vec<usize> = numbers(&chain["bones"]).iter().map(|&b| b as usize).collect();
            let target: [f64; 3] = numbers(&chain["target"]).try_into().expect("x, y, z");
            let length: f64 =
                bones.windows(2).map(|p| distance(point(&clip[p[0]]), point(&clip[p[1]]))).sum();
            let end = point(&after[bones[bones.len() - 1]]);
            worst.reached = worst.reached.max(distance(end, target) / length);
            let said = chain["distance"].as_f64().expect("a distance");
            assert!(
                (said - distance(end, target)).abs() <= 1e-6 * length,
                "the dump's distance is not the end's"
            );
            for pair in bones.windows(2) {
                let (was, is) = (
                    distance(point(&clip[pair[0]]), point(&clip[pair[1]])),
                    distance(point(&after[pair[0]]), point(&after[pair[1]])),
                );
                worst.lengths = worst.lengths.max((was - is).abs() / length);
            }
            if let Some(pole) = chain.get("pole").filter(|p| !p.is_null()) {
                let pole: [f64; 3] = numbers(pole).try_into().expect("x, y, z");
                let (start, middle) = (point(&after[bones[0]]), point(&after[bones[1]]));
                let normal = cross(sub(target, start), sub(pole, start));
                let off = dot(sub(middle, start), normal).abs() / dot(normal, normal).sqrt();
                worst.plane = worst.plane.max(off / length);
            }
            // Each solved rotation, as a matrix, is the local matrix's with its scale taken out.
            let local = frame["local"].as_array().expect("local");
            for (&bone, q) in bones.iter().zip(chain["rotations"].as_array().expect("rotations")) {
                let [x, y, z, w]: [f64; 4] = numbers(q).try_into().expect("x, y, z, w");
                let turned_by_q = [
                    [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + z * w), 2.0 * (x * z - y * w)],
                    [2.0 * (x * y - z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + x * w)],
                    [2.0 * (x * z + y * w), 2.0 * (y * z - x * w), 1.0 - 2.0 * (x * x + y * y)],
                ];
                let m = matrix(&local[bone]);
                for (col, expected) in turned_by_q.iter().enumerate() {
                    let column = [m[col * 4], m[col * 4 + 1], m[col * 4 + 2]];
                    let scale = dot(column, column).sqrt();
                    for row in 0..3 {
                        worst.rotations = worst.rotations.max((column[row] / scale - expected[row]).abs());
                    }
                }
                turned[bone] = true;
            }
            worst.chains += 1;
        }
        // Every bone no chain turns keeps the clip's local transform, bit for bit.
        for (bone, (a, b)) in
            frame["local"].as_array().unwrap().iter().zip(before["local"].as_array().unwrap()).enumerate()
        {
            if !turned[bone] {
                assert_eq!(a, b, "bone {bone} is in no chain, yet its local transform changed");
            }
        }
    }
    worst
}

fn assert_solved(name: &str, worst: &Worst, chains: usize) {
    println!("{name}: {worst:?}");
    assert_eq!(worst.chains, chains, "{name}: every frame holds every chain");
    assert!(worst.reached <= 1e-5, "{name}: the end is {} of the chain from its target", worst.reached);
    assert!(worst.lengths <= 1e-6, "{name}: a bone's length changed by {} of the chain", worst.lengths);
    assert!(
        worst.plane <= 1e-5,
        "{name}: the middle joint is {} of the chain off the pole's plane",
        worst.plane
    );
    assert!(worst.rotations <= 1e-5, "{name}: a rotation is not its local matrix's ({})", worst.rotations);
}

#[test]
fn the_articles_solve_can_be_checked_from_the_dump_alone() {
    let dir = scratch("reach-dump");
    let frames = ["--clip", "bend", "--time", "0.2", "--frames", "6", "--fixed-dt", "0.6"];
    let plain = dump(&dir, "plain", &frames);
    let reach = ["--reach", "bone31=0.3,0.25,0.05", "--pole", "0.3,0,0.4"];
    let reaching = dump(&dir, "reaching", &[&frames[..], &reach].concat());
    assert_solved("article", &check_from_the_file(&plain, &reaching), 6);
    // CCD on three bones: root turns too.
    let ccd =
        dump(&dir, "ccd", &[&frames[..], &["--reach", "bone31=0.3,0.25,0.05", "--chain", "3"]].concat());
    let worst = check_from_the_file(&plain, &ccd);
    assert!(worst.reached <= 1e-5 && worst.lengths <= 1e-6, "article, CCD: {worst:?}");
    assert_eq!(ccd["frames"][0]["reach"][0]["solver"], "ccd");
    assert_eq!(ccd["frames"][0]["reach"][0]["bones"], serde_json::json!([0, 1, 2, 3]));
}

/// `--reach END=X,Y,Z` for `end` of `model`, its target `offset` (a fraction of the model's size
/// along x, y, z) from where the clip has the end at the first frame of `plain`.
fn target_near(plain: &Value, end: &str, offset: [f64; 3]) -> String {
    let bones = plain["bones"].as_array().expect("bones");
    let index = bones.iter().position(|b| b["name"] == end).expect("the end bone");
    let world = worlds(plain, &plain["frames"][0]);
    let size = world.iter().map(|m| distance(point(m), point(&world[0]))).fold(0.0, f64::max);
    let at = point(&world[index]);
    format!("{end}={},{},{}", at[0] + offset[0] * size, at[1] + offset[1] * size, at[2] + offset[2] * size)
}

#[test]
fn the_foxs_legs_and_the_robots_arms_solve_in_the_dump_and_check_from_it() {
    let dir = scratch("reach-dump-models");
    let rigs = [
        ("Fox.glb", "Walk", ["b_LeftFoot01_017", "b_RightFoot01_021"], [0.05, 0.08, 0.02]),
        ("RobotExpressive.glb", "Walking", ["Palm2R", "Palm2L"], [0.02, 0.1, 0.05]),
    ];
    for (file, animation, ends, offset) in rigs {
        let Some(model) = sample_model(file) else { return };
        let model = model.to_str().expect("utf-8").to_string();
        let frames = ["--model", &model, "--animation", animation, "--frames", "5", "--fixed-dt", "0.13"];
        let plain = dump(&dir, &format!("{file}-plain"), &frames);
        let reach: Vec<String> =
            ends.iter().flat_map(|end| ["--reach".to_string(), target_near(&plain, end, offset)]).collect();
        let reach: Vec<&str> = reach.iter().map(String::as_str).collect();
        let reaching = dump(&dir, &format!("{file}-reaching"), &[&frames[..], &reach].concat());
        assert_solved(file, &check_from_the_file(&plain, &reaching), 10);
    }
}

#[test]
fn the_gpu_skins_a_solved_pose_as_the_cpu_does() {
    let dir = scratch("reach-gpu");
    let article = ["--clip", "bend", "--frames", "4", "--fixed-dt", "0.7", "--reach", "bone31=0.3,0.25,0.05"];
    let mut cases = Vec::new();
    for method in ["lbs", "dqs"] {
        let args = [&article[..], &["--method", method]].concat();
        cases.push((format!("article {method}"), args.iter().map(|s| s.to_string()).collect::<Vec<_>>()));
    }
    if let Some(robot) = sample_model("RobotExpressive.glb") {
        let frames = ["--model", robot.to_str().expect("utf-8"), "--animation", "Walking", "--frames", "3"];
        let plain = dump(&dir, "robot-plain", &frames);
        let mut args: Vec<String> = frames.iter().map(|s| s.to_string()).collect();
        args.extend(["--reach".to_string(), target_near(&plain, "Palm2R", [0.02, 0.1, 0.05])]);
        cases.push(("robot".to_string(), args));
    }
    for (name, args) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let cpu = dump(&dir, &format!("{name}-cpu"), &args);
        let gpu_path = dir.join(format!("{name}-gpu.json"));
        if run_gl(&[&args[..], &["--skinning", "gpu", "--dump", gpu_path.to_str().expect("utf-8")]].concat())
            .is_none()
        {
            return;
        }
        let gpu: Value =
            serde_json::from_str(&std::fs::read_to_string(&gpu_path).expect("written")).expect("JSON");
        let mut largest = 0.0f64;
        for (c, g) in cpu["frames"].as_array().unwrap().iter().zip(gpu["frames"].as_array().unwrap()) {
            // The pose is the CPU's in both, solve included: equal to the last bit.
            assert_eq!(
                (&c["local"], &c["reach"]),
                (&g["local"], &g["reach"]),
                "{name}: the solved pose differs"
            );
            for key in ["skinned", "rigid"] {
                let (cs, gs) =
                    (c[key].as_array().map_or(&[][..], |a| a), g[key].as_array().map_or(&[][..], |a| a));
                assert_eq!(cs.len(), gs.len());
                for (a, b) in cs.iter().zip(gs) {
                    let (a, b) = (numbers(a), numbers(b));
                    largest = (0..3).map(|i| (a[i] - b[i]).abs()).fold(largest, f64::max);
                }
            }
        }
        println!("{name}: largest CPU/GPU difference on a solved pose {largest:e}");
        // As in tests/gpu.rs: both blend in f32, only the order of the additions may differ.
        assert!(largest <= 1e-5, "{name}: GPU and CPU differ by {largest}");
    }
}

#[test]
fn each_mistake_in_the_reaching_flags_is_one_line_and_exit_2() {
    let cases: [(&[&str], &str); 6] = [
        (
            &["--reach", "bone1=0,0.2,0"],
            "--reach \"bone1\": the two-bone solver turns the end's parent and grandparent",
        ),
        (
            &["--reach", "claw=0,0.2,0"],
            "unknown bone \"claw\" for --reach: choose one of root, bone1, bone2, bone31, bone32",
        ),
        (&["--reach", "bone31=0,0.2"], "--reach wants END=X,Y,Z"),
        (&["--reach", "bone31=0,0.2,0", "--reach-weight", "2"], "--reach-weight wants a weight from 0 to 1"),
        (
            &["--reach", "bone31=0,0.2,0", "--chain", "5"],
            "--reach \"bone31\" with --chain 5: it has 3 bones above it (bone2, bone1, root), so --chain may be 1 to 3",
        ),
        (&["--pole", "0,1,0"], "--pole steers the --reach before it"),
    ];
    let dir = scratch("reach-mistakes");
    let path = dir.join("never.json");
    for (args, expected) in cases {
        let out = run(&[args, &["--dump", path.to_str().expect("utf-8")]].concat());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!path.exists(), "{args:?}: a dump was written anyway");
    }
}
