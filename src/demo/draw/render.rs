//! Drawing with OpenGL: one program, and the picture's layers as strokes of points and lines.
//!
//! Every layer is the same thing to the GPU ([`Strokes`], `strokes.rs`): a list of positions, a
//! colour per position, and a list of line segments as pairs of indices. The bind-pose mesh (green)
//! never changes, so it is uploaded once. The skinned mesh (red, or orange for dual quaternions) and
//! the bones (blue) are re-uploaded every frame from what the CPU just computed; in compare mode
//! (`--method both`) a second skinned layer holds the DQS positions, in orange. Nothing here knows
//! how skinning works; it only draws the numbers.
//!
//! The exception is the GPU-skinned mesh ([`GpuSkin`], the next lesson), one more layer: it skins
//! in its own vertex shader, so per frame only its palette goes up (with the camera, as for every
//! layer); in compare mode it is drawn twice, once per method.
//!
//! A model's skinned mesh is drawn as a lit surface ([`Surface`], `surface.rs`; the GPU's in
//! `gpu_skin.rs`) instead of its lines: the first skinned layer only, the compared ones staying
//! lines over it. The normals layer is lines too, two points each, from the CPU's numbers.
//!
//! `--crowd`'s other characters are the skinned layer again, each moved to its place (`render/crowd.rs`;
//! on the GPU, the whole crowd in one instanced draw per mesh).
//!
//! Under them, the floor's grid when the body travels or the feet stand on a ground (`floor_grid.rs`). On top: a bone's trail (`trail.rs`), reaching's targets (`reach_marks.rs`), the vertex inspector (`inspector.rs`: one vertex's
//! candidate positions and its blend), the words (`labels.rs` places them, `text.rs` draws them).

use super::floor_grid::FloorGrid;
use super::gl::GlError;
use super::gpu_morph::max_texture_rows;
use super::gpu_palette::block_limit;
use super::gpu_skin::GpuSkin;
use super::inspector::InspectorLayer;
use super::reach_marks::ReachMarks;
use super::strokes::{LinesProgram, Strokes};
use super::surface::Surface;
use super::trail::TrailLine;
use crate::demo::colors::{BACKGROUND, Colors, ORANGE, Rgba};
use crate::demo::draw::text::TextLayer;
use crate::demo::model::gpu_fit::{fits_crowd, fits_driver, gpu_can_skin};
use crate::demo::show::view::at_one_point;
use crate::demo::words::labels::Labels;
use glam::Vec3;
use glow::HasContext;
use skinning_formats::material::Looks;
use skinning_method::model::Model;
use skinning_method::morph::MeshMorph;
use skinning_method::skeleton::BoneId;
mod crowd;
mod read;
mod setup;

use crate::demo::show::scene::Scene;
use setup::{bone_strokes, drawn_bones, gpu_skinned, mesh_strokes, normal_strokes};

/// The program, the layers and their buffers. Needs the GL context current for every call.
pub struct Renderer {
    gl: glow::Context,
    lines: LinesProgram,
    bind: Strokes,
    skinned: Strokes,
    /// Compare mode's DQS positions, blended on the CPU: always orange.
    compared: Strokes,
    /// The CPU's skinned mesh as a lit surface; None for a mesh without triangles.
    surface: Option<Surface>,
    /// None if the model has more joints than the shader's palette holds, or the driver's uniform
    /// blocks cannot hold the palette, or its textures the crowd's; `gpu_refusal` then says which.
    pub gpu: Option<GpuSkin>,
    /// Why there is no GPU layer, in one line for the user.
    pub gpu_refusal: Option<String>,
    normal_lines: Strokes,
    bones: Strokes,
    inspector: InspectorLayer,
    reach: ReachMarks,
    trail: TrailLine,
    floor: FloorGrid,
    labels: Labels,
    text: TextLayer,
    /// The bones the bones layer shows, in its order: the joints.
    drawn_bones: Vec<BoneId>,
    /// Reused every frame to turn positions into plain floats, so uploads allocate nothing.
    staging: Vec<f32>,
    /// How many times the last frame drew the mesh to skin `--crowd`'s other characters on the
    /// GPU (`render/crowd.rs`): each an instanced draw of its lines, or of each material's
    /// triangles, for every character at once; `--stats` says it.
    pub crowd_gpu_draws: usize,
}

