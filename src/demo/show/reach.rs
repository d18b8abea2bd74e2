//! Reaching in the program (chapter 12): the chains `--reach` asks for, reach mode (`E`), the solver
//! (`Q`: two-bone or CCD), a left-drag that moves a target, and what the picture marks.
//!
//! In reach mode every chain reaches for its target each frame, after the clip and before the
//! matrices (`Demo::update`), and a left-drag that starts on a joint (or on a target's marker) moves
//! that joint's target in the plane facing the camera through the point caught: the chain ending
//! at the joint is made on the spot, from the joint's parent and grandparent (or CCD's bones). A
//! left-drag anywhere else still orbits, and a right-drag still bends a bone by hand on top.

mod feet;
mod flags;
mod look;
mod rig;

use crate::demo::cli::look::LookOptions;
use crate::demo::cli::options::Options;
use crate::demo::cli::reach::{MAX_GOALS, ReachOptions};
pub use feet::chain as feet_chain;
use flags::{above, chain_name, remade, rule_note};
pub use flags::{chains, facing, say_rule_notes};
use glam::{Mat4, Vec2, Vec3, Vec4Swizzles};
pub use look::chain as look_chain;
use skinning::camera::Camera;
use skinning_method::frame::Pose;
use skinning_method::model::Model;
use skinning_method::reach::bend_rule::Facing;
use skinning_method::reach::{Reach, Solver};
use skinning_method::skeleton::{BoneId, Skeleton};
use std::fmt::Write;

/// CCD's bones when `Q` switches to it without `--chain`: one more than the two-bone solver turns.
pub const CCD_BONES: usize = 3;

/// Points per chain in [`Reaching::marks`]: the target, the end joint, the pole (or the middle
/// joint again, with none) and the middle joint: a line end → target, a line middle → pole.
pub const MARKS_PER_CHAIN: usize = 4;

pub struct Reaching {
    /// Reach mode (`E`): the chains reach and are marked, and a left-drag on a joint moves a target.
    pub on: bool,
    chains: Vec<Reach>,
    /// The chains the command line gave, which `R` goes back to.
    given: Vec<Reach>,
    /// The solver the chains use; `Q` switches it, `R` puts back the command line's.
    solver: Solver,
    given_solver: Solver,
    /// CCD's bones (`--chain`, else [`CCD_BONES`]), fewer where a bone has fewer above it.
    ccd_bones: usize,
    weight: f32,
    /// The chain the corner line speaks of: the last one dragged, else the last given.
    active: usize,
    /// Each chain as the corner line names it, `start-end` (made when the chain is).
    names: Vec<String>,
    drag: Option<TargetDrag>,
    /// [`MARKS_PER_CHAIN`] points per chain, this frame, after the matrices.
    marks: Vec<Vec3>,
    /// The model's up and front, for the default bend of the chains a drag makes.
    facing: Facing,
    /// The model's numbers are id's, Z up: the corner line says the targets are in them.
    z_up: bool,
}

/// A left-drag that moves a target: the plane it moves in (facing the camera, through the point
/// caught, held as that point's depth on screen) and the camera it was seen with.
#[derive(Clone, Copy, Debug)]
struct TargetDrag {
    chain: usize,
    view_projection: Mat4,
    size: Vec2,
    depth: f32,
    /// From where the cursor's ray meets that plane to the target: the target follows the cursor
    /// without jumping to it.
    offset: Vec3,
}

impl Reaching {
    /// The chains `options` asks for on `model`; reach mode is on if there are any.
    pub fn new(model: &Model, options: &ReachOptions) -> Result<Reaching, String> {
        let chains = chains(model, options)?;
        let names = chains.iter().map(|c| chain_name(&model.skeleton, c)).collect();
        Ok(Reaching {
            on: !chains.is_empty(),
            given: chains.clone(),
            active: chains.len().saturating_sub(1),
            chains,
            solver: flags::solver(options),
            given_solver: flags::solver(options),
            ccd_bones: options.chain.unwrap_or(CCD_BONES),
            weight: options.weight.unwrap_or(1.0),
            names,
            drag: None,
            marks: Vec::with_capacity(MAX_GOALS * MARKS_PER_CHAIN),
            facing: facing(model),
            z_up: model.axes.up() == skinning_method::model::Axis::PosZ,
        })
    }

