//! The mixer as a whole, on the article's scene and on clips made here of different lengths.

use super::*;
use crate::clip::{Channel, Motion, Track};
use crate::frame::source::Source;
use crate::scene::{self, BONE1, BONE2, BONE31, BONE32};
use additive::Against;
use glam::Quat;

fn article() -> (Skeleton, Arc<[Clip]>) {
    (scene::article().expect("valid").skeleton, scene::clips().expect("valid").into())
}

/// The mixer moved to `time`, then its pose there.
fn sample(mixer: &mut Mixer, skeleton: &Skeleton, time: f64, out: &mut [Trs]) {
    mixer.advance_to(time);
    mixer.pose(skeleton, time, out);
}

/// bone1 turning about z from 0 to `degrees` and back over `seconds`.
fn swing(name: &str, seconds: f32, degrees: f32) -> Clip {
    let turn = |d: f32| Quat::from_rotation_z(d.to_radians());
    let keys = [(0.0, turn(0.0)), (seconds / 2.0, turn(degrees)), (seconds, turn(0.0))];
    let track = Track { rotation: Some(Channel::linear(&keys)), ..Track::new(BONE1) };
    Clip { name: name.into(), duration: seconds, motion: Motion::Keyframes(vec![track]) }
}

fn sampled(clip: &Clip, skeleton: &Skeleton, time: f64) -> Vec<Trs> {
    let mut pose = vec![Trs::IDENTITY; skeleton.len()];
    clip.sample(skeleton, time, &mut pose);
    pose
}

#[test]
fn a_clip_at_weight_one_beside_another_at_zero_is_that_clip_exactly() {
    let (skeleton, clips) = article();
    let layers = vec![Layer::new(Kind::Blend, 1, 1.0), Layer::new(Kind::Blend, 2, 0.0)];
    let mut mixer = Mixer::new(clips.clone(), layers, false);
    let mut out = vec![Trs::IDENTITY; skeleton.len()];
    for time in [0.0, 0.7, 1.9, 3.3, 11.0] {
        sample(&mut mixer, &skeleton, time, &mut out);
        assert_eq!(out, sampled(&clips[1], &skeleton, time), "at {time} s");
        assert_eq!(mixer.layers[1].time, clips[2].wrap(time), "the silent layer still keeps its time");
    }
}

#[test]
fn every_weight_zero_leaves_the_rest_pose() {
    let (skeleton, clips) = article();
    let mut mixer = Mixer::new(clips.clone(), vec![Layer::new(Kind::Blend, 1, 0.0)], false);
    let mut out = sampled(&clips[2], &skeleton, 2.0);
    sample(&mut mixer, &skeleton, 1.0, &mut out);
    let rest: Vec<Trs> = skeleton.bones().iter().map(|b| b.rest).collect();
    assert_eq!(out, rest);
}

#[test]
fn outside_a_mask_every_bone_is_the_base_exactly_and_inside_it_the_masked_clip() {
    let (skeleton, clips) = article();
    // The base is bend; twist drives bone2 and what hangs from it (bone31, bone32).
    let mask = Mask::new(&skeleton, BONE2);
    let layers = vec![Layer::new(Kind::Blend, 1, 1.0), Layer::new(Kind::Masked(mask), 2, 1.0)];
    let mut mixer = Mixer::new(clips.clone(), layers, false);
    let mut out = vec![Trs::IDENTITY; skeleton.len()];
    for time in [0.5, 1.7, 2.0, 3.1] {
        sample(&mut mixer, &skeleton, time, &mut out);
        let (bend, twist) = (sampled(&clips[1], &skeleton, time), sampled(&clips[2], &skeleton, time));
        for bone in 0..skeleton.len() {
            let expected = if [BONE2, BONE31, BONE32].contains(&bone) { twist[bone] } else { bend[bone] };
            assert_eq!(out[bone], expected, "bone {bone} at {time} s");
        }
        assert_ne!(bend[BONE1], sampled(&clips[0], &skeleton, time)[BONE1], "the base moves bone1");
    }
    // At weight 0.5 inside the mask: halfway, outside still the base exactly.
    mixer.layers[1].weight = 0.5;
    sample(&mut mixer, &skeleton, 2.0, &mut out);
    let (bend, twist) = (sampled(&clips[1], &skeleton, 2.0), sampled(&clips[2], &skeleton, 2.0));
    assert_eq!(out[BONE1], bend[BONE1]);
    assert_eq!(out[BONE2], weighted::mix(&bend[BONE2], &twist[BONE2], 0.5));
}

