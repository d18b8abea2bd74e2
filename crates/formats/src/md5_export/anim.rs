//! One clip's `.md5anim`, written as it is sampled.
//!
//! The file's head needs what only the whole clip tells: which of each joint's six components
//! (Tx Ty Tz Qx Qy Qz) ever differ from the first frame (its flags, and so how many numbers each
//! frame holds), and every frame's box. So a clip is sampled twice. The first pass ([`plan`])
//! learns the flags, the boxes and the first frame (the base frame), and checks every number and
//! every scale, so that nothing is refused once writing has begun. The second ([`write`]) samples
//! the frames again, the same way, and writes each one as it comes. What is held meanwhile is one
//! frame and the boxes, 24 bytes a frame: a clip of 100,000 frames on 200 joints takes a few MB,
//! where its frames held together took 1.9 GB.

use super::error::ExportError;
use super::frames::Sampling;
use super::joints::{Md5Joints, md5_locals};
use super::names::commandline;
use super::scale::check_scales;
use super::text::{decimal, number, orientation, triple, turn};
use glam::Vec3;
use skinning_method::clip::Clip;
use skinning_method::frame::{ClipAt, Frame, Pose, Source};
use skinning_method::model::Model;
use skinning_method::printable::quoted;
use skinning_method::skeleton::Trs;
use std::io::{self, Write};

/// What a clip's `.md5anim` needs before its frames, learnt from a first pass over them.
pub struct Planned {
    /// The clip's name as written in the `commandline` (`names.rs`: `md5_names`).
    name: String,
    /// Frames a second (`frames.rs`: `frame_rate`), and how many.
    sampling: Sampling,
    /// Per MD5 joint, a bit per component that ever differs from the base frame.
    flags: Vec<u8>,
    /// The first frame's components, per MD5 joint.
    base: Vec<[f64; 6]>,
    /// Every frame's box around the skinned mesh (min, max), in the model's own numbers.
    bounds: Vec<(Vec3, Vec3)>,
    /// The largest turn of a joint from one frame to the next, as the cosine of half its angle
    /// (1: none; 0: half a turn).
    pub widest_step: f64,
}

impl Planned {
    /// The rate and frames it is written at.
    pub fn sampling(&self) -> Sampling {
        self.sampling
    }

    /// Whether a joint turns a third of a turn or more from one frame to the next. A reader plays
    /// the shorter way between two frames' orientations (q and -q are the same turn, and MD5 keeps
    /// only the sign whose w is negative), so a step near half a turn may play back the other way
    /// round from the model: such a clip wants finer frames.
    pub fn turns_too_far(&self) -> bool {
        self.widest_step <= 0.5
    }
}

/// How far each joint turns from the frame `before` to `now` (their components, as written): the
/// smallest `|q · q'|` over the joints, the cosine of half the widest turn.
fn widest_step(before: &[[f64; 6]], now: &[[f64; 6]]) -> f64 {
    let quaternion = |c: &[f64; 6]| {
        let w = -(1.0 - c[3] * c[3] - c[4] * c[4] - c[5] * c[5]).max(0.0).sqrt();
        [c[3], c[4], c[5], w]
    };
    (before.iter().zip(now))
        .map(|(a, b)| {
            let (a, b) = (quaternion(a), quaternion(b));
            (a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]).abs()
        })
        .fold(1.0, f64::min)
}

/// The pose at frame `k` of `rate` a second: `t` seconds into the clip, sampled into `pose`.
fn sample(model: &Model, clip: &Clip, k: usize, rate: u32, pose: &mut Pose) -> f32 {
    let t = k as f32 / rate as f32;
    // Step 1 of the frame alone, the clip not wrapped (MD5 keeps no morph weights).
    ClipAt(clip).pose(&model.skeleton, t as f64, &mut pose.local);
    t
}

/// One frame's six components per MD5 joint, as the file stores them, into `out`.
fn components(model: &Model, joints: &Md5Joints, local: &[Trs], out: &mut Vec<[f64; 6]>) {
    out.clear();
    out.extend(md5_locals(joints, local, model).into_iter().map(|(t, q)| {
        let [x, y, z] = orientation(q);
        let t = joints.snap(t);
        [t.x as f64, t.y as f64, t.z as f64, x, y, z]
    }));
}

