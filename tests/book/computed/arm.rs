//! The figures of chapters 1 to 5 worked out again on the article's arm: its tree, its offsets, its
//! blend, its clips and the dump's numbers. Each function runs the library on the scene, and where
//! the book works a figure by hand, the same formula written out here, checked against it.

use super::format::{point, short};
use super::{Facts, Work};
use glam::{Mat4, Quat, Vec3};
use skinning_method::blend::{Blend, Linear};
use skinning_method::clip::{Clip, Motion};
use skinning_method::frame::Pose;
use skinning_method::model::Model;
use skinning_method::scene::{self, BONE1, BONE2, BONE31, BONE32};
use skinning_method::skin::{SLOTS, VertexInfluences};

pub const COMPUTED: [Work; 9] = [
    ("01-quarter-turn", quarter_turn),
    ("01-offset", offset),
    ("02-seed-vertex-8", seed_vertex_8),
    ("02-weights-0.9", weights_short_of_one),
    ("03-bend-keys", bend_keys),
    ("03-wrap", wrap),
    ("04-seed-frames", seed_frames),
    ("04-palette-origin", palette_origin),
    ("05-vertex-10", vertex_10),
];

/// The article's scene and its clips, `seed`, `bend` and `twist`.
pub fn article() -> (Model, Vec<Clip>) {
    (scene::article().expect("the article's scene"), scene::clips().expect("the article's clips"))
}

/// A rotation's angle about `axis`, in degrees, signed: positive counter-clockwise seen from +axis.
pub fn degrees_about(q: Quat, axis: Vec3) -> f64 {
    let (turn_axis, angle) = q.to_axis_angle();
    let signed = if turn_axis.dot(axis) < 0.0 { -angle } else { angle };
    (signed as f64).to_degrees()
}

/// Chapter 1, exercise 1: bone2 turned a quarter about z, the rest in the bind pose.
fn quarter_turn() -> Facts {
    let (model, _) = article();
    let skeleton = &model.skeleton;
    let mut local = skeleton.rest_locals();
    local[BONE2] *= Mat4::from_rotation_z(90f32.to_radians());
    let mut world = vec![Mat4::IDENTITY; skeleton.len()];
    skeleton.compute_world(&local, &mut world);
    let at = |bone: usize| world[bone].w_axis.truncate();
    let mut facts = vec![point(at(BONE2), 4)];
    for claw in [BONE31, BONE32] {
        let place = skeleton.bone(claw).rest.translation;
        let turned = Quat::from_rotation_z(90f32.to_radians()) * place;
        // By hand: bone2's joint plus the turned place, as compute_world found it.
        assert!((at(BONE2) + turned - at(claw)).length() < 1e-6);
        facts.extend([point(place, 4), point(turned, 4), point(at(claw), 4)]);
    }
    Ok(facts)
}

/// Chapter 1, exercise 2: bone31's offset, and where it takes the claw's tip.
fn offset() -> Facts {
    let (model, _) = article();
    let joint = model.skin.joints()[BONE31];
    let tip = Vec3::from(model.skin.bind()[5]);
    let world = model.skeleton.rest_world()[BONE31].w_axis.truncate();
    Ok(vec![
        point(world, 4),
        point(joint.offset.w_axis.truncate(), 4),
        point(tip, 4),
        point(joint.offset.transform_point3(tip), 4),
    ])
}

/// Chapter 2, exercise 1: vertex 8 in the `seed` clip at 1 s.
fn seed_vertex_8() -> Facts {
    let (model, clips) = article();
    let mut pose = Pose::new(&model);
    pose.update(&model, &clips[0], 1.0);
    let (v, bind) = (model.skin.vertex_influences()[8], Vec3::from(model.skin.bind()[8]));
    let rest = |bone: usize| model.skeleton.bone(bone).rest.translation;
    let (down, left) =
        (rest(BONE1).y - pose.local[BONE1].translation.y, rest(BONE32).x - pose.local[BONE32].translation.x);
    let candidate = |i: usize| pose.palette[v.joints[i] as usize].transform_point3(bind);
    let sum = v.weights[0] * candidate(0) + v.weights[1] * candidate(1);
    assert!((sum - Vec3::from(pose.skinned[8])).length() < 1e-6, "the blend by hand is the program's");
    Ok(vec![
        point(pose.local[BONE1].translation, 4),
        format!("{} below", short(down as f64, 4)),
        point(pose.local[BONE32].translation, 4),
        format!("{} left", short(left as f64, 4)),
        point(candidate(0), 4),
        point(candidate(1), 4),
        format!(
            "{} · {} + {} · {} = {}",
            short(v.weights[0] as f64, 4),
            point(candidate(0), 4),
            short(v.weights[1] as f64, 4),
            point(candidate(1), 4),
            point(sum, 4)
        ),
    ])
}

