//! What a dump says about root motion (`root_motion.rs`, chapter 17): for each frame, how the
//! travel plays (`"mode"`: `"on"` or `"in-place"`), the bone that carries the body (`"bone"`), and
//! the root's travel so far, `Cⁿ M(t) R₀⁻¹`: the carrying bone's place on the floor as `on` plays
//! it (`"offset"`, in the model's numbers, nothing along up), its turn about the up axis since the
//! start (`"heading"`, radians), and the two as one matrix (`"matrix"`, column-major). The
//! `in-place` frames carried by that matrix are the `on` frames.

use serde::Serialize;
use skinning_method::root_motion::RootMotion;

#[derive(Serialize)]
pub(super) struct RootOut {
    pub mode: &'static str,
    pub bone: usize,
    pub heading: f32,
    pub offset: [f32; 3],
    pub matrix: [f32; 16],
}

/// The travel as the frame left it.
pub(super) fn root_out(motion: &RootMotion) -> RootOut {
    let travel = motion.travel;
    RootOut {
        mode: motion.mode.name(),
        bone: motion.bone,
        heading: travel.heading,
        offset: travel.offset.to_array(),
        matrix: travel.to_mat4(motion.up).to_cols_array(),
    }
}
