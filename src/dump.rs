//! The numbers behind the pictures, as JSON: for learners who want to check the math by hand.
//!
//! `--dump FILE.json` runs the method without any OpenGL and writes the skeleton, the skin, and every
//! simulated frame's local and world transforms, palette and skinned positions: every number the
//! blend used, so each skinned position can be recomputed from the file alone. `"meshes"` says
//! which vertices are which mesh; a frame's `"skinned"` holds the skinned meshes' vertices and, for
//! a glTF model with meshes that move rigidly with a node, `"rigid"` holds theirs. Where the skin has
//! normals (the article's outline, a file with `NORMAL`), each vertex has its bind `"normal"` and
//! each frame its skinned `"normals"` (and `"rigid_normals"`), unit length, in the order of
//! `"skinned"` (and `"rigid"`); a mesh lit with flat normals has none to write, as each triangle's
//! comes from its skinned corners (`normals.rs`). Every matrix is 16 numbers in column-major order
//! (glam's `to_cols_array`): the last four are the translation column.
//!
//! A model with morph targets lists them in `"morphs"`, and each frame holds its
//! `"morph_weights"`: enough to redo each morphed bind position, which the frame's palette then
//! blends (`dump/morphs.rs`).
//!
//! Where chains reach for targets (`--reach`, `reach.rs`), each frame's local pose is the solved one,
//! and its `"reach"` says, per chain, the target, the pole, the bones and their solved rotations,
//! and where the end went (`dump/reach.rs`).
//!
//! The `"skinning"` field says who blended the `"skinned"` positions: `"cpu"` is [`crate::skin::blend`];
//! the demo's `--dump --skinning gpu` passes its own [`Blender`] that runs the vertex shader instead,
//! so the two dumps can be compared number for number. The `"method"` field says how: `"lbs"`
//! (linear blend skinning) or `"dqs"` (dual quaternions); a DQS frame also holds `"dq_palette"`,
//! each joint's `{"real": [x, y, z, w], "dual": [x, y, z, w]}`, and `"dq_scale"`, the scale
//! factored out of every joint (see `dual_quat.rs`), from which its blend can be redone by hand.
//! Several clips at once (`mixer.rs`) add to each frame its `"layers"` and their blend, `"trs"`
//! (`dump/layers.rs`).
//!
//! JSON has no infinity or NaN (serde_json would write `null`), so every number is checked before
//! it is written: the model's own first, then each frame's. A model whose numbers grow past what
//! 32-bit floats hold (about 3.4e38) ends the dump with an [`Overflow`], an error in the model (not
//! in the output) that names the time, and the bone, joint or vertex.

use crate::dual_quat::NotRigid;
use crate::mixer::Animation;
use crate::model::{Method, Model, Palette, Pose};
use crate::morph::{Held, Morphed};
use crate::parallel::BlendThreads;
use crate::reach::Reach;
use glam::Vec3A;
use serde::Serialize;
use std::io::{self, Write};

mod format;
mod layers;
mod morphs;
mod overflow;
mod reach;

use format::{BoneOut, DualQuatOut, FrameOut, InfluenceOut, JointOut, Matrices, PartOut, Points, VertexOut};
use layers::Animator;
use morphs::morphs_out;
use overflow::model_overflow;
pub use overflow::{Overflow, frame_overflow, points_overflow, pose_overflow};

/// Who blends the positions a dump writes, and how: `name` goes into the `"skinning"` field,
/// `method` into `"method"`, and `blend` fills one skinned position per vertex from this frame's
/// palette for that method, like [`crate::skin::blend`] or [`crate::dual_quat::blend_dqs`], and
/// one skinned normal per bind normal (none for a skin without), like
/// [`crate::normals::blend_normals`] or [`crate::dual_quat::blend_dqs_normals`].
pub struct Blender<'a> {
    pub name: &'a str,
    pub method: Method,
    pub blend: &'a mut BlendFn<'a>,
}

/// From this frame's morph (its weights, and the skin in its shape: `Morphed::skin`) and palette
/// (one entry per joint) to skinned positions (one per vertex) and skinned normals (one per bind
/// normal).
pub type BlendFn<'a> = dyn FnMut(&Morphed, Palette, &mut [Vec3A], &mut [Vec3A]) -> io::Result<()> + 'a;

/// The frames a dump simulates: the first at `start`, then every `dt` seconds, `count` of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frames {
    pub start: f64,
    pub dt: f64,
    pub count: u64,
}