impl Renderer {
    /// Compiles the shaders and creates the layers for `model` (its morph `targets` too), `crowd` times over.
    pub fn new(
        gl: glow::Context,
        model: &Model,
        targets: &[MeshMorph],
        looks: &Looks,
        crowd: usize,
    ) -> Result<Renderer, GlError> {
        let lines = LinesProgram::new(&gl)?;
        // A mesh whose vertices all sit at one point has no lines or faces to see: its points mark
        // where it is, however many there are.
        let a_point = at_one_point(model);
        let mut staging = Vec::new();
        let [bind, skinned, compared] = mesh_strokes(&gl, model, a_point, &mut staging)?;
        let surface = match model.triangles.is_empty() {
            true => None,
            false => Some(Surface::new(&gl, model, looks, &skinned)?),
        };
        let normal_lines = normal_strokes(&gl, model)?;
        let drawn_bones = drawn_bones(model);
        let bones = bone_strokes(&gl, model, &drawn_bones)?;
        // A model too big for GPU skinning, or a driver too small for its palette or the crowd's,
        // still draws on the CPU; `Demo` refuses to switch (`Session::refuse_gpu`).
        let joints = model.skin.joints().len();
        let gpu_refusal = (gpu_can_skin(&model.skin).and(fits_driver(block_limit(&gl))))
            .and(fits_crowd(crowd, joints, max_texture_rows(&gl)))
            .err();
        let gpu = match gpu_refusal {
            Some(_) => None,
            None => Some(gpu_skinned(&gl, (model, targets), looks, a_point, crowd)?),
        };
        let inspector = InspectorLayer::new(&gl, model.skin.most_influences())?;
        let reach = ReachMarks::new(&gl)?;
        let trail = TrailLine::new(&gl)?;
        let floor = FloorGrid::new(&gl)?;
        let labels = Labels::new(model);
        let text = TextLayer::new(&gl, labels.batch().capacity())?;
        Ok(Renderer {
            gl,
            lines,
            bind,
            skinned,
            compared,
            surface,
            gpu,
            normal_lines,
            gpu_refusal,
            bones,
            inspector,
            reach,
            trail,
            floor,
            labels,
            text,
            drawn_bones,
            staging,
            crowd_gpu_draws: 0,
        })
    }

    /// Recolours the skinned mesh (red, or by weight; the lit surface in its materials' colours
    /// except in the weight view) and the bones (blue, one highlighted).
    pub fn set_colors(&mut self, colors: &Colors) {
        self.surface.iter_mut().for_each(|surface| surface.looks.on = colors.materials);
        self.skinned.upload_colors(&self.gl, &colors.skinned);
        if let Some(gpu) = &self.gpu {
            gpu.upload_colors(&self.gl, &colors.skinned);
        }
        // Only when the weight view changes, so it may allocate.
        let drawn: Vec<Rgba> = self.drawn_bones.iter().map(|&b| colors.bones[b]).collect();
        self.bones.upload_colors(&self.gl, &drawn);
    }

    /// The buffers and textures OpenGL holds for the program now (`gl_objects.rs`); None in a
    /// browser, where WebGL names objects by handles that cannot be asked about one by one.
    pub fn gl_objects(&self) -> Option<u32> {
        #[cfg(not(target_arch = "wasm32"))]
        return Some(super::gl_objects::count_gl_objects(&self.gl));
        #[cfg(target_arch = "wasm32")]
        None
    }

