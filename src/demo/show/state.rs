//! What the demo shows and how the keys and the mouse change it. No windows and no OpenGL here, so
//! the window and the headless run share it, and its logic is tested like the rest.
//!
//! A [`Demo`] is the model with its clips and this frame's pose, plus small parts that each own one
//! idea: the [`Clock`] (time, speed, pause), the [`View`] (camera, layers, weight view, words), the
//! [`SkinnedLayer`] (where and how the skin is blended), the inspector's [`Selection`] (which
//! vertex), the [`Status`] (the corner line and the costs it shows), the [`MorphControl`] (the
//! morph weights the user holds), a [`BendDrag`] while the user bends a bone, and [`Reaching`],
//! the chains that reach. `Demo` passes input to the part it concerns and runs the frame in order;
//! what each key does is in `state/keys.rs`, what the mouse does in `state/mouse.rs`.

use super::crowd::CrowdLayer;
use super::layers::Mixing;
use super::morph::MorphControl;
use super::normal_lines::{line_count, line_lengths, normal_lines};
use super::reach::Reaching;
use super::root_motion::Travelling;
use super::scene::Scene;
use super::selection::Selection;
use super::skinned::{Shown, SkinnedLayer};
use super::trail::Trail;
use super::view::{View, at_one_point, find_bone};
use super::{bend::BendDrag, clock::Clock, ground_lines};
use crate::demo::cli::{choices::Skinning, options::Options};
use crate::demo::colors::{self, Colors};
use crate::demo::model::gpu_fit::gpu_can_skin;
use crate::demo::output::console;
use crate::demo::time::Instant;
use crate::demo::words::labels::Words;
use crate::demo::words::status::{self, Status};
use glam::{Vec3, Vec3A};
use skinning::camera::framing_morphed;
use skinning_formats::material::Looks;
use skinning_formats::md5_import::StoredWeights;
use skinning_method::clip::Clip;
use skinning_method::frame::{Frame, Pose};
use skinning_method::model::Model;
use skinning_method::morph::MorphTargets;
use skinning_method::printable::printable;
use std::sync::Arc;

/// What a key asks of the window around the demo.
#[derive(Debug, PartialEq, Eq)]
pub enum Reply {
    Nothing,
    /// The demo changed; redraw.
    Changed,
    Screenshot,
    Help,
    /// The key asked for something this model cannot do; the one-line reason.
    Refused(String),
    /// The demo changed, and this line says how, once, on the terminal.
    Said(String),
}

pub struct Demo {
    pub model: Model,
    /// What its surface looks like: drawn, never skinned (the loader's; none for the article).
    pub looks: Looks,
    pub clips: Arc<[Clip]>,
    /// Each clip's name as the title, the corner line and the terminal show it: made printable
    /// once (a name is the file's), so that no frame allocates to escape it.
    clip_names: Vec<String>,
    /// Which of `clips` plays (with others, the first blend layer's).
    pub clip: usize,
    /// The clips' layers (`--blend`, `--mask`, `--additive`, the keys F, Y, J, K): `layers.rs`.
    pub mixing: Mixing,
    pub clock: Clock,
    /// This frame's local and world transforms, palette and skinned positions.
    pub pose: Pose,
    pub view: View,
    pub skinned: SkinnedLayer,
    /// Joint positions of the current pose, for drawing the bones.
    pub joints: Vec<Vec3>,
    /// The normals layer's endpoints this frame, two per line (`normal_lines.rs`); empty while it
    /// is hidden.
    pub normal_lines: Vec<Vec3A>,
    /// How long each of the normals layer's lines is: scaled to the mesh's edges where it stands.
    normal_lengths: Vec<f32>,
    /// A model's camera frames the clip that plays, and follows when another plays; the article's
    /// frames its three clips at once (one arm moving in place), so its camera never moves.
    frame_each_clip: bool,
    /// The vertex inspector's vertex.
    pub selection: Selection,
    /// The morph weights held over the clip's (`--morph`, `T`, `U`, `I`).
    pub morph: MorphControl,
    pub status: Status,
    /// An MD5 model's stored weights, which the inspector sets beside `offset · bind`.
    pub stored: Option<StoredWeights>,
    colors_dirty: bool,
    bend: Option<BendDrag>,
    /// Reaching (`reach.rs`): the chains, reach mode, the solver, a target being dragged.
    pub reach: Reaching,
    /// Where `--trail`'s bone has been (`trail.rs`).
    pub trail: Trail,
    /// The clip's travel, carried on or taken out (`--root-motion`, `root_motion.rs`).
    pub travelling: Travelling,
    /// The other characters of `--crowd N` (`crowd.rs`); None for the model alone.
    pub crowd: Option<CrowdLayer>,
}

