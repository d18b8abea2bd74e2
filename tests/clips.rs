//! Keyframed clips: sampling at and between keys, slerp, looping, and the shipped clips.

use glam::{Mat4, Quat, Vec3, vec3};
use skinning_method::clip::{Channel, Clip, Interpolation, Motion, Track};
use skinning_method::frame::Pose;
use skinning_method::scene::{self, BONE1, BONE2};
use skinning_method::skeleton::Trs;

/// A track of bone 0 with linear translation and rotation keys: (time, translation, degrees about z).
fn track(keys: &[(f32, Vec3, f32)]) -> Track {
    let translations: Vec<(f32, Vec3)> = keys.iter().map(|k| (k.0, k.1)).collect();
    let rotations: Vec<(f32, Quat)> =
        keys.iter().map(|k| (k.0, Quat::from_rotation_z(k.2.to_radians()))).collect();
    Track {
        translation: Some(Channel::linear(&translations)),
        rotation: Some(Channel::linear(&rotations)),
        ..Track::new(0)
    }
}

/// The angle (degrees, about z) and translation of a local transform.
fn angle_and_position(m: Mat4) -> (f32, Vec3) {
    let (_, rotation, translation) = m.to_scale_rotation_translation();
    let x_axis = rotation * Vec3::X;
    (x_axis.y.atan2(x_axis.x).to_degrees(), translation)
}

#[test]
fn keys_are_hit_exactly_at_key_times() {
    let keys = [(0.0, Vec3::ZERO, 0.0), (1.0, vec3(1.0, 2.0, 0.0), 90.0), (3.0, Vec3::X, -30.0)];
    let track = track(&keys);
    for (time, translation, degrees) in keys {
        let expected =
            Mat4::from_rotation_translation(Quat::from_rotation_z(degrees.to_radians()), translation);
        assert!(track.sample(time, &Trs::IDENTITY).to_mat4().abs_diff_eq(expected, 1e-6), "key at {time}");
    }
    // Outside the keys, the nearest key holds.
    let at = |t| track.sample(t, &Trs::IDENTITY).to_mat4();
    assert!(at(-1.0).abs_diff_eq(at(0.0), 1e-6));
    assert!(at(9.0).abs_diff_eq(at(3.0), 1e-6));
    assert_eq!(track.end(), 3.0);
}

#[test]
fn halfway_between_two_keys_is_the_slerp_midpoint() {
    // From 0 to 90 degrees about z between t = 1 and t = 2, translation from (0,0,0) to (2,4,0):
    // at t = 1.5 the bone is at 45 degrees, at (1, 2, 0); at t = 1.25, 22.5 degrees (constant speed).
    let track = track(&[(1.0, Vec3::ZERO, 0.0), (2.0, vec3(2.0, 4.0, 0.0), 90.0)]);
    let (angle, position) = angle_and_position(track.sample(1.5, &Trs::IDENTITY).to_mat4());
    assert!((angle - 45.0).abs() < 1e-3, "{angle}");
    assert!(position.abs_diff_eq(vec3(1.0, 2.0, 0.0), 1e-6));
    let (angle, _) = angle_and_position(track.sample(1.25, &Trs::IDENTITY).to_mat4());
    assert!((angle - 22.5).abs() < 1e-3, "{angle}");
    // A rotation matrix stays a rotation (no shrinking), unlike a matrix lerp would.
    let m = track.sample(1.5, &Trs::IDENTITY).to_mat4();
    assert!((m.x_axis.truncate().length() - 1.0).abs() < 1e-6);
}

#[test]
fn slerp_takes_the_short_path() {
    // From +170 to -170 degrees: the short way is 20 degrees through 180, not 340 through 0.
    let mut track = track(&[(0.0, Vec3::ZERO, 170.0), (1.0, Vec3::ZERO, -170.0)]);
    let (angle, _) = angle_and_position(track.sample(0.5, &Trs::IDENTITY).to_mat4());
    assert!((angle.abs() - 180.0).abs() < 1e-3, "went the long way: {angle}");
    // The same holds when the second key is stored as the opposite quaternion (same rotation).
    let rotation = track.rotation.as_mut().expect("a rotation channel");
    rotation.values[1] = -rotation.values[1];
    let (angle, _) = angle_and_position(track.sample(0.5, &Trs::IDENTITY).to_mat4());
    assert!((angle.abs() - 180.0).abs() < 1e-3, "went the long way: {angle}");
}

#[test]
fn step_holds_each_key_until_the_next() {
    let channel = Channel {
        times: vec![0.0, 1.0, 2.0],
        values: vec![Vec3::X, Vec3::Y, Vec3::Z],
        interpolation: Interpolation::Step,
    };
    assert_eq!(channel.sample(0.0), Vec3::X);
    assert_eq!(channel.sample(0.99), Vec3::X);
    assert_eq!(channel.sample(1.0), Vec3::Y);
    assert_eq!(channel.sample(1.5), Vec3::Y);
    assert_eq!(channel.sample(7.0), Vec3::Z);
}

