//! A real model: a glTF 2.0 file, loaded into the same skeleton, skin and clips as the article's
//! scene, so the same `compute_world`, palette and `blend` move it.
//!
//! glTF is the Khronos Group's format for 3D scenes (the spec: "glTF 2.0 Specification", cited
//! below by section title). Its names map onto the article's like this:
//!
//! | glTF | the article, here | where (in `gltf_import/`) |
//! |---|---|---|
//! | node, its `children` | bone, `first_child` + `sibling` links | `nodes.rs` |
//! | node `translation` / `rotation` / `scale` (or `matrix`) | the bone's rest local transform ([`Trs`](skinning_method::transform::Trs)) | `nodes.rs` |
//! | more than one node without a parent (a scene's roots, or nodes no scene lists) | one synthetic root bone above them | `nodes.rs` |
//! | skin `joints` | joint slots ([`Joint`](skinning_method::skin::Joint)): a bone each | `skins.rs` |
//! | skin `inverseBindMatrices` | offsets, given by the file (identity if absent) | `skins.rs` |
//! | mesh `POSITION` on a skinned node | bind positions | `meshes.rs`, `primitives.rs` |
//! | mesh `NORMAL` | bind normals (none: flat normals) | `normals.rs` |
//! | mesh `TEXCOORD_0`, its material's base colour and texture | texture coordinates, carried unchanged; [`Materials`](crate::material::Materials) | `materials.rs`, `images.rs` |
//! | `JOINTS_n` / `WEIGHTS_n` | skin info: every (joint, weight) of every set, four in a vertex's slots | `weights.rs` |
//! | primitive `targets`, mesh (or node) `weights` | morph targets ([`MeshMorph`](skinning_method::morph::MeshMorph)): shapes added before the skin | `morphs.rs` |
//! | a mesh on a node without a skin | "joint animation": one joint, weight 1 | `meshes.rs`, `primitives.rs` |
//! | animation channel + sampler | a [`Track`](skinning_method::clip::Track)'s channel (`weights`: one per morph target) | `animations.rs` |
//! | buffer, buffer view, accessor | (storage: where the numbers are) | `buffers.rs`, `accessors.rs` |
//! | `KHR_draco_mesh_compression`, `EXT_meshopt_compression` | (storage, compressed: decoded first) | `draco.rs`, `meshopt.rs` |
//!
//! Two rules decide the most, and are where loaders most often go wrong: a joint's palette matrix
//! is `world(joint node) * inverseBindMatrix`, with `world` including every ancestor, joint or not
//! (spec, "Skins"); and the transform of the node that holds the skinned mesh is ignored (the joints
//! alone place the skin). Both fall out of the article's method as it is: every node is a bone, so
//! `compute_world` walks them all, and the skinned positions never pass through the mesh's node.
//!
//! Loading checks everything it reads: a damaged file is an [`ImportError`] naming what is wrong,
//! never a crash. That includes numbers each finite that multiply past what 32-bit floats hold: a
//! rest pose whose world transforms, palette or vertex positions overflow is refused, naming the
//! node, joint or vertex. What is tolerated (weights that do not quite sum to 1, damaged morph
//! targets, extensions that change only the looks) is said once, in [`Imported::notes`]; what the
//! file has that this program leaves unused (cameras, other texture coordinates, metal and
//! roughness...) is listed in [`Imported::unused`], for `--info` (`unused.rs`). A rule of the spec
//! that the schema check does not cover and the file breaks (`rules.rs`) is noted when the file
//! still reads one way, and refused when it reads two. Every `JOINTS_n` / `WEIGHTS_n` set is read,
//! and every influence blends (`weights.rs`); every morph target is read (`morphs.rs`).
//!
//! A file you did not write gets nothing it does not need: its first bytes are looked at before
//! the rest is read (`document.rs`, `glb.rs`), a buffer file must lie in the model's folder
//! (`buffers.rs`), every name it holds is made printable before it is shown, and what its objects
//! cost together is spent from one budget per model (`crate::budget`), however they point at each
//! other: images (`images.rs`), morph targets (`morphs.rs`), animation keys (`animations.rs`); and
//! what the model will hold once built, counted from the file before anything is (`cost.rs`).

