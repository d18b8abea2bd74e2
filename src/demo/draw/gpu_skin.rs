//! GPU skinning, the next lesson: the blend of `skin::blend` (or of `dual_quat::blend_dqs`), run by
//! the vertex shader `shaders/skinning.vert` (or `shaders/skinning_dqs.vert`) (article 002).
//!
//! The CPU road blends every vertex and uploads every skinned position, every frame. Here the data
//! the blend reads per vertex (bind position, four joint indices, four weights) goes to the GPU once,
//! at start-up, and the blend's own upload per frame is the palette: one
//! `world[joint.bone] * joint.offset` matrix per skin joint, or for DQS that matrix as a dual
//! quaternion (two `vec4`s). The camera and the point size go up too, as for every layer. The tree
//! walk and the palette stay on the CPU (`Pose::update_palette`): a few matrix products per bone.
//! The blend is the part that grows with the mesh, every vertex every frame, and a GPU runs it for
//! thousands of vertices at once. That is why engines skin this way.
//!
//! Two details carry the lesson. Joint indices stay integers on the GPU: `vertex_attrib_pointer_i32`
//! (`glVertexAttribIPointer`) hands the `u16`s to the shader's `uvec4` as they are. And the palette
//! lives in a uniform buffer of a fixed size (`gpu_palette.rs`), [`MAX_GPU_JOINTS`] joints; a model
//! with more is refused (`fits_gpu`), never cut short. [`GpuSkin::capture`] reads what the shader
//! computed back to the CPU (transform feedback), so the tests can hold it against the CPU blend.

use super::colors::Rgba;
use super::gl::{GlError, compile_program_with};
use super::gpu_palette::{DQS_BLOCK_BYTES, LBS_BLOCK_BYTES, MAX_GPU_JOINTS, PaletteBuffer, fits_gpu};
use super::layer::{Layer, as_bytes};
use glam::{Mat4, Vec3A};
use glow::HasContext;
use skinning::model::{Model, Palette};
use skinning::skin::MAX_INFLUENCES;

// The shaders' `uvec4 joints` and `vec4 weights` hold exactly the four slots of a `SkinVertex`.
const _: () = assert!(MAX_INFLUENCES == 4);

/// One skinning program: a shader, its palette buffer and its uniforms.
struct SkinProgram {
    program: glow::Program,
    palette: PaletteBuffer,
    view_projection: Option<glow::UniformLocation>,
    point_size: Option<glow::UniformLocation>,
    /// DQS only: the scale every joint shares.
    dq_scale: Option<glow::UniformLocation>,
}

impl SkinProgram {
    /// Compiles `vertex` with lines.frag, the palette's size from the Rust constant, so the two
    /// cannot disagree; `skinned_position` is captured for [`GpuSkin::capture`].
    fn new(
        gl: &glow::Context,
        vertex: (&'static str, &'static str),
        block: (&str, usize, u32),
    ) -> Result<SkinProgram, GlError> {
        let program = compile_program_with(
            gl,
            vertex,
            ("shaders/lines.frag", include_str!("../../../shaders/lines.frag")),
            &format!("#define MAX_JOINTS {MAX_GPU_JOINTS}\n"),
            &["skinned_position"],
        )?;
        let (name, bytes, binding) = block;
        let palette = PaletteBuffer::new(gl, program, name, bytes, binding)?;
        // SAFETY (all blocks in this file): the caller keeps the context that made `gl` current on
        // this thread, and every handle used was created here and not yet deleted.
        unsafe {
            Ok(SkinProgram {
                program,
                palette,
                view_projection: gl.get_uniform_location(program, "view_projection"),
                point_size: gl.get_uniform_location(program, "point_size"),
                dq_scale: gl.get_uniform_location(program, "dq_scale"),
            })
        }
    }

    /// Puts the program in use with this frame's palette.
    fn use_with(&mut self, gl: &glow::Context, palette: Palette) {
        unsafe { gl.use_program(Some(self.program)) };
        self.palette.upload(gl, palette);
        if let Palette::Dqs { scale, .. } = palette {
            unsafe { gl.uniform_1_f32(self.dq_scale.as_ref(), scale) };
        }
    }

