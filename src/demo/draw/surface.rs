//! The lit surface: the skinned triangles filled in their materials' colours (`looks.rs`), and
//! shaded by a light at the camera (`shaders/surface.frag` says how), depth-tested so the near side
//! hides the far side.
//!
//! A real character drawn as lines is a web of triangle edges that reads as a blob; a viewer lights
//! its surface instead, and lighting needs the normals that `normals.rs` moves with the skin. This
//! is the CPU road: `shaders/surface.vert` reads the skinned layer's positions and colours (the
//! same buffers, uploaded once a frame for both) and the skinned normals, uploaded here. The GPU
//! road lights the same way from its own skinning shaders (`gpu_skin.rs`). A mesh without normals
//! of its own uploads none: the fragment shader finds each triangle's own (flat normals).
//!
//! Depth testing is for the surface alone: the lines and points drawn after it (the bones, the
//! inspector) stay on top, as in the article's picture, and the bind pose drawn before it shows
//! where the skin has left it.

use super::gl::{GlError, as_bytes, compile_program, gl_size};
use super::looks::{GpuLooks, MaterialUniforms, texcoord_attribute};
use super::strokes::Strokes;
use glam::{Mat4, Vec3, Vec3A};
use glow::HasContext;
use skinning_formats::material::Looks;
use skinning_method::model::Model;

/// The CPU-skinned surface: its program, its vertex array and the normals it uploads.
pub struct Surface {
    program: glow::Program,
    view_projection: Option<glow::UniformLocation>,
    eye: Option<glow::UniformLocation>,
    face_normals: Option<glow::UniformLocation>,
    material: MaterialUniforms,
    /// The materials, drawn in the plain view; the GPU's surface draws with them too.
    pub looks: GpuLooks,
    /// Attributes 0 position and 1 colour from the skinned layer, 4 normal, 7 texture
    /// coordinates; the triangles.
    vao: glow::VertexArray,
    normals: glow::Buffer,
    texcoords: glow::Buffer,
    triangles: glow::Buffer,
    /// The mesh has no normals of its own: it is lit with flat ones.
    flat: bool,
}

