//! The figures of chapter 12 worked out again: the two-bone solve by the law of cosines, held
//! against the library's solver, and where `--soften` aims, by `two_bone::softened`.

use super::format::{fixed, short};
use super::{Facts, Work};
use glam::{DVec3, Quat, Vec3};
use skinning_method::frame::Pose;
use skinning_method::reach::two_bone::softened;
use skinning_method::reach::{Reach, Solver};
use skinning_method::scene::{self, BONE1, BONE2, BONE31};

pub const COMPUTED: [Work; 4] = [
    ("12-two-bone", two_bone),
    ("12-soften-table", soften_table),
    ("12-soften-short", soften_short),
    ("12-soften", soften),
];

/// The arm's chain in its bind pose: start, middle and end joint.
fn joints() -> [DVec3; 3] {
    let model = scene::article().expect("the article's scene");
    let pose = Pose::new(&model);
    [BONE1, BONE2, BONE31].map(|bone| pose.joint(bone).as_dvec3())
}

/// How far a rotation turns, in degrees.
fn turned(from: Quat, to: Quat) -> f64 {
    (from.conjugate() * to).normalize().to_axis_angle().1.to_degrees() as f64
}

/// Chapter 12, exercise 1: the two-bone solve for (0.4, 0.2, 0), by hand and by the library.
fn two_bone() -> Facts {
    let target = Vec3::new(0.4, 0.2, 0.0);
    let [a, b, c] = joints();
    let t = target.as_dvec3();
    let (l1, l2, d) = (a.distance(b), b.distance(c), a.distance(t));
    let cos = (l1 * l1 + l2 * l2 - d * d) / (2.0 * l1 * l2);
    let (has, wants) = ((a - b).angle_between(c - b).to_degrees(), cos.acos().to_degrees());
    // The end after the middle joint turns, then the aim at the target.
    let hinge = (a - b).cross(c - b).normalize();
    let bent = b + glam::DQuat::from_axis_angle(hinge, (wants - has).to_radians()) * (c - b);
    let aim = (bent - a).angle_between(t - a).to_degrees();
    // The library's solver, from the same pose.
    let model = scene::article().expect("the article's scene");
    let mut pose = Pose::new(&model);
    let before = pose.local.clone();
    let solver = Solver::TwoBone { soften: 1.0 };
    let mut reach = Reach::new(&model.skeleton, BONE31, solver, target).expect("a chain of two bones");
    let reached = reach.solve(&mut pose.local, &pose.bend);
    let (middle, start) = (
        turned(before[BONE2].rotation, pose.local[BONE2].rotation),
        turned(before[BONE1].rotation, pose.local[BONE1].rotation),
    );
    assert!(
        (middle - (wants - has).abs()).abs() < 1e-3 && (start - aim).abs() < 1e-3 && reached.distance < 1e-6
    );
    Ok(vec![
        format!("l1 = {}", fixed(l1, 4)),
        format!("l2 = {}", fixed(l2, 4)),
        format!("d = {}", fixed(d, 4)),
        format!(
            "({}² + {}² - {}²) / (2 · {} · {}) = {}",
            fixed(l1, 4),
            fixed(l2, 4),
            fixed(d, 4),
            fixed(l1, 4),
            fixed(l2, 4),
            fixed(cos, 4)
        ),
        format!("θ = {}°", fixed(wants, 2)),
        format!("{}°", fixed(has, 2)),
        format!("by {}°", fixed(middle, 2)),
        format!("bone1 turns by {}°", fixed(start, 2)),
    ])
}

/// Where the two-bone solver aims for a target `distance` away on the arm, at `ratio`.
fn aimed(distance: f64, ratio: f32) -> f64 {
    let [a, b, c] = joints();
    let length = (a.distance(b) + b.distance(c)) as f32;
    softened(distance as f32, length, ratio) as f64
}

/// Chapter 12's table: aimed against target distance, at ratios 1, 0.9 and 0.5; and the worked
/// target's shortfall at 0.5.
fn soften_table() -> Facts {
    let [a, b, c] = joints();
    let length = a.distance(b) + b.distance(c);
    let mut facts = vec!["| the target is | aimed at, ratio 1 | ratio 0.9 | ratio 0.5 |".to_string()];
    for (what, distance) in [
        ("", 0.2),
        (" (the worked target)", 0.1f64.sqrt()),
        ("", 0.35),
        ("", 0.4),
        (" (full stretch)", length),
        ("", 0.5),
        ("", 1.0),
    ] {
        let cells: Vec<String> =
            [1.0, 0.9, 0.5].iter().map(|&r| fixed(aimed(distance, r).min(length), 4)).collect();
        facts.push(format!("| {}{what} | {} |", fixed(distance, 4), cells.join(" | ")));
    }
    Ok(facts)
}

/// Chapter 12: the worked target's shortfall with `--soften 0.5`.
fn soften_short() -> Facts {
    let worked = 0.1f64.sqrt();
    let at = aimed(worked, 0.5);
    Ok(vec![
        "`--soften 0.5`".into(),
        format!("{} away", fixed(worked, 4)),
        format!("at {} from the start", fixed(at, 4)),
        format!("{} short", fixed(worked - at, 4)),
    ])
}

/// Chapter 12, exercise 2: with `--soften 0.5`, the farthest target reached, and one 0.4 away.
fn soften() -> Facts {
    let [a, b, c] = joints();
    let length = a.distance(b) + b.distance(c);
    let d = 0.4;
    let (da, ds) = (0.5 * length, 0.5 * length);
    let by_hand = da + ds * (1.0 - (-(d - da) / ds).exp());
    assert!((by_hand - aimed(d, 0.5)).abs() < 1e-6);
    Ok(vec![
        format!("0.5 · {} = {}", fixed(length, 4), fixed(da, 4)),
        format!("x = {} - {} = {}", short(d, 4), fixed(da, 4), fixed(d - da, 4)),
        format!(
            "{} + {} · (1 - e^(-{} / {})) = {}",
            fixed(da, 4),
            fixed(ds, 4),
            fixed(d - da, 4),
            fixed(ds, 4),
            fixed(by_hand, 4)
        ),
        format!("{} short", fixed(d - by_hand, 4)),
    ])
}
