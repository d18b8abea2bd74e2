//! Many clips at once on real clips (chapter 11): the figures the chapter quotes, each printed and
//! held to what it shows.
//!
//! - the foot slide of the Fox's Walk and Run blended half and half, not in step and in step;
//! - how far the rotation rule the mixer does not use (ozz's normalised sum) is from the one it
//!   uses (three.js's successive slerp), on the Fox's and the robot's clips;
//! - what blending world matrices instead of local poses does to bone lengths and right angles.
//!
//! `cargo test --release --test many_clips -- --nocapture` prints them. They need the sample
//! models (`SKINNING_MODELS`); without them each test says SKIPPED.

use glam::{Mat4, Quat, Vec2, Vec3};
use skinning_formats::gltf_import::{Imported, load};
use skinning_method::clip::Clip;
use skinning_method::frame::{Frame, Pose, Still};
use skinning_method::mixer::weighted::{normalised_sum, successive_slerp};
use skinning_method::mixer::{Kind, Layer, Mixer};
use skinning_method::model::Model;
use skinning_method::transform::Trs;

fn loaded(name: &str) -> Option<Imported> {
    let path = common::sample_model(name)?;
    Some(load(&path).expect("the sample model loads"))
}

fn clip(clips: &[Clip], name: &str) -> usize {
    clips.iter().position(|c| c.name == name).unwrap_or_else(|| panic!("no clip {name}"))
}

fn blend(clips: &[Clip], layers: &[(usize, f32)], sync: bool) -> Mixer {
    let layers = layers.iter().map(|&(c, w)| Layer::new(Kind::Blend, c, w)).collect();
    Mixer::new(clips.into(), layers, sync)
}

/// The angle of the turn from `a` to `b`, in degrees.
fn degrees_between(a: Quat, b: Quat) -> f32 {
    let d = a.conjugate() * b;
    2.0 * d.xyz().length().atan2(d.w.abs()).to_degrees()
}

/// How much a foot slides, from its path at `RATE` samples a second.
struct Slide {
    /// The largest speed along the ground of a planted foot, in the model's units per second.
    largest: f32,
    /// The fastest a planted foot moved forward, the way the body goes (negative: always back).
    forward: f32,
    /// The speed the ground moves back under the planted feet: the body's speed when it walks.
    ground: f32,
}

const RATE: f64 = 240.0;
const SECONDS: f64 = 12.0;
/// A foot is planted in the lowest fifth of the heights it takes: the middle of each step.
const PLANTED: f32 = 0.2;

/// The Fox runs and walks in place, its body still and its feet moving back under it, as a
/// treadmill would move them. A planted foot should move back at the speed the ground goes, the
/// same for every planted foot at every moment; the slide is how fast it moves otherwise, along
/// the ground (x and z; y is up, the Fox faces +z). The ground's speed is the mean of the planted
/// feet's speeds back.
fn foot_slide(model: &Model, mixer: &mut Mixer, feet: &[usize]) -> Slide {
    let mut pose = Pose::new(model);
    let track: Vec<Vec<Vec3>> = (0..(SECONDS * RATE) as usize)
        .map(|f| {
            let time = f as f64 / RATE;
            mixer.advance_to(time);
            let frame = Frame::new(&*mixer, time).palette_only();
            pose.run(model, frame).expect("linear blending takes any palette");
            feet.iter().map(|&b| pose.joint(b)).collect()
        })
        .collect();
    let mut planted = Vec::new();
    for foot in 0..feet.len() {
        let mut heights: Vec<f32> = track.iter().map(|p| p[foot].y).collect();
        heights.sort_by(f32::total_cmp);
        let low = heights[(heights.len() as f32 * PLANTED) as usize];
        for f in 1..track.len() - 1 {
            if track[f][foot].y <= low {
                let v = (track[f + 1][foot] - track[f - 1][foot]) * (RATE as f32 / 2.0);
                planted.push(Vec2::new(v.x, v.z));
            }
        }
    }
    let ground = -planted.iter().map(|v| v.y).sum::<f32>() / planted.len() as f32;
    Slide {
        largest: planted.iter().map(|v| (*v + Vec2::new(0.0, ground)).length()).fold(0.0, f32::max),
        forward: planted.iter().map(|v| v.y).fold(f32::MIN, f32::max),
        ground,
    }
}