impl Frames {
    /// The time of frame `f`, from the frame number rather than by adding `dt` up, so frame 10,000
    /// is exactly where it should be.
    pub fn time(&self, f: u64) -> f64 {
        self.start + self.dt * f as f64
    }
}

/// Writes the model and the poses of `animation` (a clip, or layers of clips: `dump/layers.rs`)
/// at `frames`, blended on the CPU (linear blend skinning).
pub fn write_dump<'a>(
    out: &mut impl Write,
    model: &Model,
    animation: impl Into<Animation<'a>>,
    frames: Frames,
) -> io::Result<()> {
    write_dump_with(out, model, animation, frames, Method::Lbs)
}

/// [`write_dump`] with the blend of `method`, on the CPU. For DQS, check [`check_dqs`] first: a
/// joint that is not rigid ends the dump with an error.
pub fn write_dump_with<'a>(
    out: &mut impl Write,
    model: &Model,
    animation: impl Into<Animation<'a>>,
    frames: Frames,
    method: Method,
) -> io::Result<()> {
    write_dump_on(out, model, animation, frames, (method, &[]), &BlendThreads::one())
}

/// [`write_dump_with`], with the `held` morph weights over the clip's, blending on `threads`
/// (`parallel.rs`): the file is the same byte for byte on one thread or many.
pub fn write_dump_on<'a>(
    out: &mut impl Write,
    model: &Model,
    animation: impl Into<Animation<'a>>,
    frames: Frames,
    (method, held): (Method, &[Held]),
    threads: &BlendThreads,
) -> io::Result<()> {
    write_dump_reaching(out, model, animation, frames, (method, held), threads, &mut [])
}

/// [`write_dump_on`], with `reaches` reaching after the clip in every frame (`reach.rs`); each
/// frame's `"reach"` then says how each chain was solved.
pub fn write_dump_reaching<'a>(
    out: &mut impl Write,
    model: &Model,
    animation: impl Into<Animation<'a>>,
    frames: Frames,
    (method, held): (Method, &[Held]),
    threads: &BlendThreads,
    reaches: &mut [Reach],
) -> io::Result<()> {
    let mut cpu = |morphed: &Morphed, palette: Palette, skinned: &mut [Vec3A], normals: &mut [Vec3A]| {
        let skin = morphed.skin(&model.skin);
        match palette {
            Palette::Lbs(palette) => {
                threads.blend(skin, palette, skinned);
                threads.blend_normals(skin, palette, normals);
            }
            Palette::Dqs { joints, scale } => {
                threads.blend_dqs(skin, joints, scale, skinned);
                threads.blend_dqs_normals(skin, joints, normals);
            }
        }
        Ok(())
    };
    let blender = Blender { name: "cpu", method, blend: &mut cpu };
    write_dump_blended_by(out, model, animation, frames, held, blender, reaches)
}

/// The first frame of a dump whose palette dual quaternions cannot hold, with the joint and why:
/// `None` if DQS can blend every frame.
pub fn check_dqs<'a>(
    model: &Model,
    animation: impl Into<Animation<'a>>,
    frames: Frames,
) -> Option<(f64, NotRigid)> {
    let mut pose = Pose::new(model);
    let mut animator = Animator::new(animation.into());
    (0..frames.count).find_map(|f| {
        animator.pose(model, frames.time(f), &mut pose);
        pose.palette_from_trs(model);
        pose.update_dq_palette().err().map(|e| (frames.time(f), e))
    })
}