/// Chapter 2, exercise 2: vertex 1 with weights 0.5 and 0.4, in the bind pose; and the refusal.
fn weights_short_of_one() -> Facts {
    let (model, _) = article();
    let bind = model.skin.bind()[1];
    let mut joints = [0; SLOTS];
    joints[1] = BONE1 as u16;
    let vertex = VertexInfluences { joints, weights: [0.5, 0.4, 0.0, 0.0] };
    let identity = vec![Mat4::IDENTITY; model.skin.joints().len()];
    // The blend of that one vertex by its four slots, as the main loop makes it.
    let out = [Linear(&identity).position(&vertex, &[], bind)];
    let mut mesh = scene::MESH;
    let edited = [scene::MESH[1].1[0], skinning_method::skin::Influence { joint: BONE1, weight: 0.4 }];
    mesh[1].1 = &edited;
    let refused = scene::article_with_mesh(&mesh).expect_err("a sum of 0.9 is refused").to_string();
    Ok(vec![
        format!(
            "0.5 · {} + 0.4 · {} = {}",
            point(bind.into(), 4),
            point(bind.into(), 4),
            point(out[0].into(), 4)
        ),
        format!("`{refused}`"),
    ])
}

/// Chapter 3, exercise 1: `bend` at 0.5 s, bone1 and the upper claw, from their keys.
fn bend_keys() -> Facts {
    let (model, clips) = article();
    let Motion::Keyframes(tracks) = &clips[1].motion else { panic!("bend is keyframed") };
    let mut pose = model.skeleton.bones().iter().map(|b| b.rest).collect::<Vec<_>>();
    clips[1].sample(&model.skeleton, 0.5, &mut pose);
    let mut facts = Vec::new();
    for bone in [BONE1, BONE31] {
        let channel =
            tracks.iter().find(|t| t.bone == bone).and_then(|t| t.rotation.as_ref()).expect("a rotation");
        let key = |k: usize| (channel.times[k], degrees_about(channel.values[k], Vec3::Z));
        let ((t0, a0), (t1, a1)) = (key(0), key(1));
        let s = (0.5 - t0) / (t1 - t0);
        let by_hand = a0 + s as f64 * (a1 - a0);
        let program = degrees_about(pose[bone].rotation, Vec3::Z);
        assert!((by_hand - program).abs() < 1e-3, "slerp about one axis turns at a constant speed");
        facts.extend([
            format!("{} s ({}°)", short(t0 as f64, 2), short(a0, 2)),
            format!("{} s ({}°)", short(t1 as f64, 2), short(a1, 2)),
            format!("{}°", short(program, 2)),
        ]);
    }
    Ok(facts)
}

/// Chapter 3, exercise 2: `twist` at 9.5 s and at -1 s, by `Clip::wrap`, and the keys around 3 s.
fn wrap() -> Facts {
    let (model, clips) = article();
    let twist = &clips[2];
    let mut facts = vec![format!("lasts {} s", short(twist.duration as f64, 2))];
    for time in [9.5, -1.0] {
        let mut pose = model.skeleton.bones().iter().map(|b| b.rest).collect::<Vec<_>>();
        twist.sample(&model.skeleton, time, &mut pose);
        let at = twist.wrap(time);
        facts.push(format!("{} s shows the clip at {} s", short(time, 2), short(at as f64, 3)));
        facts.push(format!("bone2 is at {}°", short(degrees_about(pose[BONE2].rotation, Vec3::X), 2)));
    }
    let Motion::Keyframes(tracks) = &twist.motion else { panic!("twist is keyframed") };
    let channel = tracks[0].rotation.as_ref().expect("a rotation");
    let next = channel.times.partition_point(|&k| k <= 3.0);
    for k in [next - 1, next] {
        let degrees = degrees_about(channel.values[k], Vec3::X).abs();
        facts.push(format!("{} s ({}°)", short(channel.times[k] as f64, 2), short(degrees, 2)));
    }
    let third = (3.0 - channel.times[next - 1]) / (channel.times[next] - channel.times[next - 1]);
    assert!((third - 1.0 / 3.0).abs() < 1e-6, "3 s is a third of the way between the keys");
    Ok(facts)
}

