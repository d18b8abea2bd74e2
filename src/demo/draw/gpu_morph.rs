//! Morph targets on the GPU: the sum of `morph.rs`, run by the skinning shaders before the palette
//! (`shaders/skinning.vert`, `shaders/skinning_dqs.vert`).
//!
//! What the morph reads per vertex never changes, so it goes up once, as the skin's attributes do:
//! every morphed vertex's displacements, one texel each, into a float texture (RGBA32F, read with
//! `texelFetch`, no filtering: OpenGL 3.3 and ES 3.0 both have it), rows of [`TEXTURE_WIDTH`]; and
//! per vertex one more attribute, `morph` at location [`MORPH_LOCATION`]: where its texels start,
//! where its mesh's weights start, how many targets it has, and whether normal displacements follow
//! its position displacements. What changes every frame is the weights: a uniform array, beside the
//! palette.
//!
//! The limit: [`MAX_GPU_MORPH_WEIGHTS`], 128 targets over all the model's meshes (a plain uniform
//! array, so 128 of the 256 `vec4` slots OpenGL 3.3 and ES 3.0 promise a vertex shader, each float
//! may take one), and texels that fit the driver's textures (at least 1024 rows on OpenGL 3.3,
//! 2048 on ES 3.0: a million texels). Beyond it the shaders morph nothing ([`GpuMorph::note`] says
//! why, once): the CPU morphs, as it does for its own blend (`Morphed::apply`), and every frame its
//! shapes are uploaded in place of the modelled positions and normals of the morphed vertices, so
//! the GPU skins what the CPU shaped.

use super::gl::{GlError, as_bytes, gl_size};
use glam::Vec3A;
use glow::HasContext;
use skinning_method::model::Model;
use skinning_method::morph::MeshMorph;
use skinning_method::skin::Shape;
use std::ops::Range;

/// The most morph weights (targets, over every mesh) the shaders take: the size of their
/// `morph_weights` array.
pub const MAX_GPU_MORPH_WEIGHTS: usize = 128;

/// Texels per row of the displacements' texture: the smallest `GL_MAX_TEXTURE_SIZE` OpenGL 3.3 promises.
pub const TEXTURE_WIDTH: usize = 1024;

/// The `morph` attribute's location, past the skin's 0 to 4, the second set of joints and weights
/// (5 and 6) and the texture coordinates (7).
pub const MORPH_LOCATION: u32 = 8;

/// The texture unit the displacements are bound to: unit 0 holds the materials' textures
/// (`looks.rs`), and each sampler that reads a different texture needs a unit of its own.
pub const MORPH_TEXTURE_UNIT: u32 = 1;

/// What the shaders read of the morph targets, laid out as they read it.
#[derive(Debug, Default, PartialEq)]
pub struct MorphData {
    /// Displacements, one texel each: for each morphed vertex, its targets' position
    /// displacements, then (where its mesh has them) its targets' normal displacements.
    pub texels: Vec<[f32; 4]>,
    /// Per vertex of the skin: first texel, first weight, number of targets, 1 if normal
    /// displacements follow (all 0 for a vertex without targets).
    pub per_vertex: Vec<[u32; 4]>,
}

/// The morph `targets` of `model` as the shaders read them.
pub fn morph_data(model: &Model, targets: &[MeshMorph]) -> MorphData {
    let mut data = MorphData { texels: Vec::new(), per_vertex: vec![[0; 4]; model.skin.len()] };
    let texel = |d: &Vec3A| [d.x, d.y, d.z, 0.0];
    for m in targets {
        let n = m.target_count();
        let normals = !m.normals.is_empty();
        for (i, v) in m.vertices.clone().enumerate() {
            data.per_vertex[v] = [data.texels.len() as u32, m.weights.start as u32, n as u32, normals as u32];
            data.texels.extend(m.displacements(i).iter().map(texel));
            if normals {
                data.texels.extend(m.normals[i * n..(i + 1) * n].iter().map(texel));
            }
        }
    }
    data
}

