//! Reaching: inverse kinematics, the angles found from where a hand should be.
//!
//! Everything before this was **forward kinematics** (FK): the clip (or a right-drag, article 003's
//! bent bone) chooses each bone's angle, and the skeleton goes where the angles take it: angles in,
//! positions out. **Inverse kinematics** (IK) is the question the other way round: put this hand
//! *there*; which angles do that? Angles out. A foot planted on a step, a hand on a door handle, a
//! head that looks at something: every engine does it on top of its clips.
//!
//! A **chain** is the bone that reaches (the end: a wrist, an ankle) and the joints above it that
//! turn to move it (`chain.rs`). Two solvers:
//! - **two bones** (`two_bone.rs`): start, middle and end joint, solved exactly with the law of
//!   cosines; a **pole** says which way the elbow or knee points (a point, or a bone's joint), and
//!   a straight limb with none bends the way a human's does (`bend_rule.rs`);
//! - **CCD** (`ccd.rs`), for chains of any length: each joint in turn points the end at the target,
//!   over and over, until it is close enough.
//!
//! A third kind of chain does not put its end anywhere: it turns it to *face* the target
//! (`look_at.rs`, [`Solver::LookAt`]), the end (a head) turning as well as the joints above it.
//! A fourth stands two legs on a ground (`ground.rs`, [`Solver::Ground`], made by [`Reach::feet`]):
//! each ankle's target is found under it every frame, and the hips come down as far as they must.
//!
//! **Where it sits in the frame**: after the clip has set every bone's local translation, rotation
//! and scale (`Pose::local`) and before those become matrices (step 3 of `Pose::run`). It changes
//! only the chain's local *rotations* (a ground also lowers the hips' translation), so the bones
//! keep their lengths, and everything after it,
//! the world transforms, the palette, the blend (linear or dual quaternions), the normals and the
//! GPU's shader, gets an ordinary pose and needs nothing new. A solve starts from the clip's pose
//! every frame, so the arm keeps swinging with the walk wherever its hand is held.
//!
//! The **weight** (0 to 1) eases from the clip's pose to the solved one, joint by joint with slerp:
//! 0 leaves the pose untouched, 1 is the solve.

pub mod bend_rule;
pub mod ccd;
pub mod chain;
pub mod two_bone;

use crate::frame::Adjust;
use crate::ground::{Feet, Ground};
use crate::look_at::{self, Look};
use crate::skeleton::{BoneId, Skeleton};
use crate::transform::Trs;
use bend_rule::{Facing, Limb};
use chain::{Chain, TooShort};
use glam::{Quat, Vec3};

/// Which solver turns a chain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Solver {
    /// Start, middle and end joint, solved exactly; the end's parent and grandparent turn.
    TwoBone {
        /// From what fraction of the chain's length the end falls behind a far target (1: never;
        /// `two_bone::softened`).
        soften: f32,
    },
    /// Cyclic coordinate descent on the end's `bones` nearest ancestors.
    Ccd { bones: usize },
    /// The end (a head) and the bones above it turn so its forward faces the target, each a share
    /// (`look_at.rs`).
    LookAt(Look),
    /// Legs standing on a ground, each by the two-bone solver, the hips lowered as they need
    /// (`ground.rs`): the chain is the first leg, the others ride along in the feet.
    Ground(Ground),
}

impl Solver {
    /// How many joints above the end turn.
    pub fn turning(self) -> usize {
        match self {
            Solver::TwoBone { .. } | Solver::Ground(_) => 2,
            Solver::Ccd { bones } => bones,
            Solver::LookAt(look) => look.joints - 1,
        }
    }

    /// How many joints turn in all: those above the end, and the end too when it looks.
    pub fn turned(self) -> usize {
        match self {
            Solver::LookAt(look) => look.joints,
            _ => self.turning(),
        }
    }

    /// The solver's name as the program prints it.
    pub fn name(self) -> &'static str {
        match self {
            Solver::TwoBone { .. } => "two-bone",
            Solver::Ccd { .. } => "ccd",
            Solver::LookAt(_) => "look-at",
            Solver::Ground(_) => "ground",
        }
    }
}