    /// The chains every flag asks for: `--reach`'s, `--look-at`'s and `--ground`'s legs.
    pub fn given(model: &Model, options: &Options) -> Result<Reaching, String> {
        let reaching = Reaching::new(model, &options.reach)?.looking(model, &options.look)?;
        let feet = feet_chain(model, options.ground, options.model.is_none())?;
        Ok(reaching.with(model, feet))
    }

    /// With the chain `--look-at` asks for (`look.rs`), if it does: one more chain, which `R`
    /// keeps, and reach mode on. Or the line that says why the bone cannot look.
    pub fn looking(self, model: &Model, options: &LookOptions) -> Result<Reaching, String> {
        Ok(self.with(model, look_chain(model, options)?))
    }

    /// With one more chain, if there is one (a look-at, the feet), which `R` keeps: reach mode on.
    fn with(mut self, model: &Model, chain: Option<Reach>) -> Reaching {
        let Some(chain) = chain else { return self };
        self.given.push(chain.clone());
        self.names.push(chain_name(&model.skeleton, &chain));
        self.chains.push(chain);
        (self.on, self.active) = (true, self.chains.len() - 1);
        self
    }

    /// After a frame: a note for each chain whose straight limb the default bend chose the way for
    /// (`bend_rule.rs`), saying what it took the limb for.
    pub fn rule_notes(&self) -> Vec<String> {
        let used = self.chains.iter().zip(&self.names).filter_map(|(c, n)| Some((c.reached.rule?, n)));
        used.map(|(limb, name)| rule_note(name, limb)).collect()
    }

    /// Step 2 of the frame: the chains that reach, in reach mode (none out of it).
    pub fn chains(&mut self) -> &mut [Reach] {
        if self.on { &mut self.chains } else { &mut [] }
    }

    /// After the matrices: where this frame's marks go, from the joints as drawn.
    pub fn mark(&mut self, pose: &Pose) {
        self.marks.clear();
        for chain in &self.chains {
            let bones = chain.bones();
            let end = pose.joint(bones[bones.len() - 1]);
            let middle = pose.joint(bones[bones.len() - 2]);
            self.marks.extend([chain.target, end, chain.pole.unwrap_or(middle), middle]);
        }
    }

    /// The marks to draw ([`MARKS_PER_CHAIN`] per chain), in reach mode.
    pub fn marks(&self) -> Option<&[Vec3]> {
        (self.on && !self.marks.is_empty()).then_some(&self.marks[..])
    }

    /// `Q`: the other solver for every chain, or why one chain cannot have it.
    pub fn switch_solver(&mut self, model: &Model) -> Result<(), String> {
        // (The limbs' solver is never a look-at's: `--chain` or not, two-bone or CCD.)
        let next = match self.solver {
            // Back to two-bone with the command line's --soften, if it gave one.
            Solver::Ccd { .. } => match self.given_solver {
                given @ Solver::TwoBone { .. } => given,
                _ => Solver::TwoBone { soften: 1.0 },
            },
            _ => Solver::Ccd { bones: self.ccd_bones },
        };
        let mut switched = Vec::with_capacity(self.chains.len());
        for chain in &self.chains {
            // A look-at and the feet are no one limb: they keep their own way of turning.
            switched.push(match chain.solver {
                Solver::LookAt(_) | Solver::Ground(_) => chain.clone(),
                _ => remade(&model.skeleton, chain, next, self.facing)?,
            });
        }
        self.names = switched.iter().map(|c| chain_name(&model.skeleton, c)).collect();
        (self.chains, self.solver) = (switched, next);
        Ok(())
    }

    /// `R`: the command line's chains, targets and solver again.
    pub fn reset(&mut self, model: &Model) {
        (self.chains, self.solver) = (self.given.clone(), self.given_solver);
        self.names = self.chains.iter().map(|c| chain_name(&model.skeleton, c)).collect();
        self.active = self.chains.len().saturating_sub(1);
        self.drag = None;
    }