#[test]
fn an_additive_layer_of_its_own_reference_or_at_weight_zero_changes_nothing() {
    let (skeleton, clips) = article();
    let twist = Kind::additive(&clips[2], &skeleton);
    let layers = vec![Layer::new(Kind::Blend, 1, 1.0), Layer::new(twist, 2, 0.8)];
    let mut mixer = Mixer::new(clips.clone(), layers, false);
    let mut out = vec![Trs::IDENTITY; skeleton.len()];
    // At 0 s (and 4 s, a loop later) twist is at its first pose, its own reference: no change.
    for time in [0.0, 4.0] {
        sample(&mut mixer, &skeleton, time, &mut out);
        let bend = sampled(&clips[1], &skeleton, time);
        for (bone, (o, b)) in out.iter().zip(&bend).enumerate() {
            assert!(o.translation.abs_diff_eq(b.translation, 1e-6), "bone {bone}");
            assert!((o.rotation.dot(b.rotation).abs() - 1.0).abs() < 1e-6, "bone {bone}");
        }
    }
    // At 2 s twist has turned bone2 150° about x: 0.8 of it, 120°, over bend's own turn of bone2.
    sample(&mut mixer, &skeleton, 2.0, &mut out);
    let bend = sampled(&clips[1], &skeleton, 2.0);
    let expected = bend[BONE2].rotation * Quat::from_rotation_x(120f32.to_radians());
    assert!(
        (out[BONE2].rotation.dot(expected).abs() - 1.0).abs() < 1e-5,
        "{} != {expected}",
        out[BONE2].rotation
    );
    mixer.layers[1].weight = 0.0;
    sample(&mut mixer, &skeleton, 2.0, &mut out);
    assert_eq!(out, bend, "weight 0");
}

#[test]
fn in_step_the_phases_stay_equal_and_the_cycle_is_the_weighted_mean_of_the_lengths() {
    let (skeleton, _) = article();
    let clips: Arc<[Clip]> = vec![swing("short", 1.0, 40.0), swing("long", 3.0, -60.0)].into();
    let layers = vec![Layer::new(Kind::Blend, 0, 0.25), Layer::new(Kind::Blend, 1, 0.75)];
    let mut mixer = Mixer::new(clips.clone(), layers, true);
    let cycle = 0.25 * 1.0 + 0.75 * 3.0;
    assert!((mixer.cycle() - cycle).abs() < 1e-9);
    let mut out = vec![Trs::IDENTITY; skeleton.len()];
    for frame in 0..600 {
        let time = frame as f64 / 60.0;
        sample(&mut mixer, &skeleton, time, &mut out);
        let (short, long) = (mixer.layers[0].time / 1.0, mixer.layers[1].time / 3.0);
        assert!((short - long).abs() < 1e-5, "frame {frame}: phases {short} and {long}");
        // One loop of the blend takes the cycle: the phase is time / cycle.
        let expected = (time / cycle).rem_euclid(1.0) as f32;
        let apart = (short - expected).abs().min(1.0 - (short - expected).abs());
        assert!(apart < 1e-5, "frame {frame}: phase {short}, expected {expected}");
    }
    // Not in step: each at the same time, looping by its own length.
    mixer.sync = false;
    sample(&mut mixer, &skeleton, 4.5, &mut out);
    assert_eq!((mixer.layers[0].time, mixer.layers[1].time), (0.5, 1.5));
}