/// Whether the shaders can morph a model's `targets`, laid out as `data`, with textures of at most
/// `rows` rows; if not, the one line that says the CPU morphs instead.
pub fn fits_gpu_morph(targets: &[MeshMorph], data: &MorphData, rows: usize) -> Result<(), String> {
    let weights: usize = targets.iter().map(|m| m.target_count()).sum();
    let problem = if weights > MAX_GPU_MORPH_WEIGHTS {
        format!(
            "they take at most {MAX_GPU_MORPH_WEIGHTS} morph targets (MAX_GPU_MORPH_WEIGHTS) and this \
             model's meshes have {weights}"
        )
    } else if data.texels.len() > TEXTURE_WIDTH * rows {
        format!(
            "its {} displacements are more than this driver's textures hold ({TEXTURE_WIDTH} x {rows})",
            data.texels.len()
        )
    } else {
        return Ok(());
    };
    Err(format!(
        "GPU skinning: the shaders do not morph, {problem}; the CPU morphs and the GPU skins the result"
    ))
}

/// The most rows (and texels a row) this driver's textures take (`GL_MAX_TEXTURE_SIZE`).
pub fn max_texture_rows(gl: &glow::Context) -> usize {
    // SAFETY: `gl`'s context is current (the caller's); this reads one limit into an integer.
    usize::try_from(unsafe { gl.get_parameter_i32(glow::MAX_TEXTURE_SIZE) }).unwrap_or(0)
}

/// The morph targets on the GPU, for the programs of `gpu_skin.rs`. Needs the GL context current.
pub struct GpuMorph {
    /// The displacements, where the shaders morph.
    texture: Option<glow::Texture>,
    /// The `morph` attribute of every vertex (all 0 where the CPU morphs).
    attribute: glow::Buffer,
    /// This frame's weights, for the shaders' uniform (where they morph).
    pub weights: Vec<f32>,
    /// Why the shaders do not morph this model, where they cannot, until it is said.
    pub note: Option<String>,
    /// Where the CPU morphs for the shaders ([`Self::set_shape`]): the runs of vertices it
    /// reshapes, uploaded every frame; empty where the shaders morph.
    runs: Vec<Range<usize>>,
    staging: Vec<f32>,
}

