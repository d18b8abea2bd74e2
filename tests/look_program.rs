//! Looking at things through the program (chapter 19, issue 41 item 3): the dump of a look-at
//! checked from the file alone, on the article's scene, the Fox, the robot and a Mixamo-named rig.
//!
//! Every frame's world transforms are made again from its `"local"` matrices and the bones'
//! parents, in `f64`. Within the limits the head's forward points at the target within 0.5°; past
//! them each joint of the chain has turned exactly its limit from the clip's pose (a dump of the
//! same frames without `--look-at`); no bone changes its length. The forward the dump says is
//! checked to be one direction of the head's own space, carried by its world transform.

use common::{run, sample_model, scratch};
use serde_json::Value;
use std::path::Path;

type Matrix = [f64; 16];

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array().expect("an array").iter().map(|x| x.as_f64().expect("a number")).collect()
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

fn length(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}

/// The angle between two directions, in degrees, from the sine and the cosine (exact near 0).
fn degrees_between(a: [f64; 3], b: [f64; 3]) -> f64 {
    let c = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
    length(c).atan2(dot(a, b)).to_degrees()
}

/// A matrix's three columns made one long: its rotation, column by column.
fn rotation(m: &Matrix) -> [[f64; 3]; 3] {
    let column = |c: usize| {
        let v = [m[c * 4], m[c * 4 + 1], m[c * 4 + 2]];
        let l = length(v);
        [v[0] / l, v[1] / l, v[2] / l]
    };
    [column(0), column(1), column(2)]
}

/// The angle of the turn from rotation `a` to rotation `b`, in degrees: `tr(aᵀ b) = 1 + 2 cos θ`.
fn turned(a: [[f64; 3]; 3], b: [[f64; 3]; 3]) -> f64 {
    let trace: f64 = (0..3).map(|i| dot(a[i], b[i])).sum();
    ((trace - 1.0) / 2.0).clamp(-1.0, 1.0).acos().to_degrees()
}

/// Every bone's world transform in `frame`, from its `"local"` matrices and the bones' parents.
fn worlds(dump: &Value, frame: &Value) -> Vec<Matrix> {
    let bones = dump["bones"].as_array().expect("bones");
    let local: Vec<Matrix> = frame["local"]
        .as_array()
        .expect("local")
        .iter()
        .map(|m| numbers(m).try_into().expect("16"))
        .collect();
    let mut world: Vec<Option<Matrix>> = vec![None; bones.len()];
    // Parents come before children in no promised order: repeat until every bone has its world.
    while world.iter().any(Option::is_none) {
        for b in 0..bones.len() {
            world[b] = world[b].or(match bones[b]["parent"].as_u64() {
                Some(p) => world[p as usize].map(|parent| mul(&parent, &local[b])),
                None => Some(local[b]),
            });
        }
    }
    world.into_iter().map(|m| m.expect("made")).collect()
}

fn dump(dir: &Path, name: &str, args: &[&str]) -> Value {
    let path = dir.join(format!("{name}.json"));
    let frames = ["--frames", "24", "--fixed-dt", "0.07"];
    let out = run(&[args, &frames, &["--dump", path.to_str().expect("utf-8")]].concat());
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("JSON")
}

/// What the frames of `looking` show against `plain` (the same frames without `--look-at`): the
/// largest angle off, the largest change of a bone's length (a fraction of it), and each chain
/// joint's turn from the clip's pose, in degrees, frame by frame.
struct Seen {
    off: f64,
    lengths: f64,
    turns: Vec<Vec<f64>>,
}

