//! Reaching (`crates/method/src/reach.rs`) checked without a window, on the article's arm, a four-bone chain, the
//! Fox's hind leg and the robot's arm. Every check measures the solved pose the way a frame does
//! (`Pose::run`'s matrices, then each bone's joint), not with the solver's own numbers, and holds
//! it to a property a person can state: the end is on the target, the bones kept their lengths, the
//! elbow is in the pole's plane, an arm out of reach is straight and points at the target.
//!
//! Tolerances are fractions of the chain's length, so a model in centimetres and one in metres are
//! held to the same standard. The figures reached are printed: `cargo test --test reach -- --nocapture`.

use glam::{Quat, Vec3};
use skinning_method::clip::Clip;
use skinning_method::frame::{Frame, Pose, Still};
use skinning_method::model::Model;
use skinning_method::reach::{Reach, Solver, ccd, chain::Chain, two_bone};
use skinning_method::scene;
use skinning_method::skeleton::{BoneId, SkeletonBuilder, Trs};
use std::f32::consts::TAU;

/// The end within this fraction of the chain's length of a reachable target.
const REACHED: f32 = 1e-5;
/// Every bone's length kept within this fraction of the chain's length.
const LENGTHS: f32 = 1e-6;
/// The middle joint this close (a fraction of the chain's length) to the pole's plane.
const PLANE: f32 = 1e-5;
const TWO_BONE: Solver = Solver::TwoBone { soften: 1.0 };

/// Every bone's joint after the matrices step, as the frame makes them from `trs` and `bend`.
fn joints(model: &Model, trs: &[Trs], bend: &[Quat]) -> Vec<Vec3> {
    let mut pose = Pose::new(model);
    pose.local.copy_from_slice(trs);
    pose.bend.copy_from_slice(bend);
    pose.run(model, Frame::new(&Still, 0.0).palette_only()).expect("linear blending");
    (0..model.skeleton.len()).map(|b| pose.joint(b)).collect()
}

/// The clip's local pose at `time`.
fn sampled(model: &Model, clip: &Clip, time: f64) -> Vec<Trs> {
    let mut trs: Vec<Trs> = model.skeleton.bones().iter().map(|b| b.rest).collect();
    clip.sample(&model.skeleton, time, &mut trs);
    trs
}

/// Directions spread evenly over the sphere (a Fibonacci spiral), none of them special.
fn directions(n: usize) -> Vec<Vec3> {
    let golden = std::f32::consts::PI * (3.0 - 5f32.sqrt());
    (0..n)
        .map(|i| {
            let y = 1.0 - 2.0 * (i as f32 + 0.5) / n as f32;
            let r = (1.0 - y * y).sqrt();
            Vec3::new(r * (golden * i as f32).cos(), y, r * (golden * i as f32).sin())
        })
        .collect()
}

/// The largest of each measured error over a set of targets, each a fraction of the chain's length.
#[derive(Debug, Default)]
struct Worst {
    reached: f32,
    lengths: f32,
    plane: f32,
    /// Out of reach: the sine of the angle between the two bones (0 when straight).
    straight: f32,
    /// Out of reach: the sine of the angle between start → end and start → target.
    aim: f32,
    reachable: usize,
    out_of_reach: usize,
}

