//! Step 4 as the frame names it: a stage that gives the mesh this frame's shape ([`Reshape`]), the
//! positions and normals the blend reads beside the skin's influences. Without one, the blend
//! reads the skin's own shape, as it was modelled (`skin.rs`: `Skin::shape`).

use super::source::Source;
use crate::skin::{Shape, Skin};

/// Step 4 as the frame sees it: a later lesson that writes every vertex's position and normal for
/// this frame into streams of its own, from the skin's bind ones and what the frame's source gives
/// at its time, and hands the blend that shape. Morph targets (`morph.rs`, chapter 13) are the one
/// the book teaches; the frame runs whichever it is handed and names none. It never changes the
/// skin, and never touches the influences: a shape has nothing to do with them.
pub trait Reshape {
    /// This frame's shape of `skin`'s vertices, as `source` says at `time` (seconds since the
    /// animation started). Allocates nothing.
    fn reshape<'s>(&'s mut self, skin: &'s Skin, source: &dyn Source, time: f64) -> Shape<'s>;
}