fn seen(plain: &Value, looking: &Value) -> Seen {
    let mut seen = Seen { off: 0.0, lengths: 0.0, turns: Vec::new() };
    let bones = looking["bones"].as_array().expect("bones");
    let frames = looking["frames"].as_array().expect("frames");
    let mut carried: Option<[f64; 3]> = None;
    for (frame, before) in frames.iter().zip(plain["frames"].as_array().expect("frames")) {
        let (after, clip) = (worlds(looking, frame), worlds(plain, before));
        let chains = frame["reach"].as_array().expect("each frame says how it looked");
        let look = chains.iter().find(|c| c["solver"] == "look-at").expect("a look-at chain");
        let chain: Vec<usize> = numbers(&look["bones"]).iter().map(|&b| b as usize).collect();
        let head = chain[chain.len() - 1];
        let target: [f64; 3] = numbers(&look["target"]).try_into().expect("x, y, z");
        let forward: [f64; 3] = numbers(&look["forward"]).try_into().expect("x, y, z");
        // The forward is one direction of the head's own space, whatever the frame.
        let r = rotation(&after[head]);
        let own = [dot(r[0], forward), dot(r[1], forward), dot(r[2], forward)];
        let was = *carried.get_or_insert(own);
        assert!(degrees_between(was, own) < 1e-3, "the dump's forward is not carried by the head");
        let off = degrees_between(forward, sub(target, point(&after[head])));
        assert!((off - look["off_degrees"].as_f64().expect("off")).abs() < 1e-3, "{off}");
        seen.off = seen.off.max(off);
        for b in (0..bones.len()).filter(|&b| !bones[b]["parent"].is_null()) {
            let p = bones[b]["parent"].as_u64().expect("a parent") as usize;
            let (was, is) = (
                length(sub(point(&clip[b]), point(&clip[p]))),
                length(sub(point(&after[b]), point(&after[p]))),
            );
            seen.lengths = seen.lengths.max((was - is).abs() / was.max(1e-9));
        }
        let local = |d: &Value, b: usize| numbers(&d["local"][b]).try_into().expect("16");
        seen.turns.push(
            chain.iter().map(|&b| turned(rotation(&local(before, b)), rotation(&local(frame, b)))).collect(),
        );
    }
    seen
}

/// The models and the points they look at, each within what three joints of 60° can turn.
fn within() -> Vec<(String, Vec<String>)> {
    let mut cases = vec![
        ("the article's claw".to_string(), vec!["--look-at".into(), "bone31=0.9,0.4,0.5".into()]),
        (
            "the T-posed rig".to_string(),
            vec!["tests/t-pose.gltf".into(), "--look-at".into(), "Head=0.6,2.2,1.5".into()],
        ),
    ];
    for (file, look) in [("Fox.glb", "b_Head_05=60,80,40"), ("RobotExpressive.glb", "Head=2.5,4,3")] {
        if let Some(path) = sample_model(file) {
            let path = path.to_str().expect("utf-8").to_string();
            cases.push((file.to_string(), vec![path, "--look-at".into(), look.into()]));
        }
    }
    cases
}

#[test]
fn within_the_limits_the_head_faces_the_point_every_frame_and_no_bone_changes_its_length() {
    let dir = scratch("look-within");
    for (name, args) in within() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let plain: Vec<&str> =
            args.iter().copied().filter(|a| *a != "--look-at" && !a.contains('=')).collect();
        let seen = seen(&dump(&dir, "plain", &plain), &dump(&dir, "look", &args));
        assert!(seen.off < 0.5, "{name}: the head is {}° off", seen.off);
        assert!(seen.lengths < 1e-4, "{name}: a bone's length changed by {}", seen.lengths);
        let most = seen.turns.iter().flatten().fold(0f64, |a, &b| a.max(b));
        assert!(most <= 60.0 + 1e-3 && most > 1.0, "{name}: a joint turned {most}°");
    }
}

#[test]
fn past_the_limits_each_joint_stops_at_its_limit() {
    // Behind the robot's back, with joints of 20°: three of them cannot turn the head round.
    let dir = scratch("look-past");
    let Some(robot) = sample_model("RobotExpressive.glb") else { return };
    let robot = robot.to_str().expect("utf-8");
    let plain = dump(&dir, "plain", &[robot]);
    let looking = dump(&dir, "look", &[robot, "--look-at", "Head=0.5,3,-10", "--look-limit", "20"]);
    let seen = seen(&plain, &looking);
    for (frame, turns) in seen.turns.iter().enumerate() {
        assert_eq!(turns.len(), 3, "the head, the neck and the chest");
        for turn in turns {
            assert!((turn - 20.0).abs() < 0.01, "frame {frame}: a joint turned {turn}°, not its limit");
        }
    }
    assert!(seen.off > 60.0, "the head could not look there, but is only {}° off", seen.off);
    assert!(seen.lengths < 1e-4, "a bone's length changed by {}", seen.lengths);
}