/// Solves the two-bone chain ending at `end` for targets all around its start, from the clip's
/// pose `clip` with the hand bends `bend`, with a pole at `pole_offset` from the start (if given),
/// and measures every property of the solve.
fn two_bone_around(
    model: &Model,
    clip: &[Trs],
    bend: &[Quat],
    end: BoneId,
    pole_offset: Option<Vec3>,
) -> Worst {
    let mut reach = Reach::new(&model.skeleton, end, TWO_BONE, Vec3::ZERO).expect("a two-bone chain");
    let [start, middle, end] = [reach.bones()[0], reach.bones()[1], reach.bones()[2]];
    let before = joints(model, clip, bend);
    let (l1, l2) = (before[start].distance(before[middle]), before[middle].distance(before[end]));
    let length = l1 + l2;
    let a = before[start];
    let mut worst = Worst::default();
    for direction in directions(40) {
        for fraction in [0.3, 0.6, 0.9, 0.999, 1.2, 3.0] {
            let target = a + direction * fraction * length;
            let pole = pole_offset.map(|p| a + p);
            // The pole's plane needs the pole off the line start → target.
            if let Some(p) = pole_offset
                && direction.angle_between(p) < 0.2
            {
                continue;
            }
            reach.target = target;
            reach.pole = pole;
            let mut trs = clip.to_vec();
            let reached = reach.solve(&mut trs, bend);
            let after = joints(model, &trs, bend);
            let (b, c) = (after[middle], after[end]);
            assert_eq!(after[start], a, "the start joint does not move");
            assert!((reached.end - c).length() <= 1e-6 * length, "the solver's end is the frame's");
            let changed = |x: f32, y: f32| (x - y).abs() / length;
            worst.lengths = worst.lengths.max(changed(a.distance(b), l1)).max(changed(b.distance(c), l2));
            if fraction < 1.0 && (l1 - l2).abs() < fraction * length {
                worst.reachable += 1;
                worst.reached = worst.reached.max(c.distance(target) / length);
            } else if fraction > 1.0 {
                worst.out_of_reach += 1;
                let (upper, lower) = ((b - a).normalize(), (c - b).normalize());
                worst.straight = worst.straight.max(upper.cross(lower).length());
                worst.aim = worst.aim.max((c - a).normalize().cross((target - a).normalize()).length());
            }
            if let Some(pole) = pole {
                let normal = (target - a).cross(pole - a).normalize();
                worst.plane = worst.plane.max((b - a).dot(normal).abs() / length);
                // On the pole's side of the line start → target, unless the arm is straight.
                let line = (target - a).normalize();
                let across = |p: Vec3| (p - a) - line * (p - a).dot(line);
                if across(b).length() > 1e-3 * length {
                    assert!(across(b).dot(across(pole)) > 0.0, "the elbow points away from the pole");
                }
            }
        }
    }
    worst
}

fn assert_two_bone(name: &str, worst: &Worst, with_pole: bool) {
    println!("{name}: {worst:?}");
    assert!(worst.reachable >= 40 && worst.out_of_reach >= 40, "{name}: too few targets");
    assert!(worst.reached <= REACHED, "{name}: a reachable target missed by {} of the chain", worst.reached);
    assert!(worst.lengths <= LENGTHS, "{name}: a bone's length changed by {} of the chain", worst.lengths);
    assert!(worst.straight <= 1e-5, "{name}: out of reach, the arm is bent (sine {})", worst.straight);
    assert!(worst.aim <= 1e-5, "{name}: out of reach, the arm points off the target (sine {})", worst.aim);
    if with_pole {
        assert!(
            worst.plane <= PLANE,
            "{name}: the elbow is {} of the chain off the pole's plane",
            worst.plane
        );
    }
}

fn article() -> (Model, Vec<Trs>) {
    let model = scene::article().expect("the article's scene");
    let clip = scene::bend().expect("the bend clip");
    let trs = sampled(&model, &clip, 1.3);
    (model, trs)
}

#[test]
fn the_articles_arm_reaches_targets_all_round_keeping_its_lengths() {
    let (model, trs) = article();
    let bend = vec![Quat::IDENTITY; model.skeleton.len()];
    let free = two_bone_around(&model, &trs, &bend, scene::BONE31, None);
    assert_two_bone("article, no pole", &free, false);
    let poled = two_bone_around(&model, &trs, &bend, scene::BONE31, Some(Vec3::new(0.1, 0.3, 0.2)));
    assert_two_bone("article, pole", &poled, true);
}

/// A sample model's clip at `time`, and the bone called `end`.
fn sample(file: &str, animation: &str, time: f64, end: &str) -> Option<(Model, Vec<Trs>, BoneId)> {
    let path = common::sample_model(file)?;
    let imported = skinning_formats::gltf_import::load(&path).expect("the sample model loads");
    let clip = imported.clips.iter().find(|c| c.name == animation).expect("the animation");
    let trs = sampled(&imported.model, clip, time);
    let end = imported.model.skeleton.find(end).expect("the end bone");
    Some((imported.model, trs, end))
}