#[test]
fn moving_weights_move_the_phase_on_without_a_jump() {
    let (skeleton, _) = article();
    let clips: Arc<[Clip]> = vec![swing("short", 1.0, 40.0), swing("long", 3.0, -60.0)].into();
    let layers = vec![Layer::new(Kind::Blend, 0, 1.0), Layer::new(Kind::Blend, 1, 0.0)];
    let mut mixer = Mixer::new(clips.clone(), layers, true);
    let mut out = vec![Trs::IDENTITY; skeleton.len()];
    let mut last: Option<f32> = None;
    // A crossfade's worth of frames: the weights move every frame, the phase moves on smoothly.
    for frame in 0..120 {
        let time = 10.0 + frame as f64 / 60.0;
        let s = frame as f32 / 119.0;
        (mixer.layers[0].weight, mixer.layers[1].weight) = (1.0 - s, s);
        sample(&mut mixer, &skeleton, time, &mut out);
        let phase = mixer.layers[1].time / 3.0;
        if let Some(before) = last {
            let step = (phase - before + 1.0_f32).rem_euclid(1.0);
            // One frame moves the phase 1/60 of a loop of 1 s at most, 1/180 of one of 3 s at least.
            assert!((1.0 / 180.0 - 1e-4..=1.0 / 60.0 + 1e-4).contains(&step), "frame {frame}: {step}");
        }
        last = Some(phase);
    }
}

#[test]
fn morph_weights_blend_as_the_poses_do() {
    use crate::morph::MeshMorph;
    let (skeleton, _) = article();
    // One mesh of two targets held by bone2; each clip sets both weights, steadily over 2 s.
    let mesh = MeshMorph {
        name: "face".into(),
        bone: BONE2,
        vertices: 0..0,
        targets: vec!["smile".into(), "frown".into()],
        defaults: vec![0.0, 0.5],
        weights: 0..2,
        positions: Vec::new(),
        normals: Vec::new(),
    };
    let faces = |name: &str, from: [f32; 2], to: [f32; 2]| {
        let channel = |k: usize| Channel::linear(&[(0.0, from[k]), (2.0, to[k])]);
        let track = Track { weights: vec![channel(0), channel(1)], ..Track::new(BONE2) };
        Clip { name: name.into(), duration: 2.0, motion: Motion::Keyframes(vec![track]) }
    };
    let clips: Arc<[Clip]> = vec![
        faces("smile", [1.0, 0.0], [1.0, 0.0]),
        faces("frown", [0.0, 1.0], [0.0, 1.0]),
        faces("grow", [0.0, 0.0], [0.8, 0.0]),
    ]
    .into();
    let morphs = [mesh];
    let weights_at = |layers: Vec<Layer>, time: f64| {
        let mut mixer = Mixer::new(clips.clone(), layers, false);
        let mut weights = [9.0f32; 2];
        mixer.advance_to(time);
        crate::morph::sample_weights(&mixer, time, &morphs, &mut weights);
        weights
    };
    let blend = |clip, weight| Layer::new(Kind::Blend, clip, weight);
    // Two clips at 0.25 and 0.75: each weight is their weighted average.
    assert_eq!(weights_at(vec![blend(0, 0.25), blend(1, 0.75)], 0.5), [0.25, 0.75]);
    // No weight at all: the mesh's own.
    assert_eq!(weights_at(vec![blend(0, 0.0)], 0.5), [0.0, 0.5]);
    // An additive clip adds its change from its first frame: at 1 s, half of 0.8, at weight 0.5.
    let grow = Layer::new(Kind::additive(&clips[2], &skeleton), 2, 0.5);
    assert_eq!(weights_at(vec![blend(0, 1.0), grow], 1.0), [1.2, 0.0]);
    // Against the rest (the mesh's own 0 and 0.5) or another clip's first frame (frown's 0 and 1).
    let against = |reference| Kind::additive_against(&clips[2], reference, &clips, &skeleton);
    let grow = Layer::new(against(Against::Rest), 2, 0.5);
    assert_eq!(weights_at(vec![blend(0, 1.0), grow], 1.0), [1.2, -0.25]);
    let grow = Layer::new(against(Against::Clip(1)), 2, 0.5);
    assert_eq!(weights_at(vec![blend(0, 1.0), grow], 1.0), [1.2, -0.5]);
    // A mask over bone2, which holds the mesh, lays its clip's weights over; over bone31 it does not.
    let over = |root| Layer::new(Kind::Masked(Mask::new(&skeleton, root)), 1, 1.0);
    assert_eq!(weights_at(vec![blend(0, 1.0), over(BONE2)], 0.5), [0.0, 1.0]);
    assert_eq!(weights_at(vec![blend(0, 1.0), over(BONE31)], 0.5), [1.0, 0.0]);
}