mod accessors;
mod animations;
mod buffers;
mod cost;
mod document;
mod draco;
mod draco_values;
mod edges;
mod error;
mod files;
mod glb;
mod images;
mod materials;
mod meshes;
mod meshopt;
mod morphs;
mod nodes;
mod normals;
mod primitives;
mod rules;
mod skins;
mod unused;
mod weights;

pub use animations::REST;
pub use buffers::percent_decode;
pub use error::{ImportError, counted};
pub use nodes::SYNTHETIC_ROOT;
pub use skins::SkinSlots;

use crate::budget::{self, Budget};
use crate::material::Looks;
use crate::model_folder::Beside;
use skinning_method::clip::Clip;
use skinning_method::model::Model;
use skinning_method::morph::MorphTargets;
use skinning_method::printable::printable;
use std::path::{Path, PathBuf};

/// A loaded file: the model and its clips, plus what a learner may want to know about it.
#[derive(Clone, Debug)]
pub struct Imported {
    /// Bone `i` is node `i` (plus [`SYNTHETIC_ROOT`] last when more than one node has no parent). The
    /// skin's joint slots are every glTF skin's joints in turn (see [`Imported::skins`]), then one
    /// per rigid mesh; its vertices are the skinned meshes', then the rigid ones' (`model.parts`).
    pub model: Model,
    /// What its surface looks like: texture coordinates and materials.
    pub looks: Looks,
    /// One per animation, in file order; [`REST`] alone for a file without animations.
    pub clips: Vec<Clip>,
    /// The morph targets of its meshes that have them, each over its part's run of vertices
    /// (none for most), kept beside the model as the looks are (chapter 13).
    pub morphs: MorphTargets,
    /// Which joint slots each glTF skin became.
    pub skins: Vec<SkinSlots>,
    /// What was mended or ignored, one line each, to be said once.
    pub notes: Vec<String>,
    /// True when the file has no animation: `clips` is then [`REST`] alone, made here to show the
    /// nodes' rest pose.
    pub rest_only: bool,
    /// What the file has that this program does not use (cameras, TEXCOORD_1, normal maps...),
    /// one short phrase each, for `--info`.
    pub unused: Vec<String>,
    /// The files the model was read from, links followed: its own (loaded from a file), then
    /// those beside it that it names, its `.bin` buffers and its images (`files.rs`).
    pub files: Vec<PathBuf>,
    /// None, or why the shown scene has not one vertex to draw (no mesh in it), in one line that
    /// says what to do: such a file loads, for `--info`, but there is nothing to show.
    pub nothing_to_draw: Option<String>,
}

/// Loads a `.gltf` or `.glb` file; its external buffers' paths are relative to its folder.
///
/// Only a regular file (or a link to one) is read: a device such as `/dev/zero` never ends, and a
/// FIFO may never be written to, so either is refused before it is opened. Its first bytes are
/// looked at before the rest is read, and a `.glb` is read only as far as its header says
/// (`document.rs`, `glb.rs`).
pub fn load(path: &Path) -> Result<Imported, ImportError> {
    let name = printable(&path.display().to_string()).into_owned();
    let read_error = |error| ImportError::Read { path: name.clone(), error };
    let kind = std::fs::metadata(path).map_err(read_error)?.file_type();
    if !kind.is_file() {
        return Err(ImportError::NotAFile(file_kind(kind)));
    }
    let mut file = std::fs::File::open(path).map_err(read_error)?;
    let size = file.metadata().map_err(read_error)?.len();
    let mut notes = Vec::new();
    let checked = document::read(&mut std::io::BufReader::new(&mut file), size, &name, &mut notes)?;
    drop(file);
    let mut imported = finish(checked, path.parent().map_or(Beside::None, Beside::Folder), notes)?;
    imported.files.insert(0, path.canonicalize().unwrap_or_else(|_| path.to_path_buf()));
    Ok(imported)
}

/// What a path that is not a regular file is, for the message.
fn file_kind(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() { "a folder" } else { "a device, FIFO or socket" }
}