/// One chain reaching for one target: what to reach for and how, and the chain itself.
#[derive(Clone, Debug)]
pub struct Reach {
    /// Where the end should be, in model space (the model's own units).
    pub target: Vec3,
    /// A point the middle joint (elbow, knee) should point towards, in model space: two-bone only.
    /// None: keep the bend the clip gives, or, for a straight limb, the default bend
    /// (`bend_rule.rs`). With a pole bone ([`Reach::set_pole_bone`]), where its joint was this frame.
    pub pole: Option<Vec3>,
    /// From the clip's pose (0) to the solved one (1).
    pub weight: f32,
    pub solver: Solver,
    /// The outcome of the last solve.
    pub reached: Reached,
    chain: Chain,
    /// The clip's rotations of the turning joints, kept during a solve for the weight.
    clip_rotations: Vec<Quat>,
    /// The model's up and front in the space of the chain's parent bone, for the default bend.
    facing: Facing,
    /// The bones from the root down to the pole bone, if the pole is a bone's joint.
    pole_path: Vec<BoneId>,
    /// What the default bend took the limb for, in the solve under way.
    rule: Option<Limb>,
    /// A ground's legs and hips (Some just when the solver is [`Solver::Ground`]).
    feet: Option<Box<Feet>>,
}

/// Where a solve left the end.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reached {
    /// The end joint's position, in model space.
    pub end: Vec3,
    /// How far it is from the target: 0 when reached, more out of reach (or softened, or weighted).
    /// In `f64`, so that it is finite for any finite target (`chain::distance`).
    pub distance: f64,
    /// CCD's sweeps this frame (0 for the two-bone solver).
    pub sweeps: usize,
    /// Some when the limb was straight with no pole, so the default bend chose the way: what it
    /// took the limb for (`bend_rule.rs`).
    pub rule: Option<Limb>,
    /// A look-at's: the angle, in radians, still between the head's forward and the target (0
    /// within the limits); 0 for the other solvers.
    pub off: f32,
}

impl Reach {
    /// The bone `end` reaching for `target` with `solver`, at full weight, with no pole, on a body
    /// facing glTF's way ([`Facing::GLTF`]). With [`Solver::Ground`], `end` is one ankle standing
    /// alone, its leg's top joint the hips it lowers, and the ground finds the target.
    pub fn new(skeleton: &Skeleton, end: BoneId, solver: Solver, target: Vec3) -> Result<Reach, TooShort> {
        let chain = Chain::new(skeleton, end, solver.turning())?;
        let feet = match solver {
            Solver::Ground(ground) => Some(Box::new(Feet::new(skeleton, chain.bones()[0], &[end], ground)?)),
            _ => None,
        };
        let clip_rotations = vec![Quat::IDENTITY; solver.turned()];
        let facing = Facing::GLTF.into_space(chain.rest_above(skeleton));
        Ok(Reach {
            target,
            pole: None,
            weight: 1.0,
            solver,
            reached: Reached::default(),
            chain,
            clip_rotations,
            facing,
            pole_path: Vec::new(),
            rule: None,
            feet,
        })
    }

    /// Two legs standing on `ground` (`ground.rs`): the ankles `ankles` under `hips`, the bone whose
    /// translation carries the body. The chain is the first ankle's leg.
    pub fn feet(
        skeleton: &Skeleton,
        hips: BoneId,
        ankles: [BoneId; 2],
        ground: Ground,
    ) -> Result<Reach, TooShort> {
        let mut reach = Reach::new(skeleton, ankles[0], Solver::Ground(ground), Vec3::ZERO)?;
        reach.feet = Some(Box::new(Feet::new(skeleton, hips, &ankles, ground)?));
        Ok(reach)
    }

    /// The ground's feet, and what they did in the last solve (`Feet::stood`): None unless the
    /// solver is [`Solver::Ground`].
    pub fn standing(&self) -> Option<&Feet> {
        self.feet.as_deref()
    }

    /// The model's up and front, in its own numbers, for the default bend (`bend_rule.rs`): kept in
    /// the space of the chain's parent bone as the rest pose has it, so they turn with that bone.
    pub fn set_facing(&mut self, skeleton: &Skeleton, facing: Facing) {
        self.facing = facing.into_space(self.chain.rest_above(skeleton));
    }

    /// The pole is `bone`'s joint, wherever the pose puts it each frame (a rig's pole bone).
    pub fn set_pole_bone(&mut self, skeleton: &Skeleton, bone: BoneId) {
        self.pole_path = chain::path_to(skeleton, bone);
    }

