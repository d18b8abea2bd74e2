//! Seed 002's own system: an id Software MD5 model (Doom 3), loaded into the same skeleton, skin and
//! clips as the article's scene and a glTF file, so the same `compute_world`, palette and `blend`
//! move it.
//!
//! MD5 is two kinds of text file: a `.md5mesh` with the skeleton in its bind pose and the meshes,
//! and one `.md5anim` per animation (article 002 describes the format; chapter 10 prints a whole model). Its names
//! map onto the article's like this:
//!
//! | MD5 | the article, here | where (in `md5_import/`) |
//! |---|---|---|
//! | joint, its parent index | bone, `first_child` + `sibling` links | `joints.rs` |
//! | md5mesh joint (object space, bind pose) | bind-pose world; rest local = parent world⁻¹ · world; offset by `compute_offsets` | `joints.rs` |
//! | several roots (parent -1) | one synthetic root bone above them | `joints.rs` |
//! | vertex → its run of weights | bind position = Σ bias · (joint ⊗ weight position), computed once | `vertices.rs` |
//! | weight: joint, bias | influence: joint, weight (every one; past four, the skin's extras) | `vertices.rs` |
//! | weight position (in the joint's space) | `offset · bind`, the same thing stored per weight | `agreement.rs` |
//! | tri (clockwise) | a triangle, counter-clockwise | `vertices.rs` |
//! | vert's `( s t )` | the vertex's texture coordinates, as they are | `mesh_file.rs` |
//! | (no normals) | smooth normals from the bind pose's triangles, as id Tech 4 makes them | `normals/smooth.rs` |
//! | `.md5anim` beside the mesh, by file name | a clip, named by the file's stem (or the name this program keeps in its `commandline`) | `folder.rs` |
//! | hierarchy, baseframe, flags, frames | a [`Track`](skinning_method::clip::Track) per joint: keys at k / frameRate | `clips.rs` |
//! | text: tokens, quotes, comments, counts | (storage) | `tokens.rs`, `mesh_file.rs`, `anim_file.rs` |
//!
//! The lesson MD5 carries that glTF and the article cannot: **MD5 stores no bind-pose vertex and
//! no offset.** Each weight keeps its own position, already in its joint's space: the offset
//! applied ahead of time, per weight (article 002's two formulas,
//! quoted in chapter 10; `agreement.rs` says why they agree and measures it).
//!
//! id's tools are Z-up and face a character along +x; Blender's MD5 files are Z-up and face -y.
//! The numbers are kept as the file has them; the model's [`Axes`] say up is +z and the front is
//! what its feet say (`front.rs`), so only the camera and the exports turn. A damaged file is an
//! [`Md5Error`] naming its line, never a
//! crash; an animation whose joints are not the mesh's is skipped, said once in
//! [`Imported::notes`].

mod agreement;
mod anim_file;
mod clips;
mod error;
mod folder;
mod front;
mod joints;
mod mesh_file;
mod pictures;
mod shaders;
mod tokens;
mod vertices;

pub use agreement::{Spread, WeightTable, offset_times_bind, spread};
pub use error::Md5Error;
pub use front::{CLEAR, FEET, Front};
pub use joints::SYNTHETIC_ROOT;
pub use mesh_file::FileWeight as Weight;
use pictures::Pictures;
pub use vertices::StoredWeights;

use crate::material::Looks;
use crate::md5_export::{COMMAND_LINE, clip_name_in};
use skinning_method::clip::{Clip, Motion};
use skinning_method::model::{Axes, Axis, Model};
use skinning_method::normals::smooth_normals;
use skinning_method::printable::printable;
use std::path::{Path, PathBuf};

/// The name of the clip that shows the mesh as the `.md5mesh` stores it: the bind pose (unless an
/// `.md5anim` has that name).
pub const REST: &str = "rest";

/// A loaded MD5 model: the model and its clips, plus what `--info` and the inspector tell about it.
#[derive(Clone, Debug)]
pub struct Imported {
    /// Bone `i` is joint `i` (plus [`SYNTHETIC_ROOT`] last when the file has several roots);
    /// skin joint `i` is bone `i`. The vertices are the meshes', mesh after mesh, in file order.
    pub model: Model,
    /// What its surface looks like: the texture coordinates (MD5 names a shader, not a material).
    pub looks: Looks,
    /// One per animation that fits, in file name order, then [`REST`], the bind pose, unless an
    /// animation is called that.
    pub clips: Vec<Clip>,
    /// The file's own weights, each in its joint's space, vertex by vertex.
    pub stored: StoredWeights,
    /// Each mesh, in file order.
    pub meshes: Vec<MeshSummary>,
    /// Each animation that fits, in the order of `clips`.
    pub animations: Vec<AnimSummary>,
    /// What was mended or skipped, one line each, to be said once.
    pub notes: Vec<String>,
    /// The files the model was read from, links followed (loaded from files): the `.md5mesh`,
    /// then each `.md5anim` beside it that was read, whether it fitted or not.
    pub files: Vec<PathBuf>,
    /// Which way it faces, found from its feet (`front.rs`): the front of `model.axes`.
    pub front: Front,
}

