//! What of a model GPU skinning takes, with no OpenGL: the shaders' palette holds
//! [`MAX_GPU_JOINTS`] joints (a uniform block, `draw/gpu_palette.rs`), a vertex gives them at most
//! [`MAX_GPU_INFLUENCES`] influences (two attribute sets, `draw/gpu_influences.rs`), and a driver
//! must back the block ([`fits_driver`]). The demo's state asks before it switches to the GPU
//! (`show/skinned.rs`), `--info` says it, and the renderer asks before it builds a GPU layer.
//!
//! A crowd's characters past the first read their palettes from one float texture instead
//! (`draw/crowd_palettes.rs`), [`MATRICES_PER_ROW`] matrices a row: [`crowd_rows`] rows, which the
//! driver's textures must hold ([`fits_crowd`]). `MAX_GPU_JOINTS` still bounds one character's
//! joints, not the crowd.

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

/// Matrices in a row of the crowd's palette texture: four texels each, 1,024 texels, the smallest
/// `GL_MAX_TEXTURE_SIZE` OpenGL 3.3 promises (ES 3.0 promises 2,048).
pub const MATRICES_PER_ROW: usize = 256;

/// The rows of the crowd's palette texture that `characters` palettes of `joints` matrices fill,
/// one after the other (at least one, so the texture is never empty).
pub fn crowd_rows(characters: usize, joints: usize) -> usize {
    characters.saturating_mul(joints).div_ceil(MATRICES_PER_ROW).max(1)
}

/// Whether the palettes of `crowd` characters of `joints` joints each, all but the first in the
/// crowd's texture, fit a driver whose textures have at most `max_rows` rows
/// (`GL_MAX_TEXTURE_SIZE`); if not, a one-line refusal that says how many would fit.
pub fn fits_crowd(crowd: usize, joints: usize, max_rows: usize) -> Result<(), String> {
    let others = crowd.saturating_sub(1);
    let rows = crowd_rows(others, joints);
    if rows <= max_rows {
        return Ok(());
    }
    let fit = (max_rows * MATRICES_PER_ROW / joints.max(1)).saturating_add(1);
    Err(format!(
        "GPU skinning is off: --crowd {crowd} puts {others} palettes of {joints} matrices in a texture of \
         {rows} rows of {MATRICES_PER_ROW} matrices, and this driver's textures hold {max_rows} rows \
         (GL_MAX_TEXTURE_SIZE); ask for --crowd {fit} or fewer, or skin on the CPU (--skinning cpu)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crowd_fills_rows_of_256_matrices_and_too_many_rows_are_refused_in_one_line() {
        // 999 Foxes past the first, 24 joints: 23,976 matrices, 94 rows.
        assert_eq!(crowd_rows(999, 24), 94);
        assert_eq!(crowd_rows(0, 24), 1, "never an empty texture");
        assert_eq!(fits_crowd(1000, 24, 94), Ok(()));
        let why = fits_crowd(1000, 24, 93).expect_err("one row short");
        // 93 rows hold 93 * 256 / 24 = 992 palettes: the first and 992 others.
        assert!(why.contains("ask for --crowd 993 or fewer") && !why.contains('\n'), "{why}");
        assert!(fits_crowd(993, 24, 93).is_ok() && fits_crowd(994, 24, 93).is_err());
        assert!(why.contains("--skinning cpu") && why.contains("GL_MAX_TEXTURE_SIZE"), "{why}");
    }
}
