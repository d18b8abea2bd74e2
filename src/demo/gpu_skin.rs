//! GPU skinning, the next lesson: the blend of `skin::blend`, run by the vertex shader
//! `shaders/skinning.vert` (article 002).
//!
//! The CPU road blends every vertex and uploads every skinned position, every frame. Here the data
//! the blend reads per vertex (bind position, four bone indices, four weights) goes to the GPU once,
//! at start-up, and a frame uploads only the palette: one `world * offset` matrix per bone. The tree
//! walk and the palette stay on the CPU (`Pose::update_palette`): a few matrix products per bone.
//! The blend is the part that grows with the mesh, every vertex every frame, and a GPU runs it for
//! thousands of vertices at once. That is why engines skin this way.
//!
//! Two details carry the lesson. Bone indices stay integers on the GPU: `vertex_attrib_pointer_i32`
//! (`glVertexAttribIPointer`) hands the `u16`s to the shader's `uvec4` as they are. And the palette
//! is a uniform array of a fixed size, [`MAX_GPU_BONES`]; a model with more bones is refused
//! ([`fits_gpu`]), never cut short. [`GpuSkin::capture`] reads what the shader computed back to the
//! CPU (transform feedback), so the tests can hold it against the CPU blend.

use super::colors::Rgba;
use super::gl::{GlError, compile_program_with};
use super::layer::{Layer, as_bytes};
use glam::{Mat4, Vec3A};
use glow::HasContext;
use skinning::model::Model;
use skinning::skin::MAX_INFLUENCES;

/// The size of the shader's `palette` array: the most bones GPU skinning takes.
///
/// Uniforms are scarce, and every driver has its own limit. OpenGL 3.3 promises a vertex shader at
/// least 1024 floats of them, OpenGL ES 3.0 at least 256 `vec4`s: the same 256 rows of four. A
/// `mat4` takes four rows, so 60 bones take 240 and leave room for the camera and the point size.
/// Bigger skeletons need a uniform buffer or a texture instead (article 002 shows both).
pub const MAX_GPU_BONES: usize = 60;

// The shader's `uvec4 bones` and `vec4 weights` hold exactly the four slots of a `SkinVertex`.
const _: () = assert!(MAX_INFLUENCES == 4);

/// Whether a skeleton of `bones` bones fits the shader's palette; if not, a one-line refusal.
pub fn fits_gpu(bones: usize) -> Result<(), String> {
    if bones <= MAX_GPU_BONES {
        return Ok(());
    }
    Err(format!(
        "GPU skinning takes at most {MAX_GPU_BONES} bones (MAX_GPU_BONES, the size of the shader's \
         palette) but this model has {bones}; skin it on the CPU (--skinning cpu)"
    ))
}

/// The skinning program and the mesh's vertex data on the GPU. Needs the GL context current.
pub struct GpuSkin {
    program: glow::Program,
    palette: Option<glow::UniformLocation>,
    view_projection: Option<glow::UniformLocation>,
    point_size: Option<glow::UniformLocation>,
    /// A layer like the others, holding bind positions instead of skinned ones, plus two attributes:
    /// 0 bind position, 1 colour, 2 bones, 3 weights.
    layer: Layer,
    bones: glow::Buffer,
    weights: glow::Buffer,
    /// Where transform feedback writes the skinned positions for [`GpuSkin::capture`].
    captured: glow::Buffer,
    /// Reused every frame: the palette as plain floats, so the upload allocates nothing.
    staging: Vec<f32>,
}

