//! GPU skinning, the next lesson: the blend of `blend::Linear` (or of `dual_quat::DualQuats`), run
//! by the vertex shader `shaders/skinning.vert` (or `shaders/skinning_dqs.vert`) (article 002).
//!
//! The CPU road blends every vertex and uploads every skinned position, every frame. Here the data
//! the blend reads per vertex (bind position, four joint indices, four weights, or eight of each
//! for a model with more influences: `gpu_influences.rs`) goes to the GPU once, at start-up, and
//! the blend's own upload per frame is the palette: one `world[joint.bone] * joint.offset` matrix
//! per skin joint, or for DQS that matrix as a dual quaternion (two `vec4`s). The camera and the point size go up too, as for every layer. The tree
//! walk and the palette stay on the CPU (`Pose::run`, stopped at the palette): a few matrix
//! products per bone.
//! The blend is the part that grows with the mesh, every vertex every frame, and a GPU runs it for
//! thousands of vertices at once. That is why engines skin this way.
//!
//! Two details carry the lesson. Joint indices stay integers on the GPU: `vertex_attrib_pointer_i32`
//! (`glVertexAttribIPointer`, in `gpu_influences.rs`) hands the `u16`s to the shader's `uvec4` as
//! they are. And the palette lives in a uniform buffer of a fixed size (`gpu_palette.rs`),
//! [`MAX_GPU_JOINTS`] joints; a model with more is refused (`gpu_can_skin`, which also refuses a
//! vertex of more than eight influences), never cut short. A crowd's other characters read their
//! palettes from one texture instead, one instanced draw for them all (`gpu_skin/crowd.rs`).
//! [`GpuSkin::capture`] reads what the shader computed back to the CPU (transform feedback), so the
//! tests can hold it against the CPU blend, and `--dump --skinning gpu` can write it.
//!
//! Before the palette the shaders morph each vertex (the sum of `morph.rs`), from displacements and
//! weights `gpu_morph.rs` uploads; beyond its limit the CPU morphs and the GPU skins the result.
//!
//! The shaders skin each vertex's normal too, by the same rules as the CPU (`normals.rs`,
//! `DualQuats`' `normal`), and the lit surface (`surface.rs`) is drawn from them: each
//! method has one program drawing lines and points and one drawing the surface (`skin_program.rs`).

use super::crowd_palettes::{CrowdPalettes, Palettes};
use super::gl::{GlError, as_bytes, gl_size};
use super::gpu_influences::{AttributeSets, influence_attributes};
use super::gpu_morph::GpuMorph;
use super::gpu_palette::{DQS_BLOCK, LBS_BLOCK, block_limit};
use super::looks::{GpuLooks, texcoord_attribute};
use super::skin_program::{Look, SkinProgram};
use super::strokes::Strokes;
use super::surface::{normal_attribute, triangle_elements};
use crate::demo::colors::Rgba;
use crate::demo::model::gpu_fit::{fits_driver, gpu_can_skin};
use glam::{Mat4, Vec3, Vec3A};
use glow::HasContext;
use skinning_formats::material::Looks;
use skinning_method::lbs_or_dqs::Palette;
use skinning_method::model::Model;
use skinning_method::{morph::MeshMorph, skin::Shape};

/// The skinning programs and the mesh's vertex data on the GPU. Needs the GL context current.
pub struct GpuSkin {
    /// LBS and DQS, drawing lines and points.
    lines: [SkinProgram; 2],
    /// LBS and DQS, drawing the lit surface.
    lit: [SkinProgram; 2],
    /// Strokes like the other layers', holding bind positions instead of skinned ones, plus three
    /// attributes: 0 bind position, 1 colour, 2 joints, 3 weights, 4 bind normal (and 5 and 6, the
    /// second set of joints and weights, for a model with more than four influences). Every
    /// program reads them; the lines draw their edges.
    strokes: Strokes,
    /// The same attributes, with 7 the texture coordinates and the triangles as elements, for the
    /// surface.
    surface: glow::VertexArray,
    texcoords: glow::Buffer,
    triangles: glow::Buffer,
    joints: glow::Buffer,
    weights: glow::Buffer,
    normals: glow::Buffer,
    /// The mesh has no normals of its own: it is lit with flat ones.
    flat: bool,
    /// Where transform feedback writes the skinned positions and normals for [`GpuSkin::capture`].
    captured: glow::Buffer,
    /// The morph targets: displacements, the `morph` attribute, this frame's weights; and why the
    /// shaders do not morph this model, if they cannot (`GpuMorph::note`), to be said once.
    pub morph: GpuMorph,
    /// The joints of one palette: a crowd's palettes are this many matrices apart in their texture.
    palette_joints: usize,
    /// A crowd's characters past the first, their palettes in one texture (`render/crowd.rs`);
    /// None without a crowd.
    crowd: Option<CrowdPalettes>,
}

