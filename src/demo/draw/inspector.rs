//! The vertex inspector on the GPU: for the selected vertex, every candidate position (where one
//! bone alone would put it) as a point in its own colour, bigger and brighter the more it weighs, a
//! thin line from each candidate to the blended position, and the blended position in white. With
//! dual quaternions on, where they put the vertex too, in orange, joined to the linear blend.
//!
//! The numbers come from `skinning::inspect` (the CPU, from the frame's palette), so the picture is
//! the same whether the mesh is skinned on the CPU or the GPU. One small layer of six points:
//! slots 0 to 3 the candidates, slot 4 the linear blend, slot 5 the dual-quaternion one. GL
//! boilerplate around that.

use super::colors::{BLENDED, ORANGE, candidate_color, candidate_size};
use super::gl::GlError;
use super::layer::Layer;
use glam::Vec3A;
use glow::HasContext;
use skinning::inspect::Inspection;
use skinning::skin::MAX_INFLUENCES;

/// Where the linear blend and the dual-quaternion one sit in the layer.
const BLEND: usize = MAX_INFLUENCES;
const DQS: usize = MAX_INFLUENCES + 1;

pub struct InspectorLayer {
    layer: Layer,
    /// Reused every frame for the upload.
    staging: Vec<f32>,
}

impl InspectorLayer {
    pub fn new(gl: &glow::Context) -> Result<InspectorLayer, GlError> {
        // Candidate i to the blend, one line each, then the blend to the dual-quaternion blend.
        let mut lines: Vec<[u32; 2]> = (0..MAX_INFLUENCES as u32).map(|i| [i, BLEND as u32]).collect();
        lines.push([BLEND as u32, DQS as u32]);
        let layer = Layer::new(gl, DQS + 1, &lines)?;
        Ok(InspectorLayer { layer, staging: Vec::with_capacity((DQS + 1) * 3) })
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
        let candidates = inspection.candidates();
        // Unused slots sit on the blend; they are never drawn.
        let mut positions = [Vec3A::from(inspection.blended); DQS + 1];
        let mut colors = [BLENDED; DQS + 1];
        for (slot, c) in candidates.iter().enumerate() {
            positions[slot] = Vec3A::from(c.position);
            colors[slot] = candidate_color(slot, c.weight);
        }
        if let Some(dqs) = inspection.dqs {
            (positions[DQS], colors[DQS]) = (Vec3A::from(dqs), ORANGE);
        }
        self.layer.upload_positions(gl, &positions, &mut self.staging);
        self.layer.upload_colors(gl, &colors);
        // SAFETY: the caller keeps the context current; the layer's handles are alive.
        unsafe {
            gl.bind_vertex_array(Some(self.layer.vao));
            // The first lines of the index buffer join candidate i to the blend: one per influence.
            gl.draw_elements(glow::LINES, candidates.len() as i32 * 2, glow::UNSIGNED_INT, 0);
            // One draw per point, each with its own size: the weight shows as size.
            for (slot, c) in candidates.iter().enumerate() {
                gl.uniform_1_f32(point_size, candidate_size(base, c.weight));
                gl.draw_arrays(glow::POINTS, slot as i32, 1);
            }
            gl.uniform_1_f32(point_size, base * 1.5);
            gl.draw_arrays(glow::POINTS, BLEND as i32, 1);
            if inspection.dqs.is_some() {
                // The last line of the index buffer, after the four candidates' (2 indices of 4 bytes each).
                let offset = (MAX_INFLUENCES * 2 * 4) as i32;
                gl.draw_elements(glow::LINES, 2, glow::UNSIGNED_INT, offset);
                gl.draw_arrays(glow::POINTS, DQS as i32, 1);
            }
            gl.uniform_1_f32(point_size, base);
            gl.bind_vertex_array(None);
        }
    }

    pub fn delete(&self, gl: &glow::Context) {
        self.layer.delete(gl);
    }
}
