//! Why a model or its clips cannot be written as MD5, each said in one line naming the bone, mesh
//! or clip.

use std::fmt;

/// Why a model or its clips cannot be written as MD5.
#[derive(Clone, Debug, PartialEq)]
pub enum ExportError {
    /// A bone's scale cannot be baked: uneven, changing, or not the one it is bound at.
    Scale { bone: String, why: String },
    /// Two of the skin's joint slots on one bone have different offsets.
    BoundTwice { bone: String },
    /// A name MD5's quotes cannot hold.
    Name { what: &'static str, name: String, why: &'static str },
    /// A clip too long to write frame by frame: more than `max_frames` at `frame_rate` a second.
    TooLong { clip: String, duration: f32, max_frames: usize, frame_rate: u32 },
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
            ExportError::TooLong { clip, duration, max_frames, frame_rate } => write!(
                f,
                "clip {clip:?} lasts {duration} s: more than {max_frames} frames at {frame_rate} a second"
            ),
            ExportError::TriangleAcrossMeshes { mesh, corners } => {
                write!(f, "a triangle of mesh {mesh:?} has corners {corners:?} in another mesh")
            }
            ExportError::NotFinite(what) => write!(f, "{what} is not a finite number"),
        }
    }
}

impl std::error::Error for ExportError {}
