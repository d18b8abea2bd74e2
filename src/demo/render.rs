//! Drawing with OpenGL: one program, three layers of lines and points.
//!
//! Every layer is the same thing to the GPU: a list of positions, a colour per position, and a list
//! of line segments as pairs of indices. The bind-pose mesh (green) never changes, so it is uploaded
//! once. The skinned mesh (red) and the bones (blue) are re-uploaded every frame from what the CPU
//! just computed. Nothing here knows how skinning works; it only draws the numbers.
//!
//! The exception is the GPU-skinned mesh ([`GpuSkin`], the next lesson): it skins in its own vertex
//! shader, and only its palette is uploaded per frame.

use super::gl::{GlError, compile_program};
use super::gpu_skin::{GpuSkin, fits_gpu};
use glam::{Mat4, Vec3, Vec3A};
use glow::HasContext;
use skinning::model::Model;

/// Red, green, blue, opacity; 0 to 1.
pub type Rgba = [f32; 4];

pub const GREEN: Rgba = [0.2, 0.85, 0.3, 1.0];
pub const RED: Rgba = [0.95, 0.2, 0.15, 1.0];
pub const BLUE: Rgba = [0.25, 0.5, 1.0, 1.0];
/// The GPU-skinned mesh when it is drawn over the CPU one (`--skinning both`): where the two agree,
/// only magenta shows.
pub const MAGENTA: Rgba = [0.9, 0.25, 0.95, 1.0];
/// The bone picked for the weight view.
pub const HIGHLIGHT: Rgba = [1.0, 0.9, 0.2, 1.0];
pub const BACKGROUND: Rgba = [0.06, 0.06, 0.08, 1.0];
/// Point size in pixels at 100% scale, as in the article's `glPointSize(4)`.
pub const POINT_SIZE: f32 = 4.0;

/// Colour of a vertex in the weight view: dark for weight 0, bright for weight 1.
pub fn weight_color(weight: f32) -> Rgba {
    let dark = [0.25, 0.05, 0.05];
    let bright = [1.0, 0.95, 0.4];
    let w = weight.clamp(0.0, 1.0);
    [
        dark[0] + (bright[0] - dark[0]) * w,
        dark[1] + (bright[1] - dark[1]) * w,
        dark[2] + (bright[2] - dark[2]) * w,
        1.0,
    ]
}

/// A colour per vertex of the skinned mesh, and per joint of the bones.
pub struct Colors {
    pub skinned: Vec<Rgba>,
    pub bones: Vec<Rgba>,
}

/// What to draw this frame.
pub struct Frame<'a> {
    pub view_projection: Mat4,
    pub point_size: f32,
    pub bind: bool,
    /// The mesh skinned on the CPU: its blended positions.
    pub skinned: Option<&'a [Vec3A]>,
    /// The mesh skinned on the GPU: the palette its vertex shader blends with.
    pub gpu_palette: Option<&'a [Mat4]>,
    /// Draw the GPU-skinned mesh in this one colour instead of the skinned mesh's colours.
    pub gpu_color: Option<Rgba>,
    pub bones: Option<&'a [Vec3]>,
}

/// The program, the three layers and their buffers. Needs the GL context current for every call.
pub struct Renderer {
    gl: glow::Context,
    program: glow::Program,
    view_projection: Option<glow::UniformLocation>,
    point_size: Option<glow::UniformLocation>,
    bind: Layer,
    skinned: Layer,
    /// None if the model has more bones than the shader's palette holds.
    gpu: Option<GpuSkin>,
    bones: Layer,
    /// Reused every frame to turn positions into plain floats, so uploads allocate nothing.
    staging: Vec<f32>,
}