/// Chapter 4, exercise 1: the five frames of `--clip seed --frames 5 --fixed-dt 0.25`.
fn seed_frames() -> Facts {
    let (model, clips) = article();
    let times: Vec<f64> = (0..5).map(|k| k as f64 * 0.25).collect();
    let mut ys = Vec::new();
    for &t in &times {
        let mut pose = model.skeleton.bones().iter().map(|b| b.rest).collect::<Vec<_>>();
        clips[0].sample(&model.skeleton, t, &mut pose);
        let y = pose[BONE1].translation.y as f64;
        let by_hand = -0.2 * (std::f64::consts::TAU * t / scene::SEED_PERIOD as f64).sin();
        assert!((y - by_hand).abs() < 1e-6, "seed's bone1 is -0.2 sin(2π t / 4)");
        ys.push(short(y, 4));
    }
    let times: Vec<String> = times.iter().map(|t| short(*t, 2)).collect();
    let list =
        |items: &[String]| format!("{} and {}", items[..items.len() - 1].join(", "), items[items.len() - 1]);
    Ok(vec![
        format!("{} s", list(&times)),
        format!("-0.2 sin(2π t / {})", short(scene::SEED_PERIOD as f64, 2)),
        list(&ys),
    ])
}

/// Chapter 4, exercise 2: where `bend`'s palette[2] takes the origin at 2 s, by hand.
fn palette_origin() -> Facts {
    let (model, clips) = article();
    let mut pose = Pose::new(&model);
    pose.update(&model, &clips[1], 2.0);
    let turn = |bone: usize| degrees_about(Quat::from_mat4(&pose.world[bone]), Vec3::Z);
    let bone2 = pose.joint(BONE2);
    let offset = model.skin.joints()[BONE2].offset.w_axis.truncate();
    let angle = turn(BONE2).to_radians() as f32;
    let by_hand = bone2 + (-offset.x) * Vec3::new(-angle.cos(), -angle.sin(), 0.0);
    let origin = pose.palette[BONE2].transform_point3(Vec3::ZERO);
    assert!((by_hand - origin).length() < 1e-6);
    Ok(vec![
        point(pose.joint(BONE1), 4),
        format!("turned {}°", short(turn(BONE1), 2)),
        point(bone2, 4),
        format!(
            "{}° + {}° = {}°",
            short(turn(BONE1), 2),
            short(turn(BONE2) - turn(BONE1), 2),
            short(turn(BONE2), 2)
        ),
        point(offset, 4),
        format!(
            "{} · (-cos {}°, -sin {}°, 0)",
            short(-offset.x as f64, 4),
            short(turn(BONE2), 2),
            short(turn(BONE2), 2)
        ),
        point(origin, 4),
    ])
}

/// Chapter 5, exercise 1: vertex 10 in `twist` at 2 s, candidate by candidate.
fn vertex_10() -> Facts {
    let (model, clips) = article();
    let mut pose = Pose::new(&model);
    pose.update(&model, &clips[2], 2.0);
    let bind = Vec3::from(model.skin.bind()[10]);
    let from_joint = bind - model.skeleton.rest_world()[BONE2].w_axis.truncate();
    let angle = degrees_about(pose.local[BONE2].rotation, Vec3::X);
    let (c, s) = (angle.to_radians().cos() as f32, angle.to_radians().sin() as f32);
    let turned = Vec3::new(from_joint.x, from_joint.y * c, from_joint.y * s);
    let bone2 = pose.palette[BONE2].transform_point3(bind);
    let bone1 = pose.palette[BONE1].transform_point3(bind);
    assert!((model.skeleton.rest_world()[BONE2].w_axis.truncate() + turned - bone2).length() < 1e-6);
    Ok(vec![
        point(from_joint, 4),
        format!(
            "({}, {} cos {}°, {} sin {}°)",
            short(from_joint.x as f64, 4),
            short(from_joint.y as f64, 4),
            short(angle, 2),
            short(from_joint.y as f64, 4),
            short(angle, 2)
        ),
        point(turned, 4),
        point(bone2, 4),
        point(bone1, 4),
        point(pose.skinned[10].into(), 4),
    ])
}
