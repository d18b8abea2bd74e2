//! One GPU skinning program: a skinning vertex shader (`shaders/skinning.vert` for LBS,
//! `shaders/skinning_dqs.vert` for DQS), the fragment shader that colours what it skins (lines and
//! points, or the lit surface), the palette buffer its uniform block reads, and its uniforms (the
//! linear blend's also read a crowd's palettes from their texture, `crowd_palettes.rs`).
//! `gpu_skin.rs` holds four of them: each method, drawn each way.

use super::crowd_palettes::{CROWD_TEXTURE_UNIT, Palettes};
use super::gl::{GlError, ShaderFile, compile_program_with};
use super::gpu_morph::{MAX_GPU_MORPH_WEIGHTS, MORPH_TEXTURE_UNIT};
use super::gpu_palette::{PaletteBlock, PaletteBuffer};
use super::looks::MaterialUniforms;
use crate::demo::model::gpu_fit::{MATRICES_PER_ROW, MAX_GPU_JOINTS};
use glam::{Mat4, Vec3};
use glow::HasContext;
use skinning_method::lbs_or_dqs::Palette;

/// What a skinning program's fragments are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// Lines and points in the vertex's colour (`shaders/lines.frag`), like every other layer; the
    /// skinned positions and normals can be read back ([`super::gpu_skin::GpuSkin::capture`]).
    Lines,
    /// The lit surface (`shaders/surface.frag`).
    Surface,
}

/// A compiled skinning program, its palette buffer and where its uniforms are.
pub struct SkinProgram {
    program: glow::Program,
    palette: PaletteBuffer,
    view_projection: Option<glow::UniformLocation>,
    point_size: Option<glow::UniformLocation>,
    /// DQS only: the scale every joint shares.
    dq_scale: Option<glow::UniformLocation>,
    /// The surface only: the light's place, and whether to light with flat normals.
    eye: Option<glow::UniformLocation>,
    face_normals: Option<glow::UniformLocation>,
    /// LBS only: whether this draw's palettes are the crowd's, in their texture.
    crowd: Option<glow::UniformLocation>,
    /// This frame's morph weights (`gpu_morph.rs`).
    morph_weights: Option<glow::UniformLocation>,
    /// The surface only: the material's colour and texture (`looks.rs`).
    pub material: MaterialUniforms,
}

impl SkinProgram {
    /// Compiles `vertex` with the fragment shader of `look`, the palette's size from the Rust
    /// constant, so the two cannot disagree. `block` is the palette's uniform block
    /// (`gpu_palette.rs`); `influences` how many a vertex has, 4 or 8 (`gpu_influences.rs`);
    /// `joints` how many a palette holds, the step between a crowd's palettes in their texture.
    pub fn new(
        gl: &glow::Context,
        vertex: ShaderFile,
        look: Look,
        block: PaletteBlock,
        (influences, joints): (usize, usize),
    ) -> Result<SkinProgram, GlError> {
        let (fragment, captured): (ShaderFile, &[&str]) = match look {
            Look::Lines => (
                ("shaders/lines.frag", include_str!("../../../shaders/lines.frag")),
                &["skinned_position", "skinned_normal"],
            ),
            Look::Surface => (("shaders/surface.frag", include_str!("../../../shaders/surface.frag")), &[]),
        };
        let defines = format!(
            "#define MAX_JOINTS {MAX_GPU_JOINTS}\n#define INFLUENCES {influences}\n\
             #define MAX_MORPH_WEIGHTS {MAX_GPU_MORPH_WEIGHTS}\n#define MATRICES_PER_ROW {MATRICES_PER_ROW}u\n"
        );
        let program = compile_program_with(gl, vertex, fragment, &defines, captured)?;
        let palette = PaletteBuffer::new(gl, program, block)?;
        // SAFETY: the caller keeps the context that made `gl` current on this thread; `program` was
        // just linked by it; the uniform names are Rust strings glow passes with their lengths.
        unsafe {
            let at = |name: &str| gl.get_uniform_location(program, name);
            // The displacements' sampler reads its own unit: unit 0 is the materials' textures'.
            gl.use_program(Some(program));
            gl.uniform_1_i32(at("morph_displacements").as_ref(), MORPH_TEXTURE_UNIT as i32);
            // (The dual quaternions' shader draws no crowd: it has no such uniforms, and these do nothing.)
            gl.uniform_1_i32(at("crowd_palettes").as_ref(), CROWD_TEXTURE_UNIT as i32);
            gl.uniform_1_i32(at("crowd_joints").as_ref(), i32::try_from(joints).unwrap_or(0));
            gl.use_program(None);
            Ok(SkinProgram {
                program,
                palette,
                view_projection: at("view_projection"),
                point_size: at("point_size"),
                dq_scale: at("dq_scale"),
                eye: at("eye"),
                face_normals: at("face_normals"),
                crowd: at("crowd"),
                morph_weights: at("morph_weights"),
                material: MaterialUniforms::new(gl, program),
            })
        }
    }

    /// Puts the program in use with this frame's palette (uploaded into the block) or the crowd's
    /// (already in their texture) and morph weights (none: no targets, or the CPU morphs).
    pub fn use_with(&mut self, gl: &glow::Context, palettes: Palettes, morph_weights: &[f32]) {
        // SAFETY: `gl`'s context is current (the caller's); the program was linked in `new`.
        unsafe { gl.use_program(Some(self.program)) };
        self.set_morph_weights(gl, morph_weights);
        let crowd = matches!(palettes, Palettes::Crowd { .. });
        // SAFETY: `gl`'s context is current and this program in use (just above); one integer.
        unsafe { gl.uniform_1_i32(self.crowd.as_ref(), i32::from(crowd)) };
        let Palettes::One(palette) = palettes else { return };
        self.palette.upload(gl, palette);
        if let Palette::Dqs { scale, .. } = palette {
            // SAFETY: `gl`'s context is current and this program in use (just above); one float.
            unsafe { gl.uniform_1_f32(self.dq_scale.as_ref(), scale) };
        }
    }

    /// This frame's morph weights, if any. The program must be in use.
    fn set_morph_weights(&self, gl: &glow::Context, morph_weights: &[f32]) {
        if !morph_weights.is_empty() {
            // SAFETY: `gl`'s context is current and this program in use (the caller's); the slice
            // is handed over with its length.
            unsafe { gl.uniform_1_f32_slice(self.morph_weights.as_ref(), morph_weights) };
        }
    }

    /// The camera, the point size, and for the surface the light at `eye` and whether the mesh
    /// is lit with flat normals. The program must be in use.
    pub fn set_view(
        &self,
        gl: &glow::Context,
        view_projection: Mat4,
        point_size: f32,
        eye: Vec3,
        flat: bool,
    ) {
        // SAFETY: `gl`'s context is current with this program in use (the caller's); the locations
        // are this program's, and each slice handed over is a whole local array.
        unsafe {
            gl.uniform_matrix_4_f32_slice(
                self.view_projection.as_ref(),
                false,
                &view_projection.to_cols_array(),
            );
            gl.uniform_1_f32(self.point_size.as_ref(), point_size);
            gl.uniform_3_f32(self.eye.as_ref(), eye.x, eye.y, eye.z);
            gl.uniform_1_i32(self.face_normals.as_ref(), flat as i32);
        }
    }

    pub fn delete(&self, gl: &glow::Context) {
        self.palette.delete(gl);
        // SAFETY: `gl`'s context is current (the caller's); the program is this one's, deleted once.
        unsafe { gl.delete_program(self.program) };
    }
}
