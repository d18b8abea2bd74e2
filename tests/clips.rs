//! Keyframed clips: sampling at and between keys, slerp, looping, and the shipped clips.

use glam::{Mat4, Quat, Vec3, vec3};
use skinning::clip::{Clip, Key, Motion, Track};
use skinning::model::Pose;
use skinning::scene::{self, BONE1, BONE2};

fn key(time: f32, translation: Vec3, degrees_about_z: f32) -> Key {
    Key { time, translation, rotation: Quat::from_rotation_z(degrees_about_z.to_radians()) }
}

/// The angle (degrees, about z) and translation of a local transform.
fn angle_and_position(m: Mat4) -> (f32, Vec3) {
    let (_, rotation, translation) = m.to_scale_rotation_translation();
    let x_axis = rotation * Vec3::X;
    (x_axis.y.atan2(x_axis.x).to_degrees(), translation)
}

#[test]
fn keys_are_hit_exactly_at_key_times() {
    let track = Track {
        bone: 0,
        keys: vec![key(0.0, Vec3::ZERO, 0.0), key(1.0, vec3(1.0, 2.0, 0.0), 90.0), key(3.0, Vec3::X, -30.0)],
    };
    for k in &track.keys {
        let expected = Mat4::from_rotation_translation(k.rotation, k.translation);
        assert!(track.sample(k.time).abs_diff_eq(expected, 1e-6), "key at {}", k.time);
    }
    // Outside the keys, the nearest key holds.
    assert!(track.sample(-1.0).abs_diff_eq(track.sample(0.0), 1e-6));
    assert!(track.sample(9.0).abs_diff_eq(track.sample(3.0), 1e-6));
}

#[test]
fn halfway_between_two_keys_is_the_slerp_midpoint() {
    // From 0 to 90 degrees about z between t = 1 and t = 2, translation from (0,0,0) to (2,4,0):
    // at t = 1.5 the bone is at 45 degrees, at (1, 2, 0); at t = 1.25, 22.5 degrees (constant speed).
    let track = Track { bone: 0, keys: vec![key(1.0, Vec3::ZERO, 0.0), key(2.0, vec3(2.0, 4.0, 0.0), 90.0)] };
    let (angle, position) = angle_and_position(track.sample(1.5));
    assert!((angle - 45.0).abs() < 1e-3, "{angle}");
    assert!(position.abs_diff_eq(vec3(1.0, 2.0, 0.0), 1e-6));
    let (angle, _) = angle_and_position(track.sample(1.25));
    assert!((angle - 22.5).abs() < 1e-3, "{angle}");
    // A rotation matrix stays a rotation (no shrinking), unlike a matrix lerp would.
    let m = track.sample(1.5);
    assert!((m.x_axis.truncate().length() - 1.0).abs() < 1e-6);
}

#[test]
fn slerp_takes_the_short_path() {
    // From +170 to -170 degrees: the short way is 20 degrees through 180, not 340 through 0.
    let track = Track { bone: 0, keys: vec![key(0.0, Vec3::ZERO, 170.0), key(1.0, Vec3::ZERO, -170.0)] };
    let (angle, _) = angle_and_position(track.sample(0.5));
    assert!((angle.abs() - 180.0).abs() < 1e-3, "went the long way: {angle}");
    // The same holds when the second key is stored as the opposite quaternion (same rotation).
    let mut keys = track.keys.clone();
    keys[1].rotation = -keys[1].rotation;
    let (angle, _) = angle_and_position(Track { bone: 0, keys }.sample(0.5));
    assert!((angle.abs() - 180.0).abs() < 1e-3, "went the long way: {angle}");
}

