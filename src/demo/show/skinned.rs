//! The skinned layer's two choices (`cli/choices.rs`), and the work a frame does for them:
//! **where** it is blended ([`Skinning`]: on the CPU, on the GPU, or both, the GPU's in magenta
//! over the CPU's) and **how** ([`Methods`]: linear blend skinning in red, dual quaternions in
//! orange, or both at once).
//!
//! Every frame runs the method (`frame.rs`: `Pose::run`), and [`SkinnedLayer::ending`] says how it
//! ends for these choices: the CPU blends the first method it draws, by the fast path, or for a
//! GPU-drawn layer the frame stops at the palette, which the vertex shader blends (the layer makes
//! the dual quaternions of it for a DQS layer: [`SkinnedLayer::finish`]); compare mode has the
//! skinner blend by dual quaternions after the first method, into positions of its own. The
//! skinner is the method's `lbs_or_dqs::ByMethod` around the fast path, and keeps what it made
//! for the layers that draw it. The CPU moves the normals too when it draws the lit surface or the
//! normals layer shows them ([`Cpu`]). The CPU blends on the threads `threads.rs` picks (all the
//! machine's for a big mesh, `parallel.rs`). Dual quaternions take only joints that turn and move
//! (`dual_quat.rs`): when a frame's palette has any other scale, [`refusal`] says so in one line and
//! linear blending takes over.
//! [`SkinnedLayer`] holds these choices for the demo, with what they need between frames.
//! No OpenGL here; `render.rs` draws the [`Layers`].

use crate::demo::colors::{MAGENTA, ORANGE, RED, Rgba};
use crate::demo::model::gpu_fit::gpu_can_skin;
use glam::Vec3A;
use skinning_fast::fast_path::FastPath;
use skinning_method::dual_quat::{DqPalette, NotRigid};
use skinning_method::frame::{Blending, Frame, Pose, Refused, Reshape, Still};
use skinning_method::lbs_or_dqs::{ByMethod, Method, Palette, not_rigid};
use skinning_method::model::Model;
use skinning_method::morph::Morphed;

use crate::demo::cli::choices::{Methods, Skinning};

/// The skinned layer as the demo holds it: where and how it is blended, the skinner that blends on
/// the CPU, and a word for the user when DQS gave way.
pub struct SkinnedLayer {
    pub skinning: Skinning,
    pub method: Methods,
    /// The frame's skinner: by the first method, and in compare mode by dual quaternions again
    /// into positions of its own (`pose.skinned` then holds the linear blend's), on the fast path:
    /// its lanes, and its threads (`--threads`, `parallel.rs`, `Session::pick_threads`).
    pub skinner: ByMethod<FastPath>,
    /// Why dual quaternions gave way to linear blending, until the session has told the user.
    pub fallback: Option<String>,
    /// The mesh has no normals of its own: its surface is lit with flat ones, found by the GPU.
    flat: bool,
    /// Why this driver cannot skin on the GPU, if it cannot (`Session::refuse_gpu`): `G` says it.
    pub gpu_refused: Option<String>,
}

impl SkinnedLayer {
    /// Blended as asked, on one thread until the session knows who draws (`Session::pick_threads`).
    pub fn new(model: &Model, skinning: Skinning, method: Methods) -> SkinnedLayer {
        let skinner = ByMethod::new(method.first(), FastPath::new());
        let flat = model.skin.normals().is_empty();
        SkinnedLayer { skinning, method, skinner, fallback: None, gpu_refused: None, flat }
    }

