//! The figures of chapters 6 to 8 worked out again: what the GPU's uniform block holds and what a
//! frame uploads, the twist under both blends, and a normal moved by a stretched joint.

use super::arm::{article, degrees_about};
use super::format::{fixed, point, short};
use super::{Facts, Missing, Work, models};
use crate::markdown::read;
use glam::{Mat3A, Quat, Vec3, Vec3A};
use skinning_method::frame::{Frame, Pose, Still};
use skinning_method::lbs_or_dqs::{ByMethod, Method, Reference};
use skinning_method::normals::{degrees_between, normal_by, skin_normal};
use skinning_method::scene::outline_normals;
use skinning_method::scene::{BONE1, BONE2};
use std::path::Path;

pub const COMPUTED: [Work; 7] = [
    ("06-uniform-block", uniform_block),
    ("06-fox-upload", fox_upload),
    ("07-twist-angles", twist_angles),
    ("07-half-width", half_width),
    ("08-weights-gradient", weights_gradient),
    ("08-stretched-normal", stretched_normal),
    ("08-lit-surface", lit_surface),
];

/// A number with a comma between thousands, as the book writes 16,384.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A `usize` constant of the program's source, as it is written there.
fn constant(path: &str, name: &str) -> usize {
    let source = read(Path::new(path));
    let line =
        source.lines().find(|l| l.starts_with(&format!("pub const {name}: usize = "))).expect("defined");
    line.rsplit(' ').next().and_then(|v| v.trim_end_matches(';').parse().ok()).expect("a number")
}

/// Chapter 6, exercise 1: how many joints a 16 KiB uniform block holds.
fn uniform_block() -> Facts {
    let block = 16 * 1024;
    let (mat4, dual) = (16 * 4, 2 * 4 * 4);
    assert_eq!(constant("src/demo/model/gpu_fit.rs", "MAX_GPU_JOINTS"), block / mat4);
    Ok(vec![
        "16 KiB".into(),
        format!("{} bytes", thousands(block)),
        "16 floats of 4 bytes".into(),
        format!("{mat4} bytes"),
        format!("{} of them", block / mat4),
        format!("{dual} bytes"),
        format!("{} would fit", block / dual),
    ])
}

/// Chapter 6, exercise 2: what the Fox uploads each frame, blended on the CPU and on the GPU.
fn fox_upload() -> Facts {
    let fox = skinning_formats::gltf_import::load(&models()?.join("Fox.glb"))
        .map_err(|e| Missing(e.to_string()))?;
    let skin = &fox.model.skin;
    assert!(skin.normals().is_empty(), "the Fox is lit with flat normals: it uploads no normals");
    let (positions, palette) = (skin.len() * 3 * 4, skin.joints().len() * 64);
    Ok(vec![
        format!("{} vertices × 3 floats × 4 bytes = {} bytes", thousands(skin.len()), thousands(positions)),
        format!("{} joints × 64 bytes = {} bytes", skin.joints().len(), thousands(palette)),
        format!("{} times less", short(positions as f64 / palette as f64, 1)),
    ])
}

/// How far vertex 2 is from the arm's axis with bone2 twisted by `degrees`, by `method`.
fn distance_at(degrees: f32, method: Method) -> f64 {
    let (model, clips) = article();
    let mut pose = Pose::new(&model);
    clips[1].sample(&model.skeleton, 0.0, &mut pose.local);
    pose.local[BONE2].rotation = Quat::from_rotation_x(degrees.to_radians());
    let mut by = ByMethod::new(method, Reference);
    let frame = Frame { blending: by.ending(), ..Frame::new(&Still, 0.0) };
    pose.run(&model, frame).expect("the arm's joints only turn and move");
    let p = pose.skinned[2];
    (p.y as f64).hypot(p.z as f64)
}

/// Chapter 7, exercise 1: a half-and-half vertex under twists of 90° and 180°.
fn twist_angles() -> Facts {
    let (model, _) = article();
    let r = model.skin.bind()[2].y as f64;
    let mut facts = vec![];
    for degrees in [90.0f32, 180.0] {
        let lbs = distance_at(degrees, Method::Lbs);
        let by_hand = (degrees as f64 / 2.0).to_radians().cos() * r;
        assert!((lbs - by_hand).abs() < 1e-6 && (distance_at(degrees, Method::Dqs) - r).abs() < 1e-6);
        facts.push(format!("cos {}° · {} = {}", short(degrees as f64 / 2.0, 1), short(r, 4), short(lbs, 4)));
    }
    facts.push(format!("{} from it", short(r, 4)));
    Ok(facts)
}