/// A pole where the clip's own elbow or knee points: out from the middle of start → end through
/// the middle joint, a chain's length away, as an offset from the start.
fn natural_pole(model: &Model, trs: &[Trs], end: BoneId) -> Vec3 {
    let chain = Reach::new(&model.skeleton, end, TWO_BONE, Vec3::ZERO).expect("a chain");
    let j = joints(model, trs, &vec![Quat::IDENTITY; model.skeleton.len()]);
    let [a, b, c] = [0, 1, 2].map(|i| j[chain.bones()[i]]);
    let out = (b - (a + c) / 2.0).normalize();
    (b - a) + out * (a.distance(b) + b.distance(c))
}

#[test]
fn the_foxs_hind_leg_and_the_robots_arm_reach_like_the_articles() {
    let rigs = [
        ("Fox.glb", "Walk", 0.3, "b_LeftFoot01_017"),
        ("Fox.glb", "Run", 0.1, "b_RightFoot01_021"),
        ("RobotExpressive.glb", "Walking", 0.4, "Palm2R"),
        ("RobotExpressive.glb", "Idle", 1.0, "Palm2L"),
    ];
    for (file, animation, time, end) in rigs {
        let Some((model, trs, end_bone)) = sample(file, animation, time, end) else { return };
        let bend = vec![Quat::IDENTITY; model.skeleton.len()];
        let name = format!("{file} {animation} {end}");
        assert_two_bone(
            &format!("{name}, no pole"),
            &two_bone_around(&model, &trs, &bend, end_bone, None),
            false,
        );
        let pole = natural_pole(&model, &trs, end_bone);
        let poled = two_bone_around(&model, &trs, &bend, end_bone, Some(pole));
        assert_two_bone(&format!("{name}, pole"), &poled, true);
    }
}

/// The angle of the turn from `a` to `b`, in degrees.
fn degrees_between(a: Quat, b: Quat) -> f32 {
    2.0 * a.dot(b).abs().min(1.0).acos().to_degrees()
}

/// Sweeps the article arm's target round a circle in `steps` steps: the circle lies in the plane
/// x = start.x + 0.25, centred on the line through the start along x, of radius `radius`. Returns
/// the largest turn of either joint's local rotation from one step to the next, in degrees.
fn sweep_round(radius: f32, pole: Option<Vec3>, steps: usize) -> f32 {
    let (model, clip) = article();
    let bend = vec![Quat::IDENTITY; model.skeleton.len()];
    let a = joints(&model, &clip, &bend)[scene::BONE1];
    let mut reach = Reach::new(&model.skeleton, scene::BONE31, TWO_BONE, Vec3::ZERO).expect("a chain");
    reach.pole = pole;
    let mut previous: Option<[Quat; 2]> = None;
    let mut largest = 0.0f32;
    for step in 0..=steps {
        let angle = TAU * step as f32 / steps as f32;
        reach.target = a + Vec3::new(0.25, radius * angle.cos(), radius * angle.sin());
        let mut trs = clip.clone();
        reach.solve(&mut trs, &bend);
        let end = joints(&model, &trs, &bend)[scene::BONE31];
        assert!(end.distance(reach.target) < 1e-5, "every target of the circle is in reach");
        let now = [trs[scene::BONE1].rotation, trs[scene::BONE2].rotation];
        if let Some(before) = previous {
            largest = largest.max(degrees_between(before[0], now[0])).max(degrees_between(before[1], now[1]));
        }
        previous = Some(now);
    }
    largest
}

#[test]
fn a_target_swept_round_the_pole_side_moves_the_arm_without_a_jump() {
    // Steps of 1 degree round a circle of radius 0.15 about the line x through the start (the arm is
    // 0.42 long). The line from the start through the pole cuts the circle's plane 0.25 out along z:
    // the circle passes the pole's side 0.1 from that line.
    let (model, clip) = article();
    let a = joints(&model, &clip, &vec![Quat::IDENTITY; model.skeleton.len()])[scene::BONE1];
    let pole = a + Vec3::new(0.2, 0.0, 0.2);
    let with_pole = sweep_round(0.15, Some(pole), 360);
    let without = sweep_round(0.15, None, 360);
    println!(
        "largest turn of a joint per 1-degree step: {with_pole:.2} degrees with the pole, {without:.2} without"
    );
    assert!(with_pole < 3.0, "with a pole, a joint jumped {with_pole} degrees in one step");
    assert!(without < 3.0, "without a pole, a joint jumped {without} degrees in one step");
    // The trap (ozz-animation's issue 172): a circle through the line start → pole takes the
    // target across it, where the pole's plane turns over, and so does the arm.
    let through = sweep_round(0.25, Some(pole), 360);
    println!("through the pole's line: {through:.1} degrees in one step");
    assert!(through > 90.0, "crossing the pole's line should flip the arm, it turned {through} degrees");
}