impl Demo {
    /// The demo of `model`, shaped by its morph `targets` (kept beside it: `morph.rs`; none for
    /// most), playing `clips`, set up as `options` ask.
    pub fn with_morphs(
        model: Model,
        targets: MorphTargets,
        clips: impl Into<Arc<[Clip]>>,
        options: &Options,
    ) -> Result<Demo, String> {
        let clips = clips.into();
        let mixing = Mixing::new(&model, &targets, &clips, options)?;
        let clip = mixing.current();
        let weight_bone = options.weights.as_ref().map(|name| find_bone(&model, name)).transpose()?;
        if options.skinning != Skinning::Cpu {
            gpu_can_skin(&model.skin)?;
        }
        let morph = MorphControl::new(&model, targets, &options.morphs)?;
        if let Some(v) = options.inspect.filter(|&v| v >= model.skin.len()) {
            return Err(match model.skin.len() {
                0 => format!("--inspect {v}: this model has no vertices"),
                1 => format!("--inspect {v}: this model has one vertex, 0"),
                n => format!("--inspect {v}: this model's vertices are 0 to {}", n - 1),
            });
        }
        if options.surface == Some(true) && model.triangles.is_empty() {
            return Err(format!("--surface on: {NO_SURFACE}"));
        }
        let reach = Reaching::given(&model, options)?;
        let travelling = Travelling::new(&model, &clips, clip, &options.motion)?
            .on_ground(ground_lines::of(&model, options)?);
        let trail = Trail::new(&model, options.trail.as_deref())?;
        let frame_each_clip = options.model.is_some();
        let framed = if frame_each_clip { std::slice::from_ref(&clips[clip]) } else { &clips[..] };
        let mut camera = framing_morphed(&model, &morph.targets, framed);
        let crowd = CrowdLayer::new(&model, &morph.targets, options.crowd, clips[clip].duration as f64)?;
        crowd.iter().for_each(|crowd| crowd.frame(&mut camera));
        if let Some((yaw, pitch, zoom)) = options.camera.or(crowd.as_ref().and_then(CrowdLayer::first_view)) {
            camera.start_at(yaw, pitch, zoom);
        }
        let mut view = View::new(camera, &model, weight_bone, options.text);
        // Lit by default where there is a surface to light: a model's triangles, not the outline.
        view.show_surface = options.surface.unwrap_or(!model.triangles.is_empty());
        view.show_normals = options.normals;
        view.hide(options.hide);
        let mut demo = Demo {
            pose: Pose::new(&model),
            joints: vec![Vec3::ZERO; model.skeleton.len()],
            normal_lines: Vec::with_capacity(2 * line_count(&model)),
            normal_lengths: line_lengths(&model, camera.radius()),
            frame_each_clip,
            view,
            skinned: SkinnedLayer::new(&model, options.skinning, options.method),
            model,
            looks: Looks::default(),
            clip_names: clips.iter().map(|c| printable(&c.name).into_owned()).collect(),
            clips,
            clip,
            mixing,
            clock: Clock::new(options.time),
            selection: Selection::new(options.inspect),
            morph,
            status: Status::new(),
            stored: None,
            colors_dirty: true,
            bend: None,
            reach,
            trail,
            travelling,
            crowd,
        };
        demo.update();
        demo.reach.rule_notes().iter().for_each(|note| console::note_once(note));
        // A model that dual quaternions cannot skin from the first frame is refused, not switched.
        if demo.skinned.method != options.method {
            return Err(demo.skinned.fallback.take().unwrap_or_default());
        }
        Ok(demo)
    }

    pub fn clip(&self) -> &Clip {
        &self.clips[self.clip]
    }

    /// Another clip plays: a model's camera frames it instead, seen as the user turned and zoomed.
    fn reframe(&mut self) {
        if !self.frame_each_clip {
            return;
        }
        let mut framed = framing_morphed(&self.model, &self.morph.targets, std::slice::from_ref(self.clip()));
        self.crowd.iter().for_each(|crowd| crowd.frame(&mut framed));
        for camera in [&mut self.view.camera, &mut self.view.home] {
            (camera.target, camera.extent) = (framed.target, framed.extent);
        }
    }

