//! The floor's grid under a body that travels (`--root-motion on`, `show/root_motion.rs`), or the
//! ground the feet stand on (`--ground`, `show/ground_lines.rs`): its lines, two ends each, as one
//! layer of strokes, drawn in the frames that have a grid. GL boilerplate around that.

use super::gl::GlError;
use super::strokes::Strokes;
use crate::demo::colors::Rgba;
use crate::demo::show::root_motion::GRID_LINES;
use glam::{Vec3, Vec3A};

/// The grid: a dim grey-blue under everything.
pub const FLOOR: Rgba = [0.3, 0.32, 0.4, 1.0];

/// Two ends for each of the lines across and along.
const POINTS: usize = 4 * GRID_LINES;

pub struct FloorGrid {
    strokes: Strokes,
    /// Reused every frame for the upload.
    positions: Vec<Vec3A>,
    staging: Vec<f32>,
}

impl FloorGrid {
    pub fn new(gl: &glow::Context) -> Result<FloorGrid, GlError> {
        let lines: Vec<[u32; 2]> = (0..POINTS as u32 / 2).map(|i| [2 * i, 2 * i + 1]).collect();
        let mut strokes = Strokes::new(gl, POINTS, &lines)?;
        strokes.upload_colors(gl, &[FLOOR; POINTS]);
        strokes.show_points = false;
        let (positions, staging) = (Vec::with_capacity(POINTS), Vec::with_capacity(3 * POINTS));
        Ok(FloorGrid { strokes, positions, staging })
    }

    /// Draws `grid` (the floor's or the ground's), if any, with the lines program, which must be in use with the frame's camera.
    pub fn draw(&mut self, gl: &glow::Context, grid: Option<&[Vec3]>) {
        let Some(grid) = grid.filter(|g| g.len() == POINTS) else { return };
        self.positions.clear();
        self.positions.extend(grid.iter().map(|&p| Vec3A::from(p)));
        self.strokes.upload_positions(gl, &self.positions, &mut self.staging);
        self.strokes.draw(gl);
    }

    pub fn delete(&self, gl: &glow::Context) {
        self.strokes.delete(gl);
    }
}