impl GpuMorph {
    pub fn new(gl: &glow::Context, model: &Model, targets: &[MeshMorph]) -> Result<GpuMorph, GlError> {
        let mut data = morph_data(model, targets);
        let rows = max_texture_rows(gl);
        let note = fits_gpu_morph(targets, &data, rows).err();
        let mut runs = Vec::new();
        if note.is_some() {
            data = MorphData { texels: Vec::new(), per_vertex: vec![[0; 4]; model.skin.len()] };
            runs = targets.iter().map(|m| m.vertices.clone()).collect();
        }
        // SAFETY: `gl`'s context is current (the caller's); the buffer and the texture are made
        // here; the upload reads `per_vertex`'s bytes, whose length glow passes; `upload_texture`
        // asks only a current context.
        unsafe {
            let attribute = gl.create_buffer().map_err(GlError::Other)?;
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(attribute));
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, as_bytes(&data.per_vertex), glow::STATIC_DRAW);
            let texture = match data.texels.is_empty() {
                true => None,
                false => Some(upload_texture(gl, &data.texels)?),
            };
            let weights = Vec::with_capacity(MAX_GPU_MORPH_WEIGHTS);
            let most = runs.iter().map(|r| r.len()).max().unwrap_or(0);
            Ok(GpuMorph { texture, attribute, weights, note, runs, staging: Vec::with_capacity(3 * most) })
        }
    }

    /// Sets up the `morph` attribute of `vao`.
    pub fn attach(&self, gl: &glow::Context, vao: glow::VertexArray) {
        // SAFETY: `gl`'s context is current and `vao` is a live vertex array of it (the caller's);
        // the attribute reads this object's buffer from offset 0, 16 bytes a vertex, what
        // `per_vertex` holds for each.
        unsafe {
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.attribute));
            // Integers stay integers, as the joints do (`gpu_skin.rs`).
            gl.vertex_attrib_pointer_i32(MORPH_LOCATION, 4, glow::UNSIGNED_INT, 16, 0);
            gl.enable_vertex_attrib_array(MORPH_LOCATION);
            gl.bind_vertex_array(None);
        }
    }

    /// This frame's morph (`morph.rs`: `Morphed`, its `weights` and the `shape` they give; None
    /// for a model without targets): where the shaders morph, the weights their uniform takes;
    /// where the CPU does, its shapes of the morphed vertices, uploaded over the modelled
    /// `positions` and (if the mesh has them) `normals`.
    pub fn set_shape(
        &mut self,
        gl: &glow::Context,
        weights: &[f32],
        shape: Option<Shape>,
        positions: glow::Buffer,
        normals: glow::Buffer,
    ) {
        self.weights.clear();
        let Some(shaped) = shape else { return };
        if self.runs.is_empty() {
            self.weights.extend_from_slice(weights);
            return;
        }
        for run in &self.runs {
            let mut upload = |buffer, points: &mut dyn Iterator<Item = Vec3A>| {
                self.staging.clear();
                self.staging.extend(points.flat_map(|p| p.to_array()));
                // A byte offset inside the buffer, whose size `Strokes::new` checked fits 32 bits.
                let Ok(offset) = i32::try_from(run.start * 12) else { return };
                // SAFETY: `gl`'s context is current on this thread (the caller's); `buffer` is the
                // skin's live positions or normals buffer, which holds every vertex, so the run's
                // bytes written from `offset` stay inside it; glow passes the staging slice's length.
                unsafe {
                    gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer));
                    gl.buffer_sub_data_u8_slice(glow::ARRAY_BUFFER, offset, as_bytes(&self.staging));
                }
            };
            upload(positions, &mut shaped.positions[run.clone()].iter().copied());
            if !shaped.normals.is_empty() {
                upload(normals, &mut shaped.normals[run.clone()].iter().copied());
            }
        }
    }

    /// Binds the displacements for the next draw, on [`MORPH_TEXTURE_UNIT`], where the sampler reads.
    pub fn bind(&self, gl: &glow::Context) {
        // SAFETY: `gl`'s context is current (the caller's); the texture, if any, is this object's
        // live one; only texture units are switched.
        unsafe {
            gl.active_texture(glow::TEXTURE0 + MORPH_TEXTURE_UNIT);
            gl.bind_texture(glow::TEXTURE_2D, self.texture);
            gl.active_texture(glow::TEXTURE0);
        }
    }

    pub fn delete(&self, gl: &glow::Context) {
        // SAFETY: `gl`'s context is current (the caller's); the buffer and the texture were made in
        // `new` and are deleted once: the morph is not used after `delete`.
        unsafe {
            gl.delete_buffer(self.attribute);
            if let Some(texture) = self.texture {
                gl.delete_texture(texture);
            }
        }
    }
}

/// A texture holding `texels`, [`TEXTURE_WIDTH`] to a row, the last row padded with zeros.
///
/// # Safety
/// A context is current on this thread.
unsafe fn upload_texture(gl: &glow::Context, texels: &[[f32; 4]]) -> Result<glow::Texture, GlError> {
    let rows = texels.len().div_ceil(TEXTURE_WIDTH);
    let mut padded = texels.to_vec();
    padded.resize(rows * TEXTURE_WIDTH, [0.0; 4]);
    let (width, height) =
        (gl_size(TEXTURE_WIDTH, "the morph texture's width")?, gl_size(rows, "the morph texture's rows")?);
    // SAFETY: the caller keeps a context current on this thread (this function's contract); the
    // texture is made here; `tex_image_2d` reads `width * rows` texels of 16 bytes from `padded`,
    // which was resized to exactly that many just above.
    unsafe {
        let texture = gl.create_texture().map_err(GlError::Other)?;
        gl.bind_texture(glow::TEXTURE_2D, Some(texture));
        // No mipmaps and no filtering: a float texture is read texel by texel, and one with the
        // default filter (which wants mipmaps) would be incomplete and read as zeros.
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
            glow::PixelUnpackData::Slice(Some(as_bytes(&padded))),
        );
        gl.bind_texture(glow::TEXTURE_2D, None);
        Ok(texture)
    }
}
