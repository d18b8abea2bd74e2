//! What the renderer is asked to draw in one frame ([`Scene`]): the demo fills it in
//! (`show/state.rs`: `Demo::scene`), the renderer only reads it.

use crate::demo::show::skinned::Layers;
use crate::demo::words::labels::Words;
use glam::{Mat4, Vec3, Vec3A};
use skinning_fast::crowd::Character;
use skinning_method::inspect::Inspection;

/// What to draw this frame.
pub struct Scene<'a> {
    pub view_projection: Mat4,
    /// Where the camera is, in the model's own numbers: the light of the lit surface.
    pub eye: Vec3,
    pub point_size: f32,
    pub bind: bool,
    /// The skinned mesh: on the CPU, the GPU or both, by one method or both.
    pub skinned: Layers<'a>,
    /// `--crowd`'s other characters (`show/crowd.rs`), drawn as the skinned layer, each moved to its
    /// place: their CPU-blended positions where the CPU draws, their palettes where the GPU does.
    pub crowd: &'a [Character],
    /// The first skinned layer as a lit surface, not lines.
    pub surface: bool,
    /// The normals layer's endpoints, two per line, if it is shown.
    pub normal_lines: Option<&'a [Vec3A]>,
    pub bones: Option<&'a [Vec3]>,
    /// Reaching's targets and poles, four points per chain (`show/reach.rs`), in reach mode.
    pub reach: Option<&'a [Vec3]>,
    /// The floor's grid under a body that travels (`--root-motion on`, `show/root_motion.rs`), or
    /// the ground's lines with `--ground`: two ends per line.
    pub floor: Option<&'a [Vec3]>,
    /// A bone's trail, oldest first (`show/trail.rs`), with `--trail`.
    pub trail: Option<&'a [Vec3]>,
    /// The vertex inspector's numbers, if a vertex is selected.
    pub inspection: Option<Inspection>,
    /// The words on the picture; None with `--no-text`.
    pub words: Option<Words<'a>>,
}