/// One `mesh { }` block, counted.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshSummary {
    /// Its shader, which names the mesh here (`mesh0`, `mesh1`... without one).
    pub name: String,
    pub vertices: usize,
    pub triangles: usize,
    pub weights: usize,
    /// The most weights one of its vertices has.
    pub most_weights: usize,
    /// Whether its shader gave it a material: a picture found, or a colour.
    pub drawn: bool,
}

/// One animation, counted.
#[derive(Clone, Debug, PartialEq)]
pub struct AnimSummary {
    pub name: String,
    pub frames: usize,
    pub frame_rate: u32,
    /// Numbers per frame: the components its joints' flags replace.
    pub components: usize,
}

/// Loads a `.md5mesh` and the `.md5anim` files beside it (`folder.rs`).
///
/// Only a regular file (or a link to one) is read, as for glTF: a device never ends, a FIFO may
/// never be written to.
pub fn load(path: &Path) -> Result<Imported, Md5Error> {
    // What is left of the budget of the model's files' bytes (`budget::MD5_BYTES`).
    let mut left = crate::budget::MD5_BYTES;
    let mesh = read_within(path, &mut left)?;
    let mut notes = Vec::new();
    let mut animations = Vec::new();
    let mut files = vec![path.canonicalize().unwrap_or_else(|_| path.to_path_buf())];
    for (stem, file) in folder::animation_files(path, &mut notes) {
        match read_within(&file, &mut left) {
            Ok(bytes) => animations.push((stem, bytes)),
            Err(e) => notes.push(format!("skipped the animation {}.md5anim: {e}", printable(&stem))),
        }
        files.push(file);
    }
    let texts: Vec<(&str, std::borrow::Cow<str>)> =
        animations.iter().map(|(stem, bytes)| (stem.as_str(), String::from_utf8_lossy(bytes))).collect();
    let texts: Vec<(&str, &str)> = texts.iter().map(|(stem, text)| (*stem, text.as_ref())).collect();
    let folder = Pictures::Folder(path.parent().unwrap_or(Path::new("")));
    let mut imported = load_texts(&String::from_utf8_lossy(&mesh), &texts, folder, notes)?;
    files.append(&mut imported.files);
    Ok(Imported { files, ..imported })
}

/// The bytes of the regular file `path`, if its size, looked at before a byte is read, is within
/// what is `left` of the model's budget (`budget::MD5_BYTES`), which it then spends.
fn read_within(path: &Path, left: &mut u64) -> Result<Vec<u8>, Md5Error> {
    use std::io::Read;
    let read_error = |error| Md5Error::Read { path: path.display().to_string(), error };
    let meta = std::fs::metadata(path).map_err(read_error)?;
    if !meta.is_file() {
        return Err(Md5Error::NotAFile("a folder, a device, a FIFO or a socket"));
    }
    if meta.len() > *left {
        return Err(Md5Error::File(format!(
            "the file is {} bytes, past what is left of the model's budget of {} bytes for its MD5 files \
             ({} left); not read",
            meta.len(),
            crate::budget::MD5_BYTES,
            *left
        )));
    }
    *left -= meta.len();
    // No more than was counted, should the file grow meanwhile.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    let file = std::fs::File::open(path).map_err(read_error)?;
    file.take(meta.len()).read_to_end(&mut bytes).map_err(read_error)?;
    Ok(bytes)
}

/// Loads a model from the text of its `.md5mesh` and its animations' (each a name and a text, in
/// the order their clips take), as [`load`] does from files, but no picture its shaders name.
pub fn load_from_str(mesh: &str, animations: &[(&str, &str)]) -> Result<Imported, Md5Error> {
    load_texts(mesh, animations, Pictures::None, Vec::new())
}

/// [`load_from_str`], with the pictures its shaders name handed over by name (paths from the
/// model's folder, as [`pictures_named`] gives them): what a web page fetched beside the model.
pub fn load_with_pictures(
    mesh: &str,
    animations: &[(&str, &str)],
    pictures: &[(String, Vec<u8>)],
) -> Result<Imported, Md5Error> {
    load_texts(mesh, animations, Pictures::Given(pictures), Vec::new())
}

/// The names of the pictures the `.md5mesh` text `mesh` names in its shaders, as paths from the
/// model's folder (none for a file that does not read).
pub fn pictures_named(mesh: &str) -> Vec<String> {
    let Ok(file) = mesh_file::parse(mesh) else { return Vec::new() };
    let shaders: Vec<&str> = file.meshes.iter().map(|m| m.shader).collect();
    shaders::named(&shaders)
}

