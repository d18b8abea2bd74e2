//! Clips become frames: every clip sampled at a whole number of frames a second, keyframed or
//! procedural alike, since MD5 stores a pose per frame and nothing else.
//!
//! **The rate** ([`frame_rate`]) is a clip's own where it has one: the lowest whole rate, up to
//! [`FRAME_RATE`], whose frames fall on every key of its channels, LINEAR or STEP, and on its end. A
//! clip read from an MD5 file at 24 frames a second has its keys 1/24 s apart, so it is written at
//! 24 again; so is the Fox's Walk, keyed every 1/24 s. Frames on every key make the linear keys come
//! back exactly: lerp between two points of a lerp, and slerp between two points of a slerp along
//! its arc, are the same motion. A STEP key holds until the next: on the frames, each value is
//! exact, and a channel that never changes (three.js's Michelle has constant STEP scales beside its
//! 30-frame keys) is exact throughout; a changing one ramps over the one frame before its next key
//! instead of jumping. A clip whose keys no lower rate falls on, and one that is procedural or has
//! CUBICSPLINE keys (a curve between keys, which frames on the keys alone would cut straight),
//! takes [`FRAME_RATE`]. A clip of one pose takes Doom 3's own 24 ([`POSE_RATE`]). Morph weights
//! are not written (MD5 has none), so their keys do not count. Where a joint turns a third of a
//! turn or more from one frame to the next, the rate is doubled, up to eight times the rate (`md5_export.rs`:
//! `finer_where_it_turns`): a reader turns the shorter way between two frames, which near half a turn
//! may be the other way.
//!
//! Frame `k` is the pose at `k / rate` seconds (`Clip::sample_at`, not wrapped, so the last frame
//! is the clip's end and not its start again). A clip lasts `(frames - 1) / rate` seconds in Doom
//! 3's reading, so the last frame falls on the clip's end when its duration is a whole number of
//! frames; otherwise the clip is held on its last pose until the next whole frame.
//!
//! How many frames there are is known before any is sampled, so an export that would be absurd
//! is refused before it starts: one clip past [`MAX_FRAMES`], or all of them together past
//! [`POSE_BUDGET`] joint poses.

use super::error::ExportError;
use skinning_method::clip::{Channel, Clip, Interpolation, Keyable, Motion};

/// The finest rate an exported clip takes: 120 frames a second, the lowest whose frames fall on
/// every key of the clips this program knows. The Fox's keys are 1/24 s apart, but its Run's last
/// eight are 0.8 of a frame late (at 20.8/24 s...), which is 104/120 s; the article's `bend` and
/// `twist` have keys every 0.5 s. The procedural `seed` is a sine: a straight line between frames
/// `h` seconds apart strays from it by at most `a w² h² / 8` (`gltf_export/animations.rs`: `SAMPLES_PER_SECOND`), 0.185 h² here,
/// 1.3e-5 at 1/120 s. 24 frames a second (Doom 3's own) would move the Run's late keys and leave
/// the seed off by 3.2e-4.
pub const FRAME_RATE: u32 = 120;

/// The rate of a clip of one pose, whose keys any rate falls on: Doom 3's own.
pub const POSE_RATE: u32 = 24;

/// How far from a frame a key may be, in frames, and still fall on it: float rounding of key times.
const ON_A_FRAME: f64 = 1e-3;

/// The rate `clip` is written at: its own, the lowest whole rate whose frames fall on every key of
/// its LINEAR and STEP channels (translation, rotation, scale) and on its end; [`FRAME_RATE`] where
/// there is none, or where it is procedural or curved; [`POSE_RATE`] for one pose.
pub fn frame_rate(clip: &Clip) -> u32 {
    let Motion::Keyframes(tracks) = &clip.motion else { return FRAME_RATE };
    let mut times = vec![clip.duration];
    for track in tracks {
        let linear = keys(&track.translation, &mut times) && keys(&track.rotation, &mut times);
        if !(linear && keys(&track.scale, &mut times)) {
            return FRAME_RATE;
        }
    }
    if times.iter().all(|&t| t == 0.0) {
        return POSE_RATE;
    }
    let on_frames = |rate: u32| {
        times.iter().all(|&t| {
            let frames = t as f64 * rate as f64;
            (frames - frames.round()).abs() <= ON_A_FRAME
        })
    };
    (1..=FRAME_RATE).find(|&rate| on_frames(rate)).unwrap_or(FRAME_RATE)
}