    /// The pole's bone, if the pole is a bone's joint.
    pub fn pole_bone(&self) -> Option<BoneId> {
        self.pole_path.last().copied()
    }

    /// The chain's joints, start first, the end last.
    pub fn bones(&self) -> &[BoneId] {
        self.chain.bones()
    }

    pub fn end(&self) -> BoneId {
        self.chain.end()
    }

    /// Turns the chain's joints in `local` (each bone's local pose, as the clip left it) so the end
    /// reaches the target, eased by the weight; `bend` is each bone's hand bend, which the solve
    /// measures with. Allocates nothing.
    pub fn solve(&mut self, local: &mut [Trs], bend: &[Quat]) -> Reached {
        self.rule = None;
        if !self.pole_path.is_empty() {
            self.pole = Some(chain::position(&self.pole_path, local, bend));
        }
        // Weight 0: the clip's pose, untouched to the last bit.
        if self.weight <= 0.0 {
            self.chain.measure(local, bend);
            return self.outcome(0);
        }
        // The feet move the hips as well as the legs: they stand at full weight.
        if let Some(feet) = &mut self.feet {
            feet.solve(local, bend);
            self.target = feet.targets().next().unwrap_or(self.target);
            self.chain.measure(local, bend);
            return self.outcome(0);
        }
        let turning = &self.chain.bones()[..self.solver.turned()];
        for (kept, &bone) in self.clip_rotations.iter_mut().zip(turning) {
            *kept = local[bone].rotation;
        }
        let sweeps = match self.solver {
            Solver::TwoBone { soften } => {
                // No pole, a straight limb: the default bend's (`bend_rule.rs`).
                let (chain, facing) = (&mut self.chain, self.facing);
                let rule = self.pole.is_none().then(|| bend_rule::pole(chain, local, bend, facing)).flatten();
                self.rule = rule.map(|(limb, _)| limb);
                let pole = self.pole.or(rule.map(|(_, pole)| pole));
                two_bone::solve(&mut self.chain, local, bend, self.target, pole, soften);
                0
            }
            Solver::Ccd { .. } => ccd::solve(&mut self.chain, local, bend, self.target).1,
            Solver::LookAt(look) => {
                look_at::solve(&mut self.chain, local, bend, self.target, look);
                0
            }
            // Made by `Reach::new` or `Reach::feet`, a ground's reach has its feet, which stood above.
            Solver::Ground(_) => 0,
        };
        if self.weight < 1.0 {
            let turning = &self.chain.bones()[..self.solver.turned()];
            for (clip_rotation, &bone) in self.clip_rotations.iter().zip(turning) {
                local[bone].rotation = clip_rotation.slerp(local[bone].rotation, self.weight);
            }
            self.chain.measure(local, bend);
        }
        self.outcome(sweeps)
    }

    fn outcome(&mut self, sweeps: usize) -> Reached {
        let end = self.chain.joint(self.chain.turning());
        let distance = chain::distance(end, self.target);
        let off = match self.solver {
            Solver::LookAt(look) => look_at::off(&self.chain, look.forward, self.target),
            _ => 0.0,
        };
        self.reached = Reached { end, distance, sweeps, rule: self.rule, off };
        self.reached
    }

    /// The chain as last measured (by the last solve): its joints' world transforms.
    pub fn chain(&self) -> &Chain {
        &self.chain
    }
}

/// Reaching as step 2 of a frame (`frame.rs`: `Adjust`): every chain solved in turn.
impl Adjust for &mut [Reach] {
    fn adjust(&mut self, local: &mut [Trs], bend: &[Quat]) {
        solve(self, local, bend);
    }
}

/// The same for chains held in a list of their own.
impl Adjust for Vec<Reach> {
    fn adjust(&mut self, local: &mut [Trs], bend: &[Quat]) {
        solve(self, local, bend);
    }
}

/// Solves every chain of `reaches` in turn on the local pose, `local` (after the clip, before the
/// matrices), each seeing the turns of those before it.
pub fn solve(reaches: &mut [Reach], local: &mut [Trs], bend: &[Quat]) {
    for reach in reaches {
        reach.solve(local, bend);
    }
}
