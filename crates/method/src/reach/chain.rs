//! A chain of bones that reaches: the joints from the chain's start down to its end, their world
//! transforms measured from the local pose, and a joint turned by a rotation given in the world.
//!
//! The solvers think in the world (where is the end, where is the target, which way must this joint
//! turn), but what they may change is each joint's local rotation in `Pose::local`: the palette is
//! made from that afterwards, in the frame's usual order. A chain therefore works out its own world
//! transforms from the local pose: each bone's local matrix is its `T * R * S` times its hand bend
//! made by the frame's own step 3 (`frame.rs`: `local_matrix`, so a bone bent by hand is measured
//! where it is drawn), and a bone's world is its parent's world times that, multiplied from the
//! root down in the same order as `Skeleton::compute_world`, so the chain's numbers are bit for bit
//! the pose's.
//!
//! Why not one `compute_world` pass over the whole skeleton first? Only the chain's ancestors
//! matter, and a second chain (the other hand) must see the first one's turns: measuring from
//! the local pose each time does both, with no buffer as long as the skeleton.
//!
//! Turning joint `i` by a world rotation `q` (about its own joint) is a change of its local
//! rotation: if the parent's world rotation is `P`, then `P * R' = q * P * R`, so
//! `R' = (P⁻¹ q P) * R`. That holds where the parents scale evenly (the same in x, y and z), as rigs
//! do; a parent squashed unevenly shears a turn, and no rotation of a child can undo that.

use crate::frame::local_matrix;
use crate::skeleton::{BoneId, Skeleton};
use crate::transform::Trs;
use glam::{Mat4, Quat, Vec3};
use std::fmt;

/// A chain: its bones from the skeleton's root down to the end, the last `turning + 1` of them the
/// chain itself, and their world transforms as last measured. Made once; measuring and turning
/// allocate nothing.
#[derive(Clone, Debug)]
pub struct Chain {
    /// Every bone from the root to the end, root first.
    path: Vec<BoneId>,
    /// Where the chain starts in `path`: the joints `path[start..]` are the chain, all but the last
    /// one turn.
    start: usize,
    /// The world transform of the start's parent (identity when the start is the root).
    above: Mat4,
    /// The world transform of each joint of the chain, start first.
    world: Vec<Mat4>,
}

/// Why a bone cannot end a chain of that many turning joints.
#[derive(Clone, Debug, PartialEq)]
pub struct TooShort {
    /// The bone asked to reach.
    pub end: String,
    /// How many joints above it were asked to turn.
    pub wanted: usize,
    /// The bones above it, its parent first.
    pub above: Vec<String>,
}

impl TooShort {
    /// The bones above the end, nearest first, as they are printed: `(bone2, bone1, root)`.
    pub fn names_above(&self) -> String {
        let names: Vec<_> = self.above.iter().map(|n| crate::printable::printable(n)).collect();
        format!("({})", names.join(", "))
    }
}

impl fmt::Display for TooShort {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let end = crate::printable::printable(&self.end);
        let wanted = self.wanted;
        match self.above.len() {
            0 => write!(f, "{end} is the root: no bone above it can turn to move it"),
            1 => write!(
                f,
                "a chain of {wanted} cannot end at {end}: it has 1 bone above it {}",
                self.names_above()
            ),
            n => write!(
                f,
                "a chain of {wanted} cannot end at {end}: it has {n} bones above it {}",
                self.names_above()
            ),
        }
    }
}

impl std::error::Error for TooShort {}

impl Chain {
    /// The chain ending at `end` whose `turning` joints above it (its parent, its grandparent...)
    /// turn to move it. At least one.
    pub fn new(skeleton: &Skeleton, end: BoneId, turning: usize) -> Result<Chain, TooShort> {
        let path = path_to(skeleton, end);
        let above = path.len() - 1;
        if turning == 0 || turning > above {
            let names = path[..above].iter().rev().map(|&b| skeleton.bone(b).name.clone()).collect();
            return Err(TooShort { end: skeleton.bone(end).name.clone(), wanted: turning, above: names });
        }
        let start = above - turning;
        Ok(Chain { path, start, above: Mat4::IDENTITY, world: vec![Mat4::IDENTITY; turning + 1] })
    }

    /// The chain's joints, start first, end last.
    pub fn bones(&self) -> &[BoneId] {
        &self.path[self.start..]
    }

    /// The bone that reaches.
    pub fn end(&self) -> BoneId {
        self.path[self.path.len() - 1]
    }

    /// How many joints turn: every joint of the chain but the end.
    pub fn turning(&self) -> usize {
        self.world.len() - 1
    }

    /// Measures the world transforms of the chain from the local pose `local` and the hand bends `bend`.
    pub fn measure(&mut self, local: &[Trs], bend: &[Quat]) {
        self.above = Mat4::IDENTITY;
        for &bone in &self.path[..self.start] {
            self.above *= local_matrix(local, bend, bone);
        }
        self.measure_from(0, local, bend);
    }