    /// This frame's ending (steps 5 and 6) for the picture `shown`: the first method's blend on the
    /// CPU by the skinner (and compare mode's second, when the CPU draws both methods), or, when
    /// only the GPU blends, the palette the shader reads.
    pub fn ending(&mut self, shown: Shown) -> Blending<'_> {
        let work = Cpu::for_frame(self.skinning, shown, self.flat);
        self.skinner.method = self.method.first();
        self.skinner.compare = self.method == Methods::Both && work.positions;
        match work.positions {
            true => Blending::Skin { by: &mut self.skinner, normals: work.normals },
            false => {
                self.skinner.skip();
                Blending::Palette
            }
        }
    }

    /// After the frame ran (`result`, its answer): where only the GPU blends by dual quaternions,
    /// makes them of this frame's palette for the shader. If dual quaternions cannot hold that
    /// palette, says why in `fallback`, once, runs the frame again from its pose by linear
    /// blending, its mesh reshaped as before by `reshape` (the morph, whose weights `Still`
    /// leaves as they are), and blends linearly from now on; returns whether the method changed.
    /// (The fast path never fails otherwise.)
    pub fn finish(
        &mut self,
        pose: &mut Pose,
        reshape: &mut dyn Reshape,
        model: &Model,
        result: Result<(), Refused>,
        time: f64,
        shown: Shown,
    ) -> bool {
        let gpu_alone = !Cpu::for_frame(self.skinning, shown, self.flat).positions;
        let refused = match result {
            Err(e) => not_rigid(&e),
            Ok(()) if gpu_alone && self.method != Methods::Lbs => self.skinner.make_dq(&pose.palette).err(),
            Ok(()) => None,
        };
        let Some(e) = refused else { return false };
        self.fallback = Some(refusal(model, &e, time));
        self.method = Methods::Lbs;
        // The pose is this frame's already: the matrices and the blend again, linearly.
        let (blending, reshape) = (self.ending(shown), Some(&mut *reshape as &mut dyn Reshape));
        let again = Frame { blending, reshape, ..Frame::new(&Still, time) };
        let _linear_blending_takes_any_palette = pose.run(model, again);
        true
    }

    /// The methods the layer draws by, and the dual quaternions its skinner made this frame (for
    /// a click to pick from, and the inspector: `selection.rs`).
    pub fn drawn_by(&self) -> (Methods, Option<&DqPalette>) {
        (self.method, self.skinner.dq())
    }

    /// What to draw of the skinned mesh ([`layers`]), with this frame's morph (`morphed`).
    pub fn layers<'a>(&'a self, pose: &'a Pose, morphed: &'a Morphed, shown: bool) -> Layers<'a> {
        Layers { morph: Some(morphed), ..layers(pose, &self.skinner, self.skinning, self.method, shown) }
    }

    /// The skinned mesh's colour outside the weight view: red, or orange for dual quaternions alone.
    pub fn plain_color(&self) -> Rgba {
        if self.method == Methods::Dqs { ORANGE } else { RED }
    }

    /// What the CPU computes of steps 5 and 6 this frame, for the picture `shown` ([`Cpu`]).
    pub fn cpu(&self, shown: Shown) -> Cpu {
        Cpu::for_frame(self.skinning, shown, self.flat)
    }

    /// What the CPU computes per frame for it: the pose, the blend unless only the GPU blends, and
    /// the normals where the picture `shown` needs them from the CPU.
    pub fn cpu_work(&self, shown: Shown) -> &'static str {
        match Cpu::for_frame(self.skinning, shown, self.flat) {
            Cpu { positions: false, .. } => "pose",
            Cpu { normals: false, .. } => "pose+blend",
            _ => "pose+blend+normals",
        }
    }
}

/// Which layers that need normals the picture shows this frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shown {
    /// The skinned mesh as a lit surface.
    pub surface: bool,
    /// The normals layer.
    pub normal_lines: bool,
}

/// What the CPU computes of steps 5 and 6 this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cpu {
    /// The skinned positions: the CPU draws the mesh, or the normals layer starts from them.
    pub positions: bool,
    /// The skinned normals (or flat normals): the CPU draws the lit surface, which reads them, or
    /// the normals layer shows them. (The GPU's surface skins its own; a mesh lit `flat` needs
    /// none for its surface, `shaders/surface.frag` finds each triangle's own.)
    pub normals: bool,
}

impl Cpu {
    pub fn for_frame(skinning: Skinning, shown: Shown, flat: bool) -> Cpu {
        let cpu_draws = skinning != Skinning::Gpu;
        Cpu {
            positions: cpu_draws || shown.normal_lines,
            normals: (cpu_draws && shown.surface && !flat) || shown.normal_lines,
        }
    }
}

