//! Clips become frames: every clip sampled at [`FRAME_RATE`] frames a second,
//! keyframed or procedural alike, since MD5 stores a pose per frame and nothing else.
//!
//! Frame `k` is the pose at `k / FRAME_RATE` seconds (`Clip::sample_at`, not wrapped, so the last
//! frame is the clip's end and not its start again). A clip lasts `(frames - 1) / FRAME_RATE`
//! seconds in Doom 3's reading, so the last frame falls on the clip's end when its duration is a
//! whole number of frames; otherwise the clip is held on its last pose until the next whole frame.
//! Each frame also gets the box around the skinned mesh that MD5 files carry for culling.

use super::error::ExportError;
use crate::clip::Clip;
use crate::frame::{Blending, Frame, Method, Pose, Reference, Source};
use crate::model::Model;
use crate::printable::printable;
use crate::skeleton::Trs;
use glam::Vec3;

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
/// most likely a damaged key time, and its frames would not fit in memory.
pub const MAX_FRAMES: usize = 100_000;

/// One clip, frame by frame.
pub struct Sampled {
    pub name: String,
    /// Every frame's local transforms, by bone.
    pub locals: Vec<Vec<Trs>>,
    /// Every frame's box around the skinned mesh (min, max), in the model's own numbers.
    pub bounds: Vec<(Vec3, Vec3)>,
}

/// How many frames a clip of `duration` seconds takes: one per `1 / FRAME_RATE` s, both ends
/// included. A duration a thousandth of a frame off a whole number of frames is that number.
pub fn frame_count(duration: f32) -> Option<usize> {
    let intervals = (duration.max(0.0) as f64) * FRAME_RATE as f64;
    let whole = intervals.round();
    let intervals = if (intervals - whole).abs() < 1e-3 { whole } else { intervals.ceil() };
    (intervals < MAX_FRAMES as f64).then_some(intervals as usize + 1)
}

/// Every clip's frames, with the skinned mesh's box in each.
pub fn sample(model: &Model, clips: &[Clip]) -> Result<Vec<Sampled>, ExportError> {
    let mut pose = Pose::new(model);
    let mut out = Vec::with_capacity(clips.len());
    for clip in clips {
        let Some(frames) = frame_count(clip.duration) else {
            return Err(ExportError::TooLong {
                clip: printable(&clip.name).into_owned(),
                duration: clip.duration,
                max_frames: MAX_FRAMES,
                frame_rate: FRAME_RATE,
            });
        };
        let mut sampled = Sampled {
            name: clip.name.clone(),
            locals: Vec::with_capacity(frames),
            bounds: Vec::with_capacity(frames),
        };
        for k in 0..frames {
            // The clip's pose at the frame's time, not wrapped, blended: positions for the box.
            let time = (k as f32 / FRAME_RATE as f32) as f64;
            let blending = Blending::Cpu { method: Method::Lbs, by: &Reference, normals: false };
            let frame = Frame { blending, ..Frame::new(Source::ClipAt(clip), time) };
            let _linear_blending_takes_any_palette = pose.run(model, frame);
            let (mut min, mut max) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
            for &p in &pose.skinned {
                (min, max) = (min.min(p.into()), max.max(p.into()));
            }
            sampled.bounds.push((min, max));
            sampled.locals.push(pose.local.clone());
        }
        out.push(sampled);
    }
    Ok(out)
}
