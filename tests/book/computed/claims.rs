//! Figures of the chapters' prose, past their exercises, worked out again: a rule of a tool the
//! book compares with, or a figure a chapter draws from the article's scene.

use super::arm::{article, degrees_about};
use super::format::{fixed, short};
use super::surface::thousands;
use super::{Facts, Missing, Work, models};
use glam::{Quat, Vec3};
use skinning_method::clip::Motion;
use skinning_method::scene::BONE2;

pub const COMPUTED: [Work; 7] = [
    ("09-blender-lerp", blender_lerp),
    ("10-walk-half-turn", walk_half_turn),
    ("11-matrix-average", matrix_average),
    ("11-durations", durations),
    ("13-four-largest", four_largest),
    ("14-threads", threads),
    ("14-groups", groups),
];

/// Chapter 9: Blender lerps a quaternion's four numbers between keys (then normalises), where the
/// method slerps. Over `twist`'s first two keys, how far the two part, and where.
fn blender_lerp() -> Facts {
    let (model, clips) = article();
    let twist = &clips[2];
    assert_eq!(twist.name, "twist");
    let mut pose: Vec<_> = model.skeleton.bones().iter().map(|b| b.rest).collect();
    twist.sample(&model.skeleton, 1.5, &mut pose);
    let turn = pose[BONE2].rotation;
    let degrees = degrees_about(turn, Vec3::X);
    let steps = 1000;
    let apart = |k: usize| {
        let t = k as f32 / steps as f32;
        let lerped = (Quat::IDENTITY * (1.0 - t) + turn * t).normalize();
        (degrees_about(lerped, Vec3::X) - degrees * t as f64).abs()
    };
    let (peak, at) = (0..=steps).map(|k| (apart(k), k)).fold((0.0, 0), |a, b| if b.0 > a.0 { b } else { a });
    let at = at as f64 / steps as f64;
    assert!(
        apart(steps / 2) < 1e-3 && apart(0) < 1e-9 && apart(steps) < 1e-3,
        "halfway and at the keys they agree"
    );
    // The lerp is symmetric about halfway: the same peak at 1 - at.
    let (early, late) = (at.min(1.0 - at), at.max(1.0 - at));
    Ok(vec![
        format!("{}° turn", short(degrees, 1)),
        format!("up to {}° off", fixed(peak, 1)),
        format!("near {}% and {}% of the way", short(early * 100.0, 0), short(late * 100.0, 0)),
    ])
}

/// Chapter 10: the largest turn of a key of the Fox's Walk, in its parent's space: how close to
/// half a turn, where an orientation's w is near 0.
fn walk_half_turn() -> Facts {
    let fox = skinning_formats::gltf_import::load(&models()?.join("Fox.glb"))
        .map_err(|e| Missing(e.to_string()))?;
    let walk = fox.clips.iter().find(|c| c.name == "Walk").expect("the Fox walks");
    let Motion::Keyframes(tracks) = &walk.motion else { panic!("Walk is keyframed") };
    let turns = tracks.iter().filter_map(|t| t.rotation.as_ref()).flat_map(|c| &c.values);
    let largest = turns.map(|q| 2.0 * (q.w.abs().min(1.0) as f64).acos().to_degrees()).fold(0.0, f64::max);
    assert!(largest < 180.0, "no key is exactly half a turn");
    Ok(vec![format!("{}°", fixed(largest, 2))])
}

fn robot_vertices() -> Result<usize, Missing> {
    let robot = skinning_formats::gltf_import::load(&models()?.join("RobotExpressive.glb"))
        .map_err(|e| Missing(e.to_string()))?;
    Ok(robot.model.skin.len())
}