#[test]
fn in_step_the_fox_s_feet_stay_planted_and_out_of_step_they_slide() {
    let Some(fox) = loaded("Fox.glb") else { return };
    let (model, clips) = (&fox.model, &fox.clips);
    // The hind feet's toes: the joints that touch the ground.
    let feet = ["b_LeftFoot02_018", "b_RightFoot02_022"].map(|n| model.skeleton.find(n).expect("a foot"));
    let (walk, run) = (clip(clips, "Walk"), clip(clips, "Run"));
    // The Fox's size, to read the speeds by: the box around its bind mesh.
    let binds = || model.skin.bind_positions();
    let size = binds().fold(Vec3::MIN, Vec3::max) - binds().fold(Vec3::MAX, Vec3::min);
    println!("the Fox's bind mesh: {:.0} units long, {:.0} high, {:.0} wide", size.z, size.y, size.x);
    assert!(size.z > size.y && size.y > size.x, "a fox facing +z is longer than high, higher than wide");
    let mut slides = Vec::new();
    for (what, layers, sync) in [
        ("Walk alone", vec![(walk, 1.0)], false),
        ("Run alone", vec![(run, 1.0)], false),
        ("Walk=0.5,Run=0.5", vec![(walk, 0.5), (run, 0.5)], false),
        ("Walk=0.5,Run=0.5 --sync", vec![(walk, 0.5), (run, 0.5)], true),
    ] {
        let slide = foot_slide(model, &mut blend(clips, &layers, sync), &feet);
        println!(
            "{what:24} planted feet slide up to {:5.1} units/s (forward up to {:6.1}; the ground goes back at {:5.1})",
            slide.largest, slide.forward, slide.ground
        );
        slides.push(slide);
    }
    let (walk, run, apart, in_step) = (&slides[0], &slides[1], &slides[2], &slides[3]);
    assert!(in_step.largest < apart.largest / 2.0, "in step should slide less than half as much");
    assert!(in_step.largest < walk.largest.min(run.largest), "in step: less than either clip alone");
    assert!(apart.largest > walk.largest.max(run.largest), "out of step: more than either clip alone");
    // Out of step a planted foot even moves forward, the way the body goes; in step never.
    assert!(apart.forward > 0.0 && in_step.forward < 0.0);
}

#[test]
fn the_rule_not_chosen_is_degrees_away() {
    // Two clips: successive slerp (the mixer's) against ozz's normalised sum, at weights 0.1 to
    // 0.9, every bone, 200 times over 4 s. Three clips at equal weights: the fold in both orders.
    for (file, a, b, c) in
        [("Fox.glb", "Walk", "Run", "Survey"), ("RobotExpressive.glb", "Walking", "Running", "Dance")]
    {
        let Some(m) = loaded(file) else { return };
        let (model, clips) = (&m.model, &m.clips);
        let ids = [clip(clips, a), clip(clips, b), clip(clips, c)];
        let mut poses = vec![vec![Trs::IDENTITY; model.skeleton.len()]; 3];
        let (mut two, mut three_order, mut three_sum_order) = ((0.0f32, 0.0, 0, 0.0f32), 0.0f32, 0.0f32);
        let mut at_half = 0.0f32;
        for f in 0..200 {
            let time = f as f64 * 0.02;
            for (pose, &id) in poses.iter_mut().zip(&ids) {
                clips[id].sample(&model.skeleton, time, pose);
            }
            let each_bone = poses[0].iter().zip(&poses[1]).zip(&poses[2]).enumerate();
            for (bone, ((pa, pb), pc)) in each_bone {
                let q = |i: usize| [pa, pb, pc][i].rotation;
                for k in 1..10 {
                    let w = k as f32 / 10.0;
                    let pair = [(1.0 - w, q(0)), (w, q(1))];
                    let gap =
                        degrees_between(successive_slerp(&pair).unwrap(), normalised_sum(&pair).unwrap());
                    if gap > two.0 {
                        two = (gap, w, bone, degrees_between(q(0), q(1)));
                    }
                    if k == 5 {
                        at_half = at_half.max(gap);
                    }
                }
                let (abc, cba) =
                    ([(1.0, q(0)), (1.0, q(1)), (1.0, q(2))], [(1.0, q(2)), (1.0, q(1)), (1.0, q(0))]);
                let fold = degrees_between(successive_slerp(&abc).unwrap(), successive_slerp(&cba).unwrap());
                let sum = degrees_between(normalised_sum(&abc).unwrap(), normalised_sum(&cba).unwrap());
                (three_order, three_sum_order) = (three_order.max(fold), three_sum_order.max(sum));
            }
        }
        println!(
            "{file}: {a} and {b}: the normalised sum is up to {:.2}° from successive slerp (bone {}, weight {} on {b}, the clips {:.0}° apart there)",
            two.0,
            model.skeleton.bone(two.2).name,
            two.1,
            two.3
        );
        println!(
            "{file}: {a}, {b} and {c} at equal weights: in the other order, successive slerp moves up to {three_order:.2}°, the normalised sum {three_sum_order:.2}°"
        );
        // The two rules are the same rotation at equal weights of two clips, a few degrees apart
        // elsewhere.
        assert!(at_half < 0.01, "{file}: {at_half}° apart at equal weights");
        assert!(two.0 > 0.5 && two.0 < 10.0, "{file}: {}°", two.0);
    }
}