/// One line saying why DQS cannot blend `model` at `time`, naming the joint's bone.
pub fn refusal(model: &Model, e: &NotRigid, time: f64) -> String {
    let bone = model.skin.joints().get(e.joint).map_or("?", |j| &model.skeleton.bone(j.bone).name);
    let bone = skinning_method::printable::quoted(bone);
    format!(
        "dual quaternions cannot skin this model at {time:.2} s: joint {} (bone {bone}) {}, and they \
         hold only a rotation, a translation and one scale shared by every joint; linear blending \
         (--method lbs) takes any joint",
        e.joint, e.problem
    )
}

/// `G`: where the skinned layer is blended next, unless the model has too many joints or influences
/// for the GPU or the driver cannot skin on it (`refused`, the renderer's reason): then the CPU keeps it.
pub fn next_skinning(skinning: Skinning, model: &Model, refused: Option<&str>) -> Result<Skinning, String> {
    let next = skinning.next();
    if next != Skinning::Cpu {
        gpu_can_skin(&model.skin)?;
        if let Some(why) = refused {
            return Err(why.to_string());
        }
    }
    Ok(next)
}

/// `D`: how the skinned layer is blended next, unless this frame's palette is one dual quaternions
/// cannot hold: its dual quaternions, made as a DQS blend would make them, say.
pub fn next_method(method: Methods, pose: &Pose, model: &Model, time: f64) -> Result<Methods, String> {
    let next = method.next();
    if next != Methods::Lbs
        && let Err(e) = DqPalette::new(pose.palette.len()).update(&pose.palette)
    {
        return Err(refusal(model, &e, time));
    }
    Ok(next)
}

/// The skinned layers a frame draws, back to front.
#[derive(Clone, Copy, Debug, Default)]
pub struct Layers<'a> {
    /// Blended on the CPU by the first method (LBS, or DQS alone): red or orange, or the weight view.
    pub cpu: Option<&'a [Vec3A]>,
    /// Their skinned normals, for the lit surface (empty for a mesh lit with flat normals).
    pub cpu_normals: &'a [Vec3A],
    /// Compare mode: the CPU's DQS positions, in orange.
    pub cpu_compared: Option<&'a [Vec3A]>,
    /// Blended on the GPU by the first method, from this palette.
    pub gpu: Option<Palette<'a>>,
    /// Compare mode: the GPU's DQS blend, from this palette.
    pub gpu_compared: Option<Palette<'a>>,
    /// With `--skinning both`: every GPU layer in this one colour, over the CPU's.
    pub gpu_color: Option<Rgba>,
    /// This frame's morph, for the GPU layers (its weights, or its shapes where the CPU morphs):
    /// the morph layer's, which [`layers`] leaves to its caller (`SkinnedLayer::layers`).
    pub morph: Option<&'a Morphed>,
}

/// What to draw of the skinned mesh for the choices (nothing if it is hidden).
pub fn layers<'a>(
    pose: &'a Pose,
    skinner: &'a ByMethod<FastPath>,
    skinning: Skinning,
    method: Methods,
    shown: bool,
) -> Layers<'a> {
    if !shown {
        return Layers::default();
    }
    let cpu = skinning != Skinning::Gpu;
    let gpu = skinning != Skinning::Cpu;
    let compare = method == Methods::Both;
    Layers {
        cpu: cpu.then_some(&pose.skinned[..]),
        cpu_normals: &pose.normals,
        cpu_compared: (cpu && compare).then(|| skinner.compared()).flatten(),
        // The skinner made the dual quaternions whenever a layer blends by them (`ending`, `finish`).
        gpu: gpu.then(|| skinner.palette(method.first(), &pose.palette)).flatten(),
        gpu_compared: (gpu && compare).then(|| skinner.palette(Method::Dqs, &pose.palette)).flatten(),
        // Both: the GPU's result in its own colour, over the CPU's, so any disagreement shows.
        gpu_color: (skinning == Skinning::Both).then_some(MAGENTA),
        morph: None,
    }
}

#[cfg(test)]
mod tests;
