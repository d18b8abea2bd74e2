//! The palette on the GPU: a uniform buffer, so a real skeleton's joints fit.
//!
//! A shader's plain uniforms are scarce: OpenGL 3.3 promises a vertex shader 1024 floats of them,
//! OpenGL ES 3.0 256 `vec4`s, and a `mat4` takes 16 floats, so a `uniform mat4 palette[N]` runs out
//! near 60 joints. A **uniform block** lives in a buffer of its own, and OpenGL 3.3 and ES 3.0
//! promise blocks of at least 16 KiB (`GL_MAX_UNIFORM_BLOCK_SIZE`): 256 `mat4`s, or 256 dual
//! quaternions (two `vec4`s each) with room to spare. A driver that breaks the promise draws
//! everything but GPU skinning ([`fits_driver`]). So [`MAX_GPU_JOINTS`] is 256, as in Bevy,
//! for both methods: `D` switches between them at any time, so a model fits both or neither.
//!
//! The block's layout is `std140`, which fixes every offset so the CPU can fill the buffer without
//! asking the driver: a `mat4` is four columns of four floats, exactly glam's `Mat4`; a struct of
//! two `vec4`s is eight floats, exactly our `DualQuat`. The buffer is as big as the block declares
//! (a block must be backed in full), and a frame rewrites only the joints the model has.
//!
//! A block holds one character's palette, and ten Foxes' at most: a crowd's other characters read
//! theirs from a float texture, which holds thousands (`crowd_palettes.rs`).

use super::gl::{GlError, as_bytes, gl_size};
use crate::demo::model::gpu_fit::{DQS_BLOCK_BYTES, LBS_BLOCK_BYTES};
use glow::HasContext;
use skinning_method::lbs_or_dqs::Palette;

/// A palette's uniform block as the shaders declare it: its name, its size in bytes, and the
/// binding point that joins it to its buffer.
#[derive(Clone, Copy, Debug)]
pub struct PaletteBlock {
    pub name: &'static str,
    pub bytes: usize,
    pub binding: u32,
}

/// The linear blend's block of matrices, `Palette` in `shaders/skinning.vert`.
pub const LBS_BLOCK: PaletteBlock = PaletteBlock { name: "Palette", bytes: LBS_BLOCK_BYTES, binding: 0 };
/// The dual quaternions' block, `DualQuatPalette` in `shaders/skinning_dqs.vert`.
pub const DQS_BLOCK: PaletteBlock =
    PaletteBlock { name: "DualQuatPalette", bytes: DQS_BLOCK_BYTES, binding: 1 };

/// The largest uniform block this driver takes, in bytes (`GL_MAX_UNIFORM_BLOCK_SIZE`).
pub fn block_limit(gl: &glow::Context) -> usize {
    // SAFETY: the caller keeps a context current on this thread; this only reads a limit.
    let limit = unsafe { gl.get_parameter_i32(glow::MAX_UNIFORM_BLOCK_SIZE) };
    usize::try_from(limit).unwrap_or(0)
}

/// One uniform buffer holding a palette for one program's uniform block.
pub struct PaletteBuffer {
    buffer: glow::Buffer,
    /// The binding point joining the program's block to this buffer.
    binding: u32,
    /// The buffer's size: the block's.
    bytes: usize,
    /// Reused every frame: the palette as plain floats, so the upload allocates nothing.
    staging: Vec<f32>,
}

impl PaletteBuffer {
    /// A buffer for the uniform block `block` of `program`, of its size, joined through its
    /// binding point. The driver must take blocks of that size ([`fits_driver`], which
    /// `GpuSkin::new` checks).
    pub fn new(
        gl: &glow::Context,
        program: glow::Program,
        block: PaletteBlock,
    ) -> Result<PaletteBuffer, GlError> {
        let PaletteBlock { name, bytes, binding } = block;
        let size = gl_size(bytes, "the palette's uniform block, in bytes")?;
        // SAFETY: the caller keeps the context that made `gl` current on this thread; `program` is
        // alive, and the buffer is created here with `size` bytes, what the block was measured at.
        unsafe {
            let index = gl
                .get_uniform_block_index(program, name)
                .ok_or_else(|| GlError::Other(format!("the skinning shader has no uniform block {name}")))?;
            // GLSL 3.30 and ES 3.00 cannot write `layout(binding = N)`: the program says it here.
            gl.uniform_block_binding(program, index, binding);
            let buffer = gl.create_buffer().map_err(GlError::Other)?;
            gl.bind_buffer(glow::UNIFORM_BUFFER, Some(buffer));
            gl.buffer_data_size(glow::UNIFORM_BUFFER, size, glow::DYNAMIC_DRAW);
            gl.bind_buffer(glow::UNIFORM_BUFFER, None);
            Ok(PaletteBuffer { buffer, binding, bytes, staging: Vec::with_capacity(bytes / 4) })
        }
    }

    /// The one upload per frame: this frame's palette, into the start of the buffer, which is then
    /// bound for the next draw. glam stores matrices column by column, as `std140` does.
    pub fn upload(&mut self, gl: &glow::Context, palette: Palette) {
        self.staging.clear();
        match palette {
            Palette::Lbs(matrices) => self.staging.extend(matrices.iter().flat_map(|m| m.to_cols_array())),
            Palette::Dqs { joints, .. } => {
                let eight = |d: &skinning_method::dual_quat::DualQuat| {
                    let (r, q) = (d.real.to_array(), d.dual.to_array());
                    [r[0], r[1], r[2], r[3], q[0], q[1], q[2], q[3]]
                };
                self.staging.extend(joints.iter().flat_map(eight));
            }
        }
        assert!(self.staging.len() * 4 <= self.bytes, "fits_gpu checked the joint count");
        // SAFETY: `gl`'s context is current (the caller's); `self.buffer` is this palette's live
        // uniform buffer of `bytes` bytes and `staging` holds at most that many (filled just above),
        // so the write stays inside it.
        unsafe {
            gl.bind_buffer(glow::UNIFORM_BUFFER, Some(self.buffer));
            gl.buffer_sub_data_u8_slice(glow::UNIFORM_BUFFER, 0, as_bytes(&self.staging));
            gl.bind_buffer_base(glow::UNIFORM_BUFFER, self.binding, Some(self.buffer));
        }
    }

    pub fn delete(&self, gl: &glow::Context) {
        // SAFETY: `gl`'s context is current (the caller's); the buffer was made in `new` and is
        // deleted once: the palette is not used after `delete`.
        unsafe { gl.delete_buffer(self.buffer) };
    }
}