/// The largest relative shortening of a bone (its joint's distance from its parent's joint, against
/// `lengths`) and the largest shear (how far from 90° the angle between two of a world matrix's
/// axes is), over `world`.
fn damage(model: &Model, world: &[Mat4], lengths: &[f32]) -> (f32, f32) {
    let (mut shorter, mut shear) = (0.0f32, 0.0f32);
    for (bone, b) in model.skeleton.bones().iter().enumerate() {
        let Some(parent) = b.parent else { continue };
        if lengths[bone] > 1e-3 {
            let length = world[bone].w_axis.truncate().distance(world[parent].w_axis.truncate());
            shorter = shorter.max(1.0 - length / lengths[bone]);
        }
        let m = world[bone];
        for (u, v) in [(m.x_axis, m.y_axis), (m.y_axis, m.z_axis), (m.z_axis, m.x_axis)] {
            let (u, v) = (u.truncate().normalize(), v.truncate().normalize());
            shear = shear.max((u.dot(v).clamp(-1.0, 1.0).acos().to_degrees() - 90.0).abs());
        }
    }
    (shorter, shear)
}

/// How long each bone should be in `pose`: its blended local translation, carried into the world
/// by its parent's matrix (the root's 0).
fn lengths(model: &Model, pose: &Pose) -> Vec<f32> {
    let bones = model.skeleton.bones().iter().enumerate();
    bones
        .map(|(i, b)| {
            b.parent.map_or(0.0, |p| pose.world[p].transform_vector3(pose.local[i].translation).length())
        })
        .collect()
}

#[test]
fn blending_world_matrices_shortens_bones_and_shears_where_local_poses_do_not() {
    // By hand first: one bone at (1, 0, 0) under a root turned 45° up or 45° down about z. The
    // average of the two world matrices puts it at (cos 45°, 0, 0): 29% closer.
    let up = Mat4::from_rotation_z(45f32.to_radians()) * Mat4::from_translation(Vec3::X);
    let down = Mat4::from_rotation_z(-45f32.to_radians()) * Mat4::from_translation(Vec3::X);
    let averaged = (up + down) * 0.5;
    assert!((averaged.w_axis.truncate().length() - 45f32.to_radians().cos()).abs() < 1e-6);

    let Some(fox) = loaded("Fox.glb") else { return };
    let (model, clips) = (&fox.model, &fox.clips);
    let (walk, run) = (clip(clips, "Walk"), clip(clips, "Run"));
    let mut mixer = blend(clips, &[(walk, 0.5), (run, 0.5)], true);
    let (mut blended, mut a, mut b) = (Pose::new(model), Pose::new(model), Pose::new(model));
    let (mut by_world, mut by_local) = ((0.0f32, 0.0f32), (0.0f32, 0.0f32));
    for f in 0..120 {
        let time = f as f64 / 60.0;
        mixer.advance_to(time);
        blended
            .run(model, Frame::new(&mixer, time).palette_only())
            .expect("linear blending takes any palette");
        // Each clip alone at the time the blend has it, made into world matrices, then averaged.
        for (pose, layer) in [(&mut a, &mixer.layers[0]), (&mut b, &mixer.layers[1])] {
            mixer.layer_pose(layer, &model.skeleton, &mut pose.local);
            pose.run(model, Frame::new(&Still, 0.0).palette_only()).expect("linear");
        }
        let world: Vec<Mat4> = a.world.iter().zip(&b.world).map(|(x, y)| (*x + *y) * 0.5).collect();
        let lengths = lengths(model, &blended);
        let (shorter, shear) = damage(model, &world, &lengths);
        by_world = (by_world.0.max(shorter), by_world.1.max(shear));
        let (shorter, shear) = damage(model, &blended.world, &lengths);
        by_local = (by_local.0.max(shorter), by_local.1.max(shear));
    }
    println!(
        "Fox Walk=0.5,Run=0.5 in step, world matrices averaged: bones up to {:.1}% shorter, axes up to {:.1}° off square",
        100.0 * by_world.0,
        by_world.1
    );
    println!(
        "Fox Walk=0.5,Run=0.5 in step, local poses blended:    bones up to {:.4}% shorter, axes up to {:.4}° off square",
        100.0 * by_local.0,
        by_local.1
    );
    assert!(by_world.0 > 0.05 && by_world.1 > 5.0, "the world blend should visibly shorten and shear");
    assert!(by_local.0 < 1e-4 && by_local.1 < 0.01, "the local blend keeps every bone and right angle");
}