#[test]
fn the_mixer_steps_a_crossfade_and_ends_it_on_its_clip() {
    let (skeleton, clips) = article();
    let mut mixer = Mixer::new(clips.clone(), vec![Layer::new(Kind::Blend, 1, 1.0)], false);
    mixer.crossfade_to(2, 1.0, 0.5);
    let mut out = vec![Trs::IDENTITY; skeleton.len()];
    let weights = |mixer: &Mixer| mixer.layers.iter().map(|l| (l.clip, l.weight)).collect::<Vec<_>>();
    for (time, bend, twist) in [(0.5, 1.0, 0.0), (1.25, 0.5, 0.5), (1.375, 0.25, 0.75)] {
        sample(&mut mixer, &skeleton, time, &mut out);
        assert_eq!(weights(&mixer), [(1, bend), (2, twist)], "at {time} s");
    }
    // Its end: twist alone, exactly its own pose; the fade is over.
    sample(&mut mixer, &skeleton, 1.5, &mut out);
    assert_eq!((weights(&mixer), mixer.fading()), (vec![(2, 1.0)], None));
    assert_eq!(out, sampled(&clips[2], &skeleton, 1.5));
    // Stopped where it is, the weights stay; finished, it ends at the next sample.
    mixer.crossfade_to(0, 2.0, 1.0);
    sample(&mut mixer, &skeleton, 2.5, &mut out);
    mixer.stop_fade();
    sample(&mut mixer, &skeleton, 2.9, &mut out);
    assert_eq!(weights(&mixer), [(2, 0.5), (0, 0.5)]);
    mixer.crossfade_to(1, 3.0, 10.0);
    mixer.finish_fade();
    sample(&mut mixer, &skeleton, 3.0, &mut out);
    assert_eq!(weights(&mixer), [(1, 1.0)]);
}

#[test]
fn a_clip_that_never_leaves_its_reference_adds_nothing() {
    let (skeleton, clips) = article();
    let still = Clip { name: "still".into(), duration: 0.0, motion: Motion::Keyframes(Vec::new()) };
    let rest = additive::reference_pose(&still, Against::Rest, &clips, &skeleton);
    assert!(additive::adds_nothing(&still, &rest, &[], &skeleton, &[]));
    // One pose that is not the rest: nothing against itself, something against the rest.
    let track =
        Track { rotation: Some(Channel::linear(&[(0.0, Quat::from_rotation_z(0.5))])), ..Track::new(BONE1) };
    let raised = Clip { name: "raised".into(), duration: 0.0, motion: Motion::Keyframes(vec![track]) };
    let start = additive::reference_pose(&raised, Against::Start, &clips, &skeleton);
    assert!(additive::adds_nothing(&raised, &start, &[], &skeleton, &[]));
    assert!(!additive::adds_nothing(&raised, &rest, &[], &skeleton, &[]));
    // A clip that moves adds something against its own start.
    let twist = additive::reference_pose(&clips[2], Against::Start, &clips, &skeleton);
    assert!(!additive::adds_nothing(&clips[2], &twist, &[], &skeleton, &[]));
}

mod split;
