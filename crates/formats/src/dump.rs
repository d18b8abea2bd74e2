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
//! A clip played with its travel (`--root-motion`, `root_motion.rs`) adds to each frame its
//! `"root_motion"`: the travel so far, as a heading, an offset and a matrix (`dump/root_motion.rs`).
//!
//! Where chains reach for targets (`--reach`, `reach.rs`), each frame's local pose is the solved one,
//! and its `"reach"` says, per chain, the target, the pole, the bones and their solved rotations,
//! and where the end went (`dump/reach.rs`).
//!
//! Each frame is one run of the method (`frame.rs`: `Pose::run`), as [`Settings`] say. The
//! `"skinning"` field says who blended the `"skinned"` positions: `"cpu"` is a blender on the CPU
//! (the readable loops, or the program's fast path: the same numbers to a rounding); the demo's
//! `--dump --skinning gpu` blends with the vertex shader instead ([`By::Outside`]), so the two dumps
//! can be compared number for number. The `"method"` field says how: `"lbs"`
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

use serde::Serialize;
use skinning_method::dual_quat::{DqPalette, NotRigid};
use skinning_method::frame::{Blending, Frame, Pose, TakesTravel};
use skinning_method::lbs_or_dqs::{Blender, ByMethod, Method, Reference, SkinsByMethod};
use skinning_method::model::Model;
use skinning_method::morph::Held;
use skinning_method::reach::Reach;
use skinning_method::root_motion::RootMotion;
use std::io::{self, Write};

mod format;
mod layers;
mod morphs;
mod overflow;
mod reach;
mod root_motion;
mod frames;

use format::{
    BoneOut, DualQuatOut, FrameOut, InfluenceOut, JointOut, Matrices, MixedOut, PartOut, Points, VertexOut,
};
pub use frames::Frames;
pub use layers::Played;
use morphs::morphs_out;
use overflow::model_overflow;
pub use overflow::{Overflow, frame_overflow, points_overflow, pose_overflow};

/// How a dump's frames are made, besides the clips: the method (`"method"`), who blends
/// (`"skinning"`), the morph weights held over the clips', and the chains that reach.
pub struct Settings<'a> {
    pub method: Method,
    pub by: By<'a>,
    pub held: &'a [Held],
    pub reaches: &'a mut [Reach],
    /// The clip's travel, carried on or taken out after step 1 (`root_motion.rs`), if asked.
    pub root_motion: Option<&'a mut RootMotion>,
}

impl Settings<'_> {
    /// `method`, blended by the readable loops, nothing held, no chain reaching.
    pub fn new(method: Method) -> Settings<'static> {
        Settings { method, by: By::Cpu(&Reference), held: &[], reaches: &mut [], root_motion: None }
    }
}

/// Who skins the positions a dump writes: the frame hands steps 5 and 6 to it (`frame.rs`:
/// `Skinner`), whichever it is.
pub enum By<'a> {
    /// A blender on the CPU, blending by the settings' method (`lbs_or_dqs.rs`: `ByMethod`): the
    /// dump says `"cpu"`.
    Cpu(&'a dyn Blender),
    /// A skinner outside the CPU that blends by the settings' method itself, named in
    /// `"skinning"`: the program's vertex shader, read back (`--dump --skinning gpu`).
    Outside { name: &'a str, by: &'a mut dyn SkinsByMethod },
}

/// Writes the model and the poses of what is `played` (a clip, or layers of clips:
/// `dump/layers.rs`) at `frames`, blended on the CPU by linear blend skinning.
pub fn write_dump<'a>(
    out: &mut impl Write,
    model: &Model,
    played: impl Into<Played<'a>>,
    frames: Frames,
) -> io::Result<()> {
    write_dump_with(out, model, played, frames, Settings::new(Method::Lbs))
}

/// The first frame of a dump whose palette dual quaternions cannot hold, with the joint and why:
/// `None` if DQS can blend every frame.
pub fn check_dqs<'a>(
    model: &Model,
    played: impl Into<Played<'a>>,
    frames: Frames,
) -> Option<(f64, NotRigid)> {
    let mut pose = Pose::new(model);
    let mut played = played.into();
    let mut dqs = ByMethod::new(Method::Dqs, Reference);
    (0..frames.count).find_map(|f| {
        played.advance_to(frames.time(f));
        // Stopped at the palette, whose dual quaternions are then made as a DQS blend would.
        let _never_refused = pose.run(model, Frame::new(played.source(), frames.time(f)).palette_only());
        dqs.make_dq(&pose.palette).err().map(|e| (frames.time(f), e))
    })
}

