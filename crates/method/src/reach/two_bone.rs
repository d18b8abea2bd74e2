//! Two bones, solved exactly: a shoulder, an elbow and a wrist (or a hip, a knee and an ankle).
//!
//! Call the joints `a` (start), `b` (middle) and `c` (end), the bone lengths `l1 = |ab|` and
//! `l2 = |bc|`, and the target `t`, `d = |at|` from the start. The chain's lengths never change, so
//! the only thing that sets how far the end is from the start is the angle at the middle joint. Three
//! turns, in this order:
//!
//! 1. **The middle joint** opens or closes until `|ac| = d`. In the triangle `a b c` the law of
//!    cosines gives the angle it needs: `d² = l1² + l2² - 2 l1 l2 cos θ`, so
//!    `cos θ = (l1² + l2² - d²) / (2 l1 l2)`. It turns about the axis it already bends about (the
//!    normal of the plane `a b c`), from the angle it has to `θ`.
//! 2. **The start joint aims** the chain: the smallest turn that takes the direction `a → c` to
//!    `a → t`. Now the end is on the target.
//! 3. **The start joint swings** the chain about the line `a → t`, which moves the middle joint and
//!    not the end, until the middle joint lies in the plane through `a`, `t` and the **pole** (a
//!    point the elbow or knee should point towards), on the pole's side. Without a pole this step is
//!    left out: the chain keeps the bend direction the clip gave it, turned with it by the aim. (A
//!    straight limb has none to keep: `Reach::solve` gives it the default bend's pole instead,
//!    `bend_rule.rs`.)
//!
//! **Out of reach** (`d > l1 + l2`) the middle joint opens straight and the chain points at the
//! target; too close (`d < |l1 - l2|`) it folds shut. Near full stretch the middle joint moves
//! fastest just before the chain straightens and then stops dead, a visible snap: **soften**
//! (ozz-animation's option of that name) starts the end falling behind the target from a fraction
//! of the chain's length on, so it straightens only as the target goes to infinity.

use super::chain::{Chain, distance, turn_between, unit};
use crate::transform::Trs;
use glam::{Quat, Vec3};

/// Solves `chain` (two turning joints) so its end reaches `target`, turning the two joints' local
/// rotations in `local`; `bend` is the hand bend per bone. `soften` is the fraction of the chain's
/// length from which the end starts falling behind (1: never; see [`softened`]). Returns where the
/// end is now; the chain is left measured in its new pose.
pub fn solve(
    chain: &mut Chain,
    local: &mut [Trs],
    bend: &[Quat],
    target: Vec3,
    pole: Option<Vec3>,
    soften: f32,
) -> Vec3 {
    debug_assert_eq!(chain.turning(), 2, "a two-bone chain");
    chain.measure(local, bend);
    let (a, b, c) = (chain.joint(0), chain.joint(1), chain.joint(2));
    let (l1, l2) = (a.distance(b), b.distance(c));
    // How far from the start the end should be: the target's distance, softened, and no further
    // than the chain stretches or nearer than it folds.
    // (The target's distance in f64, which a target at 1e20 does not overflow; past what an f32
    // holds it is infinite, and clamped to the chain's stretch like any target out of reach.)
    let d = softened(distance(a, target) as f32, l1 + l2, soften).clamp((l1 - l2).abs(), l1 + l2);

    // 1. The middle joint: from the angle it has (between b→a and b→c) to the one the law of
    // cosines asks for. atan2 keeps the small angles and those near 180 degrees accurate.
    let (to_start, to_end) = (a - b, c - b);
    let normal = to_start.cross(to_end);
    let has = normal.length().atan2(to_start.dot(to_end));
    let wants = law_of_cosines(l1, l2, d);
    let hinge = hinge_axis(normal, a, c, pole);
    chain.turn(1, Quat::from_axis_angle(hinge, wants - has), local);
    chain.measure_from(1, local, bend);

    // 2. The start joint aims the end at the target.
    let aim = turn_between(chain.joint(2) - a, target - a);
    // 3. ...and swings the chain about a → t until the bend's plane holds the pole. The middle
    // joint's side of the line a → t is set by the hinge axis (its turn made b → a, b → c turn
    // about it), so the swing takes the aimed hinge axis onto the normal of the pole's plane.
    let swing = match pole {
        Some(pole) => swing_to_pole(aim * hinge, target - a, pole - a),
        None => Quat::IDENTITY,
    };
    chain.turn(0, swing * aim, local);
    chain.measure_from(0, local, bend);
    chain.joint(2)
}

