//! Many clips at once through the program (chapter 11): the blend redone from a `--dump` file alone,
//! three.js's mixer as a second opinion on a two-clip blend and an additive layer, the GPU's skin
//! of a blended pose against the CPU's, and one line for each mistake in the flags.

use common::quaternion::{conjugate, hamilton};
use common::three::{dump_parts, dump_positions, size, three, three_part, three_positions};
use common::{run, run_gl, sample_model, scratch};
use serde_json::{Value, json};

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array().expect("an array").iter().map(|x| x.as_f64().expect("a number")).collect()
}

fn dump(args: &[&str]) -> Value {
    let out = run(&[args, &["--dump", "-"]].concat());
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("the dump is JSON")
}

/// A local pose as the dump writes it, in f64.
#[derive(Clone, Copy, Debug)]
struct Local {
    t: [f64; 3],
    r: [f64; 4],
    s: [f64; 3],
}

fn poses(v: &Value) -> Vec<Local> {
    let array = |v: &Value, key: &str| numbers(&v[key]);
    (v.as_array().expect("poses").iter())
        .map(|p| {
            let (t, r, s) = (array(p, "translation"), array(p, "rotation"), array(p, "scale"));
            Local { t: [t[0], t[1], t[2]], r: [r[0], r[1], r[2], r[3]], s: [s[0], s[1], s[2]] }
        })
        .collect()
}

fn dot(a: [f64; 4], b: [f64; 4]) -> f64 {
    (0..4).map(|i| a[i] * b[i]).sum()
}

/// Slerp from its definition, `b` first turned into `a`'s hemisphere.
fn slerp(a: [f64; 4], b: [f64; 4], s: f64) -> [f64; 4] {
    let (mut b, mut d) = (b, dot(a, b));
    if d < 0.0 {
        (b, d) = (b.map(|x| -x), -d);
    }
    let theta = d.min(1.0).acos();
    let (p, q) = match theta < 1e-9 {
        true => (1.0 - s, s),
        false => (((1.0 - s) * theta).sin() / theta.sin(), (s * theta).sin() / theta.sin()),
    };
    let r: [f64; 4] = std::array::from_fn(|i| p * a[i] + q * b[i]);
    let n = dot(r, r).sqrt();
    r.map(|x| x / n)
}

fn lerp3(a: [f64; 3], b: [f64; 3], s: f64) -> [f64; 3] {
    std::array::from_fn(|i| a[i] + (b[i] - a[i]) * s)
}

/// The blend of one frame, redone from the frame's layers and the dump's bone tree alone: the
/// blend layers folded in (each next one pulled in by w / (sum so far)), each masked layer over
/// its bone's subtree (found by the first_child and sibling links), each additive layer's change
/// from its reference pose added.
fn redo(frame: &Value, bones: &[Value]) -> Vec<Local> {
    let layers = frame["layers"].as_array().expect("layers");
    let rest: Vec<Local> = (bones.iter())
        .map(|b| {
            let m = numbers(&b["rest_local"]);
            // The tests' models rest in translation and rotation only; the blend will overwrite them.
            Local { t: [m[12], m[13], m[14]], r: [0.0, 0.0, 0.0, 1.0], s: [1.0; 3] }
        })
        .collect();
    let mut out = rest;
    let mut total = 0.0;
    for layer in layers.iter().filter(|l| l["kind"] == "blend") {
        let w = layer["weight"].as_f64().unwrap();
        if w <= 0.0 {
            continue;
        }
        let s = w / (total + w);
        total += w;
        for (o, p) in out.iter_mut().zip(poses(&layer["pose"])) {
            *o = Local { t: lerp3(o.t, p.t, s), r: slerp(o.r, p.r, s), s: lerp3(o.s, p.s, s) };
        }
    }
    for layer in layers {
        let (w, pose) = (layer["weight"].as_f64().unwrap(), poses(&layer["pose"]));
        if layer["kind"] == "mask" {
            let mut inside = vec![false; bones.len()];
            let root = layer["bone"].as_u64().unwrap() as usize;
            inside[root] = true;
            let mut stack: Vec<usize> =
                bones[root]["first_child"].as_u64().map(|c| c as usize).into_iter().collect();
            while let Some(b) = stack.pop() {
                inside[b] = true;
                stack.extend(
                    ["first_child", "sibling"]
                        .iter()
                        .filter_map(|k| bones[b][*k].as_u64())
                        .map(|c| c as usize),
                );
            }
            for ((o, p), _) in out.iter_mut().zip(&pose).zip(&inside).filter(|(_, inside)| **inside) {
                *o = Local { t: lerp3(o.t, p.t, w), r: slerp(o.r, p.r, w), s: lerp3(o.s, p.s, w) };
            }
        } else if layer["kind"] == "additive" {
            let reference = poses(&layer["reference"]);
            for ((o, p), r) in out.iter_mut().zip(&pose).zip(&reference) {
                let turn = slerp([0.0, 0.0, 0.0, 1.0], hamilton(conjugate(r.r), p.r), w);
                let t = std::array::from_fn(|i| o.t[i] + w * (p.t[i] - r.t[i]));
                let s = std::array::from_fn(|i| o.s[i] * (1.0 + w * (p.s[i] / r.s[i] - 1.0)));
                *o = Local { t, r: hamilton(o.r, turn), s };
            }
        }
    }
    out
}

