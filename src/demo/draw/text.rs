//! The text layer on the GPU: the points of a [`TextBatch`] (`font.rs`), drawn in window pixels.
//!
//! The same program draws it as every other layer (`shaders/lines.vert`); only the camera changes.
//! Instead of the 3D view-projection, an orthographic one that maps window pixels (x right, y down,
//! origin top-left) straight onto the screen, so a point at (x + 0.5, y + 0.5) of size 1 lights
//! exactly pixel (x, y). The buffers have room for the batch's capacity, made once; a frame uploads
//! only the points it has. GL boilerplate.

use crate::demo::draw::gl::{GlError, as_bytes, gl_size};
use crate::demo::draw::strokes::LinesProgram;
use crate::demo::words::font::TextBatch;
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
        let position_bytes = gl_size(capacity.saturating_mul(8), "the words' positions, in bytes")?;
        let color_bytes = gl_size(capacity.saturating_mul(16), "the words' colours, in bytes")?;
        // SAFETY: the caller keeps the context that made `gl` current on this thread; the vertex
        // array and both buffers are made here, and nothing is read from memory of ours.
        unsafe {
            let vao = gl.create_vertex_array().map_err(GlError::Other)?;
            let positions = gl.create_buffer().map_err(GlError::Other)?;
            let colors = gl.create_buffer().map_err(GlError::Other)?;
            gl.bind_vertex_array(Some(vao));
            // Attribute 0: position, two floats (the shader's z is then 0). Attribute 1: colour.
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(positions));
            gl.buffer_data_size(glow::ARRAY_BUFFER, position_bytes, glow::DYNAMIC_DRAW);
            gl.vertex_attrib_pointer_f32(0, 2, glow::FLOAT, false, 8, 0);
            gl.enable_vertex_attrib_array(0);
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(colors));
            gl.buffer_data_size(glow::ARRAY_BUFFER, color_bytes, glow::DYNAMIC_DRAW);
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
        // `capacity` fits OpenGL's 32 bits (`new` checked its bytes), so `n` does too.
        let Ok(count) = i32::try_from(n) else { return };
        if n == 0 {
            return;
        }
        lines.start(gl, pixel_projection(width, height), scale.round().max(1.0));
        // SAFETY: `gl`'s context is current (the caller's); the buffers are this layer's, of
        // `capacity` points, and `n` is at most `capacity` (checked above), so the writes and the
        // draw stay inside them; glow passes each slice's length.
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.positions));
            gl.buffer_sub_data_u8_slice(glow::ARRAY_BUFFER, 0, as_bytes(&batch.points()[..n]));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.colors));
            gl.buffer_sub_data_u8_slice(glow::ARRAY_BUFFER, 0, as_bytes(&batch.colors()[..n]));
            gl.bind_vertex_array(Some(self.vao));
            gl.draw_arrays(glow::POINTS, 0, count);
            gl.bind_vertex_array(None);
        }
    }

    pub fn delete(&self, gl: &glow::Context) {
        // SAFETY: `gl`'s context is current (the caller's); the names were made in `new` and are
        // deleted once: the layer is not used after `delete`.
        unsafe {
            gl.delete_vertex_array(self.vao);
            gl.delete_buffer(self.positions);
            gl.delete_buffer(self.colors);
        }
    }
}
