//! Why a model or its clips cannot be written as MD5, each said in one line naming the bone, mesh
//! or clip. Names are kept as the model has them and escaped once, where the line is written
//! ([`quoted`]).

use skinning_method::printable::quoted;
use std::{fmt, io};

/// Why a model or its clips cannot be written as MD5.
#[derive(Clone, Debug, PartialEq)]
pub enum ExportError {
    /// A bone's scale cannot be baked: uneven, changing, or not the one it is bound at.
    Scale { bone: String, why: String },
    /// Two of the skin's joint slots on one bone have different offsets.
    BoundTwice { bone: String },
    /// A clip too long to write frame by frame: more than `max_frames` at `frame_rate` a second.
    TooLong { clip: String, duration: f32, max_frames: usize, frame_rate: u32 },
    /// The clips together would be more joint poses (`frames` × `joints`) than `budget`.
    Budget { poses: usize, frames: usize, joints: usize, budget: usize },
    /// A triangle whose corners are in different parts.
    TriangleAcrossMeshes { mesh: String, corners: [u32; 3] },
    /// A number to write is infinite or NaN: what it belongs to (its names already quoted).
    NotFinite(String),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ExportError::Scale { bone, why } => write!(
                f,
                "bone {bone} cannot be written as MD5, which stores no scale: {why}; a scale that never \
                 changes is baked, the same on all three axes or on a bone with no joint below"
            ),
            ExportError::BoundTwice { bone } => write!(
                f,
                "bone {bone} is bound in two poses (two skins give it different offsets); MD5 binds a joint once"
            ),
            ExportError::TooLong { clip, duration, max_frames, frame_rate } => write!(
                f,
                "clip {} lasts {duration} s: more than {max_frames} frames at {frame_rate} a second",
                quoted(clip)
            ),
            ExportError::Budget { poses, frames, joints, budget } => write!(
                f,
                "the clips come to {poses} joint poses ({frames} frames of {joints} joints), past the MD5 \
                 export's budget of {budget} (frames x joints over every clip, up to 2 GB of text): \
                 shorten or remove clips before exporting"
            ),
            ExportError::TriangleAcrossMeshes { mesh, corners } => {
                write!(f, "a triangle of mesh {} has corners {corners:?} in another mesh", quoted(mesh))
            }
            ExportError::NotFinite(what) => write!(f, "{what} is not a finite number"),
        }
    }
}

impl std::error::Error for ExportError {}

impl ExportError {
    /// The export error inside `e`, where writing an `.md5anim` stopped at a number it could not
    /// write (`anim.rs` carries it in the writer's `io::Error`): the model is to blame, not the file.
    pub fn inside(e: &io::Error) -> Option<&ExportError> {
        e.get_ref()?.downcast_ref()
    }
}
