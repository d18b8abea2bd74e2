//! The two containers a glTF file comes in, who wrote it, and why a model cannot be written.

use std::fmt;
use std::path::Path;

/// Who wrote the file (glTF's `asset.generator`).
pub const GENERATOR: &str = concat!("skinning ", env!("CARGO_PKG_VERSION"));

/// The two ways to store a glTF file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    /// `.gltf`: JSON, the buffer embedded as base64: one file a person can read.
    Gltf,
    /// `.glb`: binary, the JSON and the buffer as two chunks.
    Glb,
}

impl Container {
    /// The container a file name asks for by its extension (`.gltf` or `.glb`, any case).
    pub fn for_path(path: &Path) -> Option<Container> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "gltf" => Some(Container::Gltf),
            "glb" => Some(Container::Glb),
            _ => None,
        }
    }
}

/// Why a model and its clips cannot be written as they would play.
#[derive(Clone, Debug, PartialEq)]
pub enum ExportError {
    /// A keyframed clip whose duration is not its last key: a glTF animation lasts until its last
    /// key, so it would loop at another time.
    Duration { clip: String, duration: f32, last_key: f32 },
    /// serde_json refused the JSON. It refuses nothing the structs in `json.rs` can hold (only maps
    /// with keys that are not strings); an error rather than a crash all the same.
    Json(String),
    /// Two joint slots on one bone, with different offsets, in the vertices of one mesh: a glTF
    /// skin lists a node once.
    BoundTwice { bone: String },
    /// A `.glb` past the 4 GiB its 32-bit lengths can say.
    TooBig(usize),
    /// Writing the file failed (into memory: only were the second pass to differ from the first).
    Write(String),
    /// The weight channels of one mesh with different key times or interpolations: a glTF
    /// `weights` channel keys every target together.
    WeightKeys { clip: String },
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ExportError::Duration { clip, duration, last_key } => write!(
                f,
                "clip {clip:?} lasts {duration} s but its last key is at {last_key} s; a glTF animation \
                 ends on its last key, so make them the same"
            ),
            ExportError::Json(e) => write!(f, "cannot write the glTF JSON: {e}"),
            ExportError::BoundTwice { bone } => write!(
                f,
                "bone {bone} is bound in two poses within one mesh (two joints on it with different \
                 offsets); a glTF skin lists each node once"
            ),
            ExportError::TooBig(bytes) => {
                write!(f, "the file would take {bytes} bytes, past the 4 GiB a .glb holds; write a .gltf")
            }
            ExportError::Write(e) => write!(f, "cannot write the glTF file: {e}"),
            ExportError::WeightKeys { clip } => write!(
                f,
                "clip {clip:?} keys the morph targets of one mesh at different times; a glTF weights \
                 channel keys every target of a mesh together"
            ),
        }
    }
}

impl std::error::Error for ExportError {}
