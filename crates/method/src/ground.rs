//! Feet on the ground: a walk made on a flat floor, played on a slope or on steps.
//!
//! A clip's feet stand on the floor it was made on: the plane through the model's origin, across
//! its up axis. Anywhere else they float over it or sink into it. ozz-animation's foot IK sample
//! fixes that in four moves, and so does this lesson, after the clip and before the matrices:
//!
//! 1. **Find the ground under each foot**: straight down (along the model's up) from the ankle,
//!    the height of the [`Ground`] there and its normal. The ankle's target is that point, the
//!    ankle's height over its sole (as the rest pose stands on the floor) out along the normal,
//!    and as high again as the clip lifts the foot: a foot in the air stays in the air. A foot
//!    less than [`PLANTED`] of its leg's length above the clip's floor is **planted**: its sole goes
//!    onto the ground exactly.
//! 2. **Lower the hips** as little as lets both legs reach: for each leg the least drop that brings
//!    its target within the leg's length of the hip (a quadratic in the drop), and the larger of
//!    the two. A foot on lower ground needs it; a foot on higher ground only bends its knee more.
//! 3. **Each leg reaches** for its target by the two-bone solver of `reach/two_bone.rs`, its knee
//!    bending the way the clip bends it (a straight leg: forward, `reach/bend_rule.rs`).
//! 4. **Each ankle turns** by the turn that takes the up axis onto the ground's normal, so the sole
//!    lies along a slope.
//!
//! Only the hips' translation and the legs' rotations change: the bones keep their lengths, and
//! what comes after needs nothing new. The frame runs it in its step 2 as a kind of reach
//! (`Solver::Ground` in `reach.rs`, made by `Reach::feet`), so this file uses the reaching
//! lesson's pieces (a leg is a `Chain`) and not `reach.rs` itself.

use crate::frame::local_matrix;
use crate::reach::bend_rule::{self, Facing};
use crate::reach::chain::{Chain, TooShort, path_to, position, turn_between};
use crate::reach::two_bone;
use crate::skeleton::{BoneId, Skeleton};
use crate::transform::Trs;
use glam::{Mat4, Quat, Vec3};

/// A foot less than this fraction of its leg's length above the clip's floor is planted.
pub const PLANTED: f32 = 0.02;

/// The ground's shape, in the model's units: the clip's floor is `Flat`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    Flat,
    /// Rising towards the model's front by this many degrees (-90 to 90, not either).
    Slope {
        degrees: f32,
    },
    /// Stairs rising towards the model's front: each step `height` high and `depth` deep, the one
    /// at the origin level with the clip's floor, from half a step behind it to half a step ahead
    /// (so feet standing across the origin stand on one step, not on an edge).
    Steps {
        height: f32,
        depth: f32,
    },
}

/// The ground: a shape, stood on along the model's up, rising towards its front.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ground {
    pub shape: Shape,
    pub facing: Facing,
}

impl Ground {
    /// The ground's height, along up, at the place of `p` (its height along up left out).
    pub fn height(&self, p: Vec3) -> f32 {
        let ahead = p.dot(self.facing.front);
        match self.shape {
            Shape::Flat => 0.0,
            Shape::Slope { degrees } => ahead * degrees.to_radians().tan(),
            Shape::Steps { height, depth } => height * (ahead / depth + 0.5).floor(),
        }
    }

    /// The ground's normal at the place of `_at`, one long: up, tipped back on a slope. The same
    /// everywhere on these shapes (a step's edge counts as its top); a terrain's would vary.
    pub fn normal(&self, _at: Vec3) -> Vec3 {
        match self.shape {
            Shape::Slope { degrees } => {
                let (sin, cos) = degrees.to_radians().sin_cos();
                (self.facing.up * cos - self.facing.front * sin).normalize()
            }
            _ => self.facing.up,
        }
    }

    /// The point of the ground straight under (or over) `p`.
    pub fn under(&self, p: Vec3) -> Vec3 {
        let up = self.facing.up;
        p - up * p.dot(up) + up * self.height(p)
    }
}

/// One leg: the two-bone chain from the hip to the ankle, and the ankle's height over its sole.
#[derive(Clone, Debug)]
struct Leg {
    chain: Chain,
    /// The model's up and front in the space of the leg's parent bone, for the default bend.
    facing: Facing,
    target: Vec3,
    ankle_path: Vec<BoneId>,
    hip_path: Vec<BoneId>,
    ankle_height: f32,
    length: f32,
}

/// Two feet (or more) standing on a ground, and the hips they hang from.
#[derive(Clone, Debug)]
pub struct Feet {
    pub ground: Ground,
    legs: Vec<Leg>,
    hips_path: Vec<BoneId>,
    /// What the last solve did.
    pub stood: Stood,
}

/// What the last solve did: how far the hips came down, and each sole's height over the ground
/// (0 for a planted foot that reached) with whether the foot was planted.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stood {
    pub lowered: f32,
    pub soles: Vec<(f32, bool)>,
}

