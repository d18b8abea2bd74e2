//! Retargeting's three invariants, on small rigs made here: a clip onto its own skeleton is the
//! clip; onto a copy twice the size, the pose twice the size; onto a rig with the same names but
//! other rest poses, every matched bone turns from its rest as the source's does.

use super::*;
use crate::skeleton::SkeletonBuilder;

/// Armature, hips, spine, a leg and a shin, placed by `rest` (a turn and a size per bone).
fn rig(size: f32, turns: [Quat; 5]) -> Skeleton {
    let at = [
        Vec3::ZERO,
        Vec3::new(0.0, 1.0, 0.0),
        Vec3::new(0.0, 0.3, 0.0),
        Vec3::new(-0.1, -0.05, 0.0),
        Vec3::new(0.0, -0.45, 0.0),
    ];
    let names =
        ["Armature", "mixamorig:Hips", "mixamorig:Spine", "mixamorig:RightUpLeg", "mixamorig:RightLeg"];
    let mut b = SkeletonBuilder::new();
    let ids: Vec<BoneId> = (0..5)
        .map(|i| {
            b.bone_with(names[i], Trs { translation: at[i] * size, rotation: turns[i], scale: Vec3::ONE })
        })
        .collect();
    b.set_first_child(ids[0], ids[1]);
    b.set_first_child(ids[1], ids[2]);
    b.set_sibling(ids[2], ids[3]);
    b.set_first_child(ids[3], ids[4]);
    b.build().expect("a tree")
}

/// The hips walk forwards and turn, the spine bends, the leg swings, the shin bends.
fn walk() -> Clip {
    let q = |axis: Vec3, d: f32| Quat::from_axis_angle(axis, d.to_radians());
    let track = |bone, keys: [f32; 3], axis| Track {
        rotation: Some(Channel::linear(&[
            (0.0, q(axis, keys[0])),
            (0.5, q(axis, keys[1])),
            (1.0, q(axis, keys[2])),
        ])),
        ..Track::new(bone)
    };
    let hips = Track {
        translation: Some(Channel::linear(&[
            (0.0, Vec3::new(0.0, 1.0, 0.0)),
            (0.4, Vec3::new(0.1, 1.05, 0.8)),
            (1.0, Vec3::new(0.0, 1.0, 2.0)),
        ])),
        ..track(1, [0.0, 20.0, 10.0], Vec3::Y)
    };
    let tracks = vec![
        hips,
        track(2, [0.0, 15.0, -5.0], Vec3::X),
        track(3, [30.0, -30.0, 30.0], Vec3::X),
        track(4, [0.0, 40.0, 0.0], Vec3::X),
    ];
    Clip { name: "Walk".into(), duration: 1.0, motion: Motion::Keyframes(tracks) }
}

/// Each bone matched to the one of the same index; the hips are bone 1; the legs' ratio.
fn same_names(source: &Skeleton, target: &Skeleton) -> Matching {
    let ratio = leg_length(target, 1, Vec3::Y) / leg_length(source, 1, Vec3::Y);
    let source_of = (0..target.len()).map(|b| (b > 0).then_some(b)).collect();
    Matching { source_of, hips: Some((1, 1)), ratio, turn: Quat::IDENTITY }
}

fn world(skeleton: &Skeleton, clip: &Clip, t: f64) -> Vec<Mat4> {
    let mut local = vec![Trs::IDENTITY; skeleton.len()];
    clip.sample(skeleton, t, &mut local);
    let matrices: Vec<Mat4> = local.iter().map(Trs::to_mat4).collect();
    let mut world = vec![Mat4::IDENTITY; skeleton.len()];
    skeleton.compute_world(&matrices, &mut world);
    world
}

const PLAIN: [Quat; 5] = [Quat::IDENTITY; 5];