mod capture;
mod crowd;

/// Which of the two methods' programs blends by `palettes` (a crowd's blend linearly).
fn method(palettes: Palettes) -> usize {
    match palettes {
        Palettes::One(Palette::Dqs { .. }) => 1,
        _ => 0,
    }
}

impl GpuSkin {
    /// Compiles the skinning shaders and uploads the model's skin and morph `targets`, once; refused
    /// before anything is made if the model has too many joints or the driver too small uniform blocks.
    pub fn new(
        gl: &glow::Context,
        model: &Model,
        targets: &[MeshMorph],
        looks: &Looks,
    ) -> Result<GpuSkin, GlError> {
        gpu_can_skin(&model.skin).map_err(GlError::Other)?;
        fits_driver(block_limit(gl)).map_err(GlError::Other)?;
        // What the blend reads per vertex, in the shapes the shader's attributes take.
        let sets = AttributeSets::of(&model.skin);
        let (influences, joints) = (sets.influences(), model.skin.joints().len());
        let lbs = ("shaders/skinning.vert", include_str!("../../../shaders/skinning.vert"));
        let dqs = ("shaders/skinning_dqs.vert", include_str!("../../../shaders/skinning_dqs.vert"));
        let lines = [
            SkinProgram::new(gl, lbs, Look::Lines, LBS_BLOCK, (influences, joints))?,
            SkinProgram::new(gl, dqs, Look::Lines, DQS_BLOCK, (influences, joints))?,
        ];
        let lit = [
            SkinProgram::new(gl, lbs, Look::Surface, LBS_BLOCK, (influences, joints))?,
            SkinProgram::new(gl, dqs, Look::Surface, DQS_BLOCK, (influences, joints))?,
        ];

        let n = model.skin.len();
        let bind: Vec<Vec3A> = model.skin.bind().to_vec();
        let bind_normals: Vec<[f32; 3]> = model.skin.normals().iter().map(|n| n.to_array()).collect();
        let flat = bind_normals.is_empty();

        let strokes = Strokes::new(gl, n, &model.edges)?;
        strokes.upload_positions(gl, &bind, &mut Vec::new());
        let morph = GpuMorph::new(gl, model, targets)?;
        // SAFETY: the caller keeps the context that made `gl` current on this thread; the strokes'
        // vertex array and buffers were just made with it.
        unsafe {
            let joints = upload_static(gl, as_bytes(&sets.joints))?;
            let weights = upload_static(gl, as_bytes(&sets.weights))?;
            let normals = upload_static(gl, as_bytes(&bind_normals))?;
            let buffers = [joints, weights, normals];
            skin_attributes(gl, strokes.vao, &strokes, buffers, flat, sets.sets);
            morph.attach(gl, strokes.vao);
            let surface = gl.create_vertex_array().map_err(GlError::Other)?;
            skin_attributes(gl, surface, &strokes, buffers, flat, sets.sets);
            morph.attach(gl, surface);
            gl.bind_vertex_array(Some(surface));
            let texcoords = texcoord_attribute(gl, looks, model.skin.len())?;
            let triangles = triangle_elements(gl, &model.triangles)?;
            gl.bind_vertex_array(None);
            // Room for one captured position and one normal, each a vec3, per vertex.
            let captured = gl.create_buffer().map_err(GlError::Other)?;
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(captured));
            gl.buffer_data_size(
                glow::ARRAY_BUFFER,
                gl_size(n.saturating_mul(24), "the captured bytes")?,
                glow::STREAM_READ,
            );
            Ok(GpuSkin {
                lines,
                lit,
                strokes,
                surface,
                texcoords,
                triangles,
                joints,
                weights,
                normals,
                flat,
                captured,
                morph,
                palette_joints: model.skin.joints().len().max(1),
                crowd: None,
            })
        }
    }

    /// Draws the mesh skinned with `palette` (LBS or DQS), as lines and points like the other
    /// layers: in the skinned mesh's colours, or all in `color` if given.
    pub fn draw<'a>(
        &mut self,
        gl: &glow::Context,
        palette: impl Into<Palettes<'a>>,
        view_projection: Mat4,
        point_size: f32,
        color: Option<Rgba>,
    ) {
        let palette = palette.into();
        let program = &mut self.lines[method(palette)];
        program.use_with(gl, palette, &self.morph.weights);
        self.morph.bind(gl);
        program.set_view(gl, view_projection, point_size, Vec3::ZERO, self.flat);
        // SAFETY: the caller keeps `gl`'s context current; the vertex array is this skin's, alive
        // until `delete`.
        unsafe {
            gl.bind_vertex_array(Some(self.strokes.vao));
            match color {
                // With its array switched off, an attribute reads one constant value for every vertex.
                Some([r, g, b, a]) => {
                    gl.disable_vertex_attrib_array(1);
                    gl.vertex_attrib_4_f32(1, r, g, b, a);
                }
                None => gl.enable_vertex_attrib_array(1),
            }
        }
        self.strokes.draw_instances(gl, palette.instances());
    }

    /// Draws the mesh's triangles skinned with `palette`, seen through `view_projection`, lit from
    /// `eye` (`surface.rs`), in the materials' colours (`looks`, the CPU surface's; the weight
    /// view's when it is off).
    pub fn draw_surface<'a>(
        &mut self,
        gl: &glow::Context,
        palette: impl Into<Palettes<'a>>,
        view_projection: Mat4,
        eye: Vec3,
        looks: &GpuLooks,
    ) {
        let palette = palette.into();
        let program = &mut self.lit[method(palette)];
        program.use_with(gl, palette, &self.morph.weights);
        self.morph.bind(gl);
        program.set_view(gl, view_projection, 1.0, eye, self.flat);
        looks.draw(gl, &program.material, self.surface, palette.instances());
    }

    /// This frame's morph `weights` and the `shape` they give (None for a model without morph
    /// targets), before drawing or capturing (`GpuMorph::set_shape`).
    pub fn set_shape(&mut self, gl: &glow::Context, weights: &[f32], shape: Option<Shape>) {
        self.morph.set_shape(gl, weights, shape, self.strokes.positions, self.normals);
    }

    /// Draws its points with its lines whatever their number (`Strokes::show_points`) if `always`.
    pub fn show_points(&mut self, always: bool) {
        self.strokes.show_points |= always;
    }

    /// New colours for the mesh, one per vertex (red, or the weight view's).
    pub fn upload_colors(&self, gl: &glow::Context, colors: &[Rgba]) {
        self.strokes.upload_colors(gl, colors);
    }

    pub fn delete(&self, gl: &glow::Context) {
        self.strokes.delete(gl);
        self.morph.delete(gl);
        self.crowd.iter().for_each(|crowd| crowd.delete(gl));
        for program in self.lines.iter().chain(&self.lit) {
            program.delete(gl);
        }
        // SAFETY: the caller keeps `gl`'s context current; each name is this skin's and deleted
        // once, here (the skin is not used after `delete`).
        unsafe {
            gl.delete_vertex_array(self.surface);
            let buffers = [self.joints, self.weights, self.normals, self.texcoords, self.triangles];
            for buffer in buffers.into_iter().chain([self.captured]) {
                gl.delete_buffer(buffer);
            }
        }
    }
}