impl Renderer {
    /// Compiles the shaders and creates the three layers for `model`.
    pub fn new(gl: glow::Context, model: &Model) -> Result<Renderer, GlError> {
        let program = compile_program(
            &gl,
            ("shaders/lines.vert", include_str!("../../shaders/lines.vert")),
            ("shaders/lines.frag", include_str!("../../shaders/lines.frag")),
        )?;
        // SAFETY (all blocks in this file): the caller keeps the context that made `gl` current on
        // this thread, and every handle used was created by this renderer and not yet deleted.
        let (view_projection, point_size) = unsafe {
            (
                gl.get_uniform_location(program, "view_projection"),
                gl.get_uniform_location(program, "point_size"),
            )
        };

        let n = model.skin.len();
        let mesh_lines = mesh_lines(n);
        // A bone's line goes from its parent's joint to its own.
        let bone_lines: Vec<u16> = (model.skeleton.bones().iter().enumerate())
            .filter_map(|(i, bone)| bone.parent.map(|p| [p as u16, i as u16]))
            .flatten()
            .collect();

        let mut staging = Vec::new();
        let bind = Layer::new(&gl, n, &mesh_lines)?;
        let bind_positions: Vec<Vec3A> = model.skin.vertices().iter().map(|v| v.bind).collect();
        bind.upload_positions(&gl, &bind_positions, &mut staging);
        bind.upload_colors(&gl, &vec![GREEN; n]);
        let skinned = Layer::new(&gl, n, &mesh_lines)?;
        skinned.upload_colors(&gl, &vec![RED; n]);
        let bones = Layer::new(&gl, model.skeleton.len(), &bone_lines)?;
        bones.upload_colors(&gl, &vec![BLUE; model.skeleton.len()]);
        // A model too big for GPU skinning still draws on the CPU; `Demo` refuses to switch.
        let gpu = if fits_gpu(model.skeleton.len()).is_ok() { Some(GpuSkin::new(&gl, model)?) } else { None };
        if let Some(gpu) = &gpu {
            gpu.upload_colors(&gl, &vec![RED; n]);
        }

        unsafe {
            if !gl.version().is_embedded {
                // Let the vertex shader set the point size (always on in OpenGL ES).
                gl.enable(glow::PROGRAM_POINT_SIZE);
            }
        }
        Ok(Renderer { gl, program, view_projection, point_size, bind, skinned, gpu, bones, staging })
    }

    /// Recolours the skinned mesh (red, or by weight) and the bones (blue, one highlighted).
    pub fn set_colors(&self, colors: &Colors) {
        self.skinned.upload_colors(&self.gl, &colors.skinned);
        if let Some(gpu) = &self.gpu {
            gpu.upload_colors(&self.gl, &colors.skinned);
        }
        self.bones.upload_colors(&self.gl, &colors.bones);
    }

    /// Clears the viewport and draws the layers `frame` asks for.
    pub fn draw(&mut self, frame: &Frame, width: u32, height: u32) {
        let gl = &self.gl;
        unsafe {
            gl.viewport(0, 0, width as i32, height as i32);
            let [r, g, b, a] = BACKGROUND;
            gl.clear_color(r, g, b, a);
            gl.clear(glow::COLOR_BUFFER_BIT);
            gl.use_program(Some(self.program));
            gl.uniform_matrix_4_f32_slice(
                self.view_projection.as_ref(),
                false,
                &frame.view_projection.to_cols_array(),
            );
            gl.uniform_1_f32(self.point_size.as_ref(), frame.point_size);
        }
        // Back to front: bind pose, skinned mesh (CPU, then GPU over it), then the bones on top.
        if frame.bind {
            self.bind.draw(gl);
        }
        if let Some(skinned) = frame.skinned {
            self.skinned.upload_positions(gl, skinned, &mut self.staging);
            self.skinned.draw(gl);
        }
        if let (Some(palette), Some(gpu)) = (frame.gpu_palette, &mut self.gpu) {
            gpu.draw(gl, palette, frame.view_projection, frame.point_size, frame.gpu_color);
            // SAFETY: as above.
            unsafe { gl.use_program(Some(self.program)) };
        }
        if let Some(joints) = frame.bones {
            let joints: &[Vec3] = joints;
            self.staging.clear();
            self.staging.extend(joints.iter().flat_map(|j| j.to_array()));
            self.bones.upload_floats(gl, &self.staging);
            self.bones.draw(gl);
        }
    }

    /// Hands the queued commands to the driver, as a window's buffer swap would.
    pub fn flush(&self) {
        // SAFETY: as above.
        unsafe { self.gl.flush() };
    }

    /// The pixels of the current framebuffer, top row first, RGBA.
    pub fn read_pixels(&self, width: u32, height: u32) -> Vec<u8> {
        let (w, h) = (width as usize, height as usize);
        let mut pixels = vec![0u8; w * h * 4];
        unsafe {
            self.gl.finish();
            self.gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
            self.gl.read_pixels(
                0,
                0,
                width as i32,
                height as i32,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelPackData::Slice(Some(&mut pixels)),
            );
        }
        // OpenGL's first row is the bottom one; images start at the top.
        let mut flipped = Vec::with_capacity(pixels.len());
        for row in pixels.chunks_exact(w * 4).rev() {
            flipped.extend_from_slice(row);
        }
        flipped
    }
}

impl Drop for Renderer {
    fn drop(&mut self) {
        for layer in [&self.bind, &self.skinned, &self.bones] {
            layer.delete(&self.gl);
        }
        if let Some(gpu) = &self.gpu {
            gpu.delete(&self.gl);
        }
        unsafe { self.gl.delete_program(self.program) };
    }
}

