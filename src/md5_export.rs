//! A model and its clips out to MD5 (Doom 3): one `.md5mesh` and one `.md5anim` per clip. The
//! mirror of [`md5_import`](crate::md5_import), which reads them back into the same model and
//! clips, and the other way round from [`gltf_export`](crate::gltf_export): there the file keeps
//! the article's bind positions and offsets, here it keeps neither.
//!
//! | the article, here | MD5 |
//! |---|---|
//! | bone, its parent | joint `i`, its parent an earlier joint (the tree walk's order) |
//! | bind pose: `offset⁻¹` per joint | md5mesh joint: position and orientation in object space |
//! | bind position and influences | a run of weights per vertex: joint, bias, **`offset · bind`** |
//! | texture coordinates | `vert`'s `( s t )`, as they are (`( 0 0 )` for a model without) |
//! | triangles (counter-clockwise) | `tri`, clockwise; an edge that is no triangle's side: a flat `tri` |
//! | the model's parts | one `mesh` each, its name as the shader |
//! | a clip (keyframed or procedural) | `NAME.md5anim`: [`FRAME_RATE`] frames a second, each joint relative to its parent |
//! | the clip's name | the file's name, made safe; the name itself in its `commandline` (`names.rs`) |
//! | scale | none: a constant, even scale is baked into the positions, any other refused |
//! | Y-up, front +z (the article, glTF) | id's Z-up, front +x: object space turned `(x, y, z) → (z, x, y)` |
//!
//! The weight position is seed 002's equation read backwards: the article stores the bind vertex
//! and one offset per joint; MD5 stores, per weight, the offset already applied to the bind
//! vertex. Written from one bind pose, every weight of a vertex agrees about where it is, so the
//! two formulas give the same mesh in every frame (`md5_import/agreement.rs` measures that).
//!
//! MD5 draws triangles only. The article's mesh is an outline, lines with no faces, so an edge
//! that is no triangle's side is written as a triangle with two corners on one vertex: it has no
//! area, and other MD5 viewers draw nothing there; this program draws its one edge, so the outline
//! comes back (`md5_import/vertices.rs`).

mod error;
mod frames;
mod joints;
mod names;
mod text;

pub use error::ExportError;
pub use frames::{FRAME_RATE, MAX_FRAMES};
pub use names::{clip_name_in, file_stem};

use crate::clip::Clip;
use crate::model::Model;
use crate::printable::printable;
use std::collections::HashSet;

/// The files: the mesh's text, and each clip's file stem and `.md5anim` text. A clip's file is
/// `STEM.md5anim` beside the mesh, its name made safe for a file name; the name itself is inside
/// (`names.rs`).
pub struct Md5Files {
    pub mesh: String,
    pub animations: Vec<(String, String)>,
}

/// The model as an `.md5mesh` and each of `clips` as an `.md5anim`.
pub fn export(model: &Model, clips: &[Clip]) -> Result<Md5Files, ExportError> {
    check_names(model, clips)?;
    let sampled = frames::sample(model, clips)?;
    let joints = joints::md5_joints(model, &sampled)?;
    let mesh = text::mesh(model, &joints)?;
    let mut taken = HashSet::new();
    let animations = (sampled.iter())
        .map(|clip| Ok((file_stem(&clip.name, &mut taken), text::anim(model, &joints, clip)?)))
        .collect::<Result<_, ExportError>>()?;
    Ok(Md5Files { mesh, animations })
}

/// Names go between double quotes, on one line: the bones', the meshes' and the clips'.
fn check_names(model: &Model, clips: &[Clip]) -> Result<(), ExportError> {
    let refuse =
        |what, name: &str, why| Err(ExportError::Name { what, name: printable(name).into_owned(), why });
    let unquotable = |name: &str| name.contains(['"', '\n', '\r']);
    for bone in model.skeleton.bones() {
        if unquotable(&bone.name) {
            return refuse(
                "bone",
                &bone.name,
                "holds a double quote or a line end, which an MD5 name cannot",
            );
        }
    }
    for part in &model.parts {
        if unquotable(&part.name) {
            return refuse(
                "mesh",
                &part.name,
                "holds a double quote or a line end, which an MD5 shader cannot",
            );
        }
    }
    for clip in clips {
        let name = clip.name.as_str();
        if unquotable(name) || name.chars().any(char::is_control) {
            return refuse(
                "clip",
                name,
                "holds a double quote, a line end or a control character, which the .md5anim that keeps \
                 its name cannot",
            );
        }
    }
    Ok(())
}
