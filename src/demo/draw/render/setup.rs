//! The layers a renderer makes once for a model, when it starts: the mesh's three layers of lines,
//! the normals layer, the bones layer (which bones it draws, and the lines between them), and the
//! GPU's skinned mesh. Their strokes are `strokes.rs`; `render.rs` draws them every frame.

use crate::demo::colors::{BLUE, GREEN, NORMALS, ORANGE, RED};
use crate::demo::draw::gl::GlError;
use crate::demo::draw::gpu_skin::GpuSkin;
use crate::demo::draw::strokes::Strokes;
use glam::Vec3A;
use skinning_formats::material::Looks;
use skinning_method::model::Model;
use skinning_method::morph::MeshMorph;
use skinning_method::skeleton::BoneId;

/// The mesh's three layers of lines: the bind pose (green, uploaded once), the skinned mesh (red)
/// and compare mode's second blend (orange); their points shown too if `a_point` (every vertex of
/// the mesh sits at one point).
pub fn mesh_strokes(
    gl: &glow::Context,
    model: &Model,
    a_point: bool,
    staging: &mut Vec<f32>,
) -> Result<[Strokes; 3], GlError> {
    let n = model.skin.len();
    let bind = Strokes::new(gl, n, &model.edges)?;
    let bind_positions: Vec<Vec3A> = model.skin.bind().to_vec();
    bind.upload_positions(gl, &bind_positions, staging);
    bind.upload_colors(gl, &vec![GREEN; n]);
    let skinned = Strokes::new(gl, n, &model.edges)?;
    skinned.upload_colors(gl, &vec![RED; n]);
    let compared = Strokes::new(gl, n, &model.edges)?;
    compared.upload_colors(gl, &vec![ORANGE; n]);
    let mut layers = [bind, skinned, compared];
    for strokes in &mut layers {
        strokes.show_points |= a_point;
    }
    Ok(layers)
}

/// The normals layer: line i from point 2i to point 2i + 1, lines only.
pub fn normal_strokes(gl: &glow::Context, model: &Model) -> Result<Strokes, GlError> {
    let count = crate::demo::show::normal_lines::line_count(model);
    let pairs: Vec<[u32; 2]> = (0..count as u32).map(|i| [2 * i, 2 * i + 1]).collect();
    let mut normal_lines = Strokes::new(gl, 2 * count, &pairs)?;
    normal_lines.upload_colors(gl, &vec![NORMALS; 2 * count]);
    normal_lines.show_points = false;
    Ok(normal_lines)
}

/// The bones the bones layer draws: only joints (in the article every bone is one; a glTF file
/// also has nodes that only place others).
pub fn drawn_bones(model: &Model) -> Vec<BoneId> {
    let is_joint = model.joint_bones();
    (0..model.skeleton.len()).filter(|&b| is_joint[b]).collect()
}

/// The bones layer, in blue: a point for each of the `drawn` bones, and a line to each from its
/// nearest ancestor that is a joint.
pub fn bone_strokes(gl: &glow::Context, model: &Model, drawn: &[BoneId]) -> Result<Strokes, GlError> {
    let bones = Strokes::new(gl, drawn.len(), &bone_lines(model, drawn))?;
    bones.upload_colors(gl, &vec![BLUE; drawn.len()]);
    Ok(bones)
}

/// The bones layer's lines, as pairs of places in `drawn`: a joint's line comes from its nearest
/// ancestor that is a joint.
fn bone_lines(model: &Model, drawn: &[BoneId]) -> Vec<[u32; 2]> {
    let is_joint = model.joint_bones();
    (drawn.iter().enumerate())
        .filter_map(|(i, &bone)| {
            let mut above = model.skeleton.bone(bone).parent;
            while let Some(a) = above.filter(|&a| !is_joint[a]) {
                above = model.skeleton.bone(a).parent;
            }
            let from = drawn.iter().position(|&d| Some(d) == above)?;
            Some([from as u32, i as u32])
        })
        .collect()
}

/// The GPU's skinned layer, in red until the weight view recolours it, with room for the palettes
/// of a crowd of `crowd` (the first character's go into the uniform block, as one's alone does).
pub fn gpu_skinned(
    gl: &glow::Context,
    (model, targets): (&Model, &[MeshMorph]),
    looks: &Looks,
    a_point: bool,
    crowd: usize,
) -> Result<GpuSkin, GlError> {
    let mut gpu = GpuSkin::new(gl, model, targets, looks)?;
    gpu.make_room_for_crowd(gl, crowd.saturating_sub(1))?;
    gpu.show_points(a_point);
    gpu.upload_colors(gl, &vec![RED; model.skin.len()]);
    Ok(gpu)
}
