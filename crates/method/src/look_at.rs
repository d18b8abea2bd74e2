//! Looking at things: a head that turns to face a point, the bones above it sharing the turn.
//!
//! Reaching (`reach.rs`) puts a joint *somewhere*; looking points a direction *at* something. The
//! head has a **forward**, a direction in its own space (where its face points), and the question
//! is the turn that takes that forward onto the line from the head to the target. The head alone
//! could make all of it, but a person turns the neck and the chest too, each a little: ozz-animation's
//! look-at sample does it so, and so do we.
//!
//! The **chain** is the head and the bones above it (the neck, a spine bone or two), top first. Each
//! joint, from the top down, takes a **share** of the turn still left: with `n` joints, the top one
//! a `1/n`th of it, the next a `1/(n-1)`th of what is left then, and so on, until the head takes all
//! that is left. Each share is measured again from the pose as the joints above left it (the head
//! has moved with them), so the last turn, the head's, points its forward exactly at the target.
//!
//! A **limit** per joint (60° unless told) keeps a neck from turning round like an owl's: no joint
//! turns further than it from the pose the clip gave it. Past what the whole chain can turn, each
//! joint stops at its limit and the head looks as near the target as they allow.
//!
//! **Forward**: the model's front (`model/axes.rs`, glTF's +z) as the head stands in the rest pose,
//! carried into the head's own space ([`forward_at_rest`]), so a rig whose head bone points up the
//! neck (as Blender's do) still looks with its face. A rig whose face is another way gives its own.
//!
//! Like reaching, it changes only local **rotations**, after the clip and before the matrices (step
//! 2 of `frame.rs`), so the bones keep their lengths and everything after needs nothing new. It
//! runs as a kind of reach (`Solver::LookAt` in `reach.rs`), with a reach's weight.

use crate::reach::chain::{Chain, turn_between, unit};
use crate::skeleton::{BoneId, Skeleton};
use crate::transform::Trs;
use glam::{Mat4, Quat, Vec3};

/// The most each joint turns from the clip's pose unless told: far enough to look over a
/// shoulder with three joints, not so far that a neck turns right round.
pub const DEFAULT_LIMIT_DEGREES: f32 = 60.0;

/// How many joints look unless told: the head, the neck and one spine bone, where the bone tree has
/// them (ozz's sample turns the head and three spine bones).
pub const DEFAULT_JOINTS: usize = 3;

/// How a head looks: its forward, in its own space, and how far each joint may turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Look {
    /// The direction the face points, in the head bone's own space, one long.
    pub forward: Vec3,
    /// The most any joint of the chain turns from the clip's pose, in radians.
    pub limit: f32,
    /// How many joints turn: the head and the `joints - 1` bones above it. At least 2.
    pub joints: usize,
}

/// The model's `front` (a direction in the model's numbers) as seen from `head`'s own space in the
/// rest pose: the head's forward. None when the head's rest transform flattens it to nothing.
pub fn forward_at_rest(skeleton: &Skeleton, head: BoneId, front: Vec3) -> Option<Vec3> {
    let path = crate::reach::chain::path_to(skeleton, head);
    let rest = path.iter().fold(Mat4::IDENTITY, |world, &b| world * skeleton.bone(b).rest.to_mat4());
    unit(rest.inverse().transform_vector3(front))
}

/// Turns the joints of `chain` (every one, the top first, the head, its end, last) in `local` so the
/// head's forward points at `target`, each joint a share of what is left and no more than the
/// limit; `bend` is each bone's hand bend, which the turns are measured with. Returns the angle, in
/// radians, left between the forward and the target: 0 within the limits.
pub fn solve(chain: &mut Chain, local: &mut [Trs], bend: &[Quat], target: Vec3, look: Look) -> f32 {
    chain.measure(local, bend);
    let head = chain.turning();
    for joint in 0..=head {
        let (axis, angle) = still_to_turn(chain, look.forward, target).to_axis_angle();
        let share = (angle / (head + 1 - joint) as f32).min(look.limit);
        // Nothing to turn (the head faces the target already, or the target is at its joint):
        // the joint keeps the clip's rotation to the last bit.
        if share > 0.0 {
            chain.turn(joint, Quat::from_axis_angle(axis, share), local);
            chain.measure_from(joint, local, bend);
        }
    }
    off(chain, look.forward, target)
}

/// The angle, in radians, between the head's forward (as `chain` was last measured) and the line
/// from its joint to `target`: how far it still is from looking there.
pub fn off(chain: &Chain, forward: Vec3, target: Vec3) -> f32 {
    still_to_turn(chain, forward, target).to_axis_angle().1
}

/// The turn, in the world, that would take the head's forward (as the chain was last measured)
/// onto the line from the head's joint to `target`: none when the target is at the joint.
fn still_to_turn(chain: &Chain, forward: Vec3, target: Vec3) -> Quat {
    let head = chain.world(chain.turning());
    let facing = head.transform_vector3(forward);
    let wanted = target - chain.joint(chain.turning());
    // A turn of more than half a turn is the same as a shorter one the other way; q and -q are
    // the same turn, and the one with w ≥ 0 has the angle from 0 to π.
    let turn = turn_between(facing, wanted);
    if turn.w < 0.0 { -turn } else { turn }
}

#[cfg(test)]
mod tests;