/// [`write_dump`], the frames made as `settings` say. For DQS, check [`check_dqs`] first: a joint
/// that is not rigid ends the dump with an error.
///
/// The model goes out first, then one frame at a time, so a long dump never sits whole in memory.
pub fn write_dump_with<'a>(
    out: &mut impl Write,
    model: &Model,
    played: impl Into<Played<'a>>,
    frames: Frames,
    settings: Settings,
) -> io::Result<()> {
    let mut played = played.into();
    let Settings { method, by, held, reaches, mut root_motion } = settings;
    let name = match &by {
        By::Cpu(_) => "cpu",
        By::Outside { name, .. } => name,
    };
    write_model(out, model, played.name(), name, method)?;
    // On the CPU, the settings' blender by their method, which keeps the dual quaternions it makes.
    let mut on_cpu = None;
    let by: &mut dyn SkinsByMethod = match by {
        By::Cpu(blender) => on_cpu.insert(ByMethod::new(method, blender)),
        By::Outside { by, .. } => by,
    };
    writeln!(out, "\"frames\": [")?;
    let (mut pose, mut layer_poses) = (Pose::new(model), Vec::new());
    for f in 0..frames.count {
        let time = frames.time(f);
        // Refuse rather than lie (serde_json would write `null`).
        if !time.is_finite() {
            let problem = format!("frame {f}'s time is not finite; start earlier or take smaller steps");
            return Err(io::Error::new(io::ErrorKind::InvalidInput, problem));
        }
        played.advance_to(time);
        // One frame of the method (`frame.rs`): the clip (or several blended), the chains that
        // reach, the matrices, the morph with the held weights, and the blend by the skinner.
        let mut chains = &mut *reaches;
        let frame = Frame {
            time,
            source: played.source(),
            root_motion: root_motion.as_deref_mut().map(|m| m as &mut dyn TakesTravel),
            adjust: Some(&mut chains),
            held,
            blending: Blending::Skin { by: &mut *by, normals: true },
        };
        pose.run(model, frame).map_err(io::Error::other)?;
        played.layer_poses(&model.skeleton, &mut layer_poses);
        // A DQS frame's skinner made its dual quaternions; an LBS one made none.
        let dq = by.dq().filter(|_| method == Method::Dqs);
        if let Some(what) = frame_overflow(model, &pose, dq).or_else(|| played.overflow(&layer_poses)) {
            return Err(Overflow { frame: Some((f, time)), what }.into_io());
        }
        let mixed = played.frame_out(&layer_poses, &pose.local);
        let root_motion = root_motion.as_deref();
        serde_json::to_writer(&mut *out, &frame_out(model, &pose, dq, mixed, time, reaches, root_motion))?;
        writeln!(out, "{}", if f + 1 < frames.count { "," } else { "" })?;
    }
    writeln!(out, "]}}")
}

/// The model's part of the dump, before its frames: the clip's name, who blends and how, the
/// bones, joints, vertices, meshes and morph targets.
fn write_model(out: &mut impl Write, model: &Model, clip: &str, by: &str, method: Method) -> io::Result<()> {
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
    let vertices: Vec<VertexOut> = (model.skin.bind().iter().enumerate())
        .map(|(i, p)| VertexOut {
            bind: p.to_array(),
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
    if let Some(what) = model_overflow(&bones, &joints, &vertices) {
        return Err(Overflow { frame: None, what }.into_io());
    }
    // The object is written in pieces, so the frames can follow one by one.
    writeln!(out, "{{")?;
    field(out, "clip", &clip)?;
    field(out, "skinning", &by)?;
    field(out, "method", &method.name())?;
    field(out, "bones", &bones)?;
    field(out, "joints", &joints)?;
    field(out, "vertices", &vertices)?;
    field(out, "meshes", &parts)?;
    if !model.morphs.is_empty() {
        field(out, "morphs", &morphs_out(&model.morphs))?;
    }
    Ok(())
}

/// One frame's JSON, borrowing the pose's buffers (and the layers', `mixed`).
fn frame_out<'a>(
    model: &Model,
    pose: &'a Pose,
    dq: Option<&DqPalette>,
    mixed: Option<MixedOut<'a>>,
    time: f64,
    reaches: &'a [Reach],
    root_motion: Option<&RootMotion>,
) -> FrameOut<'a> {
    // A DQS frame's dual quaternions, as its skinner made them; an LBS one writes none.
    let dq_palette = dq.map(|dq| {
        let out = |d: &skinning_method::dual_quat::DualQuat| DualQuatOut {
            real: d.real.into(),
            dual: d.dual.into(),
        };
        dq.joints.iter().map(out).collect()
    });
    // The skinned vertices come first, the rigid ones after (`Model::with_parts`).
    let skinned_len = model.skinned_len();
    let normals = &pose.normals;
    let normals_len = skinned_len.min(normals.len());
    FrameOut {
        time,
        local: Matrices(&pose.local_matrices),
        world: Matrices(&pose.world),
        palette: Matrices(&pose.palette),
        morph_weights: &pose.morph.weights,
        dq_palette,
        dq_scale: dq.map(|dq| dq.scale),
        skinned: Points(&pose.skinned[..skinned_len]),
        rigid: Points(&pose.skinned[skinned_len..]),
        normals: Points(&normals[..normals_len]),
        rigid_normals: Points(&normals[normals_len..]),
        reach: reach::reach_out(reaches, pose),
        mixed,
        root_motion: root_motion.map(root_motion::root_out),
    }
}

/// One `"name": value,` line of the dump's object.
fn field(out: &mut impl Write, name: &str, value: &impl Serialize) -> io::Result<()> {
    write!(out, "\"{name}\": ")?;
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out, ",")
}
