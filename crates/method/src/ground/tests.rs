//! Feet on the ground's invariants (issue 41, item 4), every frame of a walk on the spot, on a flat
//! floor, up and down slopes and on steps: each planted foot's sole on the ground within 1e-3 of
//! the leg's length, no knee crossed, the hips lowered the least that lets both feet reach, and the
//! bones' lengths kept.

use super::{Feet, Ground, PLANTED, Shape, drop_to_reach};
use crate::reach::bend_rule::Facing;
use crate::skeleton::{BoneId, Skeleton, SkeletonBuilder};
use crate::transform::Trs;
use glam::{Mat4, Quat, Vec3};
use std::f32::consts::TAU;

/// Hips at (0, 1, 0), and two legs of 0.45 and 0.42 down to ankles 0.08 over the floor.
fn legs() -> (Skeleton, BoneId, [BoneId; 2]) {
    let mut b = SkeletonBuilder::new();
    let root = b.bone("root", Vec3::ZERO);
    let hips = b.bone("hips", Vec3::new(0.0, 1.0, 0.0));
    b.set_first_child(root, hips);
    let mut ankles = [0; 2];
    let mut previous = None;
    for (i, side) in [1.0, -1.0].into_iter().enumerate() {
        let up = b.bone(&format!("up{i}"), Vec3::new(0.1 * side, -0.05, 0.0));
        let knee = b.bone(&format!("knee{i}"), Vec3::new(0.0, -0.45, 0.0));
        ankles[i] = b.bone(&format!("ankle{i}"), Vec3::new(0.0, -0.42, 0.0));
        match previous {
            None => b.set_first_child(hips, up),
            Some(other) => b.set_sibling(other, up),
        };
        b.set_first_child(up, knee);
        b.set_first_child(knee, ankles[i]);
        previous = Some(up);
    }
    (b.build().expect("a tree"), hips, ankles)
}

fn world(skeleton: &Skeleton, local: &[Trs]) -> Vec<Vec3> {
    let matrices: Vec<Mat4> = local.iter().map(Trs::to_mat4).collect();
    let mut world = vec![Mat4::IDENTITY; skeleton.len()];
    skeleton.compute_world(&matrices, &mut world);
    world.iter().map(|m| m.w_axis.truncate()).collect()
}

/// The walk at phase `t` (0 to 1): the legs swing 20° each way, the swinging knee bends, and the
/// hips ride as high as lets the lower foot stand on the floor (its ankle 0.08 up).
fn walk(skeleton: &Skeleton, ankles: [BoneId; 2], t: f32) -> Vec<Trs> {
    let mut local: Vec<Trs> = skeleton.bones().iter().map(|b| b.rest).collect();
    let swing = 20f32.to_radians() * (TAU * t).sin();
    for (i, side) in [1.0, -1.0].into_iter().enumerate() {
        let knee = skeleton.bone(ankles[i]).parent.expect("a knee");
        let up = skeleton.bone(knee).parent.expect("a hip");
        local[up].rotation = Quat::from_rotation_x(side * swing - 0.1);
        local[knee].rotation = Quat::from_rotation_x(0.2 + 0.8 * (side * (TAU * t).sin()).max(0.0));
    }
    let lowest = ankles.map(|a| world(skeleton, &local)[a].y).into_iter().fold(f32::MAX, f32::min);
    local[1].translation.y += 0.08 - lowest;
    local
}

#[test]
fn the_least_drop_is_the_quadratics_smaller_root() {
    // Straight down 1.2 from a hip, a leg of 1: a drop of 0.2.
    assert!((drop_to_reach(Vec3::new(0.0, -1.2, 0.0), Vec3::Y, 1.0) - 0.2).abs() < 1e-6);
    // 0.6 to the side and 1.0 down: |(0.6, -1 + d)| = 1 at d = 0.2.
    assert!((drop_to_reach(Vec3::new(0.6, -1.0, 0.0), Vec3::Y, 1.0) - 0.2).abs() < 1e-6);
    // Within reach already: no drop; too far to the side: the drop that brings it level.
    assert_eq!(drop_to_reach(Vec3::new(0.0, -0.5, 0.0), Vec3::Y, 1.0), 0.0);
    assert!((drop_to_reach(Vec3::new(2.0, -0.3, 0.0), Vec3::Y, 1.0) - 0.3).abs() < 1e-6);
}

