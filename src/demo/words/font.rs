//! Words the program draws itself: 8x8 bitmap glyphs, one square point per lit pixel.
//!
//! The `font8x8` crate holds the public-domain 8x8 font of the IBM PC as plain arrays: a character
//! is eight rows of eight bits, bit 0 the leftmost pixel. For every lit bit [`TextBatch::add`] puts
//! one point, `scale` pixels square, at that pixel's centre in window pixels (top-left origin); the
//! renderer draws them with the same lines-and-points program as everything else (`text.rs`). At
//! scale 2 (a high-DPI screen) each font pixel covers 2 x 2 screen pixels, so the letters keep their
//! shape and simply grow. Under each letter goes a dark copy, one font pixel right and down: a
//! shadow that keeps the letters readable where they cross the mesh's lines.
//!
//! Why points and not a texture: no texture, sampler or second shader to explain. They are not free:
//! on Mesa's software renderer the words' few thousand points take most of the time of a headless
//! 640x480 frame (`docs/15-the-program-around-the-method.md` measures it); a glyph texture, one
//! quad per letter, would be the next step if that mattered. Why this crate: no dependencies, under
//! a second to build, and characters we can name (a system font would need a font library and a
//! rasteriser).
//!
//! Pure: no OpenGL here. A batch is allocated once with room for [`TextBatch::capacity`] points and
//! refilled every frame; text past that room is cut off rather than allocating.

use crate::demo::colors::Rgba;
use font8x8::legacy::{BASIC_LEGACY, LATIN_LEGACY};
use glam::Vec2;

/// A glyph's side, in font pixels (and in screen pixels at scale 1).
pub const GLYPH: f32 = 8.0;
/// The shadow under the letters.
pub const SHADOW: Rgba = [0.0, 0.0, 0.0, 1.0];

/// The eight rows of `c`: ASCII and Latin-1 (for µ, ×, °); anything else shows as `?`.
pub fn glyph(c: char) -> [u8; 8] {
    match c as u32 {
        code @ 0..0x80 => BASIC_LEGACY[code as usize],
        code @ 0xA0..0x100 => LATIN_LEGACY[(code - 0xA0) as usize],
        _ => BASIC_LEGACY['?' as usize],
    }
}

/// The points of some lines of text: a position (window pixels) and a colour each.
pub struct TextBatch {
    points: Vec<[f32; 2]>,
    colors: Vec<Rgba>,
}

impl TextBatch {
    /// A batch with room for `capacity` points, allocated now and never again.
    pub fn with_capacity(capacity: usize) -> TextBatch {
        TextBatch { points: Vec::with_capacity(capacity), colors: Vec::with_capacity(capacity) }
    }

    /// The most points the batch holds.
    pub fn capacity(&self) -> usize {
        self.points.capacity()
    }

    /// Empties the batch, keeping its room.
    pub fn clear(&mut self) {
        self.points.clear();
        self.colors.clear();
    }

    pub fn points(&self) -> &[[f32; 2]] {
        &self.points
    }

    pub fn colors(&self) -> &[Rgba] {
        &self.colors
    }

    /// Adds `text` in one line, its top-left corner at `top_left` (window pixels), each font pixel
    /// `scale` screen pixels wide (rounded to a whole number, at least 1, so pixels stay crisp).
    /// Shadows first, then the letters, so the letters are drawn over every shadow of their line.
    pub fn add(&mut self, text: &str, top_left: Vec2, scale: f32, color: Rgba) {
        let s = scale.round().max(1.0);
        let origin = top_left.round();
        for shadow in [true, false] {
            let (offset, color) = if shadow { (s, SHADOW) } else { (0.0, color) };
            for (column, c) in text.chars().enumerate() {
                let corner = origin + Vec2::new(column as f32 * GLYPH * s + offset, offset);
                let rows = glyph(c);
                for (row, bits) in rows.into_iter().enumerate() {
                    for bit in (0..8).filter(|bit| bits & (1 << bit) != 0) {
                        // A shadow the letter itself covers would be drawn for nothing: every point
                        // costs (a software renderer draws a few thousand in a tenth of a frame).
                        if shadow && lit(&rows, row + 1, bit + 1) {
                            continue;
                        }
                        // The centre of a square of s x s pixels.
                        let at = corner + Vec2::new(bit as f32 * s, row as f32 * s) + s / 2.0;
                        self.push(at, color);
                    }
                }
            }
        }
    }