/// Adds a channel's key times to `times`; false if its keys are curved (CUBICSPLINE).
fn keys<T: Keyable>(channel: &Option<Channel<T>>, times: &mut Vec<f32>) -> bool {
    let Some(channel) = channel else { return true };
    times.extend(&channel.times);
    channel.interpolation != Interpolation::CubicSpline
}

/// The most frames one clip may take: about 14 minutes at 120 frames a second. A longer clip is
/// most likely a damaged key time.
pub const MAX_FRAMES: usize = 100_000;

/// The most joint poses one export writes: frames times joints, over every clip together. Each is
/// up to six numbers in an `.md5anim`, 10 to 70 bytes, so this is up to about 2 GB of text. A real
/// model comes nowhere near: the Fox's three clips are 5,784 poses (24 joints, 241 frames),
/// RobotExpressive's fourteen 28,920 (60 joints, 482 frames); a clip of 200 joints as long as one
/// clip may be (833 s at 120 frames a second) is 20 million, 285 MB. The frames are written as they
/// are sampled, so memory does not grow with them: this bounds the file and the time it takes.
pub const POSE_BUDGET: usize = 32_000_000;

/// How many frames a clip of `duration` seconds takes at `rate` frames a second: one per
/// `1 / rate` s, both ends included. A duration a thousandth of a frame off a whole number of frames
/// is that number.
pub fn frame_count(duration: f32, rate: u32) -> Option<usize> {
    let intervals = (duration.max(0.0) as f64) * rate as f64;
    let whole = intervals.round();
    let intervals = if (intervals - whole).abs() < 1e-3 { whole } else { intervals.ceil() };
    (intervals < MAX_FRAMES as f64).then_some(intervals as usize + 1)
}

/// How a clip is sampled for its `.md5anim`: frames a second, and how many.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampling {
    pub rate: u32,
    pub frames: usize,
}

/// Each clip's rate and number of frames, or why the clips cannot be written: one too long, or
/// all of them together past [`POSE_BUDGET`] poses of `joints` joints.
pub fn frame_counts(clips: &[Clip], joints: usize) -> Result<Vec<Sampling>, ExportError> {
    let mut counts = Vec::with_capacity(clips.len());
    for clip in clips {
        let rate = frame_rate(clip);
        let Some(frames) = frame_count(clip.duration, rate) else {
            return Err(ExportError::TooLong {
                clip: clip.name.clone(),
                duration: clip.duration,
                max_frames: MAX_FRAMES,
                frame_rate: rate,
            });
        };
        counts.push(Sampling { rate, frames });
    }
    check_budget(&counts, joints)?;
    Ok(counts)
}

