//! What several clips at once cost (chapter 11, `crates/method/src/mixer.rs`): on a character of 65 joints (a
//! root and four limbs of 16, like `tests/common/character.rs`), every joint but the root keyframed
//! with 30 keys, the time to sample one clip into the local poses, against a frame of two clips
//! blended in step with an additive layer on top (three clips sampled, then folded). Timed in turn,
//! round after round, the median reported, as the main table is.

use glam::{Quat, Vec3};
use skinning_method::clip::{Channel, Clip, Motion, Track};
use skinning_method::frame::Source;
use skinning_method::mixer::{Kind, Layer, Mixer};
use skinning_method::skeleton::{Skeleton, SkeletonBuilder};
use skinning_method::transform::Trs;
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

const LIMBS: usize = 4;
const LIMB_JOINTS: usize = 16;
const KEYS: usize = 30;

/// A root and four chains of 16 joints one unit apart, along ±x and ±y.
fn character() -> Skeleton {
    let mut b = SkeletonBuilder::new();
    let root = b.bone("root", Vec3::ZERO);
    let mut previous_limb = None;
    let directions: [Vec3; LIMBS] = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y];
    for (l, direction) in directions.into_iter().enumerate() {
        let mut parent = None;
        for j in 0..LIMB_JOINTS {
            let joint = b.bone(&format!("limb{l}_{j}"), direction);
            match parent {
                Some(p) => b.set_first_child(p, joint),
                None => match previous_limb {
                    Some(first) => b.set_sibling(first, joint),
                    None => b.set_first_child(root, joint),
                },
            };
            if j == 0 {
                previous_limb = Some(joint);
            }
            parent = Some(joint);
        }
    }
    b.build().expect("a tree")
}

/// Every joint but the root turning about z, a little later than the one before: `seconds` long,
/// `KEYS` keys, up to `degrees`.
fn wave(name: &str, skeleton: &Skeleton, seconds: f32, degrees: f32) -> Clip {
    let tracks = (1..skeleton.len())
        .map(|joint| {
            let keys: Vec<(f32, Quat)> = (0..KEYS)
                .map(|k| {
                    let t = k as f32 / (KEYS - 1) as f32 * seconds;
                    let phase = std::f32::consts::TAU * t / seconds - joint as f32 * 0.3;
                    (t, Quat::from_rotation_z(degrees.to_radians() * phase.sin()))
                })
                .collect();
            Track { rotation: Some(Channel::linear(&keys)), ..Track::new(joint) }
        })
        .collect();
    Clip { name: name.into(), duration: seconds, motion: Motion::Keyframes(tracks) }
}

pub fn run(budget: Duration) {
    let skeleton = character();
    let clips: Arc<[Clip]> = vec![
        wave("walk", &skeleton, 1.0, 12.0),
        wave("run", &skeleton, 0.7, 25.0),
        wave("nod", &skeleton, 2.0, 5.0),
    ]
    .into();
    let layers = vec![
        Layer::new(Kind::Blend, 0, 0.4),
        Layer::new(Kind::Blend, 1, 0.6),
        Layer::new(Kind::additive(&clips[2], &skeleton), 2, 0.5),
    ];
    let mut mixer = Mixer::new(clips.clone(), layers, true);
    let mut pose = vec![Trs::IDENTITY; skeleton.len()];
    let mut samples: [Vec<Duration>; 2] = Default::default();
    let started = Instant::now();
    let mut round = 0;
    while round <= 5 || (started.elapsed() < budget && round <= 20_000) {
        let time = black_box(round as f64 / 60.0);
        for (variant, samples) in samples.iter_mut().enumerate() {
            let t = Instant::now();
            match variant {
                0 => clips[0].sample(&skeleton, time, &mut pose),
                _ => {
                    mixer.advance_to(time);
                    mixer.pose(&skeleton, time, &mut pose)
                }
            }
            let elapsed = t.elapsed();
            black_box(&mut pose);
            if round > 0 {
                samples.push(elapsed);
            }
        }
        round += 1;
    }
    let [one, mixed] = samples.map(|mut s| {
        s.sort();
        s[s.len() / 2].as_secs_f64() * 1e6
    });
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load = load.split_whitespace().next().unwrap_or("?");
    println!(
        "\nseveral clips (benches/mixing.rs): a character of {} joints, {KEYS} keys per joint and clip; \
         µs per frame, median (load average {load})",
        skeleton.len()
    );
    println!("  {:<36} {one:>8.2} µs", "sample one clip");
    println!("  {:<36} {mixed:>8.2} µs   = {:.1}x one clip", "two clips in step + one additive", mixed / one);
}
