//! Root motion on a small walker made here: an armature, hips a metre up, one leg; a walk that
//! carries the hips 2 units along +z in a second, and one that also turns them a quarter turn.

use super::*;
use crate::clip::{Channel, Motion, Track};
use crate::scene;
use crate::skeleton::SkeletonBuilder;
use std::f32::consts::FRAC_PI_2;

const HIPS: BoneId = 1;

fn walker() -> Skeleton {
    let mut b = SkeletonBuilder::new();
    let armature = b.bone("Armature", Vec3::ZERO);
    let hips = b.bone("mixamorig:Hips", Vec3::new(0.0, 1.0, 0.0));
    let leg = b.bone("mixamorig:RightLeg", Vec3::new(-0.1, -0.5, 0.0));
    b.set_first_child(armature, hips);
    b.set_first_child(hips, leg);
    b.build().expect("a tree")
}

/// The hips go 2 units along +z over a second, bobbing 5 cm at mid-stride.
fn walk() -> Clip {
    let keys =
        [(0.0, Vec3::new(0.0, 1.0, 0.0)), (0.5, Vec3::new(0.0, 1.05, 1.0)), (1.0, Vec3::new(0.0, 1.0, 2.0))];
    let track = Track { translation: Some(Channel::linear(&keys)), ..Track::new(HIPS) };
    Clip { name: "Walk".into(), duration: 1.0, motion: Motion::Keyframes(vec![track]) }
}

/// The hips go a quarter of a circle of radius 1 round (-1, 1, 0), turning with it, in 2 s.
fn turn() -> Clip {
    let at = |a: f32| (2.0 * a, Vec3::new(a.cos() - 1.0, 1.0, a.sin()), Quat::from_rotation_y(-a));
    let keys: Vec<_> = (0..=8).map(|k| at(k as f32 / 8.0 * FRAC_PI_2)).collect();
    let moves: Vec<_> = keys.iter().map(|&(t, p, _)| (t / FRAC_PI_2, p)).collect();
    let turns: Vec<_> = keys.iter().map(|&(t, _, q)| (t / FRAC_PI_2, q)).collect();
    let track = Track {
        translation: Some(Channel::linear(&moves)),
        rotation: Some(Channel::linear(&turns)),
        ..Track::new(HIPS)
    };
    Clip { name: "Turn".into(), duration: 2.0, motion: Motion::Keyframes(vec![track]) }
}

/// The hips' world position at each of `frames` frames 1/60 s apart, played as `mode` asks.
fn hips_path(clip: &Clip, mode: Mode, frames: usize) -> Vec<Vec3> {
    let skeleton = walker();
    let mut motion = RootMotion::new(&skeleton, clip, HIPS, Vec3::Y, mode);
    let mut local = vec![Trs::IDENTITY; skeleton.len()];
    (0..=frames)
        .map(|f| {
            let time = f as f64 / 60.0;
            clip.sample(&skeleton, time, &mut local);
            motion.take(&skeleton, time, &mut local);
            carried(&skeleton, &local, HIPS).w_axis.truncate()
        })
        .collect()
}

/// Each frame's step along the floor, and their median.
fn steps(path: &[Vec3]) -> (Vec<f32>, f32) {
    let floor = |p: Vec3| Vec3::new(p.x, 0.0, p.z);
    let steps: Vec<f32> = path.windows(2).map(|w| floor(w[1]).distance(floor(w[0]))).collect();
    let mut sorted = steps.clone();
    sorted.sort_by(f32::total_cmp);
    let median = sorted[sorted.len() / 2];
    (steps, median)
}

#[test]
fn three_and_a_half_loops_of_a_two_unit_walk_go_seven_units_on_without_a_jump() {
    let path = hips_path(&walk(), Mode::On, 210);
    let last = path[210];
    // Within 1e-4 of the clip's size (its 2 units of travel).
    assert!((last.z - 7.0).abs() < 2e-4 && last.x.abs() < 2e-4, "{last}");
    let (steps, median) = steps(&path);
    let most = steps.iter().copied().fold(0.0, f32::max);
    assert!(most <= 1.5 * median, "a frame moved {most}, the median frame {median}");
    assert!((median - 2.0 / 60.0).abs() < 1e-4, "{median}");
}

#[test]
fn off_plays_the_clip_as_stored_and_jumps_back_at_each_loop() {
    let path = hips_path(&walk(), Mode::Off, 210);
    assert!((path[210].z - 1.0).abs() < 1e-4, "half way through its fourth loop: {}", path[210]);
    let (steps, median) = steps(&path);
    let most = steps.iter().copied().fold(0.0, f32::max);
    assert!(most > 1.5 * median, "the jump back: {most} against {median}");
}

#[test]
fn in_place_keeps_the_hips_over_the_origin_and_their_bob() {
    let path = hips_path(&walk(), Mode::InPlace, 150);
    for (f, p) in path.iter().enumerate() {
        assert!(p.x.abs() < 1e-5 && p.z.abs() < 1e-5, "frame {f}: {p}");
    }
    assert!((path[30].y - 1.05).abs() < 1e-5, "mid-stride the hips are up: {}", path[30]);
}

#[test]
fn a_turning_walk_keeps_turning_and_four_quarter_turns_come_back() {
    let clip = turn();
    let skeleton = walker();
    let motion = RootMotion::new(&skeleton, &clip, HIPS, Vec3::Y, Mode::On);
    let lap = motion.lap();
    assert!((lap.heading + FRAC_PI_2).abs() < 1e-5, "a quarter turn clockwise seen from above: {lap:?}");
    // The closed form is the lap made again and again.
    let mut again = Travel::NONE;
    for n in 0..=5 {
        let sum = lap.repeated(n as f64, Vec3::Y);
        assert!(sum.offset.distance(again.offset) < 1e-5, "{n} loops: {sum:?} against {again:?}");
        assert!((sum.rotation(Vec3::Y).dot(again.rotation(Vec3::Y)).abs() - 1.0).abs() < 1e-6, "{n}");
        again = lap.after(again, Vec3::Y);
    }
    let path = hips_path(&clip, Mode::On, 480);
    assert!(path[480].distance(path[0]) < 1e-4, "four loops close the circle: {} {}", path[0], path[480]);
    let (steps, median) = steps(&path);
    assert!(steps.iter().all(|&s| s <= 1.5 * median), "no jump at a loop");
}

#[test]
fn the_travel_so_far_is_where_on_carries_the_body() {
    let clip = walk();
    let skeleton = walker();
    let mut motion = RootMotion::new(&skeleton, &clip, HIPS, Vec3::Y, Mode::On);
    let mut local = vec![Trs::IDENTITY; skeleton.len()];
    clip.sample(&skeleton, 2.25, &mut local);
    motion.take(&skeleton, 2.25, &mut local);
    assert!(motion.travel.offset.distance(Vec3::new(0.0, 0.0, 4.5)) < 1e-5, "{:?}", motion.travel);
    assert!(motion.travel.heading.abs() < 1e-6);
}

#[test]
fn the_hips_carry_the_body_and_the_articles_scene_has_none() {
    assert_eq!(carrier(&walker(), &walk()), Some(HIPS));
    let article = scene::article().expect("valid").skeleton;
    for clip in scene::clips().expect("valid") {
        assert_eq!(carrier(&article, &clip), None, "{}", clip.name);
    }
}
