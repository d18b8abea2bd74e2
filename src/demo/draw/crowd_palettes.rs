//! A crowd's palettes on the GPU: every character's but the first in one float texture, so one instanced draw
//! per mesh skins the whole crowd (`render/crowd.rs`, `shaders/skinning.vert`: `skin_matrix`).
//!
//! The single character's palette fits the uniform block (`gpu_palette.rs`), 16 KiB: ten Foxes'
//! palettes would fill it. A texture holds far more: a float texture (RGBA32F, read with
//! `texelFetch`, no filtering: WebGL2, OpenGL ES 3.0 and 3.3 all have it) of [`MATRICES_PER_ROW`]
//! matrices a row, four texels each (a matrix's columns, as glam stores them), and as many rows as
//! the crowd fills ([`crowd_rows`]). The `k`th character past the first has its palette start at
//! matrix `k * joints`, counted row after row; instance `k` of the draw reads it.
//!
//! The texture is made once, at start-up, for the crowd `--crowd` asks for, and refused in one line
//! if the driver's textures are too small for it (`fits_crowd`). A frame fills the reused staging
//! floats and sends them with one `tex_sub_image_2d`: no allocation, no texture made.

use super::gl::{GlError, as_bytes, gl_size};
use crate::demo::model::gpu_fit::{MATRICES_PER_ROW, crowd_rows};
use glam::Mat4;
use glow::HasContext;
use skinning_method::lbs_or_dqs::Palette;

/// What a GPU draw skins by: one character's palette, which goes up into the uniform block, or the
/// crowd's, `characters` palettes already in the texture ([`CrowdPalettes::upload`]), one per
/// instance (linear blending only: the crowd's characters blend linearly).
#[derive(Clone, Copy)]
pub enum Palettes<'a> {
    One(Palette<'a>),
    Crowd { characters: usize },
}

impl Palettes<'_> {
    /// How many instances one draw by these palettes makes: every character of a crowd, each by
    /// its own palette in the crowd's texture, in one draw per mesh; else one.
    pub fn instances(self) -> i32 {
        match self {
            Palettes::One(_) => 1,
            Palettes::Crowd { characters } => i32::try_from(characters).unwrap_or(i32::MAX),
        }
    }
}

impl<'a> From<Palette<'a>> for Palettes<'a> {
    fn from(palette: Palette<'a>) -> Palettes<'a> {
        Palettes::One(palette)
    }
}

/// The texture unit the crowd's palettes are bound to: unit 0 holds the materials' textures
/// (`looks.rs`), unit 1 the morph's displacements (`gpu_morph.rs`).
pub const CROWD_TEXTURE_UNIT: u32 = 2;

/// Texels in a row: four per matrix.
const WIDTH: usize = 4 * MATRICES_PER_ROW;

/// The crowd's palettes, in a texture of fixed size. Needs the GL context current.
pub struct CrowdPalettes {
    texture: glow::Texture,
    /// The texture's rows: room for every character's palette.
    rows: usize,
    /// Reused every frame: the palettes as plain floats, whole rows, so the upload allocates
    /// nothing (its capacity is the texture's, from the start).
    staging: Vec<f32>,
}

impl CrowdPalettes {
    /// Room for `characters` palettes of `joints` matrices each. The caller checked the rows fit
    /// the driver (`fits_crowd`).
    pub fn new(gl: &glow::Context, characters: usize, joints: usize) -> Result<CrowdPalettes, GlError> {
        let rows = crowd_rows(characters, joints);
        let (width, height) =
            (gl_size(WIDTH, "the crowd texture's width")?, gl_size(rows, "the crowd texture's rows")?);
        let floats = rows.saturating_mul(WIDTH * 4);
        // SAFETY: the caller keeps the context that made `gl` current on this thread; the texture
        // is made here, and `tex_image_2d` with no data only sizes it.
        unsafe {
            let texture = gl.create_texture().map_err(GlError::Other)?;
            gl.bind_texture(glow::TEXTURE_2D, Some(texture));
            // No mipmaps and no filtering: a float texture is read texel by texel (as the morph's).
            gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MIN_FILTER, glow::NEAREST as i32);
            gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MAG_FILTER, glow::NEAREST as i32);
            gl.tex_image_2d(
                glow::TEXTURE_2D,
                0,
                glow::RGBA32F as i32,
                width,
                height,
                0,
                glow::RGBA,
                glow::FLOAT,
                glow::PixelUnpackData::Slice(None),
            );
            gl.bind_texture(glow::TEXTURE_2D, None);
            Ok(CrowdPalettes { texture, rows, staging: Vec::with_capacity(floats) })
        }
    }

    /// This frame's palettes, `matrices` one character's after another's, into the texture (the
    /// rows they fill, in one upload); then bound on [`CROWD_TEXTURE_UNIT`] for the next draws.
    /// Matrices past the texture's room are left out (`new` made room for the whole crowd).
    pub fn upload(&mut self, gl: &glow::Context, matrices: impl Iterator<Item = Mat4>) {
        self.staging.clear();
        let room = self.staging.capacity();
        for m in matrices.take(room / 16) {
            self.staging.extend_from_slice(&m.to_cols_array());
        }
        // Whole rows: the upload is a rectangle; the last row's tail is never read.
        let rows = self.staging.len().div_ceil(WIDTH * 4).clamp(1, self.rows);
        self.staging.resize(rows * WIDTH * 4, 0.0);
        let Ok(height) = i32::try_from(rows) else { return };
        // SAFETY: `gl`'s context is current (the caller's); the texture is this object's, `WIDTH`
        // by `self.rows` texels, and the upload writes `rows` (at most `self.rows`) whole rows
        // from `staging`, which holds exactly that many floats (resized just above).
        unsafe {
            gl.active_texture(glow::TEXTURE0 + CROWD_TEXTURE_UNIT);
            gl.bind_texture(glow::TEXTURE_2D, Some(self.texture));
            gl.tex_sub_image_2d(
                glow::TEXTURE_2D,
                0,
                0,
                0,
                WIDTH as i32,
                height,
                glow::RGBA,
                glow::FLOAT,
                glow::PixelUnpackData::Slice(Some(as_bytes(&self.staging))),
            );
            gl.active_texture(glow::TEXTURE0);
        }
    }

    pub fn delete(&self, gl: &glow::Context) {
        // SAFETY: `gl`'s context is current (the caller's); the texture was made in `new` and is
        // deleted once: the palettes are not used after `delete`.
        unsafe { gl.delete_texture(self.texture) };
    }
}
