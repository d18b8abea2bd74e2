//! The text layer on the GPU: the points of a [`TextBatch`] (`font.rs`), drawn in window pixels.
//!
//! The same program draws it as every other layer (`shaders/lines.vert`); only the camera changes.
//! Instead of the 3D view-projection, an orthographic one that maps window pixels (x right, y down,
//! origin top-left) straight onto the screen, so a point at (x + 0.5, y + 0.5) of size 1 lights
//! exactly pixel (x, y). The buffers have room for the batch's capacity, made once; a frame uploads
//! only the points it has. GL boilerplate.

use super::font::TextBatch;
use crate::demo::draw::gl::{GlError, as_bytes};
use crate::demo::draw::strokes::LinesProgram;
use glam::Mat4;
use glow::HasContext;

pub struct TextLayer {
    vao: glow::VertexArray,
    positions: glow::Buffer,
    colors: glow::Buffer,
    capacity: usize,
}

/// Window pixels to clip space: x from 0 (left) to `width`, y from 0 (top) to `height`.
pub fn pixel_projection(width: u32, height: u32) -> Mat4 {
    glam::camera::rh::proj::opengl::orthographic(0.0, width as f32, height as f32, 0.0, -1.0, 1.0)
}

impl TextLayer {
    /// Buffers for up to `capacity` points.
    pub fn new(gl: &glow::Context, capacity: usize) -> Result<TextLayer, GlError> {
        // SAFETY: the caller keeps the context that made `gl` current on
        // this thread, and every handle used was created by this layer and not yet deleted.
        unsafe {
            let vao = gl.create_vertex_array().map_err(GlError::Other)?;
            let positions = gl.create_buffer().map_err(GlError::Other)?;
            let colors = gl.create_buffer().map_err(GlError::Other)?;
            gl.bind_vertex_array(Some(vao));
            // Attribute 0: position, two floats (the shader's z is then 0). Attribute 1: colour.
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(positions));
            gl.buffer_data_size(glow::ARRAY_BUFFER, (capacity * 8) as i32, glow::DYNAMIC_DRAW);
            gl.vertex_attrib_pointer_f32(0, 2, glow::FLOAT, false, 8, 0);
            gl.enable_vertex_attrib_array(0);
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(colors));
            gl.buffer_data_size(glow::ARRAY_BUFFER, (capacity * 16) as i32, glow::DYNAMIC_DRAW);
            gl.vertex_attrib_pointer_f32(1, 4, glow::FLOAT, false, 16, 0);
            gl.enable_vertex_attrib_array(1);
            gl.bind_vertex_array(None);
            Ok(TextLayer { vao, positions, colors, capacity })
        }
    }

    /// Draws `batch` with the `lines` program, on a window of `width` x `height` pixels, each point
    /// `scale` pixels wide (rounded). Leaves the program in use, its uniforms set for pixels.
    pub fn draw(
        &self,
        gl: &glow::Context,
        batch: &TextBatch,
        lines: &LinesProgram,
        (width, height): (u32, u32),
        scale: f32,
    ) {
        let n = batch.points().len().min(self.capacity);
        if n == 0 {
            return;
        }
        lines.start(gl, pixel_projection(width, height), scale.round().max(1.0));
        // SAFETY: a current context and this object's own live GL names, as at the file's first SAFETY.
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.positions));
            gl.buffer_sub_data_u8_slice(glow::ARRAY_BUFFER, 0, as_bytes(&batch.points()[..n]));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.colors));
            gl.buffer_sub_data_u8_slice(glow::ARRAY_BUFFER, 0, as_bytes(&batch.colors()[..n]));
            gl.bind_vertex_array(Some(self.vao));
            gl.draw_arrays(glow::POINTS, 0, n as i32);
            gl.bind_vertex_array(None);
        }
    }

    pub fn delete(&self, gl: &glow::Context) {
        // SAFETY: a current context and this object's own live GL names, as at the file's first SAFETY.
        unsafe {
            gl.delete_vertex_array(self.vao);
            gl.delete_buffer(self.positions);
            gl.delete_buffer(self.colors);
        }
    }
}