impl Feet {
    /// The feet whose ankles are `ankles`, each the end of a leg of two bones, under `hips` (the
    /// bone whose translation carries the body), on `ground`. The ankles' heights over their soles
    /// are their heights over the floor in the rest pose.
    pub fn new(
        skeleton: &Skeleton,
        hips: BoneId,
        ankles: &[BoneId],
        ground: Ground,
    ) -> Result<Feet, TooShort> {
        let rest = skeleton.rest_world();
        let mut legs = Vec::with_capacity(ankles.len());
        for &ankle in ankles {
            let chain = Chain::new(skeleton, ankle, 2)?;
            let facing = ground.facing.into_space(chain.rest_above(skeleton));
            let [hip, knee, _] = [0, 1, 2].map(|i| chain.bones()[i]);
            let at = |b: BoneId| rest[b].w_axis.truncate();
            let length = at(hip).distance(at(knee)) + at(knee).distance(at(ankle));
            let ankle_height = at(ankle).dot(ground.facing.up);
            let (ankle_path, hip_path) = (path_to(skeleton, ankle), path_to(skeleton, hip));
            legs.push(Leg { chain, facing, target: Vec3::ZERO, ankle_path, hip_path, ankle_height, length });
        }
        Ok(Feet { ground, legs, hips_path: path_to(skeleton, hips), stood: Stood::default() })
    }

    /// Stands the feet on the ground in `local` (the clip's pose), `bend` being the hand bends; what
    /// it did is kept in [`Feet::stood`] too.
    pub fn solve(&mut self, local: &mut [Trs], bend: &[Quat]) -> Stood {
        let up = self.ground.facing.up;
        // 1. Each ankle's target.
        let mut planted = Vec::with_capacity(self.legs.len());
        let mut lowered: f32 = 0.0;
        for leg in &mut self.legs {
            let ankle = position(&leg.ankle_path, local, bend);
            let lift = ankle.dot(up) - leg.ankle_height;
            let above = (lift - PLANTED * leg.length).max(0.0);
            planted.push(above == 0.0);
            let ground = self.ground.under(ankle);
            leg.target = ground + self.ground.normal(ankle) * leg.ankle_height + up * above;
            // 2. The least drop of the hips that lets this leg reach.
            let hip = position(&leg.hip_path, local, bend);
            lowered = lowered.max(drop_to_reach(leg.target - hip, up, leg.length));
        }
        // 2. The hips come down, in their parent's space.
        if lowered > 0.0 {
            let hips = self.hips_path[self.hips_path.len() - 1];
            let parent = self.hips_path[..self.hips_path.len() - 1]
                .iter()
                .fold(Mat4::IDENTITY, |world, &b| world * local_matrix(local, bend, b));
            local[hips].translation += parent.inverse().transform_vector3(-up * lowered);
        }
        // 3. Each leg reaches; 4. its ankle turns to the ground.
        let mut soles = Vec::with_capacity(self.legs.len());
        for (leg, planted) in self.legs.iter_mut().zip(planted) {
            let pole = bend_rule::pole(&mut leg.chain, local, bend, leg.facing).map(|(_, pole)| pole);
            two_bone::solve(&mut leg.chain, local, bend, leg.target, pole, 1.0);
            let normal = self.ground.normal(leg.target);
            leg.chain.turn(2, turn_between(up, normal), local);
            let sole = position(&leg.ankle_path, local, bend) - normal * leg.ankle_height;
            soles.push(((sole - self.ground.under(sole)).dot(up), planted));
        }
        self.stood = Stood { lowered, soles };
        self.stood.clone()
    }

    /// Each leg's bones, hip first, and its length.
    pub fn legs(&self) -> impl Iterator<Item = (&[BoneId], f32)> {
        self.legs.iter().map(|l| (l.chain.bones(), l.length))
    }

    /// Each ankle's height over its sole (as the rest pose stands on the floor).
    pub fn ankle_heights(&self) -> impl Iterator<Item = f32> + '_ {
        self.legs.iter().map(|l| l.ankle_height)
    }

    /// Each ankle's target in the last solve, in model space.
    pub fn targets(&self) -> impl Iterator<Item = Vec3> + '_ {
        self.legs.iter().map(|l| l.target)
    }
}

/// The least drop `d ≥ 0` of a hip, along `up`, that brings a target `to` away from it (target
/// minus hip) within `length`: `|to + d up|² = length²` is `d² + 2 d (to · up) + |to|² - length² = 0`,
/// and the smaller root, if it is above 0. A target too far to the side to reach at any drop
/// gets the drop that brings it nearest: `-(to · up)`.
pub fn drop_to_reach(to: Vec3, up: Vec3, length: f32) -> f32 {
    let along = to.dot(up);
    let across = to.length_squared() - along * along;
    let room = length * length - across;
    if room < 0.0 {
        return (-along).max(0.0);
    }
    (-along - room.sqrt()).max(0.0)
}

#[cfg(test)]
mod tests;