/// [`write_dump`], with the `held` morph weights over the clip's, the skinned positions blended by
/// `blender`, and `reaches` reaching after the clip in every frame.
///
/// The model goes out first, then one frame at a time, so a long dump never sits whole in memory.
pub fn write_dump_blended_by<'a>(
    out: &mut impl Write,
    model: &Model,
    animation: impl Into<Animation<'a>>,
    frames: Frames,
    held: &[Held],
    blender: Blender,
    reaches: &mut [Reach],
) -> io::Result<()> {
    let mut animator = Animator::new(animation.into());
    let skeleton = &model.skeleton;
    let rest_world = skeleton.rest_world();
    let bones: Vec<BoneOut> = (skeleton.bones().iter().enumerate())
        .map(|(i, bone)| BoneOut {
            name: &bone.name,
            parent: bone.parent,
            first_child: bone.first_child,
            sibling: bone.sibling,
            rest_local: bone.rest.to_mat4().to_cols_array(),
            rest_world: rest_world[i].to_cols_array(),
        })
        .collect();
    let joints: Vec<JointOut> = (model.skin.joints().iter())
        .map(|j| JointOut { bone: j.bone, offset: j.offset.to_cols_array() })
        .collect();
    let normal = |v: usize| model.skin.normals().get(v).map(|n| n.to_array());
    let vertices: Vec<VertexOut> = (model.skin.vertices().iter().enumerate())
        .map(|(i, v)| VertexOut {
            bind: v.bind.to_array(),
            normal: normal(i),
            influences: (model.skin.influences(i))
                .map(|i| InfluenceOut { joint: i.joint, weight: i.weight })
                .collect(),
        })
        .collect();

    let parts: Vec<PartOut> = (model.parts.iter())
        .map(|p| PartOut {
            name: &p.name,
            bone: p.bone,
            first: p.vertices.start,
            count: p.vertices.len(),
            skinned: p.skinned,
        })
        .collect();
    // The skinned vertices come first, the rigid ones after (`Model::with_parts`).
    let skinned_len = model.skinned_len();
    if let Some(what) = model_overflow(&bones, &joints, &vertices) {
        return Err(Overflow { frame: None, what }.into_io());
    }

    // The object is written in pieces, so the frames can follow one by one.
    writeln!(out, "{{")?;
    field(out, "clip", &animator.name())?;
    field(out, "skinning", &blender.name)?;
    field(out, "method", &blender.method.name())?;
    field(out, "bones", &bones)?;
    field(out, "joints", &joints)?;
    field(out, "vertices", &vertices)?;
    field(out, "meshes", &parts)?;
    if !model.morphs.is_empty() {
        field(out, "morphs", &morphs_out(&model.morphs))?;
    }
    writeln!(out, "\"frames\": [")?;
    let mut pose = Pose::new(model);
    for f in 0..frames.count {
        let time = frames.time(f);
        // The frame in order (`model.rs`): the clip, or several blended (`mixer.rs`), for the bones
        // and the morph weights; then the chains reach, then the matrices, then the morph (with
        // the weights held over the clips').
        animator.pose(model, time, &mut pose);
        crate::reach::solve(reaches, &mut pose.trs, &pose.bend);
        pose.palette_from_trs(model);
        pose.morph.hold(held);
        pose.morph.apply(&model.skin, &model.morphs);
        let dqs = blender.method == Method::Dqs;
        if dqs {
            pose.update_dq_palette().map_err(io::Error::other)?;
        }
        let palette = match blender.method {
            Method::Lbs => Palette::Lbs(&pose.palette),
            Method::Dqs => Palette::Dqs { joints: &pose.dq_palette, scale: pose.dq_scale },
        };
        (blender.blend)(&pose.morph, palette, &mut pose.skinned, &mut pose.normals)?;
        // Refuse rather than lie (serde_json would write `null`).
        if !time.is_finite() {
            let problem = format!("frame {f}'s time is not finite; start earlier or take smaller steps");
            return Err(io::Error::new(io::ErrorKind::InvalidInput, problem));
        }
        if let Some(what) = frame_overflow(model, &pose, dqs).or_else(|| animator.overflow()) {
            return Err(Overflow { frame: Some((f, time)), what }.into_io());
        }
        let dq_palette = dqs.then(|| {
            let out =
                |d: &crate::dual_quat::DualQuat| DualQuatOut { real: d.real.into(), dual: d.dual.into() };
            pose.dq_palette.iter().map(out).collect()
        });
        let frame = FrameOut {
            time,
            local: Matrices(&pose.local),
            world: Matrices(&pose.world),
            palette: Matrices(&pose.palette),
            morph_weights: &pose.morph.weights,
            dq_palette,
            dq_scale: dqs.then_some(pose.dq_scale),
            skinned: Points(&pose.skinned[..skinned_len]),
            rigid: Points(&pose.skinned[skinned_len..]),
            normals: Points(&pose.normals[..skinned_len.min(pose.normals.len())]),
            rigid_normals: Points(&pose.normals[skinned_len.min(pose.normals.len())..]),
            reach: reach::reach_out(reaches, &pose),
            mixed: animator.frame_out(&pose.trs),
        };
        serde_json::to_writer(&mut *out, &frame)?;
        writeln!(out, "{}", if f + 1 < frames.count { "," } else { "" })?;
    }
    writeln!(out, "]}}")
}

/// One `"name": value,` line of the dump's object.
fn field(out: &mut impl Write, name: &str, value: &impl Serialize) -> io::Result<()> {
    write!(out, "\"{name}\": ")?;
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out, ",")
}