#[test]
fn clips_loop() {
    let model = scene::article();
    let mut a = Pose::new(&model);
    let mut b = Pose::new(&model);
    for clip in scene::clips() {
        let d = clip.duration as f64;
        for t in [0.1, 1.3, 2.9] {
            a.update(&model, &clip, t);
            for loops in [1.0, 7.0, -2.0, 10_000.0] {
                b.update(&model, &clip, t + loops * d);
                for (p, q) in a.skinned.iter().zip(&b.skinned) {
                    assert!(p.abs_diff_eq(*q, 1e-5), "{} at {t} + {loops} loops", clip.name);
                }
            }
        }
        assert!((clip.wrap(d) - 0.0).abs() < 1e-9, "{}: the end of the loop is its start", clip.name);
    }
}

#[test]
fn sampling_is_a_pure_function_of_time() {
    let model = scene::article();
    let mut forwards = Pose::new(&model);
    let mut backwards = Pose::new(&model);
    let clip = scene::bend();
    forwards.update(&model, &clip, 1.0);
    backwards.update(&model, &clip, 3.7);
    backwards.update(&model, &clip, 0.2);
    backwards.update(&model, &clip, 1.0);
    assert_eq!(forwards.skinned, backwards.skinned);
}

#[test]
fn bend_keeps_every_bone_length() {
    let model = scene::article();
    let clip = scene::bend();
    let mut pose = Pose::new(&model);
    let bind = Pose::new(&model);
    let length = |p: &Pose, b: usize| {
        let parent = model.skeleton.bone(b).parent.expect("not the root");
        p.joint(b).distance(p.joint(parent))
    };
    for i in 0..=40 {
        pose.update(&model, &clip, i as f64 * 0.1);
        for b in 1..model.skeleton.len() {
            assert!((length(&pose, b) - length(&bind, b)).abs() < 1e-5, "bone {b} at {}", i as f64 * 0.1);
        }
    }
    // And it does move: the arm curls up by t = 2.
    pose.update(&model, &clip, 2.0);
    assert!(pose.joint(scene::BONE31).y > 0.3, "{}", pose.joint(scene::BONE31));
}

#[test]
fn twist_turns_bone2_about_its_length_and_pinches_the_mesh() {
    let model = scene::article();
    let mut pose = Pose::new(&model);
    pose.update(&model, &scene::twist(), 2.0); // held at 150 degrees
    let (_, rotation, _) = pose.world[BONE2].to_scale_rotation_translation();
    let (axis, angle) = rotation.to_axis_angle();
    assert!((angle - 150f32.to_radians()).abs() < 1e-4 && axis.abs_diff_eq(Vec3::X, 1e-4), "{axis} {angle}");
    // bone1 did not turn, and the joints stay on the x axis.
    assert!(pose.world[BONE1].abs_diff_eq(model.bind_world[BONE1], 1e-6));
    // Vertices 2 and 10 (half bone1, half bone2) sat 0.1 apart; the twist squeezes them together.
    let gap = (pose.skinned[2] - pose.skinned[10]).length();
    let expected = 0.1 * (75f32.to_radians()).cos(); // the chord shrinks by cos(150°/2)
    assert!((gap - expected).abs() < 1e-4, "gap {gap}, expected {expected}");
}

#[test]
fn tracks_replace_only_their_own_bone() {
    let model = scene::article();
    let clip = Clip {
        name: "test",
        duration: 4.0,
        motion: Motion::Keyframes(vec![Track {
            bone: BONE1,
            keys: vec![key(0.0, vec3(0.2, 0.0, 0.0), 0.0), key(2.0, vec3(0.2, 0.0, 0.0), 120.0)],
        }]),
    };
    let mut pose = Pose::new(&model);
    pose.update(&model, &clip, 1.0);
    // Halfway from 0 to 120 degrees: bone1 at 60 degrees, so bone2 (0.2 along bone1's x) is at
    // bone1 + 0.2 * (cos 60°, sin 60°) = (0.3, 0.1732).
    let expected = vec3(0.2 + 0.2 * 0.5, 0.2 * 3f32.sqrt() / 2.0, 0.0);
    assert!(pose.joint(BONE2).abs_diff_eq(expected, 1e-5), "{}", pose.joint(BONE2));
    assert_eq!(pose.local[0], model.skeleton.bone(0).bind_local);
}
