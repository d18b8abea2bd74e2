//! Feet on the ground through the program (chapter 20, issue 41 item 4): the dump of `--ground`
//! checked from the files alone, every frame of the Fox's walk and of the T-posed Mixamo rig's clip,
//! on a slope and on steps.
//!
//! Every frame's world transforms are made again from its `"local"` matrices and the bones'
//! parents, in `f64`. Each sole is the ankle's joint less its height over the sole along the
//! ground's normal, and the ground's height under it comes from the shape the dump states. A foot
//! is planted where the clip (a dump of the same frames without `--ground`) has its ankle less than
//! 2% of the leg above its rest height: then its sole is on the ground within 1e-3 of the leg's
//! length; a lifted one is not in the ground. No bone changes its length, and where the hips came
//! down some leg is at its full stretch (the least drop).

use common::{run, sample_model, scratch};
use serde_json::Value;
use std::path::Path;

type Matrix = [f64; 16];

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array().expect("an array").iter().map(|x| x.as_f64().expect("a number")).collect()
}

fn three(v: &Value) -> [f64; 3] {
    numbers(v).try_into().expect("x, y, z")
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

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    let d = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    dot(d, d).sqrt()
}

/// Every bone's joint in `frame`, from its `"local"` matrices and the bones' parents.
fn joints(dump: &Value, frame: &Value) -> Vec<[f64; 3]> {
    let bones = dump["bones"].as_array().expect("bones");
    let local: Vec<Matrix> = frame["local"]
        .as_array()
        .expect("local")
        .iter()
        .map(|m| numbers(m).try_into().expect("16"))
        .collect();
    let mut world: Vec<Option<Matrix>> = vec![None; bones.len()];
    while world.iter().any(Option::is_none) {
        for b in 0..bones.len() {
            world[b] = world[b].or(match bones[b]["parent"].as_u64() {
                Some(p) => world[p as usize].map(|parent| mul(&parent, &local[b])),
                None => Some(local[b]),
            });
        }
    }
    world.into_iter().map(|m| m.expect("made")).map(|m| [m[12], m[13], m[14]]).collect()
}

fn dump(dir: &Path, name: &str, args: &[&str]) -> Value {
    let path = dir.join(format!("{name}.json"));
    let frames = ["--frames", "40", "--fixed-dt", "0.04"];
    let out = run(&[args, &frames, &["--dump", path.to_str().expect("utf-8")]].concat());
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("JSON")
}

/// The ground the dump states: its normal, and its height along `up` under a point.
struct Ground {
    up: [f64; 3],
    front: [f64; 3],
    normal: [f64; 3],
    shape: Value,
}

impl Ground {
    fn of(g: &Value) -> Ground {
        let (up, front) = (three(&g["up"]), three(&g["front"]));
        let normal = match g["shape"].as_str() {
            Some("slope") => {
                let (sin, cos) = g["degrees"].as_f64().expect("degrees").to_radians().sin_cos();
                [0, 1, 2].map(|i| up[i] * cos - front[i] * sin)
            }
            _ => up,
        };
        Ground { up, front, normal, shape: g.clone() }
    }

    fn height(&self, p: [f64; 3]) -> f64 {
        let ahead = dot(p, self.front);
        match self.shape["shape"].as_str().expect("a shape") {
            "flat" => 0.0,
            "slope" => ahead * self.shape["degrees"].as_f64().expect("degrees").to_radians().tan(),
            "steps" => {
                let [height, depth] = numbers(&self.shape["step"]).try_into().expect("height, depth");
                height * (ahead / depth + 0.5).floor()
            }
            other => panic!("a ground of shape {other}"),
        }
    }
}