#[test]
fn cubic_spline_follows_the_hermite_formula() {
    // Keys 0 at t = 1 and 10 at t = 3 (interval 2), out-tangent 4 at the first, in-tangent -2 at the
    // second, per second. glTF's formula at s = 0.25 (t = 1.5), worked out by hand:
    // (2s³-3s²+1)·0 + 2(s³-2s²+s)·4 + (-2s³+3s²)·10 + 2(s³-s²)·(-2)
    // = 0 + 2·0.140625·4 + 0.15625·10 + 2·(-0.046875)·(-2) = 1.125 + 1.5625 + 0.1875 = 2.875.
    let v = |x: f32| vec3(x, 0.0, 0.0);
    let channel = Channel {
        times: vec![1.0, 3.0],
        // in-tangent, value, out-tangent for each key.
        values: vec![v(9.0), v(0.0), v(4.0), v(-2.0), v(10.0), v(7.0)],
        interpolation: Interpolation::CubicSpline,
    };
    assert!((channel.sample(1.5).x - 2.875).abs() < 1e-5, "{}", channel.sample(1.5));
    // At the keys, exactly the values; the tangents stored outside the interval play no part.
    assert_eq!(channel.sample(1.0), v(0.0));
    assert_eq!(channel.sample(3.0), v(10.0));
}

#[test]
fn a_cubic_rotation_comes_out_normalised() {
    let q = |deg: f32| Quat::from_rotation_z(deg.to_radians());
    let zero = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    let channel = Channel {
        times: vec![0.0, 1.0],
        values: vec![zero, q(0.0), zero, zero, q(90.0), zero],
        interpolation: Interpolation::CubicSpline,
    };
    let mid = channel.sample(0.5);
    assert!((mid.length() - 1.0).abs() < 1e-6, "{mid}");
    // With zero tangents the midpoint of a Hermite curve is the average of the two ends: 45 degrees.
    assert!(mid.abs_diff_eq(q(45.0), 1e-5), "{mid}");
}

#[test]
fn a_track_replaces_only_the_channels_it_has() {
    // A rotation-only track on a bone whose rest pose has a translation and a scale: both survive.
    let rest = Trs { translation: vec3(1.0, 2.0, 3.0), rotation: Quat::IDENTITY, scale: Vec3::splat(2.0) };
    let track =
        Track { rotation: Some(Channel::linear(&[(0.0, Quat::from_rotation_z(1.0))])), ..Track::new(0) };
    let m = track.sample(0.0, &rest).to_mat4();
    let (scale, rotation, translation) = m.to_scale_rotation_translation();
    assert!(translation.abs_diff_eq(rest.translation, 1e-6) && scale.abs_diff_eq(rest.scale, 1e-6));
    assert!(rotation.abs_diff_eq(Quat::from_rotation_z(1.0), 1e-6));
}

#[test]
fn a_clip_of_no_length_stays_at_its_start() {
    let clip = Clip { name: "still".into(), duration: 0.0, motion: Motion::Keyframes(vec![]) };
    assert_eq!(clip.wrap(12.5), 0.0);
}

#[test]
fn clips_loop() {
    let model = scene::article().expect("the article's scene");
    let mut a = Pose::new(&model);
    let mut b = Pose::new(&model);
    for clip in scene::clips().expect("the article's clips") {
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
    let model = scene::article().expect("the article's scene");
    let mut forwards = Pose::new(&model);
    let mut backwards = Pose::new(&model);
    let clip = scene::bend().expect("bend");
    forwards.update(&model, &clip, 1.0);
    backwards.update(&model, &clip, 3.7);
    backwards.update(&model, &clip, 0.2);
    backwards.update(&model, &clip, 1.0);
    assert_eq!(forwards.skinned, backwards.skinned);
}

#[test]
fn bend_keeps_every_bone_length() {
    let model = scene::article().expect("the article's scene");
    let clip = scene::bend().expect("bend");
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
    let model = scene::article().expect("the article's scene");
    let mut pose = Pose::new(&model);
    pose.update(&model, &scene::twist().expect("twist"), 2.0); // held at 150 degrees
    let (_, rotation, _) = pose.world[BONE2].to_scale_rotation_translation();
    let (axis, angle) = rotation.to_axis_angle();
    assert!((angle - 150f32.to_radians()).abs() < 1e-4 && axis.abs_diff_eq(Vec3::X, 1e-4), "{axis} {angle}");
    // bone1 did not turn, and the joints stay on the x axis.
    assert!(pose.world[BONE1].abs_diff_eq(model.skeleton.rest_world()[BONE1], 1e-6));
    // Vertices 2 and 10 (half bone1, half bone2) sat 0.1 apart; the twist squeezes them together.
    let gap = (pose.skinned[2] - pose.skinned[10]).length();
    let expected = 0.1 * (75f32.to_radians()).cos(); // the chord shrinks by cos(150°/2)
    assert!((gap - expected).abs() < 1e-4, "gap {gap}, expected {expected}");
}

#[test]
fn tracks_replace_only_their_own_bone() {
    let model = scene::article().expect("the article's scene");
    let turn = [(0.0, Quat::IDENTITY), (2.0, Quat::from_rotation_z(120f32.to_radians()))];
    let clip = Clip {
        name: "test".into(),
        duration: 4.0,
        motion: Motion::Keyframes(vec![Track {
            rotation: Some(Channel::linear(&turn)),
            ..Track::new(BONE1)
        }]),
    };
    let mut pose = Pose::new(&model);
    pose.update(&model, &clip, 1.0);
    // Halfway from 0 to 120 degrees: bone1 at 60 degrees, so bone2 (0.2 along bone1's x) is at
    // bone1 + 0.2 * (cos 60°, sin 60°) = (0.3, 0.1732).
    let expected = vec3(0.2 + 0.2 * 0.5, 0.2 * 3f32.sqrt() / 2.0, 0.0);
    assert!(pose.joint(BONE2).abs_diff_eq(expected, 1e-5), "{}", pose.joint(BONE2));
    assert_eq!(pose.local_matrices[0], model.skeleton.bone(0).rest.to_mat4());
}