/// A chain of four bones, 0.5, 0.4, 0.3 and 0.2 long, each a little bent from the one before, with
/// nothing above it: its joints `0` (the root, which turns too) to `4` (the end).
fn four_bones() -> skinning_method::skeleton::Skeleton {
    let mut b = SkeletonBuilder::new();
    let offsets = [
        Vec3::ZERO,
        Vec3::new(0.5, 0.0, 0.0),
        Vec3::new(0.4, 0.05, 0.0),
        Vec3::new(0.3, 0.0, 0.05),
        Vec3::new(0.2, -0.05, 0.0),
    ];
    let bones: Vec<BoneId> =
        offsets.iter().enumerate().map(|(i, &at)| b.bone(&format!("j{i}"), at)).collect();
    for pair in bones.windows(2) {
        b.set_first_child(pair[0], pair[1]);
    }
    b.build().expect("a chain")
}

/// Where each joint is, from `trs` alone, by the skeleton's own walk.
fn chain_joints(skeleton: &skinning_method::skeleton::Skeleton, trs: &[Trs]) -> Vec<Vec3> {
    let local: Vec<_> = trs.iter().map(Trs::to_mat4).collect();
    let mut world = vec![glam::Mat4::IDENTITY; skeleton.len()];
    skeleton.compute_world(&local, &mut world);
    world.iter().map(|w| w.w_axis.truncate()).collect()
}

#[test]
fn ccd_brings_a_four_bone_chain_within_1e_4_of_its_length_in_a_stated_number_of_sweeps() {
    let skeleton = four_bones();
    let rest: Vec<Trs> = skeleton.bones().iter().map(|b| b.rest).collect();
    let bend = vec![Quat::IDENTITY; skeleton.len()];
    let before = chain_joints(&skeleton, &rest);
    let lengths: Vec<f32> = before.windows(2).map(|p| p[0].distance(p[1])).collect();
    let length: f32 = lengths.iter().sum();
    let mut most = 0;
    for fraction in [0.3, 0.6, 0.9] {
        // Sweeps needed to come within 1e-3, 1e-4 and 1e-5 of the chain's length: the largest, and the sum.
        let (mut largest, mut sum, mut targets) = ([0usize; 3], [0usize; 3], 0);
        for direction in directions(40) {
            let target = direction * fraction * length;
            let mut chain = Chain::new(&skeleton, 4, 4).expect("four turning joints");
            let mut trs = rest.clone();
            chain.measure(&trs, &bend);
            let mut needed = [None; 3];
            for sweeps in 0..=ccd::MAX_SWEEPS {
                let off = chain.joint(4).distance(target) / length;
                for (k, bound) in [1e-3, 1e-4, 1e-5].into_iter().enumerate() {
                    if off <= bound && needed[k].is_none() {
                        needed[k] = Some(sweeps);
                    }
                }
                if needed[2].is_some() {
                    break;
                }
                ccd::sweep(&mut chain, &mut trs, &bend, target);
            }
            let needed = needed.map(|n| n.unwrap_or_else(|| panic!("no convergence towards {target}")));
            for k in 0..3 {
                (largest[k], sum[k]) = (largest[k].max(needed[k]), sum[k] + needed[k]);
            }
            targets += 1;
            // The skeleton's own walk agrees, and no bone changed its length.
            let after = chain_joints(&skeleton, &trs);
            assert!(after[4].distance(target) <= 1e-5 * length, "the chain's measure and the walk disagree");
            for (i, pair) in after.windows(2).enumerate() {
                let change = (pair[0].distance(pair[1]) - lengths[i]).abs();
                assert!(change <= LENGTHS * length, "bone {i} changed length by {change}");
            }
        }
        let mean = sum.map(|s| s as f32 / targets as f32);
        println!(
            "CCD, four bones, {targets} targets {fraction} of the chain away: sweeps to 1e-3 / 1e-4 / 1e-5 of its \
             length: at most {} / {} / {}, on average {:.1} / {:.1} / {:.1}",
            largest[0], largest[1], largest[2], mean[0], mean[1], mean[2]
        );
        most = most.max(largest[1]);
    }
    assert!(most <= 50, "CCD took {most} sweeps to come within 1e-4 of the chain's length");
}

