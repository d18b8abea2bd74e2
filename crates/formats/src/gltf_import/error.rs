//! What can be wrong with a glTF file, each said in one line with what to do about it.

use skinning_method::model::ModelError;
use skinning_method::printable::{printable, quoted};
use std::fmt;

/// Why a file could not be loaded. Every message names the thing that is wrong (file, buffer,
/// accessor, node, skin, mesh and vertex, animation), so it can be found in the file.
#[derive(Debug)]
pub enum ImportError {
    /// The file (or a buffer file next to it) cannot be read.
    Read { path: String, error: std::io::Error },
    /// The model's path is not a regular file: what it is instead (`a FIFO`, `a device`...).
    NotAFile(&'static str),
    /// Neither a `.glb` nor glTF JSON, or JSON that is not glTF.
    NotGltf(String),
    /// A `.glb` whose header or chunks are cut short or inconsistent.
    BadGlb(String),
    /// The JSON breaks a rule of the glTF schema: `place` is its path in the JSON.
    Invalid { place: String, problem: String },
    /// `extensionsRequired` names an extension this loader cannot decode: what it does, when
    /// it is one this program knows of (`KHR_meshopt_compression`, meshopt's newer form), else None.
    Unsupported { extension: String, what: Option<&'static str> },
    /// A buffer's bytes cannot be had, or are fewer than its `byteLength`.
    Buffer { buffer: usize, problem: String },
    /// A compressed stream (Draco, meshopt) that cannot be decoded, or would pass the model's
    /// budget of decoded bytes: `place` names it and its extension, `problem` says what to do.
    Compressed { place: String, problem: String },
    /// An accessor's data is out of range, of a type the use does not allow, or not finite.
    Accessor { accessor: usize, usage: String, problem: String },
    /// The node hierarchy is not a tree this program can walk.
    Node { node: String, problem: String },
    /// A skin cannot be used.
    Skin { skin: String, problem: String },
    /// One vertex's skin data (JOINTS_n / WEIGHTS_n) is unusable.
    Vertex { mesh: String, vertex: usize, problem: String },
    /// Something else about a mesh primitive.
    Mesh { mesh: String, problem: String },
    /// An animation channel cannot be played.
    Animation { animation: String, channel: usize, problem: String },
    /// The file has no node at all: no tree of bones, so nothing to show or describe. (A file
    /// with nodes but no mesh loads: `Imported::nothing_to_draw` says why it shows nothing.)
    NoNodes,
    /// The model would hold more than its budget once built (`budget.rs`: `Holding::check`).
    Budget(String),
    /// The loaded pieces do not fit together (a bug in the loader if it ever shows).
    Model(ModelError),
    /// A mesh's morph targets do not fit the model's vertices (`morph.rs`: `MorphTargets::new`
    /// says how; a bug in the loader too, if it ever shows).
    Morphs(String),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ImportError::Read { path, error } => write!(f, "cannot read {path} ({error}); check the path"),
            ImportError::Budget(why) => write!(f, "{why}"),
            ImportError::NotAFile(kind) => {
                write!(f, "it is {kind}, not a regular file; give a model file: .gltf, .glb or .md5mesh")
            }
            ImportError::NotGltf(detail) => {
                write!(
                    f,
                    "not a glTF 2.0 file ({detail}); give a .gltf (JSON) or .glb file, or an MD5 model's \
                     .md5mesh"
                )
            }
            ImportError::BadGlb(detail) => {
                write!(f, "the .glb file is damaged: {detail}; export or download it again")
            }
            ImportError::Invalid { place, problem } => write!(
                f,
                "the file breaks the glTF rules at {place}: {problem} (the Khronos glTF-Validator \
                 lists every problem)"
            ),
            ImportError::Unsupported { extension, what: Some(what) } => {
                let extension = printable(extension);
                write!(
                    f,
                    "the file needs {extension} ({what}), which this program does not decode; export it \
                 without {what}"
                )
            }
            ImportError::Unsupported { extension, what: None } => {
                let extension = printable(extension);
                write!(
                    f,
                    "the file needs the extension {extension}, which this program does not support; \
                 export it without {extension}"
                )
            }
            ImportError::Buffer { buffer, problem } => write!(f, "buffer {buffer}: {problem}"),
            ImportError::Compressed { place, problem } => write!(f, "{place}: {problem}"),
            ImportError::Accessor { accessor, usage, problem } => {
                write!(f, "accessor {accessor} ({usage}): {problem}; the file is damaged")
            }
            ImportError::Node { node, problem } => write!(f, "node {node}: {problem}"),
            ImportError::Skin { skin, problem } => write!(f, "skin {skin}: {problem}"),
            ImportError::Vertex { mesh, vertex, problem } => {
                write!(f, "mesh {mesh}, vertex {vertex}: {problem}; fix the weights in the file")
            }
            ImportError::Mesh { mesh, problem } => write!(f, "mesh {mesh}: {problem}"),
            ImportError::Animation { animation, channel, problem } => {
                write!(f, "animation {animation}, channel {channel}: {problem}")
            }
            ImportError::NoNodes => {
                write!(
                    f,
                    "the file has no nodes at all, so nothing to show; give a file with a mesh on a node"
                )
            }
            ImportError::Model(e) => write!(f, "the loaded model does not fit together: {e}"),
            ImportError::Morphs(why) => write!(f, "the loaded model does not fit together: {why}"),
        }
    }
}

impl std::error::Error for ImportError {}

impl From<ModelError> for ImportError {
    fn from(e: ModelError) -> Self {
        ImportError::Model(e)
    }
}

/// A glTF object in messages: its index, and its name in quotes if it has one (`#3 "Hips"`), made
/// printable (a name is the file's, and may hold anything).
pub fn label(index: usize, name: Option<&str>) -> String {
    match name {
        Some(name) if !name.is_empty() => format!("#{index} {}", quoted(name)),
        _ => format!("#{index}"),
    }
}

/// A count and its noun, singular for 1: `1 joint`, `0 joints`, `24 joints`.
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