/// Sets up attributes 0 to 4 of `vao` from the strokes' bind positions and colours and the skin's
/// `[joints, weights, normals]` buffers (no normals for a mesh lit `flat`), and 5 and 6 for a
/// second set of joints and weights (`sets` 2).
///
/// # Safety
/// A context is current on this thread and every handle is alive.
unsafe fn skin_attributes(
    gl: &glow::Context,
    vao: glow::VertexArray,
    strokes: &Strokes,
    buffers: [glow::Buffer; 3],
    flat: bool,
    sets: usize,
) {
    let [joints, weights, normals] = buffers;
    // SAFETY: the caller keeps a context current and `vao` bound-able (this function's contract);
    // `strokes`' buffers and `buffers` are live names of that context; the attribute pointers are
    // offsets into those buffers, not addresses of ours.
    unsafe {
        gl.bind_vertex_array(Some(vao));
        gl.bind_buffer(glow::ARRAY_BUFFER, Some(strokes.positions));
        gl.vertex_attrib_pointer_f32(0, 3, glow::FLOAT, false, 12, 0);
        gl.enable_vertex_attrib_array(0);
        gl.bind_buffer(glow::ARRAY_BUFFER, Some(strokes.colors));
        gl.vertex_attrib_pointer_f32(1, 4, glow::FLOAT, false, 16, 0);
        gl.enable_vertex_attrib_array(1);
        influence_attributes(gl, joints, weights, sets);
        gl.bind_buffer(glow::ARRAY_BUFFER, Some(normals));
        normal_attribute(gl, !flat);
        gl.bind_vertex_array(None);
    }
}

/// A new buffer holding `data`.
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