    fn push(&mut self, at: Vec2, color: Rgba) {
        if self.points.len() < self.points.capacity() {
            self.points.push(at.to_array());
            self.colors.push(color);
        }
    }
}

/// Whether the glyph's pixel at `row`, `bit` is lit (false outside the glyph).
fn lit(rows: &[u8; 8], row: usize, bit: usize) -> bool {
    row < 8 && bit < 8 && rows[row] & (1 << bit) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE: Rgba = [1.0; 4];

    /// The pixels of a batch in one colour, as whole pixel positions (the square's top-left).
    fn pixels_of(batch: &TextBatch, color: Rgba, scale: f32) -> Vec<(i32, i32)> {
        let half = scale / 2.0;
        (batch.points().iter().zip(batch.colors()))
            .filter(|(_, c)| **c == color)
            .map(|(p, _)| ((p[0] - half) as i32, (p[1] - half) as i32))
            .collect()
    }

    #[test]
    fn a_letter_is_its_bits_one_point_per_lit_pixel() {
        // font8x8's 'A': rows 0x0C 0x1E 0x33 0x33 0x3F 0x33 0x33 0x00, bit 0 on the left.
        let mut batch = TextBatch::with_capacity(1000);
        batch.add("A", Vec2::new(10.0, 20.0), 1.0, WHITE);
        let pixels = pixels_of(&batch, WHITE, 1.0);
        let ones: u32 =
            [0x0Cu8, 0x1E, 0x33, 0x33, 0x3F, 0x33, 0x33, 0x00].iter().map(|b| b.count_ones()).sum();
        assert_eq!(pixels.len(), ones as usize);
        // Top row: pixels 2 and 3. Fifth row (0x3F): pixels 0 to 5.
        assert!(pixels.contains(&(12, 20)) && pixels.contains(&(13, 20)) && !pixels.contains(&(11, 20)));
        assert!((0..6).all(|x| pixels.contains(&(10 + x, 24))) && !pixels.contains(&(16, 24)));
        // Each lit pixel has its shadow one pixel right and down, drawn before it, unless the letter
        // covers that spot itself.
        let shadows = pixels_of(&batch, SHADOW, 1.0);
        assert!(
            pixels.iter().all(|&(x, y)| shadows.contains(&(x + 1, y + 1)) ^ pixels.contains(&(x + 1, y + 1)))
        );
        assert!(shadows.len() < pixels.len(), "'A' covers some of its own shadow");
        assert!(batch.colors()[..shadows.len()].iter().all(|c| *c == SHADOW));
    }

    #[test]
    fn at_scale_2_the_same_points_land_twice_as_far_apart() {
        let mut one = TextBatch::with_capacity(1000);
        let mut two = TextBatch::with_capacity(1000);
        one.add("Hi", Vec2::ZERO, 1.0, WHITE);
        two.add("Hi", Vec2::ZERO, 2.0, WHITE);
        let (a, b) = (pixels_of(&one, WHITE, 1.0), pixels_of(&two, WHITE, 2.0));
        assert_eq!(a.len(), b.len());
        assert!(a.iter().zip(&b).all(|(&(x, y), &(u, v))| (2 * x, 2 * y) == (u, v)));
        // A square point of side 2 centred there covers exactly pixels x..x+2: centres at odd + 1.
        assert!(two.points().iter().all(|p| p[0].fract() == 0.0 && p[1].fract() == 0.0));
        assert!(one.points().iter().all(|p| p[0].fract() == 0.5 && p[1].fract() == 0.5));
    }

    #[test]
    fn spaces_draw_nothing_and_unknown_characters_a_question_mark() {
        let mut batch = TextBatch::with_capacity(1000);
        batch.add("  ", Vec2::ZERO, 1.0, WHITE);
        assert!(batch.points().is_empty());
        assert_eq!(glyph('→'), glyph('?'));
        assert_ne!(glyph('µ'), glyph('?'));
    }

    #[test]
    fn a_full_batch_cuts_text_off_instead_of_growing() {
        let mut batch = TextBatch::with_capacity(50);
        batch.add("a long line of text", Vec2::ZERO, 1.0, WHITE);
        assert_eq!((batch.points().len(), batch.capacity()), (50, 50));
        batch.clear();
        assert!(batch.points().is_empty() && batch.capacity() == 50);
    }
}
