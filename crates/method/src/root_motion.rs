//! Root motion: a clip that walks somewhere, and what its loop does with the walk (ozz's motion
//! extraction; engines call it "root motion").
//!
//! A walk is keyed with its **travel** in it: the bone that carries the body (the hips, or the
//! skeleton's root where that is what moves) goes forwards over the clip, and maybe turns. Played
//! as stored, a loop jumps back: at the clip's end the hips are a stride or two on, and the next
//! loop starts them where the first began.
//!
//! The travel is the carrying bone's world transform seen from above: its place on the floor (its
//! position less the part along the model's up axis) and its **heading**, its turn about up (the
//! twist of its rotation about up: for a quaternion `(v, w)`, `2 atan2(v · up, w)`). A [`Travel`]
//! holds the two: a turn about up, then a move along the floor. Call the one at time `t` `M(t)`.
//! Over one loop of a clip of length `d` the body goes from `M(0)` to `M(d)`: the loop's travel
//! `C = M(d) M(0)⁻¹` takes the start onto the end. Three ways to play it ([`Mode`]):
//!
//! - `Off`: as stored, `W(t)` (every bone's world transform), jumping back at each loop.
//! - `On`: loop `n` is carried on by the loops before it, `Cⁿ W(t)`: at the end of loop `n`,
//!   `Cⁿ W(d) = Cⁿ C W(0) = Cⁿ⁺¹ W(0)`, where loop `n + 1` starts, so nothing jumps back and the
//!   travel adds up. `Cⁿ` is a turn by `nθ` and a move by `Σₖ₌₀ⁿ⁻¹ Rot(kθ) c` (θ and `c`: `C`'s
//!   turn and move): a geometric series, summed in closed form so that any loop, the
//!   millionth too, costs the same ([`Travel::repeated`]).
//! - `InPlace`: the travel taken out, `R₀ M(t)⁻¹ W(t)`, with `R₀` the start's heading alone: the
//!   carrying bone stays over the origin facing as it started; the rest (its bob, its sway, the
//!   legs) plays as keyed.
//!
//! Both change only the skeleton root's local transform: the whole body is carried, so the world
//! transform of every bone under it takes the same carry ([`RootMotion::take`], after step 1 of
//! the frame, `frame.rs`). What a frame reports ([`RootMotion::travel`]) is the root's travel so
//! far, `Cⁿ M(t) R₀⁻¹`: the carrying bone's place on the floor as `On` plays it, and its turn
//! since the start. (`In-place` plays the body over the origin with the start's heading,
//! `R₀ M(t)⁻¹ W(t)`: carried by exactly this travel, it is `Cⁿ W(t)`, what `On` shows.)

use crate::clip::Clip;
use crate::frame::TakesTravel;
use crate::skeleton::{BoneId, Skeleton};
use crate::transform::Trs;
use glam::{Mat4, Quat, Vec3};

/// How a clip's travel plays (`--root-motion`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// The clip as stored: its loop jumps back.
    #[default]
    Off,
    /// The carrying bone stays over the origin; the rest plays in place.
    InPlace,
    /// The body goes where the clip takes it, the travel adding up over the loops.
    On,
}

impl Mode {
    /// The word `--root-motion` takes.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Off => "off",
            Mode::InPlace => "in-place",
            Mode::On => "on",
        }
    }
}

/// A move along the floor: a turn about the up axis by `heading` radians, then a move by
/// `offset` (which has no part along up). As a matrix, `T(offset) Rot(up, heading)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Travel {
    pub heading: f32,
    pub offset: Vec3,
}

impl Travel {
    pub const NONE: Travel = Travel { heading: 0.0, offset: Vec3::ZERO };

    /// The turn as a quaternion about `up`.
    pub fn rotation(self, up: Vec3) -> Quat {
        Quat::from_axis_angle(up, self.heading)
    }

    pub fn to_mat4(self, up: Vec3) -> Mat4 {
        Mat4::from_rotation_translation(self.rotation(up), self.offset)
    }

    /// `self` after `first`: the travel `first` makes, then `self` carries the result on.
    pub fn after(self, first: Travel, up: Vec3) -> Travel {
        Travel {
            heading: self.heading + first.heading,
            offset: self.offset + self.rotation(up) * first.offset,
        }
    }

    /// The travel that undoes this one.
    pub fn inverse(self, up: Vec3) -> Travel {
        let back = Quat::from_axis_angle(up, -self.heading);
        Travel { heading: -self.heading, offset: -(back * self.offset) }
    }

    /// This travel made `n` times over, `selfⁿ`: the turn `n` times, and the moves
    /// `Σₖ₌₀ⁿ⁻¹ Rot(kθ) c`. With the move along `e₁` and `e₂ = up × e₁` beside it,
    /// `Rot(kθ) e₁ = cos(kθ) e₁ + sin(kθ) e₂`, and the sum of `e^{ikθ}` is
    /// `e^{i(n−1)θ/2} sin(nθ/2) / sin(θ/2)` (`n` where θ is 0). In `f64`, so that far loops keep
    /// their digits.
    pub fn repeated(self, n: f64, up: Vec3) -> Travel {
        let theta = f64::from(self.heading);
        let half = (theta / 2.0).sin();
        let length = if half.abs() < 1e-9 { n } else { (n * theta / 2.0).sin() / half };
        let angle = (n - 1.0) * theta / 2.0;
        let e1 = self.offset;
        let e2 = up.cross(e1);
        let offset = e1 * (length * angle.cos()) as f32 + e2 * (length * angle.sin()) as f32;
        let heading =
            (n * theta + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU) - std::f64::consts::PI;
        Travel { heading: heading as f32, offset }
    }

