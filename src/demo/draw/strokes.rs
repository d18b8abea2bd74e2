//! Strokes: points and the lines between them, on the GPU: positions, a colour per position, and
//! the line segments as pairs of indices, bound together in a vertex array ([`Strokes`]). The bind
//! mesh, the skinned mesh as lines, the bones, the normals and the marks over them are all strokes,
//! drawn by one program ([`LinesProgram`]), which draws the words too. GL boilerplate; nothing here
//! knows about skinning.

use super::gl::{GlError, as_bytes, compile_program, gl_size};
use crate::demo::colors::Rgba;
use glam::{Mat4, Vec3A};
use glow::HasContext;

/// Positions, colours and line segments, bound together in a vertex array.
/// Attribute 0 is the position, attribute 1 the colour; `GpuSkin` adds more to its strokes.
pub struct Strokes {
    pub vao: glow::VertexArray,
    /// The positions and colours, which the lit surface's vertex arrays read too (`surface.rs`).
    pub positions: glow::Buffer,
    pub colors: glow::Buffer,
    lines: glow::Buffer,
    line_indices: i32,
    pub points: i32,
    /// Whether `draw` shows the positions as points too (see [`MAX_POINTS_SHOWN`]).
    pub show_points: bool,
}

/// Strokes with more positions than this draw their lines only. The article's 13 vertices and a
/// skeleton's joints read best as dots; a real mesh has its vertices at the corners of its edges
/// already, and a dot on each of a thousand vertices buries the lines and the bones under them.
pub const MAX_POINTS_SHOWN: usize = 1000;

impl Strokes {
    /// Strokes of `points` positions (uploaded later) joined by `lines`, pairs of point indices.
    pub fn new(gl: &glow::Context, points: usize, lines: &[[u32; 2]]) -> Result<Strokes, GlError> {
        // Sizes in bytes and counts as OpenGL takes them, checked: the colours' bytes are the
        // largest, so every byte offset into the positions fits too.
        let position_bytes = gl_size(points.saturating_mul(12), "the points' positions, in bytes")?;
        let color_bytes = gl_size(points.saturating_mul(16), "the points' colours, in bytes")?;
        let line_indices = gl_size(lines.len().saturating_mul(2), "the lines' indices")?;
        let count = gl_size(points, "the points")?;
        // SAFETY: the caller keeps the context that made `gl` current on this thread; every name
        // bound here is made here, and the element data is a live slice whose length glow passes.
        unsafe {
            let vao = gl.create_vertex_array().map_err(GlError::Other)?;
            let positions = gl.create_buffer().map_err(GlError::Other)?;
            let colors = gl.create_buffer().map_err(GlError::Other)?;
            let indices = gl.create_buffer().map_err(GlError::Other)?;
            gl.bind_vertex_array(Some(vao));
            // Attribute 0: position, three floats. Attribute 1: colour, four floats.
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(positions));
            gl.buffer_data_size(glow::ARRAY_BUFFER, position_bytes, glow::DYNAMIC_DRAW);
            gl.vertex_attrib_pointer_f32(0, 3, glow::FLOAT, false, 12, 0);
            gl.enable_vertex_attrib_array(0);
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(colors));
            gl.buffer_data_size(glow::ARRAY_BUFFER, color_bytes, glow::DYNAMIC_DRAW);
            gl.vertex_attrib_pointer_f32(1, 4, glow::FLOAT, false, 16, 0);
            gl.enable_vertex_attrib_array(1);
            // The element buffer is part of the vertex array's state.
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(indices));
            gl.buffer_data_u8_slice(glow::ELEMENT_ARRAY_BUFFER, as_bytes(lines), glow::STATIC_DRAW);
            gl.bind_vertex_array(None);
            Ok(Strokes {
                vao,
                positions,
                colors,
                lines: indices,
                line_indices,
                points: count,
                show_points: points <= MAX_POINTS_SHOWN,
            })
        }
    }

    pub fn upload_positions(&self, gl: &glow::Context, positions: &[Vec3A], staging: &mut Vec<f32>) {
        staging.clear();
        staging.extend(positions.iter().flat_map(|p| p.to_array()));
        self.upload_floats(gl, staging);
    }

    pub fn upload_floats(&self, gl: &glow::Context, xyz: &[f32]) {
        debug_assert_eq!(xyz.len(), self.points as usize * 3);
        // SAFETY: `gl`'s context is current (the caller's); `self.positions` is this layer's live
        // buffer; glow passes `xyz`'s length, and OpenGL refuses a write past the buffer's end.
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.positions));
            gl.buffer_sub_data_u8_slice(glow::ARRAY_BUFFER, 0, as_bytes(xyz));
        }
    }

    pub fn upload_colors(&self, gl: &glow::Context, colors: &[Rgba]) {
        debug_assert_eq!(colors.len(), self.points as usize);
        // SAFETY: `gl`'s context is current (the caller's); `self.colors` is this layer's live
        // buffer; glow hands over `colors` with its length, and OpenGL bounds the write.
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.colors));
            gl.buffer_sub_data_u8_slice(glow::ARRAY_BUFFER, 0, as_bytes(colors));
        }
    }

    pub fn draw(&self, gl: &glow::Context) {
        self.draw_instances(gl, 1);
    }

    /// Draws the strokes `instances` times in one draw: a crowd's characters on the GPU, each
    /// instance skinned by its own palette (`shaders/skinning.vert`).
    pub fn draw_instances(&self, gl: &glow::Context, instances: i32) {
        // SAFETY: `gl`'s context is current (the caller's); the vertex array is this layer's, its
        // element buffer holds `line_indices` indices and its buffers `points` points (both
        // counted and checked in `new`), so the draws read inside them, whatever the instance.
        unsafe {
            gl.bind_vertex_array(Some(self.vao));
            gl.draw_elements_instanced(glow::LINES, self.line_indices, glow::UNSIGNED_INT, 0, instances);
            if self.show_points {
                gl.draw_arrays_instanced(glow::POINTS, 0, self.points, instances);
            }
            gl.bind_vertex_array(None);
        }
    }

    pub fn delete(&self, gl: &glow::Context) {
        // SAFETY: `gl`'s context is current (the caller's); the vertex array and the three buffers
        // were made in `new` and are deleted once: the strokes are not used after `delete`.
        unsafe {
            gl.delete_vertex_array(self.vao);
            for buffer in [self.positions, self.colors, self.lines] {
                gl.delete_buffer(buffer);
            }
        }
    }
}