/// The first pass over the frames of `clip` (written as `name`), as `sampling` says: the flags, the
/// boxes and the base frame, every number checked (`pose` is room to skin the mesh in).
pub fn plan(
    model: &Model,
    joints: &Md5Joints,
    (clip, name): (&Clip, String),
    sampling: Sampling,
    pose: &mut Pose,
) -> Result<Planned, ExportError> {
    let Sampling { rate, frames } = sampling;
    let flags = vec![0; joints.order.len()];
    let mut planned =
        Planned { name, sampling, flags, base: Vec::new(), bounds: Vec::new(), widest_step: 1.0 };
    planned.bounds.reserve_exact(frames);
    let (mut frame, mut before) = (Vec::with_capacity(joints.order.len()), Vec::new());
    for k in 0..frames {
        // The frame (`frame.rs`) at frame k's time, the clip not wrapped: the positions, for the box.
        let t = k as f32 / rate as f32;
        let _linear_blending_takes_any_palette = pose.run(model, Frame::new(&ClipAt(clip), t as f64));
        check_scales(model, &joints.needed, &pose.local, &clip.name, t)?;
        let not_finite = || ExportError::NotFinite(format!("clip {}'s pose at {t} s", quoted(&clip.name)));
        let (mut min, mut max) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for &p in &pose.skinned {
            (min, max) = (min.min(p.into()), max.max(p.into()));
        }
        if !(min.is_finite() && max.is_finite()) {
            return Err(not_finite());
        }
        planned.bounds.push((min, max));
        components(model, joints, &pose.local, &mut frame);
        if frame.iter().flatten().any(|c| !c.is_finite()) {
            return Err(not_finite());
        }
        if k == 0 {
            planned.base.clone_from(&frame);
        } else {
            planned.widest_step = planned.widest_step.min(widest_step(&before, &frame));
        }
        before.clone_from(&frame);
        for (flags, (now, base)) in planned.flags.iter_mut().zip(frame.iter().zip(&planned.base)) {
            *flags |= (0..6).filter(|&c| now[c] != base[c]).map(|c| 1u8 << c).sum::<u8>();
        }
    }
    Ok(planned)
}

/// The second pass: `clip`'s `.md5anim` into `out`, its head from `planned`, then each frame as it
/// is sampled: the components its flags name, translations as floats, orientations with their 9
/// decimals.
pub fn write(
    model: &Model,
    joints: &Md5Joints,
    clip: &Clip,
    planned: &Planned,
    out: &mut dyn Write,
) -> io::Result<()> {
    let checked = |e: ExportError| io::Error::other(e);
    let what = format!("clip {}", quoted(&clip.name));
    let components: usize = planned.flags.iter().map(|f| f.count_ones() as usize).sum();
    writeln!(out, "MD5Version 10\ncommandline \"{}\"\n", commandline(&planned.name))?;
    let Sampling { rate, frames } = planned.sampling;
    writeln!(out, "numFrames {frames}\nnumJoints {}", planned.base.len())?;
    writeln!(out, "frameRate {rate}\nnumAnimatedComponents {components}\n\nhierarchy {{")?;
    let mut start = 0;
    for (i, name) in joints.names.iter().enumerate() {
        let parent = joints.parent[i].map_or(-1, |p| p as i64);
        let comment = joints.parent_name(i);
        writeln!(out, "\t\"{name}\"\t{parent} {} {start}\t// {comment}", planned.flags[i])?;
        start += planned.flags[i].count_ones() as usize;
    }
    writeln!(out, "}}\n\nbounds {{")?;
    for &(min, max) in &planned.bounds {
        let place = |p: Vec3| triple(joints.snap(joints.id_point(p)), &what);
        let (min, max) = (place(min), place(max));
        writeln!(out, "\t{} {}", min.map_err(checked)?, max.map_err(checked)?)?;
    }
    writeln!(out, "}}\n\nbaseframe {{")?;
    for c in &planned.base {
        let t = triple(Vec3::new(c[0] as f32, c[1] as f32, c[2] as f32), &what).map_err(checked)?;
        writeln!(out, "\t{t} {}", turn([c[3], c[4], c[5]]))?;
    }
    writeln!(out, "}}")?;
    let mut pose = Pose::new(model);
    let mut frame = Vec::with_capacity(planned.base.len());
    let mut line = String::new();
    for k in 0..frames {
        sample(model, clip, k, rate, &mut pose);
        self::components(model, joints, &pose.local, &mut frame);
        writeln!(out, "\nframe {k} {{")?;
        for (c, &f) in frame.iter().zip(&planned.flags) {
            line.clear();
            for i in (0..6).filter(|&i| f & (1 << i) != 0) {
                let text = if i < 3 { number(c[i] as f32, &what).map_err(checked)? } else { decimal(c[i]) };
                line.push_str(if line.is_empty() { "\t" } else { " " });
                line.push_str(&text);
            }
            if !line.is_empty() {
                writeln!(out, "{line}")?;
            }
        }
        writeln!(out, "}}")?;
    }
    Ok(())
}