    /// Left button down at `cursor` in reach mode: catch the target marker or the joint (of those
    /// `drawn`, that can end a chain) nearest on screen within `reach` pixels, making its chain if
    /// it has none. Returns whether one was caught (else the drag orbits).
    #[allow(clippy::too_many_arguments)]
    pub fn catch(
        &mut self,
        cursor: Vec2,
        model: &Model,
        pose: &Pose,
        drawn: &[bool],
        camera: &Camera,
        size: (u32, u32),
        reach: f32,
    ) -> bool {
        if !self.on {
            return false;
        }
        let (w, h) = size;
        let targets = self.chains.iter().map(|c| (c.target, c.end()));
        let joints = (0..model.skeleton.len())
            .filter(|&b| drawn[b] && above(&model.skeleton, b) >= 2)
            .map(|b| (pose.joint(b), b));
        let nearest = (targets.chain(joints))
            .map(|(at, end)| (at, end, camera.project(at, w, h).distance(cursor)))
            .filter(|&(_, _, d)| d <= reach)
            .min_by(|a, b| a.2.total_cmp(&b.2));
        let Some((caught, end, _)) = nearest else { return false };
        let chain = match self.chains.iter().position(|c| c.end() == end) {
            Some(i) => i,
            None => match self.add(&model.skeleton, end, caught) {
                Some(i) => i,
                None => return false,
            },
        };
        let view_projection = camera.view_projection(w, h);
        let clip = view_projection * caught.extend(1.0);
        let size = Vec2::new(w as f32, h as f32);
        let mut drag =
            TargetDrag { chain, view_projection, size, depth: clip.z / clip.w, offset: Vec3::ZERO };
        drag.offset = self.chains[chain].target - drag.on_plane(cursor);
        (self.drag, self.active) = (Some(drag), chain);
        true
    }

    /// A new chain ending at `end`, its target where the joint is; the oldest goes if there are
    /// [`MAX_GOALS`] already.
    fn add(&mut self, skeleton: &Skeleton, end: BoneId, at: Vec3) -> Option<usize> {
        let solver = match self.solver {
            Solver::Ccd { bones } => Solver::Ccd { bones: bones.min(above(skeleton, end)) },
            two_bone => two_bone,
        };
        let mut chain = Reach::new(skeleton, end, solver, at).ok()?;
        chain.set_facing(skeleton, self.facing);
        chain.weight = self.weight;
        if self.chains.len() == MAX_GOALS {
            self.chains.remove(0);
            self.names.remove(0);
        }
        self.names.push(chain_name(skeleton, &chain));
        self.chains.push(chain);
        Some(self.chains.len() - 1)
    }

    /// The cursor moved: the caught target follows it. Returns whether a target moved.
    pub fn drag_to(&mut self, cursor: Vec2) -> bool {
        let Some(drag) = self.drag else { return false };
        self.chains[drag.chain].target = drag.on_plane(cursor) + drag.offset;
        true
    }

    /// The left button came up: returns whether it ended a target's drag.
    pub fn release(&mut self) -> bool {
        self.drag.take().is_some()
    }

    /// The corner line's words about reaching, added to `line` (nothing when reach mode is off):
    /// the chain, the solver, and how far its end still is from its target.
    pub fn write_status(&self, line: &mut String) {
        if !self.on {
            return;
        }
        let Some(name) = self.names.get(self.active) else {
            let _ = write!(line, "  reach: drag a joint");
            return;
        };
        let at = self.active * MARKS_PER_CHAIN;
        let distance = match self.marks.get(at..at + 2) {
            Some([target, end]) => skinning_method::reach::chain::distance(*target, *end),
            _ => 0.0,
        };
        // The chain's own solver: a START..END path of more than two bones is CCD's, whatever the
        // solver the flags (or `Q`) chose for the others.
        let solver = self.chains.get(self.active).map_or(self.solver, |c| c.solver);
        match self.chains.get(self.active).filter(|c| matches!(c.solver, Solver::LookAt(_))) {
            Some(look) => _ = write!(line, "  look {name} {:.2} degrees off", look.reached.off.to_degrees()),
            None => _ = write!(line, "  reach {name} {} {distance:.4} to go", solver.name()),
        }
        if self.chains.len() > 1 {
            let _ = write!(line, " (+{})", self.chains.len() - 1);
        }
        if self.z_up {
            let _ = write!(line, "  targets in the file's Z-up numbers");
        }
    }
}

impl TargetDrag {
    /// Where the ray under `cursor` meets the drag's plane: the point on screen at the caught
    /// point's depth, taken back through the camera.
    fn on_plane(&self, cursor: Vec2) -> Vec3 {
        let ndc = Vec2::new(cursor.x / self.size.x * 2.0 - 1.0, 1.0 - cursor.y / self.size.y * 2.0);
        let p = self.view_projection.inverse() * ndc.extend(self.depth).extend(1.0);
        p.xyz() / p.w
    }
}

#[cfg(test)]
mod tests;
