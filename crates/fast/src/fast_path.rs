//! The fast path as a frame's blender: the vector lanes (`lanes.rs`) on every core
//! (`parallel.rs`), chosen as data.
//!
//! A [`FastPath`] says which lanes blend (or none: the readable loop of `blend.rs`) and on which
//! threads. Whatever it says, every vertex comes out as the readable loop computes it, to a rounding
//! (the lanes sum the blended matrix first), and bit for bit the same on one thread or many. The
//! frame (`frame.rs`: `Pose::run`) takes it as its skinner, a [`Blender`] (`lbs_or_dqs.rs`: by
//! itself for LBS, in a `ByMethod` for either method); the program asks for it by name, and the
//! book's frame uses the readable loop.

use crate::lanes::Lanes;
use crate::parallel::BlendThreads;
use glam::Vec3A;
use skinning_method::blend::{Linear, blend_run};
use skinning_method::dual_quat::DualQuats;
use skinning_method::lbs_or_dqs::{Blender, Palette};
use skinning_method::normals::{BlendNormal, normals_run};
use skinning_method::skin::{Shape, Skin};
use std::ops::Range;

/// Which lanes and which threads blend.
pub struct FastPath {
    /// The lanes of the main loop, or None for the readable loop (`blend::blend_run`).
    pub lanes: Option<Lanes>,
    /// One thread, or a pool used from a size of skin on (`parallel.rs`).
    pub threads: BlendThreads,
}

impl FastPath {
    /// The widest lanes this processor has, on the calling thread alone.
    pub fn new() -> FastPath {
        FastPath { lanes: Some(Lanes::best()), threads: BlendThreads::one() }
    }

    /// The same lanes, on `threads`.
    pub fn on(self, threads: BlendThreads) -> FastPath {
        FastPath { threads, ..self }
    }

    /// One run of vertices, on this thread: the lanes' loop, or the readable one.
    fn blend_run(
        &self,
        skin: &Skin,
        shape: Shape,
        palette: Palette,
        vertices: Range<usize>,
        positions: &mut [Vec3A],
        normals: &mut [Vec3A],
    ) {
        match (self.lanes, palette) {
            (Some(lanes), palette) => lanes.blend_run(skin, shape, palette, vertices, positions, normals),
            (None, Palette::Lbs(palette)) => {
                readable_run(skin, shape, &Linear(palette), vertices, positions, normals)
            }
            (None, Palette::Dqs { joints, scale }) => {
                readable_run(skin, shape, &DualQuats { joints, scale }, vertices, positions, normals)
            }
        }
    }
}

/// The readable loops over one run: the positions (`blend::blend_run`), then the normals unless
/// `normals` is empty (`normals::normals_run`).
fn readable_run(
    skin: &Skin,
    shape: Shape,
    method: &impl BlendNormal,
    vertices: Range<usize>,
    positions: &mut [Vec3A],
    normals: &mut [Vec3A],
) {
    blend_run(skin, shape.positions, method, vertices.clone(), positions);
    if !normals.is_empty() {
        normals_run(skin, shape.normals, method, vertices, normals);
    }
}

impl Default for FastPath {
    fn default() -> Self {
        FastPath::new()
    }
}

impl Blender for FastPath {
    /// The whole skin, cut into runs on all threads if it is big enough (`BlendThreads::split`).
    fn blend(
        &self,
        skin: &Skin,
        shape: Shape,
        palette: Palette,
        positions: &mut [Vec3A],
        normals: &mut [Vec3A],
    ) {
        self.threads.split(skin.len(), positions, normals, |run, positions, normals| {
            self.blend_run(skin, shape, palette, run, positions, normals)
        });
    }
}
