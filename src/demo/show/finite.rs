//! The picture checks what the dump checks. A model's numbers may each be finite and still grow
//! past what 32-bit floats hold (about 3.4e38) in a frame: two morph targets of (0, 3e38, 0) at
//! weight 1 add up to infinity, so do `--morph NODE:TARGET=3e38` and an additive layer at 1e30.
//! `--dump` refuses to write such a frame (`skinning_formats::dump::Overflow`); drawn, it would be a picture
//! with parts missing or smeared across the screen, and no word why. So the window and `--headless`
//! check every frame before drawing it and refuse it with the dump's own line: [`overflow`].
//!
//! The pose (local and world transforms, palette, dual quaternions, morph weights) is checked as
//! the dump checks it. The blended points cost more: the GPU blends them where the CPU never sees
//! them, and the CPU's fast loop (`lanes.rs`) fuses multiplies and adds, so near the limit it can
//! round to a finite number where the dump's blend overflows. So a bound decides first ([`Bound`]):
//! a skinned position is a weighted mean of what each joint's palette matrix makes of the
//! (morphed) bind position, so it is no bigger than the largest matrix times the largest position.
//! Far below the limit (every real model, by thirty orders of magnitude) nothing can overflow, in
//! any blend. Near it, the frame is blended again by the dump's own functions, and checked as the
//! dump checks it; the picture then shows those numbers.

use super::state::Demo;
use crate::demo::cli::choices::Methods;
use glam::Mat4;
use skinning_fast::fast_path::FastPath;
use skinning_formats::dump::{Overflow, points_overflow, pose_overflow};
use skinning_method::frame::{Blending, Frame, Pose, Still};
use skinning_method::lbs_or_dqs::ByMethod;
use skinning_method::model::Model;

/// What a frame's blend can reach at most, from numbers that never change: the largest bind
/// coordinate, and how far each morph target can move a vertex.
pub struct Bound {
    /// The largest |x|, |y| or |z| of any bind position.
    bind: f64,
    /// For each of a frame's morph weights, the longest displacement of its target.
    reach: Vec<f64>,
}

/// How far below the floats' limit the bound must stay: a margin for what it leaves out (weights
/// that sum a little over 1, dual quaternions, which blend otherwise than matrices, rounding).
const MARGIN: f64 = 1024.0;

impl Bound {
    pub fn new(model: &Model) -> Bound {
        let largest = |p: glam::Vec3| p.abs().max_element() as f64;
        let bind = model.skin.bind_positions().map(largest).fold(0.0, f64::max);
        let reach = model.morphs.iter().flat_map(|m| (0..m.target_count()).map(|k| m.reach(k))).collect();
        Bound { bind, reach }
    }

    /// Whether no skinned position of this frame can overflow, from its palette and morph weights.
    fn holds(&self, palette: &[Mat4], weights: &[f32]) -> bool {
        // A row times (x, y, z, 1) is at most the sum of the row's |entries| times the largest of them.
        let row = |m: &Mat4| (0..4).map(|r| m.row(r).abs().element_sum() as f64).fold(0.0, f64::max);
        let matrix = palette.iter().map(row).fold(0.0, f64::max);
        let moved = weights.iter().zip(&self.reach).map(|(w, r)| f64::from(w.abs()) * r).sum::<f64>();
        let largest = matrix * (self.bind + moved).max(1.0);
        largest * MARGIN < f64::from(f32::MAX)
    }
}

/// The first number of `demo`'s frame, number `frame`, that is not finite, as the dump would
/// refuse it; None when the frame can be drawn. Call it after [`Demo::update`]; `bound` is the
/// model's.
pub fn overflow(demo: &mut Demo, bound: &Bound, frame: u64) -> Option<Overflow> {
    let method = demo.skinned.method;
    let (pose, skinner) = (&mut demo.pose, &mut demo.skinned.skinner);
    // The layer's skinner made this frame's dual quaternions whenever it draws by them.
    let dq = skinner.dq().filter(|_| method != Methods::Lbs);
    let what = pose_overflow(&demo.model, pose, dq).or_else(|| {
        if bound.holds(&pose.palette, &pose.morph.weights) {
            return None;
        }
        blend_as_the_dump_does(pose, skinner, &demo.model, method, demo.clock.time);
        let compared = skinner.compared().filter(|_| method == Methods::Both);
        points_overflow(&pose.skinned, "skinned position")
            .or_else(|| points_overflow(&pose.normals, "skinned normal"))
            .or_else(|| points_overflow(compared?, "DQS position"))
    })?;
    Some(Overflow { frame: Some((frame, demo.clock.time)), what })
}

/// This frame's skinned positions and normals by the readable loops the dump blends with (the
/// skinner's fast path with no lanes: the first method's into the pose, compare mode's DQS
/// positions into the skinner's own): the frame run again from the pose `Demo::update` left, as it
/// stands.
fn blend_as_the_dump_does(
    pose: &mut Pose,
    skinner: &mut ByMethod<FastPath>,
    model: &Model,
    method: Methods,
    time: f64,
) {
    (skinner.method, skinner.compare) = (method.first(), method == Methods::Both);
    let lanes = skinner.blender.lanes.take();
    let blending = Blending::Skin { by: &mut *skinner, normals: true };
    // The frame this one repeats took these palettes already (or gave way to linear blending).
    let _took_them_before = pose.run(model, Frame { blending, ..Frame::new(&Still, time) });
    skinner.blender.lanes = lanes;
}