/// The program every stroke is drawn with (`shaders/lines.vert` and `shaders/lines.frag`), and its
/// two uniforms: the camera, and the size of a point in pixels.
pub struct LinesProgram {
    pub program: glow::Program,
    pub view_projection: Option<glow::UniformLocation>,
    pub point_size: Option<glow::UniformLocation>,
}

impl LinesProgram {
    /// Compiles the program, and lets its vertex shader set the point size.
    pub fn new(gl: &glow::Context) -> Result<LinesProgram, GlError> {
        let program = compile_program(
            gl,
            ("shaders/lines.vert", include_str!("../../../shaders/lines.vert")),
            ("shaders/lines.frag", include_str!("../../../shaders/lines.frag")),
        )?;
        // SAFETY: the caller keeps the context that made `gl` current on this thread, and the
        // program was just made by it.
        unsafe {
            if !gl.version().is_embedded {
                // Let the vertex shader set the point size (always on in OpenGL ES).
                gl.enable(glow::PROGRAM_POINT_SIZE);
            }
            Ok(LinesProgram {
                view_projection: gl.get_uniform_location(program, "view_projection"),
                point_size: gl.get_uniform_location(program, "point_size"),
                program,
            })
        }
    }

    /// Puts the program in use with this camera and point size, for the strokes drawn next.
    pub fn start(&self, gl: &glow::Context, view_projection: Mat4, point_size: f32) {
        self.use_again(gl);
        // SAFETY: `gl`'s context is current with this program in use (the caller's); the uniform
        // locations are this program's, and each slice handed over is a whole local array.
        unsafe {
            gl.uniform_matrix_4_f32_slice(
                self.view_projection.as_ref(),
                false,
                &view_projection.to_cols_array(),
            );
            gl.uniform_1_f32(self.point_size.as_ref(), point_size);
        }
    }

    /// Puts the program back in use after another, its uniforms as they were.
    pub fn use_again(&self, gl: &glow::Context) {
        // SAFETY: `gl`'s context is current (the caller's); `self.program` was linked in `new` and
        // is deleted only by `delete`.
        unsafe { gl.use_program(Some(self.program)) };
    }

    pub fn delete(&self, gl: &glow::Context) {
        // SAFETY: `gl`'s context is current (the caller's); the program is this one's, deleted
        // once: it is not used after `delete`.
        unsafe { gl.delete_program(self.program) };
    }
}
