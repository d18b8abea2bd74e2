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
//! | triangles (counter-clockwise) | `tri`, clockwise; an edge that is no triangle's side: a flat `tri` |
//! | the model's parts | one `mesh` each, its name as the shader |
//! | a clip (keyframed or procedural) | `NAME.md5anim`: [`FRAME_RATE`] frames a second, each joint relative to its parent |
//! | scale | none: a constant, even scale is baked into the positions, any other refused |
//! | Y-up (the article, glTF) | Z-up, id's: object space turned `(x, y, z) → (x, -z, y)` |
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

mod frames;
mod joints;
mod text;

pub use frames::MAX_FRAMES;

use crate::clip::Clip;
use crate::model::Model;
use crate::printable::printable;
use std::collections::HashSet;
use std::fmt;

/// Frames per second of every exported clip: 120, the smallest rate whose frames fall on every key
/// of the clips this program knows. The Fox's keys are 1/24 s apart, but its Run's last eight are
/// 0.8 of a frame late (at 20.8/24 s...), which is 104/120 s; the article's `bend` and `twist` have
/// keys every 0.5 s. Frames on every key make the linear keys come back exactly: lerp between two
/// points of a lerp, and slerp between two points of a slerp along its arc, are the same motion. The
/// procedural `seed` is a sine: a straight line between frames `h` seconds apart strays from it by at
/// most `a w² h² / 8` (`gltf_export.rs`), 0.185 h² here, 1.3e-5 at 1/120 s. 24 frames a second (Doom
/// 3's own) would move the Run's late keys and leave the seed off by 3.2e-4.
pub const FRAME_RATE: u32 = 120;

/// The files: the mesh's text, and each clip's name and `.md5anim` text. A clip's file is
/// `NAME.md5anim` beside the mesh: the loader names a clip by its file's stem.
pub struct Md5Files {
    pub mesh: String,
    pub animations: Vec<(String, String)>,
}

/// Why a model or its clips cannot be written as MD5.
#[derive(Clone, Debug, PartialEq)]
pub enum ExportError {
    /// A bone's scale cannot be baked: uneven, changing, or not the one it is bound at.
    Scale { bone: String, why: String },
    /// Two of the skin's joint slots on one bone have different offsets.
    BoundTwice { bone: String },
    /// A name MD5's quotes cannot hold.
    Name { what: &'static str, name: String, why: &'static str },
    /// A clip too long to write frame by frame.
    TooLong { clip: String, duration: f32 },
    /// A triangle whose corners are in different parts.
    TriangleAcrossMeshes { mesh: String, corners: [u32; 3] },
    /// A number to write is infinite or NaN: what it belongs to.
    NotFinite(String),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ExportError::Scale { bone, why } => write!(
                f,
                "bone {bone} cannot be written as MD5, which stores no scale: {why}; an even scale that \
                 never changes is baked, any other cannot be"
            ),
            ExportError::BoundTwice { bone } => write!(
                f,
                "bone {bone} is bound in two poses (two skins give it different offsets); MD5 binds a joint once"
            ),
            ExportError::Name { what, name, why } => write!(f, "the {what} {name:?} {why}"),
            ExportError::TooLong { clip, duration } => write!(
                f,
                "clip {clip:?} lasts {duration} s: more than {MAX_FRAMES} frames at {FRAME_RATE} a second"
            ),
            ExportError::TriangleAcrossMeshes { mesh, corners } => {
                write!(f, "a triangle of mesh {mesh:?} has corners {corners:?} in another mesh")
            }
            ExportError::NotFinite(what) => write!(f, "{what} is not a finite number"),
        }
    }
}

impl std::error::Error for ExportError {}

/// The model as an `.md5mesh` and each of `clips` as an `.md5anim`.
pub fn export(model: &Model, clips: &[Clip]) -> Result<Md5Files, ExportError> {
    check_names(model, clips)?;
    let sampled = frames::sample(model, clips)?;
    let joints = joints::md5_joints(model, &sampled)?;
    let mesh = text::mesh(model, &joints)?;
    let animations = (sampled.iter())
        .map(|clip| Ok((clip.name.clone(), text::anim(model, &joints, clip)?)))
        .collect::<Result<_, ExportError>>()?;
    Ok(Md5Files { mesh, animations })
}

/// Names go between double quotes, on one line, and a clip's name is its file's name.
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
    let mut seen = HashSet::new();
    for clip in clips {
        let name = clip.name.as_str();
        if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\\', '\0']) {
            return refuse(
                "clip",
                name,
                "cannot be a file name (NAME.md5anim), which the loader takes it from",
            );
        }
        if name.chars().any(char::is_control) || name.len() > 200 {
            return refuse("clip", name, "makes a file name with control characters or too long");
        }
        if !seen.insert(name.to_lowercase()) {
            return refuse(
                "clip",
                name,
                "is the name of two clips (letter case aside); each needs a file of its own",
            );
        }
    }
    Ok(())
}

/// The edges no triangle has as a side, each as a flat triangle `[a, b, b]`, so MD5, which has
/// only triangles, keeps them.
fn lonely_edges(model: &Model) -> Vec<[u32; 3]> {
    let sides: HashSet<[u32; 2]> = (model.triangles.iter())
        .flat_map(|&[a, b, c]| [[a, b], [b, c], [c, a]])
        .map(|[a, b]| [a.min(b), a.max(b)])
        .collect();
    (model.edges.iter())
        .filter(|e| !sides.contains(&[e[0].min(e[1]), e[0].max(e[1])]))
        .map(|&[a, b]| [a, b, b])
        .collect()
}
