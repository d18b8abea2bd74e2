//! Time kept apart from the pose: `advance_to` moves the mixer, `pose` only reads it. Checked
//! against the mixer as it was before the split, one `&mut` call that stepped a crossfade, moved
//! the phase, sampled each layer's clip whole into a pose of its own and blended those, written
//! again here from the same parts.

use super::super::*;
use crate::frame::source::Source;
use crate::scene::{self, BONE1, BONE2, SEED_PERIOD};

/// The shared cycle's phase as the old mixer kept it: moved and read in one call.
struct OldPhase {
    at: f64,
    phase: f64,
    cycle: f64,
}

impl OldPhase {
    fn at(&mut self, time: f64, cycle: f64) -> f64 {
        if cycle.is_nan() || cycle <= 0.0 {
            return 0.0;
        }
        if cycle != self.cycle {
            self.phase = match self.cycle > 0.0 {
                true => self.phase + (time - self.at) / self.cycle,
                false => time / cycle,
            };
            (self.at, self.cycle) = (time, cycle);
        }
        self.phase + (time - self.at) / self.cycle
    }
}

/// The old `Mixer::sample`, step by step, on a mixer of its own (whose crossfade it steps).
fn old_sample(mixer: &mut Mixer, phase: &mut OldPhase, skeleton: &Skeleton, time: f64, out: &mut [Trs]) {
    mixer.step_fade(time);
    let at = if mixer.sync { phase.at(time, mixer.cycle()) } else { 0.0 };
    let clips = mixer.clips.clone();
    let mut poses = Vec::new();
    for layer in &mut mixer.layers {
        let clip = &clips[layer.clip];
        let in_step = mixer.sync && layer.kind == Kind::Blend;
        layer.time = clip.wrap(if in_step { phase::time_in_clip(at, clip.duration) } else { time });
        let mut pose = vec![Trs::IDENTITY; skeleton.len()];
        clip.sample_at(skeleton, layer.time, &mut pose);
        poses.push(pose);
    }
    let mut total = 0.0;
    for (layer, pose) in mixer.layers.iter().zip(&poses).filter(|(l, _)| l.kind == Kind::Blend) {
        total = weighted::accumulate(out, total, pose, layer.weight);
    }
    if total <= 0.0 {
        for (local, bone) in out.iter_mut().zip(skeleton.bones()) {
            *local = bone.rest;
        }
    }
    for (layer, pose) in mixer.layers.iter().zip(&poses) {
        match &layer.kind {
            Kind::Blend => {}
            Kind::Masked(mask) => {
                for ((local, pose), _) in
                    out.iter_mut().zip(pose).zip(&mask.bones).filter(|(_, inside)| **inside)
                {
                    *local = weighted::mix(local, pose, layer.weight);
                }
            }
            Kind::Additive { reference, .. } => {
                for ((local, pose), reference) in out.iter_mut().zip(pose).zip(reference) {
                    *local = additive::add(local, &additive::delta(pose, reference), layer.weight);
                }
            }
        }
    }
}

/// Every kind of layer at once, in step, with a crossfade under way from 1 s to 2.5 s.
fn everything(clips: &Arc<[Clip]>, skeleton: &Skeleton) -> Mixer {
    let layers = vec![
        Layer::new(Kind::Blend, 1, 0.6),
        Layer::new(Kind::Blend, 2, 0.4),
        Layer::new(Kind::Masked(mask::Mask::new(skeleton, BONE2)), 0, 0.7),
        Layer::new(Kind::additive(&clips[2], skeleton), 2, 0.5),
    ];
    let mut mixer = Mixer::new(clips.clone(), layers, true);
    mixer.crossfade_to(0, 1.0, 1.5);
    mixer
}

#[test]
fn advance_then_pose_is_the_old_sample_exactly() {
    let skeleton = scene::article().expect("valid").skeleton;
    let clips: Arc<[Clip]> = scene::clips().expect("valid").into();
    let (mut new, mut old) = (everything(&clips, &skeleton), everything(&clips, &skeleton));
    let mut phase = OldPhase { at: 0.0, phase: 0.0, cycle: 0.0 };
    let (mut posed, mut sampled) = (vec![Trs::IDENTITY; skeleton.len()], vec![Trs::IDENTITY; skeleton.len()]);
    // Forward at 30 frames a second through the crossfade and past its end, then a jump back.
    let times = (0..120).map(|f| f as f64 / 30.0).chain([SEED_PERIOD as f64 * 0.3, 7.25]);
    let mut changed = 0;
    for time in times {
        new.advance_to(time);
        new.pose(&skeleton, time, &mut posed);
        old_sample(&mut old, &mut phase, &skeleton, time, &mut sampled);
        assert_eq!(posed, sampled, "at {time} s");
        assert_eq!(new.layers, old.layers, "the layers' weights and times at {time} s");
        changed += usize::from(posed[BONE1] != skeleton.bone(BONE1).rest);
    }
    assert!(changed > 100, "the poses compared move: {changed}");
    assert_eq!(new.layers.iter().filter(|l| l.kind == Kind::Blend).count(), 1, "the crossfade ended");
}

#[test]
fn pose_twice_at_one_time_gives_the_same_and_moves_nothing() {
    let skeleton = scene::article().expect("valid").skeleton;
    let clips: Arc<[Clip]> = scene::clips().expect("valid").into();
    let mut mixer = everything(&clips, &skeleton);
    let (mut first, mut again) = (vec![Trs::IDENTITY; skeleton.len()], vec![Trs::IDENTITY; skeleton.len()]);
    for time in [0.5, 1.75, 3.0] {
        mixer.advance_to(time);
        let layers = mixer.layers.clone();
        mixer.pose(&skeleton, time, &mut first);
        // Another time in between asks nothing of the mixer either.
        mixer.pose(&skeleton, time + 0.4, &mut again);
        assert_ne!(first, again, "0.4 s later the pose differs");
        mixer.pose(&skeleton, time, &mut again);
        assert_eq!(first, again, "at {time} s, asked twice");
        assert_eq!(mixer.layers, layers, "posing moved the layers");
    }
}
