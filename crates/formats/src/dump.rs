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
//! A model with morph targets (kept beside it, handed to the dump in [`Settings`]) lists them in
//! `"morphs"`, and each frame holds its `"morph_weights"`: enough to redo each morphed bind
//! position, which the frame's palette then blends (`dump/morphs.rs`).
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

use skinning_method::dual_quat::{DqPalette, NotRigid};
use skinning_method::frame::{Blending, Frame, Pose, TakesTravel};
use skinning_method::lbs_or_dqs::{Blender, ByMethod, Method, Reference, SkinsByMethod};
use skinning_method::model::Model;
use skinning_method::morph::{Held, MeshMorph, Morph, Morphed};
use skinning_method::reach::Reach;
use skinning_method::root_motion::RootMotion;
use std::io::{self, Write};

mod format;
mod layers;
mod model;
mod morphs;
mod overflow;
mod reach;
mod root_motion;
mod frames;

use format::{DualQuatOut, FrameOut, Matrices, MixedOut, Points};
pub use frames::Frames;
pub use layers::Played;
use model::write_model;
use morphs::Telling;
pub use morphs::Told;
pub use overflow::{Overflow, frame_overflow, points_overflow, pose_overflow};

/// How a dump's frames are made, besides the clips: the method (`"method"`), who blends
/// (`"skinning"`), the model's morph targets and the weights held over the clips', and the chains
/// that reach.
pub struct Settings<'a> {
    pub method: Method,
    pub by: By<'a>,
    /// The morph targets kept beside the model (`morph.rs`: `MorphTargets`; none for most).
    pub morphs: &'a [MeshMorph],
    pub held: &'a [Held],
    pub reaches: &'a mut [Reach],
    /// The clip's travel, carried on or taken out after step 1 (`root_motion.rs`), if asked.
    pub root_motion: Option<&'a mut RootMotion>,
}

impl Settings<'_> {
    /// `method`, blended by the readable loops, no morph targets, no chain reaching.
    pub fn new(method: Method) -> Settings<'static> {
        let by = By::Cpu(&Reference);
        Settings { method, by, morphs: &[], held: &[], reaches: &mut [], root_motion: None }
    }
}

/// Who skins the positions a dump writes: the frame hands steps 5 and 6 to it (`frame.rs`:
/// `Skinner`), whichever it is.
pub enum By<'a> {
    /// A blender on the CPU, blending by the settings' method (`lbs_or_dqs.rs`: `ByMethod`): the
    /// dump says `"cpu"`.
    Cpu(&'a dyn Blender),
    /// A skinner outside the CPU that blends by the settings' method itself, named in
    /// `"skinning"`: the program's vertex shader, read back (`--dump --skinning gpu`). It is `told`
    /// each frame's morph weights as step 4 makes them, before it blends: the shaders morph from
    /// the weights themselves.
    Outside { name: &'a str, by: &'a mut dyn SkinsByMethod, told: Told<'a> },
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
    let Settings { method, by, morphs, held, reaches, mut root_motion } = settings;
    let (name, told) = match &by {
        By::Cpu(_) => ("cpu", None),
        By::Outside { name, told, .. } => (*name, Some(*told)),
    };
    write_model(out, model, morphs, played.name(), (name, method))?;
    // On the CPU, the settings' blender by their method, which keeps the dual quaternions it makes.
    let mut on_cpu = None;
    let by: &mut dyn SkinsByMethod = match by {
        By::Cpu(blender) => on_cpu.insert(ByMethod::new(method, blender)),
        By::Outside { by, .. } => by,
    };
    writeln!(out, "\"frames\": [")?;
    let (mut pose, mut layer_poses) = (Pose::new(model), Vec::new());
    let mut morphed = Morphed::new(&model.skin, morphs);
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
        let morph = Morph { targets: morphs, held, morphed: &mut morphed };
        let frame = Frame {
            time,
            source: played.source(),
            root_motion: root_motion.as_deref_mut().map(|m| m as &mut dyn TakesTravel),
            adjust: Some(&mut chains),
            reshape: Some(&mut Telling { morph, told }),
            blending: Blending::Skin { by: &mut *by, normals: true },
        };
        pose.run(model, frame).map_err(io::Error::other)?;
        played.layer_poses(&model.skeleton, &mut layer_poses);
        // A DQS frame's skinner made its dual quaternions; an LBS one made none.
        let dq = by.dq().filter(|_| method == Method::Dqs);
        let overflow = frame_overflow(model, &pose, dq, &morphed.weights);
        if let Some(what) = overflow.or_else(|| played.overflow(&layer_poses)) {
            return Err(Overflow { frame: Some((f, time)), what }.into_io());
        }
        let mixed = played.frame_out(&layer_poses, &pose.local);
        let root_motion = root_motion.as_deref();
        let posed = (&pose, &morphed.weights[..]);
        serde_json::to_writer(&mut *out, &frame_out(model, posed, dq, mixed, time, reaches, root_motion))?;
        writeln!(out, "{}", if f + 1 < frames.count { "," } else { "" })?;
    }
    writeln!(out, "]}}")
}

/// One frame's JSON, borrowing the pose's buffers (and the layers', `mixed`).
fn frame_out<'a>(
    model: &Model,
    (pose, morph_weights): (&'a Pose, &'a [f32]),
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
        morph_weights,
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