#[test]
fn a_clip_onto_its_own_skeleton_is_the_clip() {
    let skeleton = rig(1.0, PLAIN);
    let clip = walk();
    let again = retarget_clip(&skeleton, &clip, &skeleton, &same_names(&skeleton, &skeleton));
    assert_eq!((again.name.as_str(), again.duration), ("Walk", 1.0));
    for t in [0.0, 0.13, 0.4, 0.5, 0.77, 0.99, 1.6] {
        let (a, b) = (world(&skeleton, &clip, t), world(&skeleton, &again, t));
        for (x, y) in a.iter().zip(&b) {
            assert!(x.abs_diff_eq(*y, 1e-6), "at {t}: {x} against {y}");
        }
    }
}

#[test]
fn onto_a_copy_twice_the_size_the_pose_is_twice_the_size() {
    let (small, big) = (rig(1.0, PLAIN), rig(2.0, PLAIN));
    let clip = walk();
    let matching = same_names(&small, &big);
    assert!((matching.ratio - 2.0).abs() < 1e-6, "{}", matching.ratio);
    let again = retarget_clip(&small, &clip, &big, &matching);
    for t in [0.0, 0.2, 0.4, 0.5, 0.9] {
        let (a, b) = (world(&small, &clip, t), world(&big, &again, t));
        for (x, y) in a.iter().zip(&b) {
            let scaled = Mat4::from_scale(Vec3::splat(2.0)) * *x * Mat4::from_scale(Vec3::splat(0.5));
            assert!(scaled.abs_diff_eq(*y, 1e-5), "at {t}: {scaled} against {y}");
        }
    }
}

#[test]
fn onto_another_rig_every_matched_bone_turns_from_its_rest_as_the_source_does() {
    let source = rig(1.0, PLAIN);
    let q = Quat::from_axis_angle;
    let turns = [
        Quat::IDENTITY,
        q(Vec3::Y, 1.2),
        q(Vec3::Z, -0.4),
        q(Vec3::X, 0.7),
        q(Vec3::new(0.6, 0.0, 0.8), 0.5),
    ];
    let target = rig(0.8, turns);
    let clip = walk();
    let matching = same_names(&source, &target);
    let again = retarget_clip(&source, &clip, &target, &matching);
    let (source_rest, target_rest) = (source.rest_world(), target.rest_world());
    // At every key time of the clip (its keys are the retargeted clip's keys).
    for t in [0.0f64, 0.4, 0.5, 1.0] {
        let (a, b) = (world(&source, &clip, t.min(0.999_999)), world(&target, &again, t.min(0.999_999)));
        for bone in 1..5 {
            let from_rest = |w: &Mat4, r: &Mat4| rotation_of(w) * rotation_of(r).inverse();
            let (s, d) = (from_rest(&a[bone], &source_rest[bone]), from_rest(&b[bone], &target_rest[bone]));
            assert!(s.dot(d).abs() > 1.0 - 1e-5, "bone {bone} at {t}: {s} against {d}");
        }
    }
    // The hips stride as much further as the target's legs are longer, from the target's rest.
    let (a, b) = (world(&source, &clip, 0.4), world(&target, &again, 0.4));
    let (moved, moved_target) = (a[1].w_axis - source_rest[1].w_axis, b[1].w_axis - target_rest[1].w_axis);
    assert!(matching.ratio > 0.1 && matching.ratio < 1.0, "{}", matching.ratio);
    assert!((moved * matching.ratio).abs_diff_eq(moved_target, 1e-5), "{moved} {moved_target}");
}

#[test]
fn a_target_bone_without_a_match_keeps_its_rest_pose() {
    let skeleton = rig(1.0, PLAIN);
    let mut matching = same_names(&skeleton, &skeleton);
    matching.source_of[2] = None;
    let again = retarget_clip(&skeleton, &walk(), &skeleton, &matching);
    let mut local = vec![Trs::IDENTITY; skeleton.len()];
    again.sample(&skeleton, 0.5, &mut local);
    assert_eq!(local[2], skeleton.bone(2).rest);
    let Motion::Keyframes(tracks) = &again.motion else { panic!("keys") };
    assert_eq!(tracks.iter().map(|t| t.bone).collect::<Vec<_>>(), vec![1, 3, 4]);
}