    /// The context, for `platform/creep.rs`'s texture made on purpose every frame.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn gl(&self) -> &glow::Context {
        &self.gl
    }

    /// Clears the viewport and draws the layers `frame` asks for.
    pub fn draw(&mut self, frame: &Scene, width: u32, height: u32) {
        let gl = &self.gl;
        // SAFETY: the caller keeps the context that made `gl` current on this thread.
        unsafe {
            gl.viewport(0, 0, width as i32, height as i32);
            let [r, g, b, a] = BACKGROUND;
            gl.clear_color(r, g, b, a);
            gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT);
        }
        self.lines.start(gl, frame.view_projection, frame.point_size);
        // Under everything: the floor a travelling body goes over.
        self.floor.draw(gl, frame.floor);
        // Back to front: bind pose, skinned mesh (CPU, then GPU over it; LBS, then DQS over it;
        // the first lit, if asked for), normals, then the bones on top.
        if frame.bind {
            self.bind.draw(gl);
        }
        self.draw_cpu_skinned(frame);
        self.draw_gpu_skinned(frame);
        if !frame.crowd.is_empty() {
            self.draw_crowd(frame);
        }
        // Every layer above may have left its own program in use.
        let gl = &self.gl;
        self.lines.use_again(gl);
        if let Some(ends) = frame.normal_lines {
            self.normal_lines.upload_positions(gl, ends, &mut self.staging);
            self.normal_lines.draw(gl);
        }
        self.trail.draw(gl, frame.trail);
        if let Some(joints) = frame.bones {
            let joints: &[Vec3] = joints;
            self.staging.clear();
            self.staging.extend(self.drawn_bones.iter().flat_map(|&b| joints[b].to_array()));
            self.bones.upload_floats(gl, &self.staging);
            self.bones.draw(gl);
        }
        let point_size = self.lines.point_size.as_ref();
        self.reach.draw(gl, frame.reach, point_size, frame.point_size);
        if let Some(inspection) = &frame.inspection {
            self.inspector.draw(gl, inspection, point_size, frame.point_size);
        }
        self.draw_words(frame, width, height);
    }

    /// The skinned mesh as the CPU blended it: lit, or as lines; then compare mode's second blend
    /// over it, as lines.
    fn draw_cpu_skinned(&mut self, frame: &Scene) {
        let gl = &self.gl;
        let skinned = &frame.skinned;
        if let Some(positions) = skinned.cpu {
            self.skinned.upload_positions(gl, positions, &mut self.staging);
            match self.surface.as_ref().filter(|_| frame.surface) {
                Some(surface) => {
                    surface.draw(gl, skinned.cpu_normals, &mut self.staging, frame.view_projection, frame.eye)
                }
                None => self.skinned.draw(gl),
            }
        }
        if let Some(positions) = skinned.cpu_compared {
            self.compared.upload_positions(gl, positions, &mut self.staging);
            self.compared.draw(gl);
        }
    }

    /// The skinned mesh as the GPU blends it, from this frame's palette (and morph): lit where it is
    /// the first layer; over the CPU's, its lines show where they differ.
    fn draw_gpu_skinned(&mut self, frame: &Scene) {
        let gl = &self.gl;
        let skinned = &frame.skinned;
        let Some(gpu) = &mut self.gpu else { return };
        let view_projection = frame.view_projection;
        let point_size = frame.point_size;
        if let (Some(morphed), Some(_)) = (skinned.morph, skinned.gpu) {
            gpu.set_shape(gl, &morphed.weights, morphed.reshaped());
        }
        if let Some(palette) = skinned.gpu {
            match frame.surface && skinned.cpu.is_none() {
                true => {
                    if let Some(surface) = &self.surface {
                        gpu.draw_surface(gl, palette, view_projection, frame.eye, &surface.looks)
                    }
                }
                false => gpu.draw(gl, palette, view_projection, point_size, skinned.gpu_color),
            }
        }
        if let Some(palette) = skinned.gpu_compared {
            gpu.draw(gl, palette, view_projection, point_size, Some(skinned.gpu_color.unwrap_or(ORANGE)));
        }
    }

    /// The words, last, over everything, in window pixels.
    fn draw_words(&mut self, frame: &Scene, width: u32, height: u32) {
        let Some(words) = &frame.words else { return };
        let size = (width, height);
        self.labels.compose(words, frame.bones, frame.inspection.as_ref(), frame.view_projection, size);
        self.text.draw(&self.gl, self.labels.batch(), &self.lines, size, words.scale);
    }

    /// Hands the queued commands to the driver, as a window's buffer swap would.
    pub fn flush(&self) {
        // SAFETY: the context of `self.gl` is current on this thread (the renderer's caller keeps
        // it so); a flush takes no names and no memory.
        unsafe { self.gl.flush() };
    }
}

impl Drop for Renderer {
    fn drop(&mut self) {
        for strokes in [&self.bind, &self.skinned, &self.compared, &self.bones, &self.normal_lines] {
            strokes.delete(&self.gl);
        }
        if let Some(surface) = &self.surface {
            surface.delete(&self.gl);
        }
        if let Some(gpu) = &self.gpu {
            gpu.delete(&self.gl);
        }
        self.inspector.delete(&self.gl);
        self.reach.delete(&self.gl);
        self.trail.delete(&self.gl);
        self.floor.delete(&self.gl);
        self.text.delete(&self.gl);
        self.lines.delete(&self.gl);
    }
}