/// Loads a file already in memory. `base_dir` is where its external buffers are (None: it may
/// only use the `.glb` chunk and `data:` URIs).
pub fn load_from_slice(bytes: &[u8], base_dir: Option<&Path>) -> Result<Imported, ImportError> {
    load_beside(bytes, base_dir.map_or(Beside::None, Beside::Folder))
}

/// Loads a file already in memory whose other files (its `.bin` buffers, its images) are handed
/// over too, each by its path from the model's folder: what a web page fetched or was dropped. The
/// names its `uri`s give are looked up there, by the same rules as on disk (`model_folder.rs`).
pub fn load_with_files(bytes: &[u8], files: &[(String, Vec<u8>)]) -> Result<Imported, ImportError> {
    load_beside(bytes, Beside::Given(files))
}

/// A file in memory, its other files where `beside` says.
fn load_beside(bytes: &[u8], beside: Beside) -> Result<Imported, ImportError> {
    let mut notes = Vec::new();
    let checked = document::read(&mut std::io::Cursor::new(bytes), bytes.len() as u64, "memory", &mut notes)?;
    finish(checked, beside, notes)
}

/// `document` with its compressed data decoded into `buffers` (meshopt's buffer views, Draco's
/// primitives), within one budget of decoded bytes: from then on it reads as a plain file. A
/// document whose primitives Draco decoded is checked against the schema again.
fn decompressed(document: gltf::Document, buffers: &mut Vec<Vec<u8>>) -> Result<gltf::Document, ImportError> {
    let mut budget = Budget::new("bytes decoded from compressed meshes", budget::DECODED_BYTES);
    meshopt::decode(&document, buffers, &mut budget)?;
    if !draco::compressed(document.as_json()) {
        return Ok(document);
    }
    let mut root = document.into_json();
    draco::decode(&mut root, buffers, &mut budget)?;
    document::validated(root)
}

/// From a checked document to the model: the bytes every buffer points at, then the method's
/// pieces one by one.
fn finish(
    checked: document::Checked,
    beside: Beside,
    mut notes: Vec<String>,
) -> Result<Imported, ImportError> {
    let mut buffers = buffers::resolve(&checked.document, checked.blob, beside)?;
    let document = &decompressed(checked.document, &mut buffers)?;

    // Nodes are bones; skins are joint slots with offsets; meshes are the skin's vertices.
    let nodes = nodes::skeleton(document)?;
    // What the model will hold, counted before anything is built (`budget.rs`: `Holding`).
    let holding = cost::holding(document, nodes.shown_meshes(document));
    holding.check().map_err(ImportError::Budget)?;
    rules::check(document.as_json(), &nodes.skeleton, &mut notes)?;
    let used = skins::used(document, &nodes);
    notes.extend(skins::outside_scene(document, &nodes, &used));
    let (joints, skins) = skins::joint_slots(document, &buffers, &used)?;
    let meshes = meshes::meshes(document, &buffers, &nodes, joints, &skins, &mut notes)?;
    let clips = animations::clips(document, &buffers, &mut notes, &meshes.morphs)?;
    let rest_only = document.animations().len() == 0;
    let unused = unused::unused(document, &nodes);
    let looks = meshes.looks.finish(document, &buffers, beside, holding.pixels_left(), &mut notes);
    // A file that loads with nothing in its scene to draw: `--info` still describes it.
    let nothing_to_draw = meshes.skin.is_empty().then(|| meshes::nothing_to_draw(document, &nodes));

    let model = Model::new(nodes.skeleton, meshes.skin, meshes.edges)?
        .with_triangles(meshes.triangles)?
        .with_parts(meshes.parts)?;
    let morphs = MorphTargets::new(meshes.morphs, model.skin.len()).map_err(ImportError::Morphs)?;
    // The files on disk it was read from (an export never writes over them); none handed over.
    let files = files::named(document, if let Beside::Folder(dir) = beside { Some(dir) } else { None });
    Ok(Imported { model, looks, clips, morphs, skins, notes, rest_only, unused, files, nothing_to_draw })
}
