//! The numbers behind the pictures, as JSON: for learners who want to check the math by hand.
//!
//! `--dump FILE.json` runs the method without any OpenGL and writes the skeleton, the skin, and every
//! simulated frame's local and world transforms, palette and skinned positions: every number the
//! blend used, so each skinned position can be recomputed from the file alone. Every matrix is 16
//! numbers in column-major order (glam's `to_cols_array`): the last four are the translation column.
//!
//! The `"skinning"` field says who blended the `"skinned"` positions: `"cpu"` is [`crate::skin::blend`];
//! the demo's `--dump --skinning gpu` passes its own [`Blender`] that runs the vertex shader instead,
//! so the two dumps can be compared number for number.

use crate::clip::Clip;
use crate::model::{Model, Pose};
use crate::skin::blend;
use glam::{Mat4, Vec3A};
use serde::Serialize;
use std::io::{self, Write};

/// Who blends the positions a dump writes: `name` goes into the `"skinning"` field, and `blend`
/// fills one skinned position per vertex from this frame's palette, like [`crate::skin::blend`].
pub struct Blender<'a> {
    pub name: &'a str,
    pub blend: &'a mut BlendFn<'a>,
}

/// From a palette (one matrix per joint) to skinned positions (one per vertex).
pub type BlendFn<'a> = dyn FnMut(&[Mat4], &mut [Vec3A]) -> io::Result<()> + 'a;

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

/// A matrix as JSON: 16 numbers, column by column. (glam's `serde` feature writes a `Mat4` the same
/// way, and a `Vec3A` as `[x, y, z]`.)
type Matrix = [f32; 16];

// What the JSON holds, field by field. serde writes each `f32` in its shortest form (0.7, not
// 0.699999988079071) and refuses nothing a JSON reader cannot take back.
#[derive(Serialize)]
struct BoneOut<'a> {
    name: &'a str,
    parent: Option<usize>,
    first_child: Option<usize>,
    sibling: Option<usize>,
    rest_local: Matrix,
    rest_world: Matrix,
}

#[derive(Serialize)]
struct JointOut {
    bone: usize,
    offset: Matrix,
}

#[derive(Serialize)]
struct InfluenceOut {
    joint: usize,
    weight: f32,
}

#[derive(Serialize)]
struct VertexOut {
    bind: [f32; 3],
    influences: Vec<InfluenceOut>,
}

#[derive(Serialize)]
struct FrameOut<'a> {
    time: f64,
    local: &'a [Mat4],
    world: &'a [Mat4],
    palette: &'a [Mat4],
    skinned: &'a [Vec3A],
}

/// Writes the model and the poses of `clip` at `frames`, blended on the CPU.
pub fn write_dump(out: &mut impl Write, model: &Model, clip: &Clip, frames: Frames) -> io::Result<()> {
    let mut cpu = |palette: &[Mat4], skinned: &mut [Vec3A]| {
        blend(&model.skin, palette, skinned);
        Ok(())
    };
    write_dump_blended_by(out, model, clip, frames, Blender { name: "cpu", blend: &mut cpu })
}

/// [`write_dump`], with the skinned positions blended by `blender`.
///
/// The model goes out first, then one frame at a time, so a long dump never sits whole in memory.
pub fn write_dump_blended_by(
    out: &mut impl Write,
    model: &Model,
    clip: &Clip,
    frames: Frames,
    blender: Blender,
) -> io::Result<()> {
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
    let vertices: Vec<VertexOut> = (model.skin.vertices().iter())
        .map(|v| VertexOut {
            bind: v.bind.to_array(),
            influences: v.influences().map(|i| InfluenceOut { joint: i.joint, weight: i.weight }).collect(),
        })
        .collect();

    // The object is written in pieces, so the frames can follow one by one.
    writeln!(out, "{{")?;
    field(out, "clip", &clip.name)?;
    field(out, "skinning", &blender.name)?;
    field(out, "bones", &bones)?;
    field(out, "joints", &joints)?;
    field(out, "vertices", &vertices)?;
    writeln!(out, "\"frames\": [")?;
    let mut pose = Pose::new(model);
    for f in 0..frames.count {
        let time = frames.time(f);
        pose.update_palette(model, clip, time);
        (blender.blend)(&pose.palette, &mut pose.skinned)?;
        let frame = FrameOut {
            time,
            local: &pose.local,
            world: &pose.world,
            palette: &pose.palette,
            skinned: &pose.skinned,
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