/// The model from its texts, the pictures its shaders name from `pictures`.
fn load_texts(
    mesh: &str,
    animations: &[(&str, &str)],
    pictures: Pictures,
    mut notes: Vec<String>,
) -> Result<Imported, Md5Error> {
    // The bind pose becomes the bones and the offsets; the weights, the skin's vertices.
    let file = mesh_file::parse(mesh)?;
    let bones = joints::bones(&file.joints)?;
    let vertices = vertices::vertices(&file, bones.joints, &mut notes)?;
    let mut model = Model::new(bones.skeleton, vertices.skin, vertices.edges)?
        .with_triangles(vertices.triangles)?
        .with_parts(vertices.parts)?;
    // The shaders, as materials: pictures beside the model, or colours (`shaders.rs`).
    let shaders: Vec<&str> = file.meshes.iter().map(|m| m.shader).collect();
    let found = shaders::materials(&shaders, &vertices.triangle_runs, pictures, &mut notes);
    let (read, drawn) = (found.files, found.drawn);
    let looks = Looks { texcoords: vertices.texcoords, materials: found.materials };
    smooth_normals_for(&mut model, &mut notes);

    // Each animation that describes the same joints becomes a clip.
    let mut clips = Vec::with_capacity(animations.len() + 1);
    let mut summaries = Vec::with_capacity(animations.len());
    for &(name, text) in animations {
        let damaged = |error| Md5Error::Animation { file: format!("{name}.md5anim"), error: Box::new(error) };
        let anim = anim_file::parse(text).map_err(damaged)?;
        if let Err(why) = clips::fits(&file.joints, &anim) {
            notes.push(format!("skipped the animation {}.md5anim: {why}", printable(name)));
            continue;
        }
        // The clip's own name, where this program wrote the file (its file name was made safe),
        // else the file's. It is printed and drawn: escaped once, here.
        let own = anim.commandline.and_then(clip_name_in).filter(|n| !n.is_empty());
        let name = printable(own.unwrap_or(name));
        clips.push(clips::clip(&name, &anim).map_err(|problem| damaged(Md5Error::File(problem)))?);
        summaries.push(AnimSummary {
            name: name.into_owned(),
            frames: anim.frame_count,
            frame_rate: anim.frame_rate,
            components: anim.components,
        });
    }
    // The bind pose, unless an animation has the name already (one this program wrote for a
    // model with no clips, of the rest pose it showed).
    if !clips.iter().any(|c| c.name == REST) {
        clips.push(Clip { name: REST.into(), duration: 0.0, motion: Motion::Keyframes(Vec::new()) });
    }

    // Up is +z; the front is +x in a file this program wrote, else what the feet say as the first
    // clip plays, else in the bind pose, else id's +x (`front.rs`).
    let own = clips.first().filter(|_| !summaries.is_empty());
    let front = match file.commandline.is_some_and(|c| c.starts_with(COMMAND_LINE)) {
        true => front::written_here(),
        false => front::played(front::front(&file.joints), &file.joints, &model, own),
    };
    model.axes = Axes::new(Axis::PosZ, front.axis).unwrap_or(Axes::ID);
    notes.extend(front.note());
    let meshes = mesh_summaries(&file, &model, &drawn);
    Ok(Imported {
        model,
        looks,
        clips,
        stored: vertices.stored,
        meshes,
        animations: summaries,
        notes,
        files: read,
        front,
    })
}

/// What `--info` says of each of the file's meshes, under the name its part has in `model`.
fn mesh_summaries(file: &mesh_file::MeshFile<'_>, model: &Model, drawn: &[bool]) -> Vec<MeshSummary> {
    (file.meshes.iter().zip(&model.parts).zip(drawn))
        .map(|((mesh, part), &drawn)| MeshSummary {
            name: part.name.clone(),
            drawn,
            vertices: mesh.verts.len(),
            triangles: mesh.tris.len(),
            weights: mesh.weights.len(),
            most_weights: mesh.verts.iter().map(|run| run.len()).max().unwrap_or(0),
        })
        .collect()
}

/// MD5 stores no normals: each vertex gets the smooth normal id Tech 4 works out from the bind
/// pose's triangles (`normals/smooth.rs`), to be skinned by the rule. A model without triangles
/// keeps none (its edges are lines); a vertex on no triangle faces +z, up, as it is never lit.
fn smooth_normals_for(model: &mut Model, notes: &mut Vec<String>) {
    if model.triangles.is_empty() {
        return;
    }
    let positions: Vec<glam::Vec3> = model.skin.bind_positions().collect();
    let normals: Vec<glam::Vec3> = smooth_normals(&positions, &model.triangles)
        .into_iter()
        .map(|n| if n == glam::Vec3::ZERO { glam::Vec3::Z } else { n })
        .collect();
    if let Err(e) = model.skin.set_normals(&normals) {
        notes.push(format!("vertex {}'s smooth normal: {}; lit with flat normals", e.vertex, e.problem));
    }
}