/// The bits of every number of a pose: equal bits, the same pose to the last bit.
fn bits(trs: &[Trs]) -> Vec<u32> {
    let numbers = |t: &Trs| {
        [t.translation.to_array(), t.scale.to_array()].concat().into_iter().chain(t.rotation.to_array())
    };
    trs.iter().flat_map(numbers).map(f32::to_bits).collect()
}

#[test]
fn weight_0_changes_nothing_and_weight_1_is_the_solve() {
    let (model, clip) = article();
    let bend = vec![Quat::IDENTITY; model.skeleton.len()];
    let target = Vec3::new(0.35, 0.25, 0.1);
    let mut reach = Reach::new(&model.skeleton, scene::BONE31, TWO_BONE, target).expect("a chain");
    reach.pole = Some(Vec3::new(0.3, 0.0, 0.3));
    reach.weight = 0.0;
    let mut untouched = clip.clone();
    let reached = reach.solve(&mut untouched, &bend);
    assert_eq!(bits(&untouched), bits(&clip), "weight 0 changed the pose");
    let clip_end = joints(&model, &clip, &bend)[scene::BONE31];
    let clip_distance = clip_end.as_dvec3().distance(target.as_dvec3());
    assert_eq!(reached.distance, clip_distance, "weight 0 reports the clip's own distance (in f64)");

    // Weight 1: bit for bit what the two-bone solver does on its own.
    reach.weight = 1.0;
    let mut weighted = clip.clone();
    reach.solve(&mut weighted, &bend);
    let mut solved = clip.clone();
    let mut chain = Chain::new(&model.skeleton, scene::BONE31, 2).expect("a chain");
    two_bone::solve(&mut chain, &mut solved, &bend, target, reach.pole, 1.0);
    assert_eq!(bits(&weighted), bits(&solved), "weight 1 is not the solve");

    // In between: each joint turns part of the way, so the end lands between the two.
    let mut distances = Vec::new();
    for weight in [0.25, 0.5, 0.75] {
        reach.weight = weight;
        let mut trs = clip.clone();
        distances.push(reach.solve(&mut trs, &bend).distance);
        let expected = clip[scene::BONE2].rotation.slerp(solved[scene::BONE2].rotation, weight);
        assert!(degrees_between(trs[scene::BONE2].rotation, expected) < 1e-3, "the elbow is not slerped");
    }
    let whole = clip_distance;
    assert!(
        whole > distances[0]
            && distances[0] > distances[1]
            && distances[1] > distances[2]
            && distances[2] > 0.0,
        "the end should come closer as the weight grows: {whole} then {distances:?}"
    );
}

#[test]
fn the_two_solvers_agree_on_where_a_two_bone_chain_ends() {
    let (model, clip) = article();
    let bend = vec![Quat::IDENTITY; model.skeleton.len()];
    let start = joints(&model, &clip, &bend)[scene::BONE1];
    let length = 0.2 + 0.05f32.sqrt();
    let mut two = Reach::new(&model.skeleton, scene::BONE31, TWO_BONE, Vec3::ZERO).expect("a chain");
    let mut ccd =
        Reach::new(&model.skeleton, scene::BONE31, Solver::Ccd { bones: 2 }, Vec3::ZERO).expect("a chain");
    assert_eq!(two.bones(), ccd.bones(), "the same three joints");
    let (mut largest, mut most_sweeps) = (0.0f32, 0);
    for direction in directions(40) {
        for fraction in [0.5, 0.8, 1.5] {
            let target = start + direction * fraction * length;
            (two.target, ccd.target) = (target, target);
            let (mut a, mut b) = (clip.clone(), clip.clone());
            two.solve(&mut a, &bend);
            let by_ccd = ccd.solve(&mut b, &bend);
            // Where each pose puts the end, measured as a frame does.
            let ends = [&a, &b].map(|trs| joints(&model, trs, &bend)[scene::BONE31]);
            largest = largest.max(ends[0].distance(ends[1]) / length);
            if fraction < 1.0 {
                most_sweeps = most_sweeps.max(by_ccd.sweeps);
            }
        }
    }
    println!(
        "two-bone and CCD ends apart by at most {largest:e} of the chain; CCD took up to {most_sweeps} sweeps"
    );
    assert!(largest <= 2e-5, "the two solvers put the end {largest} of the chain apart");
}