    /// Runs the method for the current time (one frame, `Pose::run`, ending as the skinned layer
    /// asks: `SkinnedLayer::ending`, compare mode's second blend included, by its skinner); then
    /// the normals layer's lines.
    pub fn update(&mut self) {
        let started = Instant::now();
        let shown = self.shown();
        let time = self.clock.time;
        // The clips' layers (`layers.rs`) moved to this time, then the frame (`frame.rs`): their
        // pose, the chains that reach (in reach mode), the weights the user holds, and the ending
        // the skinned layer asks for (the fast path, or the palette for the GPU).
        self.mixing.mixer.advance_to(time);
        let (mut reaches, mut morph) = (self.reach.chains(), self.morph.stage());
        let (source, blending) = (&self.mixing.mixer, self.skinned.ending(shown));
        let root_motion = self.travelling.hook(&self.model, &self.clips, self.clip);
        let (adjust, reshape) = (Some(&mut reaches as _), Some(&mut morph as _));
        let frame = Frame { time, source, root_motion, adjust, reshape, blending };
        let result = self.pose.run(&self.model, frame);
        self.clip = self.mixing.current();
        let model = &self.model;
        let clip = &self.clips[self.clip];
        // Dual quaternions may give way to linear blending here (the layer says why): recolour.
        let (morph, time_in_clip) = (&mut self.morph.stage(), clip.wrap(time) as f64);
        self.colors_dirty |= self.skinned.finish(&mut self.pose, morph, model, result, time_in_clip, shown);
        if let Some(crowd) = &mut self.crowd {
            crowd.run(model, clip, time, self.skinned.cpu(shown), &self.skinned.skinner.blender.threads);
        }
        self.status.measured(started.elapsed());
        // The camera follows a body that travels (`--root-motion on`), its home view too.
        let step = self.view.camera.upright * self.travelling.follow();
        (self.view.camera.target, self.view.home.target) =
            (self.view.camera.target + step, self.view.home.target + step);
        self.normal_lines.clear();
        if shown.normal_lines {
            normal_lines(model, &self.pose, &self.normal_lengths, &mut self.normal_lines);
        }
        for (bone, joint) in self.joints.iter_mut().enumerate() {
            *joint = self.pose.joint(bone);
        }
        self.reach.mark(&self.pose);
        self.trail.record(&self.joints, time);
        // The corner line's memory is lent out while it is rewritten, so nothing is allocated.
        let mut line = std::mem::take(&mut self.status.line);
        status::write_status(&mut line, &self.status_line());
        self.reach.write_status(&mut line);
        self.mixing.write_rows(&mut line, &self.clip_names, &self.view.bone_names, time);
        self.status.line = line;
    }

    /// The layers shown this frame that need normals: the lit surface where the mesh has triangles
    /// with an area (else it is drawn as lines and points), the normals layer.
    pub fn shown(&self) -> Shown {
        let view = &self.view;
        let surface = !self.model.triangles.is_empty() && !at_one_point(&self.model);
        Shown { surface: view.show_skinned && view.show_surface && surface, normal_lines: view.show_normals }
    }

    /// What the renderer should draw for a viewport of this size.
    pub fn scene(&self, width: u32, height: u32, scale: f64) -> Scene<'_> {
        let view = &self.view;
        let aspect = width.max(1) as f32 / height.max(1) as f32;
        Scene {
            view_projection: view.camera.view_projection(width, height),
            eye: view.camera.eye_in_model(aspect),
            point_size: colors::POINT_SIZE * scale as f32,
            bind: view.show_bind,
            skinned: self.skinned.layers(&self.pose, &self.morph.morphed, view.show_skinned),
            crowd: self.crowd.as_ref().filter(|_| view.show_skinned).map_or(&[], CrowdLayer::others),
            surface: self.shown().surface,
            normal_lines: view.show_normals.then_some(&self.normal_lines[..]),
            bones: view.show_bones.then_some(&self.joints[..]),
            reach: self.reach.marks(),
            floor: self.travelling.grid(),
            trail: self.trail.points(),
            inspection: self.inspection(),
            words: view.show_text.then_some(Words {
                status: &self.status.line,
                names: view.show_names,
                scale: scale as f32,
            }),
        }
    }

    /// New colours for the skinned mesh and the bones, if the weight view changed since last asked.
    pub fn take_colors(&mut self) -> Option<Colors> {
        let plain = self.skinned.plain_color();
        std::mem::take(&mut self.colors_dirty).then(|| self.view.colors(&self.model, plain))
    }
}

/// Why the lit surface cannot be shown for a mesh without triangles.
pub const NO_SURFACE: &str =
    "this mesh has no triangles to fill and light (the article's is an outline): it is drawn as lines";

#[cfg(test)]
mod clip_tests;
mod keys;
mod layer_keys;
mod mouse;
#[cfg(test)]
mod reach_tests;
mod report;
#[cfg(test)]
mod tests;