/// The angle at the middle joint of a triangle with sides `l1`, `l2` and `d` (opposite it), from
/// the law of cosines, `cos θ = (l1² + l2² - d²) / (2 l1 l2)`.
///
/// Written with half angles: `sin²(θ/2) = (d² - (l1 - l2)²) / (4 l1 l2)` and
/// `cos²(θ/2) = ((l1 + l2)² - d²) / (4 l1 l2)`, each a product of a difference and a sum. Taking
/// `acos` of the cosine itself loses a straight arm: a cosine that rounds to just above -1 comes
/// out at least 0.02 degrees short of 180. Here `d = l1 + l2` makes the cosine of the half angle
/// exactly 0, and the angle exactly 180 degrees.
pub fn law_of_cosines(l1: f32, l2: f32, d: f32) -> f32 {
    let (longest, least) = (l1 + l2, (l1 - l2).abs());
    let sin_half = ((d - least) * (d + least)).max(0.0).sqrt();
    let cos_half = ((longest - d) * (longest + d)).max(0.0).sqrt();
    2.0 * sin_half.atan2(cos_half)
}

/// The axis the middle joint bends about: the normal of the plane `a b c` as the pose has it (its
/// direction is `(a - b) × (c - b)`). A straight chain has no plane: then the pole's, which step 3
/// turns to anyway (`Reach::solve` gives a straight limb without a pole the default bend's,
/// `bend_rule.rs`), or, for a pole on the chain's own line, any axis across it.
fn hinge_axis(normal: Vec3, a: Vec3, c: Vec3, pole: Option<Vec3>) -> Vec3 {
    let along = c - a;
    // Straight (to float precision) when the plane's normal is tiny next to the bone lengths.
    if normal.length_squared() > 1e-10 * along.length_squared() * along.length_squared() {
        return normal.normalize();
    }
    // For a plane through a, c and the pole, with the pole on the side the middle joint bends to,
    // the normal is (c - a) × (pole - a), by the same rule as above.
    let towards_pole = pole.and_then(|p| unit(p - a)).map_or(Vec3::ZERO, |p| along.cross(p));
    match towards_pole.try_normalize() {
        Some(axis) => axis,
        None => along.any_orthonormal_vector(),
    }
}

/// The turn about `line` (the start to the target) that takes `hinge` (the bend's axis, across the
/// line) onto the normal of the plane holding the line and `pole`, so the middle joint comes into
/// that plane on the pole's side. No turn when the pole lies on the line: the plane is not
/// defined, and there the chain flips over as the target passes (see the chapter).
fn swing_to_pole(hinge: Vec3, line: Vec3, pole: Vec3) -> Quat {
    // Both made one long first (`chain::unit`), so a far target or pole still gives a plane.
    let (Some(line), Some(pole)) = (unit(line), unit(pole)) else {
        return Quat::IDENTITY;
    };
    let Some(wanted) = line.cross(pole).try_normalize() else {
        return Quat::IDENTITY;
    };
    // The hinge is across the line already (aiming turned it with the chain); only its angle
    // about the line changes.
    let angle = line.dot(hinge.cross(wanted)).atan2(hinge.dot(wanted));
    Quat::from_axis_angle(line, angle)
}

/// How far from the start the end aims for a target `distance` away, on a chain `length` long,
/// softened from `ratio * length` on (ozz-animation's `soften`; a ratio of 1 or more: not at all).
///
/// Past that point the end keeps falling behind: with `da = ratio * length` and `ds = length - da`,
/// a target `da + x` away is aimed at from `da + ds (1 - e^(-x / ds))`. At `x = 0` that is the
/// target itself and it moves as fast as the target does, so there is no kink; it reaches `length`
/// only as the target goes to infinity. (ozz approximates the same curve by `1 - 3⁴ / (3 + x/ds)⁴`.)
pub fn softened(distance: f32, length: f32, ratio: f32) -> f32 {
    let da = length * ratio.clamp(0.0, 1.0);
    let ds = length - da;
    if distance <= da || ds <= 0.0 {
        return distance;
    }
    da + ds * (1.0 - (-(distance - da) / ds).exp())
}
