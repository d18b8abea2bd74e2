//! Longer chains: cyclic coordinate descent (CCD), the solver of three.js's `CCDIKSolver`.
//!
//! A chain of more than two bones has many poses that put its end on the target, and no formula
//! picks one. CCD walks to one instead. One **sweep** visits the turning joints from the end's parent
//! up to the chain's start; each joint in turn makes the smallest turn that points the direction
//! joint → end at the target (joint → target). A joint near the end fixes a little, the start swings
//! the whole chain; the next sweep corrects what the last one left. Sweeps repeat until the end is
//! within a tolerance of the target, or a number of them has passed.
//!
//! Each turn only changes a direction, so the bone lengths stay as they are, and a target out of
//! reach ends with the chain stretched towards it. CCD has no pole: which way the elbows go comes out
//! of the clip's pose it starts from (each frame starts again from the clip's), and the joints near
//! the end tend to do most of the bending. Solvers with joint limits (three.js's has them) clamp
//! each joint after its turn; this one has none.

use super::chain::{Chain, distance, turn_between};
use crate::transform::Trs;
use glam::{Quat, Vec3};

/// The most sweeps a frame spends on one chain. Each sweep takes a share off the distance left, and
/// the nearer the target is to the chain's full stretch, the smaller that share: on a four-bone
/// chain, a target at 0.9 of its length took up to 69 sweeps to come within [`TOLERANCE`]
/// (`tests/reach.rs`).
pub const MAX_SWEEPS: usize = 100;

/// Stop once the end is this close to the target, as a fraction of the chain's length.
pub const TOLERANCE: f32 = 1e-5;

/// Solves `chain` so its end reaches `target`, sweeping until it is within [`TOLERANCE`] of the
/// chain's length or [`MAX_SWEEPS`] have passed. Returns where the end is and how many sweeps ran
/// (0 if it was there already); the chain is left measured in its new pose.
pub fn solve(chain: &mut Chain, local: &mut [Trs], bend: &[Quat], target: Vec3) -> (Vec3, usize) {
    chain.measure(local, bend);
    let close_enough = f64::from(TOLERANCE * chain.length());
    for sweeps in 0..MAX_SWEEPS {
        if distance(chain.joint(chain.turning()), target) <= close_enough {
            return (chain.joint(chain.turning()), sweeps);
        }
        sweep(chain, local, bend, target);
    }
    (chain.joint(chain.turning()), MAX_SWEEPS)
}

/// One sweep, from the end's parent up to the chain's start: each joint turns so the end points at
/// the target from it. The chain must be measured; it is left measured.
pub fn sweep(chain: &mut Chain, local: &mut [Trs], bend: &[Quat], target: Vec3) {
    let end = chain.turning();
    for i in (0..end).rev() {
        let joint = chain.joint(i);
        let turn = turn_between(chain.joint(end) - joint, target - joint);
        chain.turn(i, turn, local);
        chain.measure_from(i, local, bend);
    }
}
