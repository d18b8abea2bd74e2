//! Reading back what the skinning shader computed: for the tests that hold it against the CPU, and
//! for `--dump --skinning gpu`.

use super::super::gl::{GlError, gl_size};
use super::{GpuSkin, method};
use glam::Vec3A;
use glow::HasContext;
use skinning_method::lbs_or_dqs::Palette;

impl GpuSkin {
    /// The vertex shader's `skinned_position` and `skinned_normal` for every vertex, read back
    /// into `skinned` and `normals` (empty for a mesh without normals).
    ///
    /// Transform feedback records a vertex shader's outputs into a buffer; with rasterisation off,
    /// nothing is drawn. The buffer is read by mapping it: OpenGL ES 3.0 has no glGetBufferSubData.
    pub fn capture(
        &mut self,
        gl: &glow::Context,
        palette: Palette,
        skinned: &mut [Vec3A],
        normals: &mut [Vec3A],
    ) -> Result<(), GlError> {
        let n = self.strokes.points as usize;
        assert_eq!(skinned.len(), n, "one output position per vertex");
        assert!(normals.is_empty() || normals.len() == n, "one output normal per vertex, or none");
        self.lines[method(palette.into())].use_with(gl, palette.into(), &self.morph.weights);
        self.morph.bind(gl);
        // Each vertex's position and normal, three floats each: a byte count checked, not wrapped,
        // so the mapping read below is never shorter than what this reads of it.
        let bytes = n.saturating_mul(24);
        let (points, mapped_bytes) =
            (gl_size(n, "the vertices captured")?, gl_size(bytes, "the captured bytes")?);
        // SAFETY: `gl`'s context is current on this thread (the caller's promise, as for every GL
        // call here); the vertex array and the captured buffer are this skin's, made in
        // `GpuSkin::new` with room for `bytes`, and deleted only by `GpuSkin::delete`.
        unsafe {
            gl.bind_vertex_array(Some(self.strokes.vao));
            gl.bind_buffer_base(glow::TRANSFORM_FEEDBACK_BUFFER, 0, Some(self.captured));
            gl.enable(glow::RASTERIZER_DISCARD);
            gl.begin_transform_feedback(glow::POINTS);
            gl.draw_arrays(glow::POINTS, 0, points);
            gl.end_transform_feedback();
            gl.disable(glow::RASTERIZER_DISCARD);
            gl.bind_vertex_array(None);

            let mapped =
                gl.map_buffer_range(glow::TRANSFORM_FEEDBACK_BUFFER, 0, mapped_bytes, glow::MAP_READ_BIT);
            if mapped.is_null() {
                gl.bind_buffer_base(glow::TRANSFORM_FEEDBACK_BUFFER, 0, None);
                return Err(GlError::Other("cannot map the transform feedback buffer".into()));
            }
            // SAFETY: the mapping is not null (checked above), `bytes` long (`mapped_bytes` is
            // `bytes`, checked, not wrapped), readable (MAP_READ_BIT) and valid until `unmap_buffer`
            // below, after the last read of `data`; bytes need no alignment.
            let data = std::slice::from_raw_parts(mapped, bytes);
            // Interleaved: each vertex's position, then its normal, three floats each.
            let vec3 = |xyz: &[u8]| {
                let float = |i: usize| f32::from_ne_bytes([xyz[i], xyz[i + 1], xyz[i + 2], xyz[i + 3]]);
                Vec3A::new(float(0), float(4), float(8))
            };
            for (v, both) in data.chunks_exact(24).enumerate() {
                skinned[v] = vec3(&both[..12]);
                if let Some(normal) = normals.get_mut(v) {
                    *normal = vec3(&both[12..]);
                }
            }
            gl.unmap_buffer(glow::TRANSFORM_FEEDBACK_BUFFER);
            gl.bind_buffer_base(glow::TRANSFORM_FEEDBACK_BUFFER, 0, None);
        }
        Ok(())
    }
}
