//! Reaching's marks on the GPU (chapter 12): for each chain, its target as a big point, a thin line
//! from the end joint to the target (nothing to see once it is reached), and its pole as a point
//! with a line from the middle joint, the elbow or knee, towards it.
//!
//! The positions come from `show/reach.rs` (`Reaching::marks`, four per chain: target, end, pole,
//! middle), so the picture is the same whoever skins the mesh. One small set of strokes with room
//! for every chain the command line allows; GL boilerplate around that.

use super::gl::GlError;
use super::strokes::Strokes;
use crate::demo::cli::reach::MAX_GOALS;
use crate::demo::colors::Rgba;
use crate::demo::show::reach::MARKS_PER_CHAIN;
use glam::{Vec3, Vec3A};
use glow::HasContext;

/// The target: a bright cyan, none of the layers' colours.
pub const TARGET: Rgba = [0.1, 0.95, 0.95, 1.0];
/// The pole and the line to it: a paler cyan.
pub const POLE: Rgba = [0.55, 0.8, 0.85, 1.0];

pub struct ReachMarks {
    strokes: Strokes,
    /// Reused every frame for the upload.
    positions: Vec<Vec3A>,
    staging: Vec<f32>,
}

impl ReachMarks {
    pub fn new(gl: &glow::Context) -> Result<ReachMarks, GlError> {
        let points = MAX_GOALS * MARKS_PER_CHAIN;
        // Per chain: end (1) to target (0), middle (3) to pole (2).
        let lines: Vec<[u32; 2]> = (0..MAX_GOALS as u32)
            .flat_map(|c| {
                let first = c * MARKS_PER_CHAIN as u32;
                [[first + 1, first], [first + 3, first + 2]]
            })
            .collect();
        let strokes = Strokes::new(gl, points, &lines)?;
        let colors: Vec<Rgba> =
            (0..points).map(|i| if i % MARKS_PER_CHAIN < 2 { TARGET } else { POLE }).collect();
        strokes.upload_colors(gl, &colors);
        Ok(ReachMarks {
            strokes,
            positions: vec![Vec3A::ZERO; points],
            staging: Vec::with_capacity(points * 3),
        })
    }

    /// Draws `marks`, if any, with the lines program, which must be in use with the frame's camera;
    /// `point_size` is the program's uniform, `base` the mesh's point size in pixels.
    pub fn draw(
        &mut self,
        gl: &glow::Context,
        marks: Option<&[Vec3]>,
        point_size: Option<&glow::UniformLocation>,
        base: f32,
    ) {
        let Some(marks) = marks else { return };
        let chains = (marks.len() / MARKS_PER_CHAIN).min(MAX_GOALS);
        // Unused slots keep their last positions; they are never drawn.
        for (slot, mark) in self.positions.iter_mut().zip(marks) {
            *slot = Vec3A::from(*mark);
        }
        self.strokes.upload_positions(gl, &self.positions, &mut self.staging);
        // SAFETY: `gl`'s context is current (the caller's); the vertex array is these marks'
        // strokes', made with `MARKS_PER_CHAIN` points and two lines for each chain shown, so the
        // draws of `chains` chains read inside its buffers.
        unsafe {
            gl.bind_vertex_array(Some(self.strokes.vao));
            // Two lines (four indices) per chain, in chain order.
            gl.draw_elements(glow::LINES, (chains * 4) as i32, glow::UNSIGNED_INT, 0);
            for chain in 0..chains {
                let first = (chain * MARKS_PER_CHAIN) as i32;
                gl.uniform_1_f32(point_size, base * 3.0);
                gl.draw_arrays(glow::POINTS, first, 1);
                // A chain without a pole has its middle joint in the pole's place: no point then.
                let at = chain * MARKS_PER_CHAIN;
                if marks[at + 2] != marks[at + 3] {
                    gl.uniform_1_f32(point_size, base * 2.0);
                    gl.draw_arrays(glow::POINTS, first + 2, 1);
                }
            }
            gl.uniform_1_f32(point_size, base);
            gl.bind_vertex_array(None);
        }
    }

    pub fn delete(&self, gl: &glow::Context) {
        self.strokes.delete(gl);
    }
}