/// `T * R * S` as 16 numbers, column by column, from the textbook rotation matrix of a quaternion.
fn matrix(l: &Local) -> [f64; 16] {
    let [x, y, z, w] = l.r;
    let r = [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + z * w), 2.0 * (x * z - y * w)],
        [2.0 * (x * y - z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + x * w)],
        [2.0 * (x * z + y * w), 2.0 * (y * z - x * w), 1.0 - 2.0 * (x * x + y * y)],
    ];
    let mut m = [0.0; 16];
    for col in 0..3 {
        for row in 0..3 {
            m[4 * col + row] = r[col][row] * l.s[col];
        }
    }
    m[12..15].copy_from_slice(&l.t);
    m[15] = 1.0;
    m
}

fn check_frames(what: &str, dump: &Value) -> usize {
    let bones = dump["bones"].as_array().expect("bones");
    let mut checked = 0;
    for (f, frame) in dump["frames"].as_array().expect("frames").iter().enumerate() {
        let (ours, written) = (redo(frame, bones), poses(&frame["trs"]));
        for (bone, (o, w)) in ours.iter().zip(&written).enumerate() {
            // The same turn: the same four numbers, or all four negated, to f32's precision.
            let sign = if dot(o.r, w.r) < 0.0 { -1.0 } else { 1.0 };
            let turn = (0..4).all(|i| (o.r[i] - sign * w.r[i]).abs() <= 2e-6);
            let close =
                |a: [f64; 3], b: [f64; 3]| (0..3).all(|i| (a[i] - b[i]).abs() <= 1e-5 * (1.0 + a[i].abs()));
            assert!(
                turn && close(o.t, w.t) && close(o.s, w.s),
                "{what}, frame {f}, bone {bone}: {o:?} != {w:?}"
            );
            // And the frame's local matrix is that pose made into T * R * S.
            let local = numbers(&frame["local"][bone]);
            let expected = matrix(w);
            assert!(
                (0..16).all(|i| (local[i] - expected[i]).abs() <= 1e-5 * (1.0 + expected[i].abs())),
                "{what}, frame {f}, bone {bone}'s local matrix"
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn the_blend_can_be_redone_from_the_dump_alone() {
    let article = ["--blend", "bend=0.3,twist=0.7", "--mask", "seed@bone2=0.5", "--additive", "twist=0.6"];
    let d = dump(&[&article[..], &["--frames", "6", "--fixed-dt", "0.37", "--time", "0.1"]].concat());
    let kinds: Vec<_> = d["frames"][0]["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["kind"].clone(), l["clip"].clone()))
        .collect();
    assert_eq!(
        kinds,
        [
            (json!("blend"), json!("bend")),
            (json!("blend"), json!("twist")),
            (json!("mask"), json!("seed")),
            (json!("additive"), json!("twist"))
        ]
    );
    let mut checked = check_frames("the article's scene", &d);
    let Some(fox) = sample_model("Fox.glb") else { return };
    let fox = fox.to_str().unwrap();
    let args = [
        "--model",
        fox,
        "--blend",
        "Walk=0.3,Run=0.7",
        "--sync",
        "--additive",
        "Survey=0.4",
        "--mask",
        "Run@b_Neck_04=0.5",
    ];
    let d = dump(&[&args[..], &["--frames", "30", "--fixed-dt", "0.05", "--time", "2"]].concat());
    checked += check_frames("the Fox", &d);
    // In step: the blend layers at the same phase every frame, the cycle 0.3 d_walk + 0.7 d_run.
    let frames = d["frames"].as_array().unwrap();
    let phase = |frame: &Value, i: usize| {
        let l = &frame["layers"][i];
        l["time"].as_f64().unwrap() / l["duration"].as_f64().unwrap()
    };
    let cycle: f64 = [0.3, 0.7]
        .iter()
        .enumerate()
        .map(|(i, w)| w * frames[0]["layers"][i]["duration"].as_f64().unwrap())
        .sum();
    for (f, frame) in frames.iter().enumerate() {
        assert_eq!(frame["in_step"], true);
        assert!((phase(frame, 0) - phase(frame, 1)).abs() < 1e-5, "frame {f}");
        let expected = (frame["time"].as_f64().unwrap() / cycle).rem_euclid(1.0);
        let apart = (phase(frame, 0) - expected).abs();
        assert!(
            apart.min(1.0 - apart) < 1e-5,
            "frame {f}: phase {} of a cycle of {cycle} s",
            phase(frame, 0)
        );
    }
    println!("{checked} bone poses redone from the dumps alone");
}

/// The largest distance between three.js's positions and the program's, over the meshes `kept`.
/// `actions` are three.js's: each clip, weight and time as the program is asked for them. The
/// program wraps a time into each clip's loop; three.js does only as its clock moves on, so each
/// action is given its time in its own clip, wrapped here, after checking the program's.
fn three_apart(
    modules: &std::path::Path,
    path: &str,
    args: &[&str],
    mut actions: Value,
    kept: impl Fn(&str) -> bool,
) -> (f32, f32) {
    let d = dump(&[&["--model", path][..], args].concat());
    let layers = d["frames"][0]["layers"].as_array().expect("layers");
    for (action, layer) in actions.as_array_mut().unwrap().iter_mut().zip(layers) {
        assert_eq!((&action["clip"], &action["weight"]), (&layer["clip"], &layer["weight"]));
        let wrapped = action["time"].as_f64().unwrap().rem_euclid(layer["duration"].as_f64().unwrap());
        assert!((wrapped - layer["time"].as_f64().unwrap()).abs() < 1e-5, "{}", layer["clip"]);
        action["time"] = json!(wrapped);
    }
    let ours = dump_positions(&d["frames"][0]);
    let theirs = three_positions(modules, &json!({ "model": path, "actions": actions }));
    let mut worst: f32 = 0.0;
    for part in dump_parts(&d).iter().filter(|p| kept(&p.name)) {
        for (i, p) in three_part(&theirs, part).into_iter().enumerate() {
            worst = worst.max(p.distance(ours[part.first + i]));
        }
    }
    (worst, size(&ours))
}

/// The robot with a Dance that moves its face, as `tests/second_opinion.rs` makes it: every clip of
/// the file holds the face's morph weights at 0, so Dance's channel for `Head_4`'s weights is keyed
/// anew, Angry from 0 to 1 every 20 keys, Surprised from 0 to 1 over the clip, Sad at 0.5.
fn robot_that_talks(robot: &std::path::Path) -> std::path::PathBuf {
    let bytes = std::fs::read(robot).expect("the robot is readable");
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let json_length = word(12);
    let json: Value = serde_json::from_slice(&bytes[20..20 + json_length]).expect("its JSON");
    let bin_at = 20 + json_length;
    let bin = bytes[bin_at + 8..bin_at + 8 + word(bin_at)].to_vec();
    let mut g = common::gltf_build::Gltf { json, bin };
    let head_4 = g.json["nodes"].as_array().unwrap().iter().position(|n| n["name"] == "Head_4").unwrap();
    let dance = &g.json["animations"][0];
    assert_eq!(dance["name"], "Dance");
    let channels = dance["channels"].as_array().unwrap();
    let channel = channels.iter().find(|c| c["target"]["node"] == head_4 && c["target"]["path"] == "weights");
    let sampler = channel.expect("Dance moves Head_4's weights")["sampler"].as_u64().unwrap() as usize;
    let input = g.json["animations"][0]["samplers"][sampler]["input"].as_u64().unwrap() as usize;
    let keys = g.json["accessors"][input]["count"].as_u64().unwrap() as usize;
    let values: Vec<f32> =
        (0..keys).flat_map(|k| [(k % 20) as f32 / 20.0, k as f32 / (keys - 1) as f32, 0.5]).collect();
    let output = g.floats(&values, "SCALAR");
    g.json["animations"][0]["samplers"][sampler]["output"] = json!(output);
    let path = scratch("many-clips-talking-robot").join("talking.glb");
    std::fs::write(&path, g.glb()).expect("the scratch folder is writable");
    path
}

#[test]
fn three_js_blends_and_adds_clips_as_the_program_does() {
    let Some(modules) = three() else { return };
    let (Some(fox), Some(robot)) = (sample_model("Fox.glb"), sample_model("RobotExpressive.glb")) else {
        return;
    };
    let talking = robot_that_talks(&robot);
    let (fox, robot, talking) = (fox.to_str().unwrap(), robot.to_str().unwrap(), talking.to_str().unwrap());
    let action = |clip: &str, weight: f64, time: f64, additive: bool| json!({ "clip": clip, "weight": weight, "time": time, "additive": additive });
    // Every vertex, the robot's face too: its morph weights are blended as the poses are (the
    // talking robot's Dance moves them). The robot's clips turn and move bones, none scales one,
    // so three.js's additive scale (a difference) and ozz's (a ratio) cannot disagree here.
    let cases: [(&str, &str, Vec<&str>, Value); 7] = [
        (
            "Fox Walk and Run, half and half",
            fox,
            vec!["--blend", "Walk=0.5,Run=0.5", "--time", "0.3"],
            json!([action("Walk", 0.5, 0.3, false), action("Run", 0.5, 0.3, false)]),
        ),
        (
            "Fox Walk 0.3 and Run 0.7",
            fox,
            vec!["--blend", "Walk=0.3,Run=0.7", "--time", "1.1"],
            json!([action("Walk", 0.3, 1.1, false), action("Run", 0.7, 1.1, false)]),
        ),
        (
            "robot Walking and Running",
            robot,
            vec!["--blend", "Walking=0.4,Running=0.6", "--time", "0.5"],
            json!([action("Walking", 0.4, 0.5, false), action("Running", 0.6, 0.5, false)]),
        ),
        (
            "robot Walking, Wave added at 0.6",
            robot,
            vec!["--animation", "Walking", "--additive", "Wave=0.6", "--time", "0.4"],
            json!([action("Walking", 1.0, 0.4, false), action("Wave", 0.6, 0.4, true)]),
        ),
        (
            "robot Idle, Yes and ThumbsUp added",
            robot,
            vec!["--animation", "Idle", "--additive", "Yes=1,ThumbsUp=0.5", "--time", "1.3"],
            json!([
                action("Idle", 1.0, 1.3, false),
                action("Yes", 1.0, 1.3, true),
                action("ThumbsUp", 0.5, 1.3, true)
            ]),
        ),
        (
            "talking robot, Walking and Dance, its face half Dance's",
            talking,
            vec!["--blend", "Walking=0.5,Dance=0.5", "--time", "0.7"],
            json!([action("Walking", 0.5, 0.7, false), action("Dance", 0.5, 0.7, false)]),
        ),
        (
            "talking robot walking, Dance added at 0.6, its face too",
            talking,
            vec!["--animation", "Walking", "--additive", "Dance=0.6", "--time", "0.8"],
            json!([action("Walking", 1.0, 0.8, false), action("Dance", 0.6, 0.8, true)]),
        ),
    ];
    for (what, path, args, actions) in cases {
        let (worst, size) = three_apart(&modules, path, &args, actions, |_| true);
        println!("{what}: three.js and the program {worst:.2e} apart ({:.1e} of the size)", worst / size);
        assert!(worst <= 1e-4 * size, "{what}: {worst} apart, size {size}");
    }
}

#[test]
fn the_gpu_skins_a_blended_pose_as_the_cpu_does() {
    let dir = scratch("many-clips-gpu");
    let layers = ["--blend", "bend=0.4,twist=0.6", "--mask", "seed@bone2=0.7", "--additive", "twist=0.5"];
    let poses = ["--frames", "6", "--fixed-dt", "0.37", "--time", "0.1"];
    let (cpu_path, gpu_path) = (dir.join("cpu.json"), dir.join("gpu.json"));
    let cpu = run(&[&layers[..], &poses, &["--dump", cpu_path.to_str().unwrap()]].concat());
    assert!(cpu.status.success(), "{}", String::from_utf8_lossy(&cpu.stderr));
    let gpu_args =
        [&layers[..], &poses, &["--skinning", "gpu", "--dump", gpu_path.to_str().unwrap()]].concat();
    if run_gl(&gpu_args).is_none() {
        return;
    }
    let read = |p: &std::path::Path| -> Value {
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    let (cpu, gpu) = (read(&cpu_path), read(&gpu_path));
    assert_eq!((cpu["skinning"].as_str(), gpu["skinning"].as_str()), (Some("cpu"), Some("gpu")));
    let mut largest: f64 = 0.0;
    for (c, g) in cpu["frames"].as_array().unwrap().iter().zip(gpu["frames"].as_array().unwrap()) {
        // The pose is the CPU's in both: the same layers, blend and palette, number for number.
        for key in ["layers", "trs", "palette"] {
            assert_eq!(c[key], g[key], "{key}");
        }
        for (p, q) in c["skinned"].as_array().unwrap().iter().zip(g["skinned"].as_array().unwrap()) {
            let (p, q) = (numbers(p), numbers(q));
            largest = largest.max((0..3).map(|i| (p[i] - q[i]).abs()).fold(0.0, f64::max));
        }
    }
    println!("a blended pose skinned on the GPU: at most {largest:.1e} from the CPU's");
    assert!(largest <= 1e-5, "{largest}");
}

#[test]
fn each_mistake_in_the_layer_flags_is_one_line() {
    for (args, says) in [
        (
            &["--blend", "bend=0.5,walk=0.5"][..],
            "unknown clip \"walk\" for --blend: choose one of seed, bend, twist (or an index, 0 to 2)",
        ),
        (&["--blend", "bend=-1"], "--blend bend=-1: a weight is a number, 0 or more (like 0.5), not \"-1\""),
        (&["--blend", "bend=inf"], "a weight is a number, 0 or more"),
        (
            &["--blend", "bend=0,twist=0"],
            "--blend: every weight is 0; give at least one clip a weight above 0",
        ),
        (&["--blend", "bend,bend"], "--blend names \"bend\" twice"),
        (&["--clip", "seed", "--blend", "bend"], "--blend names every clip it plays: drop --clip"),
        (&["--additive", "nod=0.5"], "unknown clip \"nod\" for --additive"),
        (&["--additive", "bend@nod"], "unknown clip \"nod\" for --additive"),
        (&["--fade-to", "nod"], "unknown clip \"nod\" for --fade-to"),
        (
            &["--mask", "twist@bone7"],
            "unknown bone \"bone7\" for --mask: choose one of root, bone1, bone2, bone31, bone32 (or an index, 0 to 4)",
        ),
        (&["--mask", "twist"], "--mask wants CLIP@BONE or CLIP@BONE=WEIGHT"),
        (&["--mask", "twist@bone2=1.5"], "a mask's weight goes from 0 (the clip below) to 1 (all of it)"),
        (&["--fade", "-2"], "--fade wants seconds from 0 to 3600 (like 0.5), not \"-2\""),
        (&["--fade", "1", "--dump", "-"], "--fade sets how long a crossfade takes; a dump has no F key"),
        (&["--sync=yes"], "--sync takes no value"),
        (&["--sync"], "--sync plays the --blend clips in step: give --blend too"),
    ] {
        let out = run(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
