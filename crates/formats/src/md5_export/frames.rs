//! Clips become frames: every clip sampled at [`FRAME_RATE`] frames a second, keyframed or
//! procedural alike, since MD5 stores a pose per frame and nothing else.
//!
//! Frame `k` is the pose at `k / FRAME_RATE` seconds (`Clip::sample_at`, not wrapped, so the last
//! frame is the clip's end and not its start again). A clip lasts `(frames - 1) / FRAME_RATE`
//! seconds in Doom 3's reading, so the last frame falls on the clip's end when its duration is a
//! whole number of frames; otherwise the clip is held on its last pose until the next whole frame.
//!
//! How many frames there are is known before any is sampled, so an export that would be absurd
//! is refused before it starts: one clip past [`MAX_FRAMES`], or all of them together past
//! [`POSE_BUDGET`] joint poses.

use super::error::ExportError;
use skinning_method::clip::Clip;

/// Frames per second of every exported clip: 120, the smallest rate whose frames fall on every key
/// of the clips this program knows. The Fox's keys are 1/24 s apart, but its Run's last eight are
/// 0.8 of a frame late (at 20.8/24 s...), which is 104/120 s; the article's `bend` and `twist` have
/// keys every 0.5 s. Frames on every key make the linear keys come back exactly: lerp between two
/// points of a lerp, and slerp between two points of a slerp along its arc, are the same motion. The
/// procedural `seed` is a sine: a straight line between frames `h` seconds apart strays from it by at
/// most `a w² h² / 8` (`gltf_export.rs`), 0.185 h² here, 1.3e-5 at 1/120 s. 24 frames a second (Doom
/// 3's own) would move the Run's late keys and leave the seed off by 3.2e-4.
pub const FRAME_RATE: u32 = 120;

/// The most frames one clip may take: about 14 minutes at 120 frames a second. A longer clip is
/// most likely a damaged key time.
pub const MAX_FRAMES: usize = 100_000;

/// The most joint poses one export writes: frames times joints, over every clip together. Each is
/// up to six numbers in an `.md5anim`, 10 to 70 bytes, so this is up to about 2 GB of text. A real
/// model comes nowhere near: the Fox's three clips are 17,199 poses, RobotExpressive's fourteen
/// 197,736; a clip of 200 joints as long as one clip may be (833 s) is 20 million, 285 MB. The
/// frames are written as they are sampled, so memory does not grow with them: this bounds the
/// file and the time it takes.
pub const POSE_BUDGET: usize = 32_000_000;

/// How many frames a clip of `duration` seconds takes: one per `1 / FRAME_RATE` s, both ends
/// included. A duration a thousandth of a frame off a whole number of frames is that number.
pub fn frame_count(duration: f32) -> Option<usize> {
    let intervals = (duration.max(0.0) as f64) * FRAME_RATE as f64;
    let whole = intervals.round();
    let intervals = if (intervals - whole).abs() < 1e-3 { whole } else { intervals.ceil() };
    (intervals < MAX_FRAMES as f64).then_some(intervals as usize + 1)
}

/// Each clip's number of frames, or why the clips cannot be written: one too long, or all of them
/// together past [`POSE_BUDGET`] poses of `joints` joints.
pub fn frame_counts(clips: &[Clip], joints: usize) -> Result<Vec<usize>, ExportError> {
    let mut counts = Vec::with_capacity(clips.len());
    for clip in clips {
        let Some(frames) = frame_count(clip.duration) else {
            return Err(ExportError::TooLong {
                clip: clip.name.clone(),
                duration: clip.duration,
                max_frames: MAX_FRAMES,
                frame_rate: FRAME_RATE,
            });
        };
        counts.push(frames);
    }
    let frames: usize = counts.iter().sum();
    let poses = frames.saturating_mul(joints);
    if poses > POSE_BUDGET {
        return Err(ExportError::Budget { poses, frames, joints, budget: POSE_BUDGET });
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use skinning_method::clip::Motion;

    fn clip(name: &str, duration: f32) -> Clip {
        Clip { name: name.into(), duration, motion: Motion::Keyframes(Vec::new()) }
    }

    #[test]
    fn frames_are_counted_before_any_is_sampled_and_the_budget_holds_them_all() {
        assert_eq!(frame_count(0.0), Some(1));
        assert_eq!(frame_count(1.0), Some(121));
        assert_eq!(frame_count(1.0 / 240.0), Some(2), "held to the next whole frame");
        assert_eq!(frame_count(900.0), None, "108,000 frames: past MAX_FRAMES");
        assert_eq!(frame_counts(&[clip("a", 1.0), clip("b", 0.5)], 3), Ok(vec![121, 61]));
        // Two clips of 800 s on 200 joints: 96,001 frames each, 38.4 million poses together.
        let long = [clip("a", 800.0), clip("b", 800.0)];
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
