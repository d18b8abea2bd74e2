//! Drawing with OpenGL: one program, and layers of lines and points.
//!
//! Every layer ([`Layer`]) is the same thing to the GPU: a list of positions, a colour per position,
//! and a list of line segments as pairs of indices. The bind-pose mesh (green) never changes, so it
//! is uploaded once. The skinned mesh (red, or orange for dual quaternions) and the bones (blue) are
//! re-uploaded every frame from what the CPU just computed; in compare mode (`--method both`) a
//! second skinned layer holds the DQS positions, in orange. Nothing here knows how skinning works;
//! it only draws the numbers.
//!
//! The exception is the GPU-skinned mesh ([`GpuSkin`], the next lesson), one more layer: it skins
//! in its own vertex shader, so per frame only its palette goes up (with the camera, as for every
//! layer); in compare mode it is drawn twice, once per method.
//!
//! A model's skinned mesh is drawn as a lit surface ([`Surface`], `surface.rs`; the GPU's in
//! `gpu_skin.rs`) instead of its lines: the first skinned layer only, the compared ones staying
//! lines over it. The normals layer is lines too, two points each, from the CPU's numbers.
//!
//! On top: a bone's trail (`trail.rs`), reaching's targets (`reach_marks.rs`), the vertex inspector (`inspector.rs`: one vertex's
//! candidate positions and its blend), the words (`labels.rs` places them, `text.rs` draws them).

use super::colors::{BACKGROUND, BLUE, Colors, GREEN, NORMALS, ORANGE, RED, Rgba};
use super::gl::{GlError, compile_program};
use super::gpu_influences::gpu_can_skin;
use super::gpu_palette::{block_limit, fits_driver};
use super::gpu_skin::GpuSkin;
use super::inspector::InspectorLayer;
use super::layer::Layer;
use super::reach_marks::ReachMarks;
use super::surface::Surface;
use super::trail::TrailLine;
use crate::demo::show::view::at_one_point;
use crate::demo::words::labels::Labels;
use crate::demo::words::text::TextLayer;
use glam::{Vec3, Vec3A};
use glow::HasContext;
use skinning_formats::material::Looks;
use skinning_method::model::Model;
use skinning_method::skeleton::BoneId;
mod read;
mod scene;

pub use scene::Scene;

/// The program, the layers and their buffers. Needs the GL context current for every call.
pub struct Renderer {
    gl: glow::Context,
    program: glow::Program,
    view_projection: Option<glow::UniformLocation>,
    point_size: Option<glow::UniformLocation>,
    bind: Layer,
    skinned: Layer,
    /// Compare mode's DQS positions, blended on the CPU: always orange.
    compared: Layer,
    /// The CPU's skinned mesh as a lit surface; None for a mesh without triangles.
    surface: Option<Surface>,
    /// None if the model has more joints than the shader's palette holds, or the driver's uniform
    /// blocks cannot hold the palette; `gpu_refusal` then says which.
    pub gpu: Option<GpuSkin>,
    /// Why there is no GPU layer, in one line for the user.
    pub gpu_refusal: Option<String>,
    normal_lines: Layer,
    bones: Layer,
    inspector: InspectorLayer,
    reach: ReachMarks,
    trail: TrailLine,
    labels: Labels,
    text: TextLayer,
    /// The bones the bones layer shows, in its order: the joints.
    drawn_bones: Vec<BoneId>,
    /// Reused every frame to turn positions into plain floats, so uploads allocate nothing.
    staging: Vec<f32>,
}

