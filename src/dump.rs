//! The numbers behind the pictures, as JSON: for learners who want to check the math by hand.
//!
//! `--dump FILE.json` runs the method without any OpenGL and writes the skeleton, the skin, and every
//! simulated frame's local and world transforms and skinned positions. Every matrix is 16 numbers in
//! column-major order (glam's `to_cols_array`): the last four are the translation column.
//!
//! The `"skinning"` field says who blended the `"skinned"` positions: `"cpu"` is [`crate::skin::blend`];
//! the demo's `--dump --skinning gpu` passes its own [`Blender`] that runs the vertex shader instead,
//! so the two dumps can be compared number for number.

use crate::clip::Clip;
use crate::model::{Model, Pose};
use crate::skin::blend;
use glam::{Mat4, Vec3A};
use std::io::{self, Write};

/// Who blends the positions a dump writes: `name` goes into the `"skinning"` field, and `blend`
/// fills one skinned position per vertex from this frame's palette, like [`crate::skin::blend`].
pub struct Blender<'a> {
    pub name: &'a str,
    pub blend: &'a mut BlendFn<'a>,
}

/// From a palette (one matrix per bone) to skinned positions (one per vertex).
pub type BlendFn<'a> = dyn FnMut(&[Mat4], &mut [Vec3A]) -> io::Result<()> + 'a;

/// Writes the model and `frames` poses of `clip`, the first at `start`, then every `dt` seconds.
pub fn write_dump(
    out: &mut impl Write,
    model: &Model,
    clip: &Clip,
    start: f64,
    dt: f64,
    frames: u64,
) -> io::Result<()> {
    let mut cpu = |palette: &[Mat4], skinned: &mut [Vec3A]| {
        blend(&model.skin, palette, skinned);
        Ok(())
    };
    write_dump_blended_by(out, model, clip, start, dt, frames, Blender { name: "cpu", blend: &mut cpu })
}

/// [`write_dump`], with the skinned positions blended by `blender`.
pub fn write_dump_blended_by(
    out: &mut impl Write,
    model: &Model,
    clip: &Clip,
    start: f64,
    dt: f64,
    frames: u64,
    blender: Blender,
) -> io::Result<()> {
    let skeleton = &model.skeleton;
    writeln!(out, "{{\"clip\": \"{}\",", clip.name)?;
    writeln!(out, "\"skinning\": \"{}\",", escape(blender.name))?;

    writeln!(out, "\"bones\": [")?;
    for (i, bone) in skeleton.bones().iter().enumerate() {
        let comma = if i + 1 < skeleton.len() { "," } else { "" };
        write!(out, "  {{\"name\": \"{}\", ", escape(&bone.name))?;
        write!(out, "\"parent\": {}, ", index(bone.parent))?;
        write!(out, "\"first_child\": {}, ", index(bone.first_child))?;
        write!(out, "\"sibling\": {},\n   ", index(bone.sibling))?;
        write!(out, "\"bind_local\": {},\n   ", matrix(&bone.bind_local))?;
        write!(out, "\"bind_world\": {},\n   ", matrix(&model.bind_world[i]))?;
        writeln!(out, "\"offset\": {}}}{comma}", matrix(&model.offsets[i]))?;
    }
    writeln!(out, "],")?;

    writeln!(out, "\"vertices\": [")?;
    for (i, v) in model.skin.vertices().iter().enumerate() {
        let comma = if i + 1 < model.skin.len() { "," } else { "" };
        let influences: Vec<String> = v
            .influences()
            .map(|inf| format!("{{\"bone\": {}, \"weight\": {}}}", inf.bone, inf.weight))
            .collect();
        writeln!(
            out,
            "  {{\"bind\": [{}, {}, {}], \"influences\": [{}]}}{comma}",
            v.bind.x,
            v.bind.y,
            v.bind.z,
            influences.join(", ")
        )?;
    }
    writeln!(out, "],")?;

    writeln!(out, "\"frames\": [")?;
    let mut pose = Pose::new(model);
    for f in 0..frames {
        // Time from the frame number, not by adding dt up, so frame 10000 is exactly where it should be.
        let time = start + dt * f as f64;
        pose.update_palette(model, clip, time);
        (blender.blend)(&pose.palette, &mut pose.skinned)?;
        let comma = if f + 1 < frames { "," } else { "" };
        let local: Vec<String> = pose.local.iter().map(matrix).collect();
        let world: Vec<String> = pose.world.iter().map(matrix).collect();
        let skinned: Vec<String> =
            pose.skinned.iter().map(|p| format!("[{}, {}, {}]", p.x, p.y, p.z)).collect();
        writeln!(out, "  {{\"time\": {time},")?;
        writeln!(out, "   \"local\": [{}],", local.join(", "))?;
        writeln!(out, "   \"world\": [{}],", world.join(", "))?;
        writeln!(out, "   \"skinned\": [{}]}}{comma}", skinned.join(", "))?;
    }
    writeln!(out, "]}}")
}

fn index(i: Option<usize>) -> String {
    i.map_or_else(|| "null".to_string(), |i| i.to_string())
}

fn matrix(m: &Mat4) -> String {
    let numbers: Vec<String> = m.to_cols_array().iter().map(|x| x.to_string()).collect();
    format!("[{}]", numbers.join(", "))
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
