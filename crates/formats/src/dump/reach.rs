//! What a dump says about reaching (`reach.rs`, chapter 12): for each frame and each chain, the
//! target and pole it reached for, the chain's bones and their solved local rotations (also in the
//! frame's `"local"` matrices, which every world transform is made from), where the end went and
//! how far it still is from the target. From the file alone a learner can redo the world
//! transforms and check that the end is on the target and that no bone changed its length. A
//! look-at (`look_at.rs`, chapter 19) turns its end, the head, too, and says where the head's
//! forward points and how far, in degrees, that is from the target. Feet on a ground
//! (`ground.rs`, chapter 20) say the ground's shape, how far the hips came down, and per leg its
//! bones, length, ankle height over the sole, whether it is planted and its sole's height above the
//! ground: the sole is the ankle's joint less the ankle height along the ground's normal.

use serde::Serialize;
use skinning_method::frame::Pose;
use skinning_method::ground::Shape;
use skinning_method::reach::{Reach, Solver};

#[derive(Serialize)]
pub(super) struct ReachOut<'a> {
    pub solver: &'static str,
    /// The chain's bones, start first, the end last.
    pub bones: &'a [usize],
    pub target: [f32; 3],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pole: Option<[f32; 3]>,
    pub weight: f32,
    /// The local rotation of each turning bone (every bone of `bones` but the end, and the end too
    /// for a look-at), `[x, y, z, w]`.
    pub rotations: Vec<[f32; 4]>,
    /// Where the end joint is in the frame's world transforms (a chain solved after this one may
    /// have moved it, where they share bones), in model space.
    pub end: [f32; 3],
    /// From there to the target, worked out in `f64` (`chain::distance`): finite for any finite
    /// target, so never JSON's `null`.
    pub distance: f64,
    /// CCD's sweeps this frame (0 for the two-bone solver).
    pub sweeps: usize,
    /// A look-at's: the head's forward in the frame's world transforms, one long.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forward: Option<[f32; 3]>,
    /// A look-at's: the angle between that forward and the line from the head's joint to the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub off_degrees: Option<f32>,
    /// Feet on a ground's: the ground and each leg.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ground: Option<GroundOut>,
}

/// The ground under the feet and what they did on it this frame.
#[derive(Serialize)]
pub(super) struct GroundOut {
    /// `flat`, `slope` or `steps`.
    pub shape: &'static str,
    /// A slope's angle, rising towards `front`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub degrees: Option<f32>,
    /// A step's height and depth: the ground's height at a place `a` along `front` is
    /// `height * floor(a / depth + 1/2)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<[f32; 2]>,
    pub up: [f32; 3],
    pub front: [f32; 3],
    /// How far the hips came down, along `up`.
    pub lowered: f32,
    pub legs: Vec<LegOut>,
}

/// One leg on the ground.
#[derive(Serialize)]
pub(super) struct LegOut {
    /// Hip, knee and ankle.
    pub bones: [usize; 3],
    pub length: f32,
    pub ankle_height: f32,
    pub planted: bool,
    /// The sole's height above the ground under it, along `up` (0 for a planted foot).
    pub sole_height: f32,
}

fn ground_out(r: &Reach) -> Option<GroundOut> {
    let feet = r.standing()?;
    let stood = &feet.stood;
    let (shape, degrees, step) = match feet.ground.shape {
        Shape::Flat => ("flat", None, None),
        Shape::Slope { degrees } => ("slope", Some(degrees), None),
        Shape::Steps { height, depth } => ("steps", None, Some([height, depth])),
    };
    let legs = (feet.legs().zip(feet.ankle_heights()).zip(&stood.soles))
        .map(|(((bones, length), ankle_height), &(sole_height, planted))| LegOut {
            bones: [bones[0], bones[1], bones[2]],
            length,
            ankle_height,
            planted,
            sole_height,
        })
        .collect();
    let facing = feet.ground.facing;
    Some(GroundOut {
        shape,
        degrees,
        step,
        up: facing.up.to_array(),
        front: facing.front.to_array(),
        lowered: stood.lowered,
        legs,
    })
}

/// Each chain of `reaches` as the frame `pose` left it, after the matrices.
pub(super) fn reach_out<'a>(reaches: &'a [Reach], pose: &Pose) -> Vec<ReachOut<'a>> {
    (reaches.iter())
        .map(|r| {
            let turning = &r.bones()[..r.solver.turned()];
            let forward = match r.solver {
                Solver::LookAt(look) => pose.world[r.end()].transform_vector3(look.forward).try_normalize(),
                _ => None,
            };
            let to_target = r.target - pose.joint(r.end());
            ReachOut {
                solver: r.solver.name(),
                bones: r.bones(),
                target: r.target.to_array(),
                pole: r.pole.map(|p| p.to_array()),
                weight: r.weight,
                rotations: turning.iter().map(|&b| pose.local[b].rotation.to_array()).collect(),
                end: pose.joint(r.end()).to_array(),
                distance: skinning_method::reach::chain::distance(pose.joint(r.end()), r.target),
                sweeps: r.reached.sweeps,
                forward: forward.map(|f| f.to_array()),
                // atan2 of the sine and the cosine: exact near 0, where acos is not.
                off_degrees: forward
                    .map(|f| f.cross(to_target).length().atan2(f.dot(to_target)).to_degrees()),
                ground: ground_out(r),
            }
        })
        .collect()
}