#[test]
fn every_frame_of_a_walk_stands_on_every_ground() {
    let (skeleton, hips, ankles) = legs();
    let facing = Facing::GLTF;
    let shapes = [
        Shape::Flat,
        Shape::Slope { degrees: 12.0 },
        Shape::Slope { degrees: -20.0 },
        Shape::Steps { height: 0.12, depth: 0.15 },
    ];
    let bend = vec![Quat::IDENTITY; skeleton.len()];
    for shape in shapes {
        let mut feet = Feet::new(&skeleton, hips, &ankles, Ground { shape, facing }).expect("two-bone legs");
        let (mut planted, mut lowered_frames) = (0, 0);
        for frame in 0..48 {
            let clip = walk(&skeleton, ankles, frame as f32 / 48.0);
            let mut local = clip.clone();
            let stood = feet.solve(&mut local, &bend);
            let (before, after) = (world(&skeleton, &clip), world(&skeleton, &local));
            for ((bones, length), (height, is_planted)) in feet.legs().zip(&stood.soles) {
                let [hip, knee, ankle] = [bones[0], bones[1], bones[2]];
                if *is_planted {
                    planted += 1;
                    assert!(height.abs() < 1e-3 * length, "{shape:?} {frame}: a planted sole {height} off");
                } else {
                    assert!(
                        *height > -1e-3 * length,
                        "{shape:?} {frame}: a lifted sole {height} in the ground"
                    );
                }
                // No knee crossed: it stays in front of the line from the hip to the ankle (on
                // it, for a leg at its full stretch).
                let line = (after[ankle] - after[hip]).normalize();
                let out = after[knee] - after[hip] - line * line.dot(after[knee] - after[hip]);
                assert!(
                    out.dot(facing.front) > -1e-5 * length,
                    "{shape:?} {frame}: the knee went back: {out}"
                );
                for (a, b) in [(hip, knee), (knee, ankle)] {
                    let (was, is) = (before[a].distance(before[b]), after[a].distance(after[b]));
                    assert!((was - is).abs() < 1e-5, "{shape:?} {frame}: a length went from {was} to {is}");
                }
            }
            // The least drop: with the hips down at all, some leg is at its full stretch.
            if stood.lowered > 0.0 {
                lowered_frames += 1;
                let stretched = feet.legs().any(|(bones, length)| {
                    (after[bones[0]].distance(after[bones[2]]) - length).abs() < 1e-4 * length
                });
                assert!(stretched, "{shape:?} {frame}: lowered {} more than any leg needs", stood.lowered);
            }
        }
        assert!(planted >= 48, "{shape:?}: only {planted} planted feet in 48 frames");
        if shape != Shape::Flat {
            assert!(lowered_frames > 0, "{shape:?}: the hips never came down");
        }
    }
}

#[test]
fn on_the_flat_floor_a_planted_foot_is_where_the_clip_put_it() {
    let (skeleton, hips, ankles) = legs();
    let ground = Ground { shape: Shape::Flat, facing: Facing::GLTF };
    let mut feet = Feet::new(&skeleton, hips, &ankles, ground).expect("two-bone legs");
    let bend = vec![Quat::IDENTITY; skeleton.len()];
    let clip = walk(&skeleton, ankles, 0.3);
    let mut local = clip.clone();
    let stood = feet.solve(&mut local, &bend);
    assert_eq!(stood.lowered, 0.0);
    let (before, after) = (world(&skeleton, &clip), world(&skeleton, &local));
    for ((_, length), (&ankle, (_, planted))) in feet.legs().zip(ankles.iter().zip(&stood.soles)) {
        let lift = before[ankle].y - 0.08;
        assert_eq!(*planted, lift < PLANTED * length, "{lift}");
        // A lifted foot comes down by the planted margin, a planted one not at all.
        let down = before[ankle].y - after[ankle].y;
        let expected = if *planted { lift } else { PLANTED * length };
        assert!((down - expected).abs() < 1e-4, "{ankle}: down {down}, not {expected}");
    }
}

#[test]
fn as_a_reach_the_feet_stand_as_they_do_alone() {
    // The frame's step 2 solves reaches (`reach::solve`): a ground's reach is the feet, the same
    // pose to the bit, the hips lowered too, and what they did kept on the reach.
    let (skeleton, hips, ankles) = legs();
    let ground = Ground { shape: Shape::Slope { degrees: 12.0 }, facing: Facing::GLTF };
    let mut feet = Feet::new(&skeleton, hips, &ankles, ground).expect("two-bone legs");
    let mut reaches = [crate::reach::Reach::feet(&skeleton, hips, ankles, ground).expect("two-bone legs")];
    let bend = vec![Quat::IDENTITY; skeleton.len()];
    for frame in 0..12 {
        let clip = walk(&skeleton, ankles, frame as f32 / 12.0);
        let (mut alone, mut reached) = (clip.clone(), clip.clone());
        let stood = feet.solve(&mut alone, &bend);
        crate::reach::solve(&mut reaches, &mut reached, &bend);
        assert_eq!(alone, reached, "frame {frame}");
        assert_eq!(reaches[0].standing().map(|f| &f.stood), Some(&stood), "frame {frame}");
        assert_eq!(reaches[0].bones(), feet.legs().next().expect("a leg").0);
    }
    assert_ne!(reaches[0].standing().map(|f| f.stood.lowered), Some(0.0), "the slope lowers the hips");
}