/// Whether clips sampled as `counts` say stay within [`POSE_BUDGET`] poses of `joints` joints.
pub fn check_budget(counts: &[Sampling], joints: usize) -> Result<(), ExportError> {
    let frames: usize = counts.iter().map(|sampling| sampling.frames).sum();
    let poses = frames.saturating_mul(joints);
    if poses > POSE_BUDGET {
        return Err(ExportError::Budget { poses, frames, joints, budget: POSE_BUDGET });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;
    use skinning_method::clip::Track;

    fn clip(name: &str, duration: f32) -> Clip {
        Clip { name: name.into(), duration, motion: Motion::Keyframes(Vec::new()) }
    }

    /// A clip moving bone 0 through keys at `times`, `interpolation` between them.
    fn keyed(times: &[f32], interpolation: Interpolation) -> Clip {
        let keys: Vec<(f32, Vec3)> = times.iter().map(|&t| (t, Vec3::splat(t))).collect();
        let mut channel = Channel::linear(&keys);
        channel.interpolation = interpolation;
        let track = Track { translation: Some(channel), ..Track::new(0) };
        let duration = times.last().copied().unwrap_or(0.0);
        Clip { name: "moves".into(), duration, motion: Motion::Keyframes(vec![track]) }
    }

    #[test]
    fn a_clip_keeps_the_rate_its_keys_fall_on() {
        // An MD5 clip at 24 frames a second: keys k / 24, as the loader makes them.
        let md5: Vec<f32> = (0..49).map(|k| k as f32 / 24.0).collect();
        assert_eq!(frame_rate(&keyed(&md5, Interpolation::Linear)), 24);
        // At 30, and at 25.
        let thirty: Vec<f32> = (0..31).map(|k| k as f32 / 30.0).collect();
        assert_eq!(frame_rate(&keyed(&thirty, Interpolation::Linear)), 30);
        assert_eq!(frame_rate(&keyed(&[0.0, 0.04, 1.0], Interpolation::Linear)), 25);
        // Keys every 0.5 s: two frames a second fall on them all.
        assert_eq!(frame_rate(&keyed(&[0.0, 0.5, 1.0, 1.5], Interpolation::Linear)), 2);
        // The Fox's Run: keys 1/24 s apart, then 0.8 of a frame late: 120.
        let run = [0.0, 1.0 / 24.0, 20.8 / 24.0];
        assert_eq!(frame_rate(&keyed(&run, Interpolation::Linear)), 120);
        // Keys no rate up to 120 falls on, curved keys, a procedural clip: 120.
        assert_eq!(frame_rate(&keyed(&[0.0, 0.0071], Interpolation::Linear)), FRAME_RATE);
        assert_eq!(frame_rate(&keyed(&[0.0, 1.0], Interpolation::CubicSpline)), FRAME_RATE);
        // STEP keys count as linear ones do: keys every 0.5 s, 2 a second (the old program: 120).
        assert_eq!(frame_rate(&keyed(&[0.0, 0.5, 1.0], Interpolation::Step)), 2);
        // Michelle: rotations keyed at 30 frames a second, scales constant and STEP on the same
        // grid (a key every 1/30 s and the end): 30, where the old program wrote 120.
        let mut michelle = keyed(&thirty, Interpolation::Linear);
        let scales: Vec<(f32, Vec3)> = thirty.iter().map(|&t| (t, Vec3::ONE)).collect();
        if let Motion::Keyframes(tracks) = &mut michelle.motion {
            let mut scale = Channel::linear(&scales);
            scale.interpolation = Interpolation::Step;
            tracks.push(Track { scale: Some(scale), ..Track::new(1) });
        }
        assert_eq!(frame_rate(&michelle), 30);
        let seed = skinning_method::scene::clips().unwrap().into_iter().find(|c| c.name == "seed").unwrap();
        assert_eq!(frame_rate(&seed), FRAME_RATE);
        // One pose: Doom 3's 24.
        assert_eq!(frame_rate(&keyed(&[0.0], Interpolation::Linear)), POSE_RATE);
        assert_eq!(frame_rate(&clip("rest", 0.0)), POSE_RATE);
    }

    #[test]
    fn frames_are_counted_before_any_is_sampled_and_the_budget_holds_them_all() {
        assert_eq!(frame_count(0.0, 120), Some(1));
        assert_eq!(frame_count(1.0, 120), Some(121));
        assert_eq!(frame_count(1.0, 24), Some(25));
        assert_eq!(frame_count(1.0 / 240.0, 120), Some(2), "held to the next whole frame");
        assert_eq!(frame_count(900.0, 120), None, "108,000 frames: past MAX_FRAMES");
        // Clips without keys: any rate falls on what they have, their ends; the lowest does.
        assert_eq!(
            frame_counts(&[clip("a", 1.0), clip("b", 0.5)], 3),
            Ok(vec![Sampling { rate: 1, frames: 2 }, Sampling { rate: 2, frames: 2 }])
        );
        // Two clips of 800 s on 200 joints, keyed at 120 frames a second: 96,001 frames each,
        // 38.4 million poses together.
        let long = [
            keyed(&[0.0, 1.0 / 120.0, 800.0], Interpolation::Linear),
            keyed(&[0.0, 1.0 / 120.0, 800.0], Interpolation::Linear),
        ];
        let e = frame_counts(&long, 200).expect_err("past the budget");
        assert_eq!(
            e,
            ExportError::Budget { poses: 38_400_400, frames: 192_002, joints: 200, budget: POSE_BUDGET }
        );
        assert!(frame_counts(&long[..1], 200).is_ok(), "one of them is within it");
        let e = frame_counts(&[clip("a\u{1b}", 1e6)], 2).expect_err("too long").to_string();
        assert!(e.starts_with("clip \"a\\u{1b}\" lasts 1000000 s"), "escaped once: {e}");
    }
}
