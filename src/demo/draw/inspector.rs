//! The vertex inspector on the GPU: for the selected vertex, every candidate position (where one
//! bone alone would put it) as a point in its own colour, bigger and brighter the more it weighs, a
//! thin line from each candidate to the blended position, and the blended position in white. With
//! dual quaternions on, where they put the vertex too, in orange, joined to the linear blend.
//!
//! The numbers come from `skinning_method::inspect` (the CPU, from the frame's palette), so the picture is
//! the same whether the mesh is skinned on the CPU or the GPU. One small set of strokes: a point per
//! influence of the model's most influenced vertex (four for most models), then the linear blend,
//! then the dual-quaternion one. GL boilerplate around that.

use super::gl::GlError;
use super::strokes::Strokes;
use crate::demo::colors::{BLENDED, ORANGE, Rgba, candidate_color, candidate_size};
use glam::Vec3A;
use glow::HasContext;
use skinning_method::inspect::Inspection;
use skinning_method::skin::SLOTS;

pub struct InspectorLayer {
    strokes: Strokes,
    /// How many candidates the strokes hold: points 0 to `candidates - 1`; the linear blend is
    /// point `candidates`, the dual-quaternion blend the one after.
    candidates: usize,
    /// Reused every frame for the upload.
    positions: Vec<Vec3A>,
    colors: Vec<Rgba>,
    staging: Vec<f32>,
}

impl InspectorLayer {
    /// Room for a vertex of `most` influences (the model's most; at least four).
    pub fn new(gl: &glow::Context, most: usize) -> Result<InspectorLayer, GlError> {
        let candidates = most.max(SLOTS);
        let (blend, dqs) = (candidates as u32, candidates as u32 + 1);
        // Candidate i to the blend, one line each, then the blend to the dual-quaternion blend.
        let mut lines: Vec<[u32; 2]> = (0..blend).map(|i| [i, blend]).collect();
        lines.push([blend, dqs]);
        let points = candidates + 2;
        let strokes = Strokes::new(gl, points, &lines)?;
        Ok(InspectorLayer {
            strokes,
            candidates,
            positions: Vec::with_capacity(points),
            colors: Vec::with_capacity(points),
            staging: Vec::with_capacity(points * 3),
        })
    }

    /// Draws `inspection` with the lines program, which must be in use with the frame's camera;
    /// `point_size` is the program's uniform, `base` the mesh's point size in pixels.
    pub fn draw(
        &mut self,
        gl: &glow::Context,
        inspection: &Inspection,
        point_size: Option<&glow::UniformLocation>,
        base: f32,
    ) {
        let candidates = &inspection.candidates()[..inspection.candidates().len().min(self.candidates)];
        // Unused points sit on the blend; they are never drawn.
        let (blend, dqs) = (self.candidates, self.candidates + 1);
        self.positions.clear();
        self.positions.resize(dqs + 1, Vec3A::from(inspection.blended));
        self.colors.clear();
        self.colors.resize(dqs + 1, BLENDED);
        for (slot, c) in candidates.iter().enumerate() {
            self.positions[slot] = Vec3A::from(c.position);
            self.colors[slot] = candidate_color(slot, c.weight);
        }
        if let Some(p) = inspection.dqs {
            (self.positions[dqs], self.colors[dqs]) = (Vec3A::from(p), ORANGE);
        }
        self.strokes.upload_positions(gl, &self.positions, &mut self.staging);
        self.strokes.upload_colors(gl, &self.colors);
        // SAFETY: `gl`'s context is current (the caller's); the vertex array is the inspector's
        // strokes', made with a line and a point for every candidate and two more points, and
        // `candidates` is no longer than that (it was sized for the most influences).
        unsafe {
            gl.bind_vertex_array(Some(self.strokes.vao));
            // The first lines of the index buffer join candidate i to the blend: one per influence.
            gl.draw_elements(glow::LINES, candidates.len() as i32 * 2, glow::UNSIGNED_INT, 0);
            // One draw per point, each with its own size: the weight shows as size.
            for (slot, c) in candidates.iter().enumerate() {
                gl.uniform_1_f32(point_size, candidate_size(base, c.weight));
                gl.draw_arrays(glow::POINTS, slot as i32, 1);
            }
            gl.uniform_1_f32(point_size, base * 1.5);
            gl.draw_arrays(glow::POINTS, blend as i32, 1);
            if inspection.dqs.is_some() {
                // The last line of the index buffer, after the candidates' (2 indices of 4 bytes each).
                // A few dozen bytes at most (one vertex's influences): it fits, and is not wrapped.
                if let Ok(offset) = i32::try_from(self.candidates * 2 * 4) {
                    gl.draw_elements(glow::LINES, 2, glow::UNSIGNED_INT, offset);
                }
                gl.draw_arrays(glow::POINTS, dqs as i32, 1);
            }
            gl.uniform_1_f32(point_size, base);
            gl.bind_vertex_array(None);
        }
    }

    pub fn delete(&self, gl: &glow::Context) {
        self.strokes.delete(gl);
    }
}