/// Checks every frame of `standing` against `plain`; returns the planted feet seen and the frames
/// whose hips came down.
fn check(name: &str, plain: &Value, standing: &Value) -> (usize, usize) {
    let (mut planted, mut lowered) = (0, 0);
    let frames = standing["frames"].as_array().expect("frames");
    for (f, (frame, before)) in frames.iter().zip(plain["frames"].as_array().expect("frames")).enumerate() {
        let (after, clip) = (joints(standing, frame), joints(plain, before));
        let reach = frame["reach"].as_array().expect("each frame says how it stood");
        let g = &reach.iter().find(|r| r["solver"] == "ground").expect("the feet")["ground"];
        let ground = Ground::of(g);
        let mut stretched = false;
        for leg in g["legs"].as_array().expect("legs") {
            let bones: Vec<usize> = numbers(&leg["bones"]).iter().map(|&b| b as usize).collect();
            let [hip, knee, ankle] = bones.try_into().expect("hip, knee and ankle");
            let length = leg["length"].as_f64().expect("length");
            let ankle_height = leg["ankle_height"].as_f64().expect("height");
            let sole = [0, 1, 2].map(|i| after[ankle][i] - ground.normal[i] * ankle_height);
            let height = dot(sole, ground.up) - ground.height(sole);
            let said = leg["sole_height"].as_f64().expect("sole height");
            assert!((height - said).abs() < 1e-3 * length, "{name} {f}: sole {height}, the dump says {said}");
            let lift = dot(clip[ankle], ground.up) - ankle_height;
            let is_planted = lift < 0.02 * length;
            assert_eq!(leg["planted"].as_bool(), Some(is_planted), "{name} {f}: lifted {lift}");
            if is_planted {
                planted += 1;
                assert!(height.abs() < 1e-3 * length, "{name} {f}: a planted sole {height} off the ground");
            } else {
                assert!(height > -1e-3 * length, "{name} {f}: a lifted sole {height} in the ground");
            }
            for (a, b) in [(hip, knee), (knee, ankle)] {
                let (was, is) = (distance(clip[a], clip[b]), distance(after[a], after[b]));
                assert!((was - is).abs() < 1e-4 * length, "{name} {f}: a bone went from {was} to {is}");
            }
            stretched |= (distance(after[hip], after[ankle]) - length).abs() < 1e-3 * length;
        }
        if g["lowered"].as_f64().expect("lowered") > 0.0 {
            lowered += 1;
            assert!(stretched, "{name} {f}: the hips came down {} with no leg stretched", g["lowered"]);
        }
    }
    (planted, lowered)
}

#[test]
fn every_planted_sole_stands_on_a_slope_and_on_steps_every_frame() {
    let dir = scratch("ground-program");
    let mut cases = vec![("the T-posed rig", vec!["tests/t-pose.gltf".to_string()], "0.1")];
    if let Some(fox) = sample_model("Fox.glb") {
        let fox = fox.to_str().expect("utf-8").to_string();
        cases.push(("the Fox's walk", vec![fox, "--animation".into(), "Walk".into()], "6"));
    }
    for (name, model, step) in cases {
        let model: Vec<&str> = model.iter().map(String::as_str).collect();
        let plain = dump(&dir, "plain", &model);
        for ground in ["slope:12".to_string(), format!("steps:{step}"), "slope:-20".into()] {
            let standing = dump(&dir, "ground", &[&model[..], &["--ground", &ground]].concat());
            let (planted, lowered) = check(&format!("{name} on {ground}"), &plain, &standing);
            assert!(planted >= 20, "{name} on {ground}: only {planted} planted feet in 40 frames");
            // The Fox's hind feet stand 40 behind its origin: 8.5 lower on slope:12, where the hips
            // must come down; higher on slope:-20, where the knees bend more.
            if name.contains("Fox") && ground == "slope:12" {
                assert!(lowered > 0, "{name} on {ground}: the hips never came down");
            }
        }
    }
}

#[test]
fn the_article_stands_its_claw_and_the_robot_has_no_legs_of_its_own() {
    let dir = scratch("ground-article");
    let standing = dump(&dir, "claw", &["--ground", "slope:10"]);
    let g = &standing["frames"][0]["reach"][0]["ground"];
    let legs = g["legs"].as_array().expect("legs");
    assert_eq!(legs.len(), 1, "the claw stands alone");
    let names: Vec<&str> = numbers(&legs[0]["bones"])
        .iter()
        .map(|&b| standing["bones"][b as usize]["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(names, ["bone1", "bone2", "bone31"]);
    let Some(robot) = sample_model("RobotExpressive.glb") else { return };
    let path = dir.join("robot.json");
    let out =
        run(&[robot.to_str().expect("utf-8"), "--ground", "flat", "--dump", path.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("FootL and FootR hang from the same bones, not from two legs"), "{said}");
    assert!(!path.exists(), "nothing written");
}
