//! Reading the picture back from the GPU, for screenshots: a strip of rows at a time.

use super::Renderer;
use glow::HasContext;

impl Renderer {
    /// Reads whole rows of what was drawn into `rows` (RGBA, 4 bytes a pixel, `width` pixels a row):
    /// as many rows as fit, the first being row `top` counted from the top, top row first.
    /// Screenshots read a strip at a time (see `output::picture::save_png`), so no second copy of a big
    /// picture is ever made.
    pub fn read_rows(&self, width: u32, height: u32, top: u32, rows: &mut [u8]) {
        let row = width as usize * 4;
        let count = rows.len() / row;
        // OpenGL's first row is the bottom one: the strip starts `top + count` rows from the top.
        let bottom = height as usize - top as usize - count;
        // SAFETY: a context is current; `rows` holds `count` rows of `width` RGBA pixels, packed
        // (alignment 1), which is exactly what this reads.
        unsafe {
            self.gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
            self.gl.read_pixels(
                0,
                bottom as i32,
                width as i32,
                count as i32,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelPackData::Slice(Some(&mut rows[..count * row])),
            );
        }
        // Images start at the top: turn the strip upside down, in place.
        for i in 0..count / 2 {
            let (upper, lower) = rows.split_at_mut((count - 1 - i) * row);
            upper[i * row..(i + 1) * row].swap_with_slice(&mut lower[..row]);
        }
    }
}
