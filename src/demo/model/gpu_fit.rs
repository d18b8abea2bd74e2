//! What of a model GPU skinning takes, with no OpenGL: the shaders' palette holds
//! [`MAX_GPU_JOINTS`] joints (a uniform block, `draw/gpu_palette.rs`), a vertex gives them at most
//! [`MAX_GPU_INFLUENCES`] influences (two attribute sets, `draw/gpu_influences.rs`), and a driver
//! must back the block ([`fits_driver`]). The demo's state asks before it switches to the GPU
//! (`show/skinned.rs`), `--info` says it, and the renderer asks before it builds a GPU layer.

use skinning_method::skin::{SLOTS, Skin};

/// The most joints GPU skinning takes: the size of the shaders' palette arrays.
pub const MAX_GPU_JOINTS: usize = 256;

/// The bytes of the blocks, in `std140`: 256 `mat4` (LBS) fill the guaranteed 16 KiB; 256 dual
/// quaternions (DQS) take half.
pub const LBS_BLOCK_BYTES: usize = MAX_GPU_JOINTS * 16 * 4;
pub const DQS_BLOCK_BYTES: usize = MAX_GPU_JOINTS * 8 * 4;

/// Whether a skin of `joints` joints fits the shaders' palette; if not, a one-line refusal.
pub fn fits_gpu(joints: usize) -> Result<(), String> {
    if joints <= MAX_GPU_JOINTS {
        return Ok(());
    }
    Err(format!(
        "GPU skinning takes at most {MAX_GPU_JOINTS} joints (MAX_GPU_JOINTS: 256 matrices fill the 16 KiB \
         uniform block OpenGL 3.3 and ES 3.0 promise) but this model has {joints}; \
         skin it on the CPU (--skinning cpu)"
    ))
}

/// The most influences of one vertex the shaders read: two sets of four.
pub const MAX_GPU_INFLUENCES: usize = 2 * SLOTS;

/// Whether the GPU can skin `skin`: its joints fit the palette ([`fits_gpu`]) and no vertex has
/// more than [`MAX_GPU_INFLUENCES`] influences. If not, the one-line refusal.
pub fn gpu_can_skin(skin: &Skin) -> Result<(), String> {
    fits_gpu(skin.joints().len())?;
    let most = skin.most_influences();
    if most <= MAX_GPU_INFLUENCES {
        return Ok(());
    }
    Err(format!(
        "GPU skinning takes at most {MAX_GPU_INFLUENCES} influences a vertex (two attribute sets of \
         four) but a vertex of this model has {most}; skin it on the CPU (--skinning cpu), which \
         blends every influence"
    ))
}

/// Whether a driver whose uniform blocks hold `limit` bytes takes the shaders' palettes; if not, a
/// one-line refusal. OpenGL promises 16 KiB, but a driver that breaks the promise should still
/// draw everything else: only GPU skinning is refused (the renderer then builds no GPU layer).
pub fn fits_driver(limit: usize) -> Result<(), String> {
    if limit >= LBS_BLOCK_BYTES.max(DQS_BLOCK_BYTES) {
        return Ok(());
    }
    Err(format!(
        "GPU skinning is off: this driver's uniform blocks hold {limit} bytes, below the 16384 OpenGL \
         promises and the shaders' palette needs; skin on the CPU (--skinning cpu)"
    ))
}