    /// Measures again from joint `i` down to the end, after joint `i` turned (those above it kept
    /// their places).
    pub fn measure_from(&mut self, i: usize, local: &[Trs], bend: &[Quat]) {
        for j in i..self.world.len() {
            let parent = if j == 0 { self.above } else { self.world[j - 1] };
            self.world[j] = parent * local_matrix(local, bend, self.path[self.start + j]);
        }
    }

    /// The world transform of the start's parent, as last measured (identity for the root).
    pub fn above(&self) -> Mat4 {
        self.above
    }

    /// The world transform of the start's parent in the skeleton's rest pose.
    pub fn rest_above(&self, skeleton: &Skeleton) -> Mat4 {
        let rest = |&bone: &BoneId| skeleton.bone(bone).rest.to_mat4();
        self.path[..self.start].iter().fold(Mat4::IDENTITY, |world, bone| world * rest(bone))
    }

    /// Where joint `i` of the chain is (0: the start; `turning()`: the end), as last measured.
    pub fn joint(&self, i: usize) -> Vec3 {
        self.world[i].w_axis.truncate()
    }

    /// The world transform of joint `i`, as last measured.
    pub fn world(&self, i: usize) -> Mat4 {
        self.world[i]
    }

    /// The sum of the chain's bone lengths, as last measured: the farthest the end can be from the start.
    pub fn length(&self) -> f32 {
        (0..self.turning()).map(|i| self.joint(i).distance(self.joint(i + 1))).sum()
    }

    /// Turns joint `i` about itself by `by`, a rotation in the world, by changing its local rotation
    /// in `local` (see the module's comment). Measure again from `i` before reading the joints below.
    pub fn turn(&self, i: usize, by: Quat, local: &mut [Trs]) {
        let parent = if i == 0 { self.above } else { self.world[i - 1] };
        let (_, parent_rotation, _) = parent.to_scale_rotation_translation();
        let rotation = &mut local[self.path[self.start + i]].rotation;
        *rotation = (parent_rotation.inverse() * by * parent_rotation * *rotation).normalize();
    }
}

/// The smallest turn that takes the direction of `from` to the direction of `to`, accurate for
/// small angles too (glam's `Quat::from_rotation_arc` gives no turn at all below about 0.04 degrees,
/// which would leave the end short of its target). Half a turn about any perpendicular axis when
/// they point opposite ways; none when either is zero. Any finite lengths will do (see [`unit()`]).
pub fn turn_between(from: Vec3, to: Vec3) -> Quat {
    let (Some(from), Some(to)) = (unit(from), unit(to)) else {
        return Quat::IDENTITY;
    };
    // A unit quaternion for the angle θ about the axis a is (a sin θ/2, cos θ/2); (from × to,
    // 1 + from · to) is that times 2 cos θ/2, so normalising it gives the turn.
    let w = 1.0 + from.dot(to);
    if w < 1e-6 {
        return Quat::from_axis_angle(from.any_orthonormal_vector(), std::f32::consts::PI);
    }
    let axis = from.cross(to);
    Quat::from_xyzw(axis.x, axis.y, axis.z, w).normalize()
}

/// `v` made one long, for any finite `v`; None for zero (or a number that is not finite).
///
/// `Vec3::normalize` squares the components first: from about 1.8e19 on, the square passes what
/// an `f32` holds (3.4e38), the length is infinite and the direction comes out zero, so a far
/// target would be no target at all. Dividing by the largest component first keeps every square
/// at most 1, and the direction is exact for a target at 1e20 as for one at 1.
pub fn unit(v: Vec3) -> Option<Vec3> {
    let largest = v.abs().max_element();
    if !(largest > 0.0 && largest.is_finite()) {
        return None;
    }
    (v / largest).try_normalize()
}

/// How far apart `a` and `b` are, worked out in `f64`: finite for any finite points, however far
/// (an `f32` distance overflows from about 1.8e19 on, for the same reason as in [`unit()`]).
pub fn distance(a: Vec3, b: Vec3) -> f64 {
    a.as_dvec3().distance(b.as_dvec3())
}

/// Where the joint of the last bone of `path` (every bone from the root down to it, root first) is,
/// measured from the local pose as a chain measures itself: for a pole that is a bone.
pub fn position(path: &[BoneId], local: &[Trs], bend: &[Quat]) -> Vec3 {
    let world = path.iter().fold(Mat4::IDENTITY, |world, &bone| world * local_matrix(local, bend, bone));
    world.w_axis.truncate()
}

/// Every bone from the skeleton's root down to `bone`, root first.
pub fn path_to(skeleton: &Skeleton, bone: BoneId) -> Vec<BoneId> {
    let mut path = vec![bone];
    while let Some(parent) = skeleton.bone(path[path.len() - 1]).parent {
        path.push(parent);
    }
    path.reverse();
    path
}
