//! One layer of lines and points on the GPU: positions, a colour per position, and the line
//! segments as pairs of indices, bound together in a vertex array. Every picture the demo draws is
//! made of these. GL boilerplate; nothing here knows about skinning.

use super::colors::Rgba;
use super::gl::GlError;
use glam::Vec3A;
use glow::HasContext;

/// Positions, colours and line segments of one layer, bound together in a vertex array.
/// Attribute 0 is the position, attribute 1 the colour; `GpuSkin` adds more to its layer.
pub struct Layer {
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

/// A layer with more positions than this draws its lines only. The article's 13 vertices and a
/// skeleton's joints read best as dots; a real mesh has its vertices at the corners of its edges
/// already, and a dot on each of a thousand vertices buries the lines and the bones under them.
pub const MAX_POINTS_SHOWN: usize = 1000;

impl Layer {
    /// A layer of `points` positions (uploaded later) joined by `lines`, pairs of point indices.
    pub fn new(gl: &glow::Context, points: usize, lines: &[[u32; 2]]) -> Result<Layer, GlError> {
        // SAFETY: the caller keeps the context that made `gl` current on
        // this thread, and every handle used was created by this layer and not yet deleted.
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
                line_indices: (lines.len() * 2) as i32,
                points: points as i32,
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
        // SAFETY: a current context and this object's own live GL names, as at the file's first SAFETY.
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.positions));
            gl.buffer_sub_data_u8_slice(glow::ARRAY_BUFFER, 0, as_bytes(xyz));
        }
    }

    pub fn upload_colors(&self, gl: &glow::Context, colors: &[Rgba]) {
        debug_assert_eq!(colors.len(), self.points as usize);
        // SAFETY: a current context and this object's own live GL names, as at the file's first SAFETY.
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.colors));
            gl.buffer_sub_data_u8_slice(glow::ARRAY_BUFFER, 0, as_bytes(colors));
        }
    }

    pub fn draw(&self, gl: &glow::Context) {
        // SAFETY: a current context and this object's own live GL names, as at the file's first SAFETY.
        unsafe {
            gl.bind_vertex_array(Some(self.vao));
            gl.draw_elements(glow::LINES, self.line_indices, glow::UNSIGNED_INT, 0);
            if self.show_points {
                gl.draw_arrays(glow::POINTS, 0, self.points);
            }
            gl.bind_vertex_array(None);
        }
    }

    pub fn delete(&self, gl: &glow::Context) {
        // SAFETY: a current context and this object's own live GL names, as at the file's first SAFETY.
        unsafe {
            gl.delete_vertex_array(self.vao);
            for buffer in [self.positions, self.colors, self.lines] {
                gl.delete_buffer(buffer);
            }
        }
    }
}

/// The bytes of a slice of plain numbers, for handing to OpenGL: bytemuck's `Pod` types have no
/// padding and take any bit pattern, so the cast needs no `unsafe` of ours.
pub fn as_bytes<T: bytemuck::Pod>(data: &[T]) -> &[u8] {
    bytemuck::cast_slice(data)
}
