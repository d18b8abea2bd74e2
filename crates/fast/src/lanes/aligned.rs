//! A palette on cache lines of its own. A palette matrix is 64 bytes, one cache line, but a
//! `Vec<Mat4>` is only aligned to 16. Where the allocator starts it 16, 32 or 48 bytes past a
//! line, every matrix spans two lines, and the eight lanes, which read each vertex's four matrices
//! straight from the palette, make a load that crosses lines for each (chapter 14, "A palette
//! across lines"). The same loop ran a fifth slower, or not, by where `malloc` put the palette.
//!
//! So a run whose palette starts off a line first copies it onto the stack, each matrix on a line
//! of its own ([`Lines::of`]): 64 bytes a joint, once a run. A palette already on a line is read
//! where it is.

use glam::Mat4;
use std::mem::MaybeUninit;

/// How many matrices the copy holds (16 KB of stack): a bigger palette is read where it is.
pub const LINES: usize = 256;

/// One palette matrix on a line of its own.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line(Mat4);

/// Room on the stack for a palette's copy. Left unwritten until the copy: writing all 16 KB first
/// would cost more than a small skin's run.
pub struct Lines([MaybeUninit<Line>; LINES]);

impl Lines {
    pub fn new() -> Lines {
        Lines([const { MaybeUninit::uninit() }; LINES])
    }

    /// `palette` itself where it starts on a line or is too big for the copy, else its copy here.
    pub fn of<'a>(&'a mut self, palette: &'a [Mat4]) -> &'a [Mat4] {
        if palette.as_ptr().addr().is_multiple_of(align_of::<Line>()) || palette.len() > LINES {
            return palette;
        }
        for (line, m) in self.0.iter_mut().zip(palette) {
            line.write(Line(*m));
        }
        // SAFETY: the loop wrote the first `palette.len()` lines. A `Line` is a `Mat4` and no more
        // (`repr(C)`, 64 bytes, a `Mat4`'s size), so they are that many `Mat4`s, side by side.
        unsafe { std::slice::from_raw_parts(self.0.as_ptr().cast::<Mat4>(), palette.len()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    /// Six matrices 16 bytes past a line.
    #[repr(C, align(64))]
    struct OffLine([f32; 4], [Mat4; 6]);

    /// Six matrices from a line's start.
    #[repr(C, align(64))]
    struct OnLine([Mat4; 6]);

    fn six() -> [Mat4; 6] {
        std::array::from_fn(|i| Mat4::from_scale(Vec3::splat(i as f32 + 1.0)))
    }

    #[test]
    fn a_palette_off_a_line_is_copied_onto_lines_number_for_number() {
        assert_eq!(size_of::<Line>(), size_of::<Mat4>(), "a line holds a matrix and no more");
        let off = OffLine([0.0; 4], six());
        assert_eq!(off.1.as_ptr().addr() % 64, 16);
        let mut room = Lines::new();
        let read = room.of(&off.1);
        assert_eq!(read, &six()[..], "the same matrices, in order");
        assert!(read.as_ptr().addr().is_multiple_of(64), "on a line");
        assert_ne!(read.as_ptr(), off.1.as_ptr(), "a copy");
    }

    #[test]
    fn a_palette_on_a_line_is_read_where_it_is() {
        let on = OnLine(six());
        let mut room = Lines::new();
        assert_eq!(room.of(&on.0).as_ptr(), on.0.as_ptr());
    }
}