/// The mesh is drawn as one closed loop: vertex i to vertex i + 1, the last back to the first.
pub fn mesh_lines(vertices: usize) -> Vec<u16> {
    (0..vertices).flat_map(|i| [i as u16, ((i + 1) % vertices) as u16]).collect()
}

/// Positions, colours and line segments of one layer, bound together in a vertex array.
/// Attribute 0 is the position, attribute 1 the colour; [`GpuSkin`] adds two more to its layer.
pub(super) struct Layer {
    pub(super) vao: glow::VertexArray,
    positions: glow::Buffer,
    colors: glow::Buffer,
    lines: glow::Buffer,
    line_indices: i32,
    pub(super) points: i32,
}

impl Layer {
    pub(super) fn new(gl: &glow::Context, points: usize, lines: &[u16]) -> Result<Layer, GlError> {
        unsafe {
            let vao = gl.create_vertex_array().map_err(GlError::Other)?;
            let positions = gl.create_buffer().map_err(GlError::Other)?;
            let colors = gl.create_buffer().map_err(GlError::Other)?;
            let indices = gl.create_buffer().map_err(GlError::Other)?;
            gl.bind_vertex_array(Some(vao));
            // Attribute 0: position, three floats. Attribute 1: colour, four floats.
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(positions));
            gl.buffer_data_size(glow::ARRAY_BUFFER, (points * 12) as i32, glow::DYNAMIC_DRAW);
            gl.vertex_attrib_pointer_f32(0, 3, glow::FLOAT, false, 12, 0);
            gl.enable_vertex_attrib_array(0);
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(colors));
            gl.buffer_data_size(glow::ARRAY_BUFFER, (points * 16) as i32, glow::DYNAMIC_DRAW);
            gl.vertex_attrib_pointer_f32(1, 4, glow::FLOAT, false, 16, 0);
            gl.enable_vertex_attrib_array(1);
            // The element buffer is part of the vertex array's state.
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(indices));
            gl.buffer_data_u8_slice(glow::ELEMENT_ARRAY_BUFFER, as_bytes(lines), glow::STATIC_DRAW);
            gl.bind_vertex_array(None);
            Ok(Layer {
                vao,
                positions,
                colors,
                lines: indices,
                line_indices: lines.len() as i32,
                points: points as i32,
            })
        }
    }

    pub(super) fn upload_positions(&self, gl: &glow::Context, positions: &[Vec3A], staging: &mut Vec<f32>) {
        staging.clear();
        staging.extend(positions.iter().flat_map(|p| p.to_array()));
        self.upload_floats(gl, staging);
    }

    fn upload_floats(&self, gl: &glow::Context, xyz: &[f32]) {
        debug_assert_eq!(xyz.len(), self.points as usize * 3);
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.positions));
            gl.buffer_sub_data_u8_slice(glow::ARRAY_BUFFER, 0, as_bytes(xyz));
        }
    }

    pub(super) fn upload_colors(&self, gl: &glow::Context, colors: &[Rgba]) {
        debug_assert_eq!(colors.len(), self.points as usize);
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.colors));
            gl.buffer_sub_data_u8_slice(glow::ARRAY_BUFFER, 0, as_bytes(colors));
        }
    }

    pub(super) fn draw(&self, gl: &glow::Context) {
        unsafe {
            gl.bind_vertex_array(Some(self.vao));
            gl.draw_elements(glow::LINES, self.line_indices, glow::UNSIGNED_SHORT, 0);
            gl.draw_arrays(glow::POINTS, 0, self.points);
            gl.bind_vertex_array(None);
        }
    }

    pub(super) fn delete(&self, gl: &glow::Context) {
        unsafe {
            gl.delete_vertex_array(self.vao);
            for buffer in [self.positions, self.colors, self.lines] {
                gl.delete_buffer(buffer);
            }
        }
    }
}

/// Plain numbers: no padding bytes, every bit pattern valid.
pub trait Plain: Copy {}
impl Plain for f32 {}
impl Plain for u16 {}
impl<T: Plain, const N: usize> Plain for [T; N] {}

/// The bytes of a slice of plain numbers, for handing to OpenGL.
pub fn as_bytes<T: Plain>(data: &[T]) -> &[u8] {
    // SAFETY: `Plain` types have no padding, so every byte is initialised; u8 needs no alignment;
    // the length is the slice's size in bytes.
    unsafe { std::slice::from_raw_parts(data.as_ptr().cast::<u8>(), std::mem::size_of_val(data)) }
}