    /// A world transform seen from above: its place on the floor and its heading about `up`.
    pub fn of(world: Mat4, up: Vec3) -> Travel {
        let (_, rotation, position) = world.to_scale_rotation_translation();
        let along_up = Vec3::new(rotation.x, rotation.y, rotation.z).dot(up);
        Travel { heading: 2.0 * along_up.atan2(rotation.w), offset: position - up * position.dot(up) }
    }
}

/// Where bone `bone` is in the model's space for the local transforms `local`: its parents'
/// local transforms, then its own (the walk of `skeleton.rs`, up one branch only).
pub fn carried(skeleton: &Skeleton, local: &[Trs], bone: BoneId) -> Mat4 {
    let mut world = local[bone].to_mat4();
    let mut up = skeleton.bone(bone).parent;
    while let Some(parent) = up {
        world = local[parent].to_mat4() * world;
        up = skeleton.bone(parent).parent;
    }
    world
}

/// The hips: the first bone (nearest the root) whose name, after any `prefix:`, holds `hip` or
/// `pelvis` in any letter case (`mixamorig:Hips`, `b_Hip_01`); None for a skeleton without.
pub fn hips(skeleton: &Skeleton) -> Option<BoneId> {
    let is_hips = |name: &str| {
        let tail = name.rsplit(':').next().unwrap_or(name).to_lowercase();
        tail.contains("hip") || tail.contains("pelvis")
    };
    let mut order = vec![skeleton.root()];
    let mut next = 0;
    // Breadth first, so that the hips come before a `LeftHipJoint` further down.
    while let Some(&bone) = order.get(next) {
        if is_hips(&skeleton.bone(bone).name) {
            return Some(bone);
        }
        let mut child = skeleton.bone(bone).first_child;
        while let Some(c) = child {
            order.push(c);
            child = skeleton.bone(c).sibling;
        }
        next += 1;
    }
    None
}

/// The bone that carries the body, when none is named: the [`hips`], else the skeleton's root if
/// `clip` moves it. None: nothing carries a body.
pub fn carrier(skeleton: &Skeleton, clip: &Clip) -> Option<BoneId> {
    if let Some(bone) = hips(skeleton) {
        return Some(bone);
    }
    let root = skeleton.root();
    let travel = |t: f32| {
        let mut pose = vec![Trs::IDENTITY; skeleton.len()];
        clip.sample_at(skeleton, t, &mut pose);
        pose[root]
    };
    let moves = clip.duration > 0.0 && travel(0.0) != travel(clip.duration);
    moves.then_some(root)
}

/// One clip's root motion: the bone that carries the body, the model's up axis, the clip's
/// start and its loop's travel, and the last frame's travel.
#[derive(Clone, Debug)]
pub struct RootMotion {
    pub bone: BoneId,
    pub mode: Mode,
    /// The model's up axis, a unit vector (`Axes::up`).
    pub up: Vec3,
    duration: f32,
    /// `M(0)`: where the carrying bone starts.
    start: Travel,
    /// `C = M(d) M(0)⁻¹`: one loop's travel.
    lap: Travel,
    /// The last frame's travel so far, `Cⁿ M(t) R₀⁻¹`: where `On` puts the carrying bone on the
    /// floor, and its turn since the start.
    pub travel: Travel,
}

impl RootMotion {
    /// `clip`'s travel as `bone` makes it, about `up`. Samples the clip at its start and its end
    /// once, here (a pose allocated once).
    pub fn new(skeleton: &Skeleton, clip: &Clip, bone: BoneId, up: Vec3, mode: Mode) -> RootMotion {
        let mut pose = vec![Trs::IDENTITY; skeleton.len()];
        let mut at = |t: f32| {
            clip.sample_at(skeleton, t, &mut pose);
            Travel::of(carried(skeleton, &pose, bone), up)
        };
        let start = at(0.0);
        let end = at(clip.duration);
        let lap = end.after(start.inverse(up), up);
        RootMotion { bone, mode, up, duration: clip.duration, start, lap, travel: Travel::NONE }
    }

    /// One loop's travel, `C`.
    pub fn lap(&self) -> Travel {
        self.lap
    }

    /// After step 1 ([`TakesTravel`]), on `local` sampled from the clip at `time`: finds the travel so far, and
    /// carries the skeleton's root as the mode asks (`On`: by the loops before this one; `InPlace`:
    /// back by this loop's travel). Allocates nothing.
    pub fn take(&mut self, skeleton: &Skeleton, time: f64, local: &mut [Trs]) {
        TakesTravel::take(self, skeleton, time, local)
    }
}

impl TakesTravel for RootMotion {
    fn take(&mut self, skeleton: &Skeleton, time: f64, local: &mut [Trs]) {
        let up = self.up;
        let now = Travel::of(carried(skeleton, local, self.bone), up);
        // The loops before this one, counted as `Clip::wrap` counts them.
        let d = f64::from(self.duration);
        let loops = if d > 0.0 { ((time - time.rem_euclid(d)) / d).round() } else { 0.0 };
        let before = self.lap.repeated(loops, up);
        let facing = Travel { heading: self.start.heading, offset: Vec3::ZERO };
        self.travel = before.after(now.after(facing.inverse(up), up), up);
        let carry = match self.mode {
            Mode::Off => return,
            Mode::On => before,
            Mode::InPlace => facing.after(now.inverse(up), up),
        };
        let root = &mut local[skeleton.root()];
        let turn = carry.rotation(up);
        root.translation = carry.offset + turn * root.translation;
        root.rotation = turn * root.rotation;
    }
}

#[cfg(test)]
mod tests;