#[test]
fn soften_lets_the_end_fall_behind_near_full_stretch_without_a_kink() {
    let length = 1.0;
    // Below the ratio's distance, the target itself; past it, always short of full stretch, and
    // rising all the way.
    assert_eq!(two_bone::softened(0.5, length, 0.8), 0.5);
    assert_eq!(two_bone::softened(0.8, length, 0.8), 0.8);
    let mut before = 0.8;
    for i in 1..=400 {
        let d = 0.8 + i as f32 * 0.01;
        let aimed = two_bone::softened(d, length, 0.8);
        // (Far out, f32 runs out of digits for the last millionth: never past, never back.)
        let (rising, short) =
            if i <= 100 { (aimed > before, aimed < length) } else { (aimed >= before, aimed <= length) };
        assert!(rising && short, "{d}: aimed at {aimed} after {before}");
        before = aimed;
    }
    // No kink: just past the ratio it moves as fast as the target does.
    let slope = (two_bone::softened(0.8 + 1e-3, length, 0.8) - 0.8) / 1e-3;
    assert!((slope - 1.0).abs() < 0.01, "slope {slope} at the start of softening");
    // A ratio of 1 softens nothing.
    assert_eq!(two_bone::softened(0.99, length, 1.0), 0.99);

    // On the arm: softened, the end aims at that distance along the line to the target.
    let (model, clip) = article();
    let bend = vec![Quat::IDENTITY; model.skeleton.len()];
    let a = joints(&model, &clip, &bend)[scene::BONE1];
    let chain_length = 0.2 + 0.05f32.sqrt();
    let target = a + Vec3::new(0.0, 1.0, 0.0) * 0.98 * chain_length;
    let mut reach =
        Reach::new(&model.skeleton, scene::BONE31, Solver::TwoBone { soften: 0.9 }, target).expect("a chain");
    let mut trs = clip.clone();
    reach.solve(&mut trs, &bend);
    let end = joints(&model, &trs, &bend)[scene::BONE31];
    let expected = two_bone::softened(0.98 * chain_length, chain_length, 0.9);
    assert!((end.distance(a) - expected).abs() < 1e-6, "the end is not at the softened distance");
    assert!(end.distance(target) > 0.001, "softened, a target near full stretch is not quite reached");
}

#[test]
fn too_close_the_arm_folds_shut_towards_the_target() {
    let (model, clip) = article();
    let bend = vec![Quat::IDENTITY; model.skeleton.len()];
    let a = joints(&model, &clip, &bend)[scene::BONE1];
    // The bones are 0.2 and 0.2236 long: folded shut, the end is 0.0236 from the start.
    let target = a + Vec3::new(0.01, 0.0, 0.0);
    let mut reach = Reach::new(&model.skeleton, scene::BONE31, TWO_BONE, target).expect("a chain");
    let mut trs = clip.clone();
    reach.solve(&mut trs, &bend);
    let end = joints(&model, &trs, &bend)[scene::BONE31];
    let shut = 0.05f32.sqrt() - 0.2;
    assert!((end.distance(a) - shut).abs() < 1e-6, "folded, the end is {} from the start", end.distance(a));
    assert!((end - a).normalize().dot(Vec3::X) > 0.99999, "folded towards the target");
}