    fn delete(&self, gl: &glow::Context) {
        self.palette.delete(gl);
        unsafe { gl.delete_program(self.program) };
    }
}

/// The two skinning programs and the mesh's vertex data on the GPU. Needs the GL context current.
pub struct GpuSkin {
    lbs: SkinProgram,
    dqs: SkinProgram,
    /// A layer like the others, holding bind positions instead of skinned ones, plus two attributes:
    /// 0 bind position, 1 colour, 2 joints, 3 weights. Both programs read it.
    layer: Layer,
    joints: glow::Buffer,
    weights: glow::Buffer,
    /// Where transform feedback writes the skinned positions for [`GpuSkin::capture`].
    captured: glow::Buffer,
}

impl GpuSkin {
    /// Compiles the two skinning shaders and uploads the model's skin, once.
    pub fn new(gl: &glow::Context, model: &Model) -> Result<GpuSkin, GlError> {
        fits_gpu(model.skin.joints().len()).map_err(GlError::Other)?;
        let lbs = SkinProgram::new(
            gl,
            ("shaders/skinning.vert", include_str!("../../../shaders/skinning.vert")),
            ("Palette", LBS_BLOCK_BYTES, 0),
        )?;
        let dqs = SkinProgram::new(
            gl,
            ("shaders/skinning_dqs.vert", include_str!("../../../shaders/skinning_dqs.vert")),
            ("DualQuatPalette", DQS_BLOCK_BYTES, 1),
        )?;

        // What the blend reads per vertex, in the shapes the shader's attributes take.
        let vertices = model.skin.vertices();
        let n = vertices.len();
        let bind: Vec<Vec3A> = vertices.iter().map(|v| v.bind).collect();
        let joint_indices: Vec<[u16; MAX_INFLUENCES]> = vertices.iter().map(|v| v.joints).collect();
        let weights: Vec<[f32; MAX_INFLUENCES]> = vertices.iter().map(|v| v.weights).collect();

        let layer = Layer::new(gl, n, &model.edges)?;
        layer.upload_positions(gl, &bind, &mut Vec::new());
        let (joints, weights, captured) = unsafe {
            gl.bind_vertex_array(Some(layer.vao));
            // Integers stay integers: the "I" of glVertexAttribIPointer. The float version would
            // turn joint 3 into 3.0, which a `uvec4` does not read as 3.
            let joints = upload_static(gl, as_bytes(&joint_indices))?;
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
            (joints, weights, captured)
        };
        Ok(GpuSkin { lbs, dqs, layer, joints, weights, captured })
    }

    /// The program that blends by `palette`'s method, in use with it and the camera.
    fn program_for(&mut self, gl: &glow::Context, palette: Palette) -> &SkinProgram {
        let program = match palette {
            Palette::Lbs(_) => &mut self.lbs,
            Palette::Dqs { .. } => &mut self.dqs,
        };
        program.use_with(gl, palette);
        program
    }

    /// Draws the mesh skinned with `palette` (LBS or DQS), as lines and points like the other
    /// layers: in the skinned mesh's colours, or all in `color` if given.
    pub fn draw(
        &mut self,
        gl: &glow::Context,
        palette: Palette,
        view_projection: Mat4,
        point_size: f32,
        color: Option<Rgba>,
    ) {
        let program = self.program_for(gl, palette);
        unsafe {
            gl.uniform_matrix_4_f32_slice(
                program.view_projection.as_ref(),
                false,
                &view_projection.to_cols_array(),
            );
            gl.uniform_1_f32(program.point_size.as_ref(), point_size);
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
        palette: Palette,
        skinned: &mut [Vec3A],
    ) -> Result<(), GlError> {
        let n = self.layer.points as usize;
        assert_eq!(skinned.len(), n, "one output position per vertex");
        self.program_for(gl, palette);
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
        for program in [&self.lbs, &self.dqs] {
            program.delete(gl);
        }
        unsafe {
            for buffer in [self.joints, self.weights, self.captured] {
                gl.delete_buffer(buffer);
            }
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
