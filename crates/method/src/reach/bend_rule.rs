//! The default bend: which way an elbow or a knee goes when nothing else says.
//!
//! Two bones reach a target in a whole circle of ways (`two_bone.rs`): a pole picks one, and
//! without a pole the solver keeps the bend the pose already has. A **straight** limb has none to
//! keep: its three joints lie on a line, and any plane through that line will do. T- and A-poses,
//! the rest poses of nearly every rig made in Blender or by Mixamo, hold every limb straight, so a
//! rig's first reach meets this case at once. Any axis across the line, picked by arithmetic, bends
//! an elbow up over the shoulder as readily as down.
//!
//! This rule picks the way a human's joints bend, from the model's **up** and **front** (its
//! [`Facing`]; glTF: +y and +z, id's MD5: +z and +x):
//! - a limb that points down, within [`LEG_DEGREES`] of straight down, is taken for a **leg**: its
//!   knee goes **forward**;
//! - any other limb (sideways in a T-pose, down and out in an A-pose) is taken for an **arm**: its
//!   elbow goes **down and back**, the way `-up - front` points.
//!
//! The rule acts as a pole [`BEND_REACH`] limb lengths out in that direction from the limb's
//! start. A limb is straight here when its middle joint is bent less than [`STRAIGHT_DEGREES`]: so
//! little bend says nothing about which way it was meant. The rule's up and front are kept in the
//! space of the chain's parent bone (the shoulder, the hips) and turn with it, so a character that
//! turns round bends its knees forward still. Its limit: an arm that hangs straight down looks like
//! a leg, and its elbow goes forward; a `--pole` says otherwise.

use super::chain::Chain;
use crate::transform::Trs;
use glam::{Mat4, Quat, Vec3};

/// Within how many degrees of straight down a straight limb is taken for a leg.
pub const LEG_DEGREES: f32 = 30.0;

/// A middle joint bent less than this many degrees leaves the way to bend to the rule.
pub const STRAIGHT_DEGREES: f32 = 1.0;

/// How far out the rule's pole stands, in lengths of the limb: far enough that the plane it makes
/// with the limb is the rule's direction's, whatever the target.
pub const BEND_REACH: f32 = 10.0;

/// A model's up and front: unit directions in some space (the model's own numbers, or a bone's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Facing {
    pub up: Vec3,
    pub front: Vec3,
}

impl Facing {
    /// glTF's axes: +y up, the front towards +z (the article's scene has the same).
    pub const GLTF: Facing = Facing { up: Vec3::Y, front: Vec3::Z };

    /// The same directions seen from a space whose transform to this one is `space` (a bone's world
    /// transform): turned by its inverse. Their lengths are kept at 1.
    pub fn into_space(self, space: Mat4) -> Facing {
        let back = space.inverse();
        let turn = |v: Vec3| back.transform_vector3(v).try_normalize().unwrap_or(v);
        Facing { up: turn(self.up), front: turn(self.front) }
    }

    /// Directions given in a bone's space, seen in the world where that bone's transform is `space`.
    pub fn out_of_space(self, space: Mat4) -> Facing {
        let turn = |v: Vec3| space.transform_vector3(v).try_normalize().unwrap_or(v);
        Facing { up: turn(self.up), front: turn(self.front) }
    }
}

/// What the rule took a straight limb for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limb {
    /// Pointing down: its knee goes forward.
    Leg,
    /// Any other way: its elbow goes down and back.
    Arm,
}

impl Limb {
    /// How the rule's note says it: `a leg: its knee bends forward`.
    pub fn says(self) -> &'static str {
        match self {
            Limb::Leg => "a leg: its knee bends forward",
            Limb::Arm => "an arm: its elbow bends down and back",
        }
    }
}

/// What the rule makes of a straight limb pointing `along` (start to end) on a body facing `facing`:
/// a leg or an arm, and the unit direction its middle joint goes, across the limb. None when the
/// limb has no direction.
pub fn bend(along: Vec3, facing: Facing) -> Option<(Limb, Vec3)> {
    let along = super::chain::unit(along)?;
    let limb = match along.dot(-facing.up) >= LEG_DEGREES.to_radians().cos() {
        true => Limb::Leg,
        false => Limb::Arm,
    };
    let wanted = match limb {
        Limb::Leg => facing.front,
        Limb::Arm => -facing.up - facing.front,
    };
    // Across the limb: the part of the wanted direction that is not along it. An arm pointing
    // straight down and back has none; then down, else front, across it.
    [wanted, -facing.up, facing.front]
        .into_iter()
        .find_map(|w| (w - along * along.dot(w)).try_normalize().filter(|d| d.is_finite()))
        .map(|direction| (limb, direction))
}

/// Whether the middle joint's angle `has` (radians; π is straight) leaves the bend to the rule.
pub fn is_straight(has: f32) -> bool {
    std::f32::consts::PI - has < STRAIGHT_DEGREES.to_radians()
}

/// For a straight two-bone `chain` with no pole: what the rule takes the limb for and the pole it
/// gives it, [`BEND_REACH`] limb lengths out that way; None for a bent limb, whose bend the clip
/// chose. `facing` is the model's up and front in the space of the chain's parent bone, so it
/// turns with that bone. Measures the chain in `local` first.
pub fn pole(chain: &mut Chain, local: &[Trs], bend: &[Quat], facing: Facing) -> Option<(Limb, Vec3)> {
    chain.measure(local, bend);
    let (a, b, c) = (chain.joint(0), chain.joint(1), chain.joint(2));
    let has = (a - b).cross(c - b).length().atan2((a - b).dot(c - b));
    if !is_straight(has) {
        return None;
    }
    let (limb, direction) = self::bend(c - a, facing.out_of_space(chain.above()))?;
    Some((limb, a + direction * BEND_REACH * chain.length()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_t_posed_arm_bends_down_and_back_a_leg_forward() {
        let facing = Facing::GLTF;
        let (limb, d) = bend(Vec3::X, facing).expect("a direction");
        assert_eq!(limb, Limb::Arm);
        assert!(d.abs_diff_eq(Vec3::new(0.0, -1.0, -1.0).normalize(), 1e-6), "{d}");
        let (limb, d) = bend(Vec3::new(0.1, -1.0, 0.0), facing).expect("a direction");
        assert_eq!(limb, Limb::Leg);
        assert!(d.abs_diff_eq(Vec3::Z, 1e-6), "{d}");
        // An A-posed arm, 45 degrees down: still an arm, its elbow across it, down and back.
        let (limb, d) = bend(Vec3::new(1.0, -1.0, 0.0), facing).expect("a direction");
        assert_eq!(limb, Limb::Arm);
        assert!(d.dot(Vec3::new(1.0, -1.0, 0.0)).abs() < 1e-6 && d.z < 0.0 && d.y < 0.0, "{d}");
        // id's axes: up +z, front +x.
        let id = Facing { up: Vec3::Z, front: Vec3::X };
        assert!(
            bend(Vec3::Y, id)
                .expect("a direction")
                .1
                .abs_diff_eq(Vec3::new(-1.0, 0.0, -1.0).normalize(), 1e-6)
        );
        assert_eq!(bend(Vec3::ZERO, facing), None);
    }

    #[test]
    fn straight_is_within_a_degree() {
        let pi = std::f32::consts::PI;
        assert!(is_straight(pi) && is_straight(pi - 0.9f32.to_radians()));
        assert!(!is_straight(pi - 1.1f32.to_radians()));
    }
}