#[test]
fn a_chain_bent_by_hand_still_reaches() {
    // Right-drag bends a bone on top of whatever sets its rotation: the solve measures the chain
    // with the bends in it, so with a bend on any joint of the chain, or above it, the end still
    // reaches (a bend on the end joint itself turns only what hangs below it).
    let (model, clip) = article();
    let target = Vec3::new(0.3, 0.3, 0.1);
    let turn = Quat::from_axis_angle(Vec3::new(0.3, 0.5, 0.8).normalize(), 0.7);
    for bent in [scene::ROOT, scene::BONE1, scene::BONE2, scene::BONE31] {
        let mut bend = vec![Quat::IDENTITY; model.skeleton.len()];
        bend[bent] = turn;
        let mut reach = Reach::new(&model.skeleton, scene::BONE31, TWO_BONE, target).expect("a chain");
        let mut trs = clip.clone();
        reach.solve(&mut trs, &bend);
        let end = joints(&model, &trs, &bend)[scene::BONE31];
        assert!(end.distance(target) < 1e-6, "bent at bone {bent}: the end is {} off", end.distance(target));
        let mut ccd =
            Reach::new(&model.skeleton, scene::BONE31, Solver::Ccd { bones: 2 }, target).expect("a chain");
        let mut trs = clip.clone();
        ccd.solve(&mut trs, &bend);
        let end = joints(&model, &trs, &bend)[scene::BONE31];
        assert!(
            end.distance(target) < 1e-5,
            "bent at bone {bent}, CCD: the end is {} off",
            end.distance(target)
        );
    }
}

#[test]
fn ccd_reaches_with_the_foxs_leg_and_the_robots_arm_too() {
    let rigs =
        [("Fox.glb", "Walk", 0.3, "b_LeftFoot02_018"), ("RobotExpressive.glb", "Walking", 0.4, "Palm2R")];
    for (file, animation, time, end) in rigs {
        let Some((model, clip, end)) = sample(file, animation, time, end) else { return };
        let bend = vec![Quat::IDENTITY; model.skeleton.len()];
        let mut reach =
            Reach::new(&model.skeleton, end, Solver::Ccd { bones: 3 }, Vec3::ZERO).expect("three bones");
        let bones = reach.bones().to_vec();
        let before = joints(&model, &clip, &bend);
        let lengths: Vec<f32> = bones.windows(2).map(|p| before[p[0]].distance(before[p[1]])).collect();
        let length: f32 = lengths.iter().sum();
        let (mut worst, mut most) = (0.0f32, 0);
        for direction in directions(40) {
            reach.target = before[bones[0]] + direction * 0.6 * length;
            let mut trs = clip.clone();
            let reached = reach.solve(&mut trs, &bend);
            let after = joints(&model, &trs, &bend);
            worst = worst.max(after[end].distance(reach.target) / length);
            most = most.max(reached.sweeps);
            for (i, pair) in bones.windows(2).enumerate() {
                let change = (after[pair[0]].distance(after[pair[1]]) - lengths[i]).abs() / length;
                assert!(change <= LENGTHS, "{file}: bone {i} of the chain changed length by {change} of it");
            }
        }
        println!(
            "{file} CCD on 3 bones to {}: within {worst:e} of the chain in at most {most} sweeps",
            model.skeleton.bone(end).name
        );
        assert!(worst <= ccd::TOLERANCE, "{file}: CCD missed by {worst} of the chain");
    }
}

#[test]
fn a_chain_needs_as_many_bones_above_its_end_as_turn() {
    let model = scene::article().expect("scene");
    let short = Chain::new(&model.skeleton, scene::BONE1, 2).expect_err("bone1 has only root above it");
    assert_eq!(short.to_string(), "a chain of 2 cannot end at bone1: it has 1 bone above it (root)");
    let root = Chain::new(&model.skeleton, scene::ROOT, 1).expect_err("nothing above the root");
    assert_eq!(root.to_string(), "root is the root: no bone above it can turn to move it");
    let long = Chain::new(&model.skeleton, scene::BONE31, 4).expect_err("three bones above bone31");
    assert_eq!(
        long.to_string(),
        "a chain of 4 cannot end at bone31: it has 3 bones above it (bone2, bone1, root)"
    );
    let whole = Chain::new(&model.skeleton, scene::BONE31, 3).expect("root, bone1 and bone2 turn");
    assert_eq!(whole.bones(), [scene::ROOT, scene::BONE1, scene::BONE2, scene::BONE31]);
}