impl Renderer {
    /// Compiles the shaders and creates the layers for `model`.
    pub fn new(gl: glow::Context, model: &Model, looks: &Looks) -> Result<Renderer, GlError> {
        let program = compile_program(
            &gl,
            ("shaders/lines.vert", include_str!("../../../shaders/lines.vert")),
            ("shaders/lines.frag", include_str!("../../../shaders/lines.frag")),
        )?;
        // SAFETY: the caller keeps the context that made `gl` current on
        // this thread, and every handle used was created by this renderer and not yet deleted.
        let (view_projection, point_size) = unsafe {
            (
                gl.get_uniform_location(program, "view_projection"),
                gl.get_uniform_location(program, "point_size"),
            )
        };

        let n = model.skin.len();
        let mesh_lines = &model.edges;
        // Only joints are drawn (in the article every bone is one; a glTF file also has nodes that
        // only place others). A joint's line comes from its nearest ancestor that is a joint.
        let is_joint = model.joint_bones();
        let drawn_bones: Vec<BoneId> = (0..model.skeleton.len()).filter(|&b| is_joint[b]).collect();
        let bone_lines: Vec<[u32; 2]> = (drawn_bones.iter().enumerate())
            .filter_map(|(i, &bone)| {
                let mut above = model.skeleton.bone(bone).parent;
                while let Some(a) = above.filter(|&a| !is_joint[a]) {
                    above = model.skeleton.bone(a).parent;
                }
                let from = drawn_bones.iter().position(|&d| Some(d) == above)?;
                Some([from as u32, i as u32])
            })
            .collect();

        let mut staging = Vec::new();
        let mut bind = Layer::new(&gl, n, mesh_lines)?;
        let bind_positions: Vec<Vec3A> = model.skin.vertices().iter().map(|v| v.bind).collect();
        bind.upload_positions(&gl, &bind_positions, &mut staging);
        bind.upload_colors(&gl, &vec![GREEN; n]);
        let mut skinned = Layer::new(&gl, n, mesh_lines)?;
        skinned.upload_colors(&gl, &vec![RED; n]);
        let mut compared = Layer::new(&gl, n, mesh_lines)?;
        compared.upload_colors(&gl, &vec![ORANGE; n]);
        let surface =
            if model.triangles.is_empty() { None } else { Some(Surface::new(&gl, model, looks, &skinned)?) };
        // A mesh whose vertices all sit at one point has no lines or faces to see: its points mark
        // where it is, however many there are.
        let a_point = at_one_point(model);
        for layer in [&mut bind, &mut skinned, &mut compared] {
            layer.show_points |= a_point;
        }
        // The normals layer: line i from point 2i to point 2i + 1, lines only.
        let count = crate::demo::show::normal_lines::line_count(model);
        let pairs: Vec<[u32; 2]> = (0..count as u32).map(|i| [2 * i, 2 * i + 1]).collect();
        let mut normal_lines = Layer::new(&gl, 2 * count, &pairs)?;
        normal_lines.upload_colors(&gl, &vec![NORMALS; 2 * count]);
        normal_lines.show_points = false;
        let bones = Layer::new(&gl, drawn_bones.len(), &bone_lines)?;
        bones.upload_colors(&gl, &vec![BLUE; drawn_bones.len()]);
        // A model too big for GPU skinning, or a driver too small for its palette, still draws on
        // the CPU; `Demo` refuses to switch (`Session::refuse_gpu`).
        let gpu_refusal = gpu_can_skin(&model.skin).and(fits_driver(block_limit(&gl))).err();
        let mut gpu = if gpu_refusal.is_none() { Some(GpuSkin::new(&gl, model, looks)?) } else { None };
        if let Some(gpu) = &mut gpu {
            gpu.show_points(a_point);
            gpu.upload_colors(&gl, &vec![RED; n]);
        }

        // SAFETY: a current context and this object's own live GL names, as at the file's first SAFETY.
        unsafe {
            if !gl.version().is_embedded {
                // Let the vertex shader set the point size (always on in OpenGL ES).
                gl.enable(glow::PROGRAM_POINT_SIZE);
            }
        }
        let inspector = InspectorLayer::new(&gl, model.skin.most_influences())?;
        let (reach, trail) = (ReachMarks::new(&gl)?, TrailLine::new(&gl)?);
        let labels = Labels::new(model);
        let text = TextLayer::new(&gl, labels.batch().capacity())?;
        Ok(Renderer {
            gl,
            program,
            view_projection,
            point_size,
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
            labels,
            text,
            drawn_bones,
            staging,
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

    /// Clears the viewport and draws the layers `frame` asks for.
    pub fn draw(&mut self, frame: &Scene, width: u32, height: u32) {
        let gl = &self.gl;
        // SAFETY: a current context and this object's own live GL names, as at the file's first SAFETY.
        unsafe {
            gl.viewport(0, 0, width as i32, height as i32);
            let [r, g, b, a] = BACKGROUND;
            gl.clear_color(r, g, b, a);
            gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT);
            gl.use_program(Some(self.program));
            gl.uniform_matrix_4_f32_slice(
                self.view_projection.as_ref(),
                false,
                &frame.view_projection.to_cols_array(),
            );
            gl.uniform_1_f32(self.point_size.as_ref(), frame.point_size);
        }
        // Back to front: bind pose, skinned mesh (CPU, then GPU over it; LBS, then DQS over it;
        // the first lit, if asked for), normals, then the bones on top.
        if frame.bind {
            self.bind.draw(gl);
        }
        let skinned = &frame.skinned;
        let (view_projection, eye) = (frame.view_projection, frame.eye);
        if let Some(positions) = skinned.cpu {
            self.skinned.upload_positions(gl, positions, &mut self.staging);
            match self.surface.as_ref().filter(|_| frame.surface) {
                Some(surface) => {
                    surface.draw(gl, skinned.cpu_normals, &mut self.staging, view_projection, eye)
                }
                None => self.skinned.draw(gl),
            }
        }
        if let Some(positions) = skinned.cpu_compared {
            self.compared.upload_positions(gl, positions, &mut self.staging);
            self.compared.draw(gl);
        }
        if let Some(gpu) = &mut self.gpu {
            let point_size = frame.point_size;
            if let (Some(morphed), Some(_)) = (skinned.morph, skinned.gpu) {
                gpu.set_shape(gl, morphed);
            }
            if let Some(palette) = skinned.gpu {
                // Lit only where it is the first layer; over the CPU's, its lines show where they differ.
                match frame.surface && skinned.cpu.is_none() {
                    true => {
                        if let Some(surface) = &self.surface {
                            gpu.draw_surface(gl, palette, (view_projection, eye), &surface.looks)
                        }
                    }
                    false => gpu.draw(gl, palette, view_projection, point_size, skinned.gpu_color),
                }
            }
            if let Some(palette) = skinned.gpu_compared {
                gpu.draw(gl, palette, view_projection, point_size, Some(skinned.gpu_color.unwrap_or(ORANGE)));
            }
        }
        // Every layer above may have left its own program in use.
        // SAFETY: as above.
        unsafe { gl.use_program(Some(self.program)) };
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
        self.reach.draw(gl, frame.reach, self.point_size.as_ref(), frame.point_size);
        if let Some(inspection) = &frame.inspection {
            self.inspector.draw(gl, inspection, self.point_size.as_ref(), frame.point_size);
        }
        // Words last, over everything, in window pixels.
        if let Some(words) = &frame.words {
            let (vp, size) = (frame.view_projection, (width, height));
            self.labels.compose(words, frame.bones, frame.inspection.as_ref(), vp, size);
            let uniforms = (self.view_projection.as_ref(), self.point_size.as_ref());
            self.text.draw(gl, self.labels.batch(), uniforms, (width, height, words.scale));
        }
    }

    /// Hands the queued commands to the driver, as a window's buffer swap would.
    pub fn flush(&self) {
        // SAFETY: as above.
        unsafe { self.gl.flush() };
    }
}

impl Drop for Renderer {
    fn drop(&mut self) {
        for layer in [&self.bind, &self.skinned, &self.compared, &self.bones, &self.normal_lines] {
            layer.delete(&self.gl);
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
        self.text.delete(&self.gl);
        // SAFETY: a current context and this object's own live GL names, as at the file's first SAFETY.
        unsafe { self.gl.delete_program(self.program) };
    }
}