impl GpuSkin {
    /// Compiles `shaders/skinning.vert` and uploads the model's skin, once.
    pub fn new(gl: &glow::Context, model: &Model) -> Result<GpuSkin, GlError> {
        fits_gpu(model.skin.joints().len()).map_err(GlError::Other)?;
        // The palette's size comes from the Rust constant, so the two cannot disagree.
        let program = compile_program_with(
            gl,
            ("shaders/skinning.vert", include_str!("../../shaders/skinning.vert")),
            ("shaders/lines.frag", include_str!("../../shaders/lines.frag")),
            &format!("#define MAX_BONES {MAX_GPU_BONES}\n"),
            &["skinned_position"],
        )?;
        // SAFETY (all blocks in this file): the caller keeps the context that made `gl` current on
        // this thread, and every handle used was created here and not yet deleted.
        let (palette, view_projection, point_size) = unsafe {
            (
                gl.get_uniform_location(program, "palette"),
                gl.get_uniform_location(program, "view_projection"),
                gl.get_uniform_location(program, "point_size"),
            )
        };

        // What the blend reads per vertex, in the shapes the shader's attributes take.
        let vertices = model.skin.vertices();
        let n = vertices.len();
        let bind: Vec<Vec3A> = vertices.iter().map(|v| v.bind).collect();
        let bone_indices: Vec<[u16; MAX_INFLUENCES]> = vertices.iter().map(|v| v.joints).collect();
        let weights: Vec<[f32; MAX_INFLUENCES]> = vertices.iter().map(|v| v.weights).collect();

        let layer = Layer::new(gl, n, &model.edges)?;
        let mut staging = Vec::with_capacity(MAX_GPU_BONES * 16);
        layer.upload_positions(gl, &bind, &mut staging);
        let (bones, weights, captured) = unsafe {
            gl.bind_vertex_array(Some(layer.vao));
            // Integers stay integers: the "I" of glVertexAttribIPointer. The float version would
            // turn bone 3 into 3.0, which a `uvec4` does not read as 3.
            let bones = upload_static(gl, as_bytes(&bone_indices))?;
            gl.vertex_attrib_pointer_i32(2, 4, glow::UNSIGNED_SHORT, 8, 0);
            gl.enable_vertex_attrib_array(2);
            let weights = upload_static(gl, as_bytes(&weights))?;
            gl.vertex_attrib_pointer_f32(3, 4, glow::FLOAT, false, 16, 0);
            gl.enable_vertex_attrib_array(3);
            gl.bind_vertex_array(None);
            // Room for one captured vec3 per vertex.
            let captured = gl.create_buffer().map_err(GlError::Other)?;
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(captured));
            gl.buffer_data_size(glow::ARRAY_BUFFER, (n * 12) as i32, glow::STREAM_READ);
            (bones, weights, captured)
        };
        Ok(GpuSkin {
            program,
            palette,
            view_projection,
            point_size,
            layer,
            bones,
            weights,
            captured,
            staging,
        })
    }

    /// The one upload per frame: the palette, 16 floats per bone. glam stores matrices column by
    /// column, as GLSL does, so no transpose. The skinning program must be in use.
    fn upload_palette(&mut self, gl: &glow::Context, palette: &[Mat4]) {
        assert!(palette.len() <= MAX_GPU_BONES, "GpuSkin::new checked the bone count");
        self.staging.clear();
        self.staging.extend(palette.iter().flat_map(Mat4::to_cols_array));
        unsafe { gl.uniform_matrix_4_f32_slice(self.palette.as_ref(), false, &self.staging) };
    }

    /// Draws the mesh skinned with `palette`, as lines and points like the other layers: in the
    /// skinned mesh's colours, or all in `color` if given.
    pub fn draw(
        &mut self,
        gl: &glow::Context,
        palette: &[Mat4],
        view_projection: Mat4,
        point_size: f32,
        color: Option<Rgba>,
    ) {
        unsafe {
            gl.use_program(Some(self.program));
            gl.uniform_matrix_4_f32_slice(
                self.view_projection.as_ref(),
                false,
                &view_projection.to_cols_array(),
            );
            gl.uniform_1_f32(self.point_size.as_ref(), point_size);
        }
        self.upload_palette(gl, palette);
        unsafe {
            gl.bind_vertex_array(Some(self.layer.vao));
            match color {
                // With its array switched off, an attribute reads one constant value for every vertex.
                Some([r, g, b, a]) => {
                    gl.disable_vertex_attrib_array(1);
                    gl.vertex_attrib_4_f32(1, r, g, b, a);
                }
                None => gl.enable_vertex_attrib_array(1),
            }
        }
        self.layer.draw(gl);
    }

    /// The vertex shader's `skinned_position` for every vertex, read back into `skinned`.
    ///
    /// Transform feedback records a vertex shader's outputs into a buffer; with rasterisation off,
    /// nothing is drawn. The buffer is read by mapping it: OpenGL ES 3.0 has no glGetBufferSubData.
    pub fn capture(
        &mut self,
        gl: &glow::Context,
        palette: &[Mat4],
        skinned: &mut [Vec3A],
    ) -> Result<(), GlError> {
        let n = self.layer.points as usize;
        assert_eq!(skinned.len(), n, "one output position per vertex");
        unsafe { gl.use_program(Some(self.program)) };
        self.upload_palette(gl, palette);
        unsafe {
            gl.bind_vertex_array(Some(self.layer.vao));
            gl.bind_buffer_base(glow::TRANSFORM_FEEDBACK_BUFFER, 0, Some(self.captured));
            gl.enable(glow::RASTERIZER_DISCARD);
            gl.begin_transform_feedback(glow::POINTS);
            gl.draw_arrays(glow::POINTS, 0, n as i32);
            gl.end_transform_feedback();
            gl.disable(glow::RASTERIZER_DISCARD);
            gl.bind_vertex_array(None);

            let bytes = n * 12;
            let mapped =
                gl.map_buffer_range(glow::TRANSFORM_FEEDBACK_BUFFER, 0, bytes as i32, glow::MAP_READ_BIT);
            if mapped.is_null() {
                gl.bind_buffer_base(glow::TRANSFORM_FEEDBACK_BUFFER, 0, None);
                return Err(GlError::Other("cannot map the transform feedback buffer".into()));
            }
            // SAFETY: besides the file-wide note, the mapping is `bytes` long, readable (MAP_READ_BIT),
            // and stays valid until `unmap_buffer` below; bytes need no alignment.
            let data = std::slice::from_raw_parts(mapped, bytes);
            for (out, xyz) in skinned.iter_mut().zip(data.chunks_exact(12)) {
                let float = |i: usize| f32::from_ne_bytes([xyz[i], xyz[i + 1], xyz[i + 2], xyz[i + 3]]);
                *out = Vec3A::new(float(0), float(4), float(8));
            }
            gl.unmap_buffer(glow::TRANSFORM_FEEDBACK_BUFFER);
            gl.bind_buffer_base(glow::TRANSFORM_FEEDBACK_BUFFER, 0, None);
        }
        Ok(())
    }

    /// New colours for the mesh, one per vertex (red, or the weight view's).
    pub fn upload_colors(&self, gl: &glow::Context, colors: &[Rgba]) {
        self.layer.upload_colors(gl, colors);
    }

    pub fn delete(&self, gl: &glow::Context) {
        self.layer.delete(gl);
        unsafe {
            for buffer in [self.bones, self.weights, self.captured] {
                gl.delete_buffer(buffer);
            }
            gl.delete_program(self.program);
        }
    }
}

/// A new buffer holding `data`, left bound to ARRAY_BUFFER for the attribute pointer that follows.
///
/// # Safety
/// A context is current on this thread.
unsafe fn upload_static(gl: &glow::Context, data: &[u8]) -> Result<glow::Buffer, GlError> {
    // SAFETY: the caller guarantees a current context; the buffer is created here.
    unsafe {
        let buffer = gl.create_buffer().map_err(GlError::Other)?;
        gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer));
        gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, data, glow::STATIC_DRAW);
        Ok(buffer)
    }
}