/// Chapter 7, exercise 2: the twist that halves the distance, and when `twist` reaches it.
fn half_width() -> Facts {
    let (model, clips) = article();
    let angle = 2.0 * 0.5f64.acos().to_degrees();
    let mut pose = model.skeleton.bones().iter().map(|b| b.rest).collect::<Vec<_>>();
    // `twist` turns at a constant speed to its first key: find where it reaches the angle.
    let (mut low, mut high) = (0.0, 1.5);
    for _ in 0..60 {
        let mid = (low + high) / 2.0;
        clips[2].sample(&model.skeleton, mid, &mut pose);
        match degrees_about(pose[BONE2].rotation, Vec3::X) < angle {
            true => low = mid,
            false => high = mid,
        }
    }
    Ok(vec!["cos(θ/2) = 0.5".into(), format!("θ = {}°", short(angle, 2)), format!("{} s", short(low, 3))])
}

/// Chapter 8, exercise 1: a normal moved by a joint stretched 3 times along y.
fn stretched_normal() -> Facts {
    let m = Mat3A::from_diagonal(Vec3::new(1.0, 3.0, 1.0));
    let n = Vec3A::new(1.0, 1.0, 0.0).normalize();
    let rule = normal_by(&m, n);
    let by_hand = Vec3A::new(1.0, 1.0 / 3.0, 0.0).normalize();
    assert!((rule - by_hand).length() < 1e-6, "the inverse transpose of diag(1, 3, 1) is diag(1, 1/3, 1)");
    let plain = (m * n).normalize();
    let apart = rule.angle_between(plain).to_degrees() as f64;
    // The edge the normal is square to, (1, -1, 0), stretched to (1, -3, 0).
    let edge = m * Vec3A::new(1.0, -1.0, 0.0);
    Ok(vec![
        "(1, -1, 0)".into(),
        point(edge.into(), 4),
        "(1, 1/3, 0)".into(),
        point(rule.into(), 4),
        format!("with {} is {}", point(edge.into(), 4), short(rule.dot(edge) as f64, 4)),
        "(1, 3, 0)".into(),
        point(plain.into(), 4),
        format!("{}°", fixed(apart, 2)),
    ])
}

/// Chapter 8, exercise 2: where the lit surface's normals come from, for the Fox and the robot.
fn lit_surface() -> Facts {
    let models = models()?;
    let load = |name: &str| {
        skinning_formats::gltf_import::load(&models.join(name)).map_err(|e| Missing(e.to_string()))
    };
    let (fox, robot) = (load("Fox.glb")?.model, load("RobotExpressive.glb")?.model);
    let says = |m: &skinning_method::model::Model| match m.skin.normals().is_empty() {
        true => "brings no normals",
        false => "brings a normal for every vertex",
    };
    assert!(!fox.triangles.is_empty() && !robot.triangles.is_empty(), "both have triangles to light");
    Ok(vec![format!("The Fox {}", says(&fox)), format!("The robot {}", says(&robot))])
}

/// Chapter 8: what the rule leaves out where the weights change across the surface. `seed` at 1 s
/// slides bone1 down without turning it: the blended matrix of vertex 1 turns nothing, while the
/// outline around it, half moved, tilts.
fn weights_gradient() -> Facts {
    let (model, clips) = article();
    let (seed, time) = (&clips[0], 1.0);
    assert_eq!(seed.name, "seed");
    let mut pose = Pose::new(&model);
    pose.run(&model, Frame::new(seed, time)).expect("the arm's joints only turn and move");
    let slid = -pose.local[BONE1].translation.y as f64;
    assert_eq!(pose.local[BONE1].rotation, Quat::IDENTITY, "bone1 only slides");
    // The rule's normal for vertex 1 against its bind normal, and the skinned outline's own there.
    let bind = model.skin.normals()[1];
    let rule = skin_normal(&model.skin.vertex_influences()[1], bind, &pose.palette);
    assert!(degrees_between(rule, bind) < 1e-3, "the rule keeps vertex 1's bind normal");
    let skinned: Vec<Vec3> = pose.skinned.iter().map(|&p| p.into()).collect();
    let tilt = degrees_between(rule, outline_normals(&skinned)[1].into()) as f64;
    Ok(vec![
        format!("at {} s", short(time, 1)),
        format!("slid {} down", short(slid, 1)),
        "vertex 1".into(),
        format!("{}°", fixed(tilt, 1)),
    ])
}
