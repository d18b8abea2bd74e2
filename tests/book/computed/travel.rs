//! The figures of chapter 17 worked out again: the walking figure of `tests/walker.gltf` (the tests'
//! `rigs::walker`) played through the library's root motion, on, in place and as stored, and the
//! sum of a turning loop's travels, by the closed form and by adding the loops up one by one.

use super::format::{fixed, point_fixed};
use super::{Facts, Work};
use crate::markdown::root;
use glam::Vec3;
use skinning_method::clip::Clip;
use skinning_method::model::Model;
use skinning_method::root_motion::{Mode, RootMotion, Travel, carried, carrier};
use skinning_method::transform::Trs;

pub const COMPUTED: [Work; 4] = [
    ("17-seven-on", seven_on),
    ("17-quarter-turns", quarter_turns),
    ("17-exercise-loops", exercise_loops),
    ("17-exercise-turn", exercise_turn),
];

/// The walking figure and its clips, as the program loads them.
fn walker() -> (Model, Vec<Clip>) {
    let imported = skinning_formats::gltf_import::load(&root().join("tests/walker.gltf"))
        .expect("tests/walker.gltf loads");
    (imported.model, imported.clips)
}

/// Where the hips are at `time` in clip `name`, played as `mode` asks, and the bone that carries the
/// body (found by its name).
fn hips_at(name: &str, mode: Mode, time: f64) -> (Vec3, RootMotion) {
    let (model, clips) = walker();
    let clip = clips.iter().find(|c| c.name == name).expect("a clip of the walker");
    let skeleton = &model.skeleton;
    let hips = carrier(skeleton, clip).expect("the walker has hips");
    let mut motion = RootMotion::new(skeleton, clip, hips, Vec3::Y, mode);
    let mut local = vec![Trs::IDENTITY; skeleton.len()];
    clip.sample(skeleton, time, &mut local);
    motion.take(skeleton, time, &mut local);
    (carried(skeleton, &local, hips).w_axis.truncate(), motion)
}

/// The worked example: the Walk's lap, and its hips at 3.5 s in each mode.
fn seven_on() -> Facts {
    let (on, motion) = hips_at("Walk", Mode::On, 3.5);
    let (off, _) = hips_at("Walk", Mode::Off, 3.5);
    let (in_place, _) = hips_at("Walk", Mode::InPlace, 3.5);
    let lap = motion.lap();
    assert!(lap.heading.abs() < 1e-6 && (on.z - 3.0 * lap.offset.z - off.z).abs() < 1e-5);
    Ok(vec![
        "At 3.5 s".to_string(),
        format!("C = {}", point_fixed(lap.offset, 4)),
        format!(
            "3 · {} + {} = {}",
            fixed(lap.offset.z as f64, 4),
            fixed(off.z as f64, 4),
            fixed(on.z as f64, 4)
        ),
        format!("z = {}", fixed(off.z as f64, 4)),
        format!("z = {} and x = {}", fixed(in_place.z as f64, 4), fixed(in_place.x as f64, 4)),
    ])
}

/// A lap of a quarter turn to the left and 2 forwards, made 1 to 4 times: a table row each, from
/// the closed form, checked against the laps added one by one.
fn quarter_turns() -> Facts {
    let lap = Travel { heading: std::f32::consts::FRAC_PI_2, offset: Vec3::new(0.0, 0.0, 2.0) };
    let mut again = Travel::NONE;
    let mut rows = Vec::new();
    for n in 1..=4 {
        again = lap.after(again, Vec3::Y);
        let sum = lap.repeated(n as f64, Vec3::Y);
        assert!(sum.offset.distance(again.offset) < 1e-5);
        let theta = std::f64::consts::FRAC_PI_2;
        let length = (n as f64 * theta / 2.0).sin() / (theta / 2.0).sin();
        let degrees = (sum.heading as f64).to_degrees().rem_euclid(360.0);
        rows.push(format!(
            "| {n} | {}° | {} | {} |",
            fixed(degrees, 0),
            fixed(length, 4),
            point_fixed(sum.offset, 4)
        ));
    }
    Ok(rows)
}

/// Exercise 1: the Walk at 10.25 s, each way, and the hips' height there.
fn exercise_loops() -> Facts {
    let (on, _) = hips_at("Walk", Mode::On, 10.25);
    let (off, _) = hips_at("Walk", Mode::Off, 10.25);
    let (in_place, _) = hips_at("Walk", Mode::InPlace, 10.25);
    assert!((on.y - off.y).abs() < 1e-6 && (in_place.y - off.y).abs() < 1e-6);
    Ok(vec![
        format!("on, z = {}", fixed(on.z as f64, 4)),
        format!("as stored, z = {}", fixed(off.z as f64, 4)),
        format!("in place, z = {}", fixed(in_place.z as f64, 4)),
        format!("{} up", fixed(on.y as f64, 4)),
    ])
}

/// Exercise 2: the Turn's lap, and where two and four laps take the hips.
fn exercise_turn() -> Facts {
    let (_, motion) = hips_at("Turn", Mode::On, 0.0);
    let lap = motion.lap();
    let (two, _) = hips_at("Turn", Mode::On, 4.0);
    let (four, _) = hips_at("Turn", Mode::On, 8.0);
    let floor = |p: Vec3| Vec3::new(p.x, 0.0, p.z);
    let degrees = |t: Travel| fixed((t.heading as f64).to_degrees().rem_euclid(360.0), 0);
    let (twice, four_times) = (lap.repeated(2.0, Vec3::Y), lap.repeated(4.0, Vec3::Y));
    assert!(floor(two).distance(twice.offset) < 1e-4 && floor(four).distance(four_times.offset) < 1e-4);
    Ok(vec![
        format!("by {}°", degrees(lap)),
        format!("by {}", point_fixed(lap.offset, 4)),
        format!("{} facing {}°", point_fixed(floor(two), 4), degrees(twice)),
        format!("{} facing {}°", point_fixed(floor(four), 4), degrees(four_times)),
    ])
}