/// Chapter 14, exercise 1: which of the Fox and the robot `--threads 2` blends on both threads.
fn threads() -> Facts {
    use skinning_fast::parallel::PARALLEL_FROM_VERTICES;
    let fox = skinning_formats::gltf_import::load(&models()?.join("Fox.glb"))
        .map_err(|e| Missing(e.to_string()))?;
    let (fox, robot) = (fox.model.skin.len(), robot_vertices()?);
    let on = |n: usize| if n >= PARALLEL_FROM_VERTICES { "two threads" } else { "one thread" };
    Ok(vec![
        format!("The Fox has {} vertices", thousands(fox)),
        format!("`PARALLEL_FROM_VERTICES`, {}: {}", thousands(PARALLEL_FROM_VERTICES), on(fox)),
        format!("RobotExpressive has {}: {}", thousands(robot), on(robot)),
    ])
}

/// Chapter 14, exercise 2: the lanes' whole groups, and the last vertices filled up with copies
/// (`crates/fast/src/lanes/eight.rs`: `blend_run`).
fn groups() -> Facts {
    use skinning_fast::lanes::GROUP;
    let (article, _) = article();
    let split = |n: usize| (n / GROUP, n % GROUP, GROUP - n % GROUP);
    let (whole, left, copies) = split(article.skin.len());
    assert_eq!(whole, 1, "the article's mesh makes one whole group: the passage says \"one\"");
    let robot = robot_vertices()?;
    let (robot_whole, robot_left, robot_copies) = split(robot);
    Ok(vec![
        format!("The article's {} vertices make one whole group of {GROUP}", article.skin.len()),
        format!("the last {left} are blended in a group filled up with {copies} copies"),
        format!("RobotExpressive's {} make {} whole groups", thousands(robot), thousands(robot_whole)),
        format!("the last {robot_left} are filled up with {robot_copies} copies"),
    ])
}

/// Chapter 11: a bone one unit long, its parent turned 45° up in one clip and down in the other:
/// the average of the two world matrices puts its end at (cos 45°, 0, 0).
fn matrix_average() -> Facts {
    let degrees = 45.0f32;
    let turn = |d: f32| glam::Mat4::from_rotation_z(d.to_radians());
    let average = (turn(degrees) + turn(-degrees)) * 0.5;
    let end = average.transform_point3(Vec3::X);
    assert!((end - Vec3::new(degrees.to_radians().cos(), 0.0, 0.0)).length() < 1e-6);
    let shorter = (1.0 - end.length() as f64) * 100.0;
    Ok(vec![
        format!("turned {}° up in one clip and {}° down", short(degrees as f64, 0), short(degrees as f64, 0)),
        format!("(cos {}°, 0, 0)", short(degrees as f64, 0)),
        format!("{}% shorter", short(shorter, 0)),
    ])
}

/// Chapter 11: the Fox's Walk and Run, how long each lasts.
fn durations() -> Facts {
    let fox = skinning_formats::gltf_import::load(&models()?.join("Fox.glb"))
        .map_err(|e| Missing(e.to_string()))?;
    let length = |name: &str| {
        fox.clips.iter().find(|c| c.name == name).map(|c| c.duration as f64).expect("a Fox clip")
    };
    Ok(vec![format!("Walk lasts {} s and its Run {} s", fixed(length("Walk"), 3), fixed(length("Run"), 3))])
}

/// Chapter 13: the fan of `tests/common/eight.rs`, eight weights in sixty-fourths: what the four
/// largest hold, and what they leave out.
fn four_largest() -> Facts {
    let source = crate::markdown::read(std::path::Path::new("tests/common/eight.rs"));
    let line = source.lines().find(|l| l.starts_with("pub const EIGHT: [u32; 8] = [")).expect("EIGHT");
    let list =
        line.split_once('[').and_then(|(_, r)| r.split_once("] = [")).map(|(_, r)| r).expect("its list");
    let mut weights: Vec<u32> =
        list.trim_end_matches("];").split(", ").map(|w| w.parse().expect("a number")).collect();
    let total: u32 = weights.iter().sum();
    weights.sort_unstable_by(|a, b| b.cmp(a));
    let kept: u32 = weights[..4].iter().sum();
    let left_out = 100.0 * (total - kept) as f64 / total as f64;
    Ok(vec![
        format!("hold {kept} of the {total} sixty-fourths"),
        format!("leave out {}%", short(left_out, 0)),
    ])
}
