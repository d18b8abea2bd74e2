//! A bone's trail on the GPU (`--trail`, `show/trail.rs`): strokes of [`TRAIL_FRAMES`] points
//! joined one to the next, drawn up to as many as the trail holds. GL boilerplate around that.

use super::gl::GlError;
use super::strokes::Strokes;
use crate::demo::colors::Rgba;
use crate::demo::show::trail::TRAIL_FRAMES;
use glam::{Vec3, Vec3A};
use glow::HasContext;

/// The trail: a warm yellow, none of the layers' colours.
pub const TRAIL: Rgba = [1.0, 0.8, 0.1, 1.0];

pub struct TrailLine {
    strokes: Strokes,
    /// Reused every frame for the upload.
    positions: Vec<Vec3A>,
    staging: Vec<f32>,
}

impl TrailLine {
    pub fn new(gl: &glow::Context) -> Result<TrailLine, GlError> {
        let lines: Vec<[u32; 2]> = (1..TRAIL_FRAMES as u32).map(|i| [i - 1, i]).collect();
        let mut strokes = Strokes::new(gl, TRAIL_FRAMES, &lines)?;
        strokes.upload_colors(gl, &vec![TRAIL; TRAIL_FRAMES]);
        strokes.show_points = false;
        Ok(TrailLine {
            strokes,
            positions: vec![Vec3A::ZERO; TRAIL_FRAMES],
            staging: Vec::with_capacity(TRAIL_FRAMES * 3),
        })
    }

    /// Draws `trail`, if any, with the lines program, which must be in use with the frame's camera.
    pub fn draw(&mut self, gl: &glow::Context, trail: Option<&[Vec3]>) {
        let Some(trail) = trail.filter(|t| t.len() > 1) else { return };
        let points = trail.len().min(TRAIL_FRAMES);
        // Unused slots keep their last positions; they are never drawn.
        for (slot, point) in self.positions.iter_mut().zip(trail) {
            *slot = Vec3A::from(*point);
        }
        self.strokes.upload_positions(gl, &self.positions, &mut self.staging);
        // SAFETY: `gl`'s context is current (the caller's); the vertex array is this trail's
        // strokes', whose elements join its points in order, and the draw reads `points - 1` of
        // those segments, no more than the trail's points allow.
        unsafe {
            gl.bind_vertex_array(Some(self.strokes.vao));
            // Segment i joins point i and i + 1: two indices each, as far as the trail goes.
            gl.draw_elements(glow::LINES, (2 * (points - 1)) as i32, glow::UNSIGNED_INT, 0);
            gl.bind_vertex_array(None);
        }
    }

    pub fn delete(&self, gl: &glow::Context) {
        self.strokes.delete(gl);
    }
}