impl Surface {
    /// The surface of `model`, reading the positions and colours of `skinned`, the CPU's skinned layer.
    pub fn new(
        gl: &glow::Context,
        model: &Model,
        looks: &Looks,
        skinned: &Strokes,
    ) -> Result<Surface, GlError> {
        let program = compile_program(
            gl,
            ("shaders/surface.vert", include_str!("../../../shaders/surface.vert")),
            ("shaders/surface.frag", include_str!("../../../shaders/surface.frag")),
        )?;
        let flat = model.skin.normals().is_empty();
        // SAFETY: the caller keeps the context that made `gl` current on this thread; the vertex
        // array and the normals buffer are made here, the skinned strokes' buffers are live names
        // of that context, and the attribute pointers are offsets into them.
        unsafe {
            let vao = gl.create_vertex_array().map_err(GlError::Other)?;
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(skinned.positions));
            gl.vertex_attrib_pointer_f32(0, 3, glow::FLOAT, false, 12, 0);
            gl.enable_vertex_attrib_array(0);
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(skinned.colors));
            gl.vertex_attrib_pointer_f32(1, 4, glow::FLOAT, false, 16, 0);
            gl.enable_vertex_attrib_array(1);
            let normals = gl.create_buffer().map_err(GlError::Other)?;
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(normals));
            let bytes = gl_size(model.skin.normals().len().saturating_mul(12), "the normals, in bytes")?;
            gl.buffer_data_size(glow::ARRAY_BUFFER, bytes, glow::DYNAMIC_DRAW);
            normal_attribute(gl, !flat);
            let texcoords = texcoord_attribute(gl, looks, model.skin.len())?;
            let triangles = triangle_elements(gl, &model.triangles)?;
            gl.bind_vertex_array(None);
            Ok(Surface {
                program,
                view_projection: gl.get_uniform_location(program, "view_projection"),
                eye: gl.get_uniform_location(program, "eye"),
                face_normals: gl.get_uniform_location(program, "face_normals"),
                material: MaterialUniforms::new(gl, program),
                looks: GpuLooks::new(gl, looks, model.triangles.len())?,
                vao,
                normals,
                texcoords,
                triangles,
                flat,
            })
        }
    }

    /// Draws the triangles at the skinned layer's positions, lit by this frame's skinned `normals`
    /// (ignored for flat normals) from a light at `eye`. `staging` is reused, so nothing is allocated.
    pub fn draw(
        &self,
        gl: &glow::Context,
        normals: &[Vec3A],
        staging: &mut Vec<f32>,
        view_projection: Mat4,
        eye: Vec3,
    ) {
        // SAFETY: `gl`'s context is current (the caller's); `self.normals` and the program are this
        // surface's live names; the sub-data upload reads exactly `staging`'s bytes (glow passes
        // the slice's length), and OpenGL itself refuses a write past the buffer.
        unsafe {
            if !self.flat {
                staging.clear();
                staging.extend(normals.iter().flat_map(|n| n.to_array()));
                gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.normals));
                gl.buffer_sub_data_u8_slice(glow::ARRAY_BUFFER, 0, as_bytes(staging));
            }
            gl.use_program(Some(self.program));
            gl.uniform_matrix_4_f32_slice(
                self.view_projection.as_ref(),
                false,
                &view_projection.to_cols_array(),
            );
            gl.uniform_3_f32(self.eye.as_ref(), eye.x, eye.y, eye.z);
            gl.uniform_1_i32(self.face_normals.as_ref(), self.flat as i32);
        }
        self.looks.draw(gl, &self.material, self.vao, 1);
    }

    pub fn delete(&self, gl: &glow::Context) {
        self.looks.delete(gl);
        // SAFETY: `gl`'s context is current (the caller's); each name deleted is this surface's,
        // made in `new`, and deleted once: the surface is not used after `delete`.
        unsafe {
            gl.delete_vertex_array(self.vao);
            gl.delete_buffer(self.normals);
            gl.delete_buffer(self.texcoords);
            gl.delete_buffer(self.triangles);
            gl.delete_program(self.program);
        }
    }
}

/// Attribute 4, the normal, from the buffer bound to ARRAY_BUFFER; or, for a mesh lit with flat
/// normals, switched off, so every vertex reads the constant 0 (the shaders then ignore it).
///
/// # Safety
/// A context is current and the vertex array to set up is bound.
pub unsafe fn normal_attribute(gl: &glow::Context, per_vertex: bool) {
    // SAFETY: the caller keeps a context current with the surface's vertex array and its normals
    // buffer bound (this function's contract); attribute 4 points at offset 0 of that buffer, and
    // switched off it reads a constant, so nothing here reads memory of ours.
    unsafe {
        if per_vertex {
            gl.vertex_attrib_pointer_f32(4, 3, glow::FLOAT, false, 12, 0);
            gl.enable_vertex_attrib_array(4);
        } else {
            gl.disable_vertex_attrib_array(4);
            gl.vertex_attrib_3_f32(4, 0.0, 0.0, 0.0);
        }
    }
}

/// A new element buffer holding `triangles`, bound to the vertex array being set up.
///
/// # Safety
/// A context is current and the vertex array to set up is bound.
pub unsafe fn triangle_elements(gl: &glow::Context, triangles: &[[u32; 3]]) -> Result<glow::Buffer, GlError> {
    // SAFETY: the caller keeps a context current with the vertex array bound (this function's
    // contract); the element buffer is made here and filled from `triangles`, whose length glow
    // passes with it.
    unsafe {
        let buffer = gl.create_buffer().map_err(GlError::Other)?;
        gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(buffer));
        gl.buffer_data_u8_slice(glow::ELEMENT_ARRAY_BUFFER, as_bytes(triangles), glow::STATIC_DRAW);
        Ok(buffer)
    }
}
