//! Dual-quaternion skinning (DQS): blend the bones' motions, not the positions they give.
//!
//! Kavan, Collins, Žára, O'Sullivan, "Skinning with Dual Quaternions" (I3D 2007). Linear blend
//! skinning (`blend.rs`) averages where each bone alone would put a vertex. When two bones turn
//! far apart, those candidates lie on opposite sides of the joint and their average falls inside the
//! mesh: twisted by 150°, a vertex half on each bone ends at cos 75° (0.26) of its distance from the
//! axis. DQS averages the bones' *motions* instead. The average of two rigid motions, done this way,
//! is still a rigid motion (a rotation and a translation), and a rotation keeps every distance from
//! its axis: the vertex turns halfway, 75°, at its full distance.
//!
//! A rotation q (a unit quaternion) followed by a translation t is one **unit dual quaternion**, two
//! quaternions (products are Hamilton's, t is the quaternion (t, 0)):
//!
//! ```text
//! real = q          dual = ½ t q          moves p to  q p q* + t,  with  t = 2 dual real*
//! ```
//!
//! The blend of one vertex, with its weights wᵢ on joints whose motions are dqᵢ:
//!
//! 1. **sum**: `b = Σ ±wᵢ dqᵢ`, both parts, each term's sign chosen as below;
//! 2. **normalise**: divide both parts by the length of `b.real`, so the rotation is a unit
//!    quaternion again (a weighted sum of unit quaternions is shorter, as the average of two points
//!    on a circle lies inside it). The dual part may keep a small piece along the real part, which a
//!    unit dual quaternion does not have; that piece only changes the w of `2 dual real*`, which step
//!    3 does not read, so this division is the whole normalisation;
//! 3. **apply** to the bind position: rotate it by `real`, add `t = 2 dual real*`.
//!
//! **Why the sign flip.** q and -q are the same rotation (every number flips, yet `q p q*` does
//! not change), and a palette may hold either. In a sum they are opposites: ½q + ½(-q) = 0. So
//! before adding, every influence whose rotation part points away from the first influence's
//! (`dot(qᵢ, q₀) < 0`) is added with its weight negated: all terms then lie on the same side, and
//! the blend turns the short way between the bones' rotations.
//!
//! **What DQS cannot do: scale and shear.** A unit dual quaternion holds a rotation and a
//! translation, nothing else; a palette matrix that stretches, shears or mirrors has none. One case
//! is common and harmless: a scale shared by every joint (a model exported in centimetres, an
//! armature scaled by 0.01 that the offsets do not undo). Then every palette matrix is `[s R | t]`,
//! which moves p to `R (s p) + t`: [`compute_dq_palette`] factors that one `s` out, and
//! [`DualQuats`] scales the bind position by it before the rigid blend. Any other scale (different
//! per joint or per axis), a shear or a mirror is refused with [`NotRigid`], naming the joint; the
//! program then refuses `--method dqs` and `D` for that model, or, if a clip scales a joint later
//! on, goes back to linear blending, saying why in one line. The tolerance is [`RIGID_TOLERANCE`].
//!
//! **Normals** turn by the blended rotation alone, `real` after steps 1 and 2
//! ([`DualQuats`]' `BlendNormal::normal`): a rotation moves a direction, the translation does not, and the shared
//! scale is the same along every axis, so it changes no direction.
//!
//! **Every influence.** Step 1 sums all of a vertex's influences. The main loop reads the four
//! slots; a vertex with more (the skin's extras, `skin/extras.rs`) is blended again, whole, by the
//! blend's second pass (`blend.rs`: `finish_extras`): a normalised sum cannot be finished by adding
//! to it.
//!
//! What DQS trades: in a bend too, it keeps a blended vertex at its distance from the joint, where
//! LBS pulls it in. On the outside of a strong bend, where real skin would stretch flat, that arc
//! sticks out: the skin bulges (`docs/07-the-twist-and-dual-quaternions.md` measures it). It also
//! costs more arithmetic per vertex than LBS (`cargo bench` times it), for half the palette data
//! (8 numbers a joint).

mod rigid;

pub use rigid::{NotRigid, RIGID_TOLERANCE, RigidProblem};

use crate::blend::Blend;
use crate::normals::BlendNormal;
use crate::skin::{ExtraInfluence, SLOTS, VertexInfluences};
use glam::{Mat4, Quat, Vec3, Vec3A, Vec4};
use rigid::{axis_lengths, rotation_of};

/// A rigid motion as a unit dual quaternion: rotate by `real`, then translate by `2 dual real*`.
///
/// Laid out as eight floats, `real` then `dual`, each x, y, z, w: the layout of the GPU's palette.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct DualQuat {
    /// The rotation, a unit quaternion.
    pub real: Quat,
    /// Half the translation times the rotation: `½ (t, 0) real`.
    pub dual: Quat,
}

impl DualQuat {
    /// No motion: no rotation, no translation.
    pub const IDENTITY: DualQuat =
        DualQuat { real: Quat::IDENTITY, dual: Quat::from_xyzw(0.0, 0.0, 0.0, 0.0) };

    /// Rotate by `rotation` (a unit quaternion), then move by `translation`.
    pub fn from_rotation_translation(rotation: Quat, translation: Vec3) -> DualQuat {
        // ½ (t, 0) q, written out: (a, 0)(b, w) = (w a + a × b, -a · b).
        let (t, v) = (translation, rotation.xyz());
        let dual = 0.5 * (rotation.w * t + t.cross(v));
        DualQuat { real: rotation, dual: Quat::from_xyzw(dual.x, dual.y, dual.z, -0.5 * t.dot(v)) }
    }

    /// The translation, `2 dual real*` (its vector part; `real` unit).
    pub fn translation(&self) -> Vec3 {
        self.translation_a().into()
    }

    fn translation_a(&self) -> Vec3A {
        let (r, d) = (vector(self.real), vector(self.dual));
        2.0 * (self.real.w * d - self.dual.w * r + r.cross(d))
    }

    /// Moves the point `p`: rotate, then translate. For a unit dual quaternion.
    pub fn transform_point(&self, p: Vec3A) -> Vec3A {
        // q p q* for a unit q = (r, w), without building a matrix: p + 2 r × (r × p + w p).
        let r = vector(self.real);
        let rotated = p + 2.0 * r.cross(r.cross(p) + self.real.w * p);
        rotated + self.translation_a()
    }
}

/// The vector part (x, y, z) of a quaternion, in a SIMD register.
fn vector(q: Quat) -> Vec3A {
    Vec3A::from_vec4(Vec4::from(q))
}

/// The palette as unit dual quaternions, once per joint per frame, like `skin::compute_palette`.
///
/// Returns the scale every joint shares (1 for the article's scene), which [`DualQuats`] applies to
/// the bind positions; or the first joint that is not a rotation and a translation after it. On
/// error, `dq_palette` is only partly written.
pub fn compute_dq_palette(palette: &[Mat4], dq_palette: &mut [DualQuat]) -> Result<f32, NotRigid> {
    assert_eq!(palette.len(), dq_palette.len(), "one dual quaternion per joint");
    let Some(first) = palette.first() else { return Ok(1.0) };
    let common = axis_lengths(first).element_sum() / 3.0;
    for (joint, (m, dq)) in palette.iter().zip(dq_palette.iter_mut()).enumerate() {
        let rotation = rotation_of(m, common).map_err(|problem| NotRigid { joint, problem })?;
        *dq = DualQuat::from_rotation_translation(rotation, m.w_axis.truncate());
    }
    Ok(common)
}

/// The palette as unit dual quaternions, one per joint, and the scale every joint shares, factored
/// out of them: what a skinner that blends by DQS makes of a frame's palette (`lbs_or_dqs.rs`:
/// `ByMethod::dq`).
#[derive(Clone, Debug)]
pub struct DqPalette {
    pub joints: Vec<DualQuat>,
    pub scale: f32,
}

impl DqPalette {
    /// Room for `joints` joints, each at the identity.
    pub fn new(joints: usize) -> DqPalette {
        DqPalette { joints: vec![DualQuat::IDENTITY; joints], scale: 1.0 }
    }

    /// Made again from `palette` ([`compute_dq_palette`]); on error, only partly.
    pub fn update(&mut self, palette: &[Mat4]) -> Result<(), NotRigid> {
        self.scale = compute_dq_palette(palette, &mut self.joints)?;
        Ok(())
    }
}

/// Dual-quaternion skinning: the palette as unit dual quaternions, one per joint, and the scale
/// every joint shares ([`compute_dq_palette`]). As a [`Blend`], every vertex is moved by the
/// weighted, normalised sum of its joints' dual quaternions (steps 1 to 3 above), after scaling its
/// bind position by `scale`; its normal turns by the blended rotation. The blend's loop
/// (`blend.rs`: `blend_run`) runs it as it runs linear blending, its second pass included: a
/// normalised sum cannot be finished by adding to it, so a vertex with extras is blended again
/// whole. `shaders/skinning_dqs.vert` is the same arithmetic, run by the GPU.
#[derive(Clone, Copy, Debug)]
pub struct DualQuats<'a> {
    pub joints: &'a [DualQuat],
    pub scale: f32,
}

impl Blend for DualQuats<'_> {
    fn joints(&self) -> usize {
        self.joints.len()
    }

    fn position(&self, v: &VertexInfluences, extras: &[ExtraInfluence], bind: Vec3A) -> Vec3A {
        // 3. Apply the blended motion to the (scaled) bind position.
        blended_motion(v, extras, self.joints).transform_point(self.scale * bind)
    }
}

impl BlendNormal for DualQuats<'_> {
    /// The bind normal turned by the blended rotation alone: a translation moves no direction, and
    /// the shared scale is the same along every axis.
    fn normal(&self, v: &VertexInfluences, extras: &[ExtraInfluence], normal: Vec3A) -> Vec3A {
        turn(blended_motion(v, extras, self.joints).real, normal)
    }
}

/// Steps 1 and 2 for one vertex: its joints' motions, summed by weight and normalised; the four
/// slots, then the `extras` given (none in the main loop).
fn blended_motion(v: &VertexInfluences, extras: &[ExtraInfluence], dq_palette: &[DualQuat]) -> DualQuat {
    // 1. The weighted sum, every term on the side of the first influence's rotation.
    let first = dq_palette[v.joints[0] as usize].real;
    let (mut real, mut dual) = (Vec4::ZERO, Vec4::ZERO);
    let mut add = |joint: usize, weight: f32| {
        let dq = &dq_palette[joint];
        let weight = if dq.real.dot(first) < 0.0 { -weight } else { weight };
        real += weight * Vec4::from(dq.real);
        dual += weight * Vec4::from(dq.dual);
    };
    for i in 0..SLOTS {
        add(v.joints[i] as usize, v.weights[i]);
    }
    for extra in extras {
        add(extra.joint, extra.weight);
    }
    // 2. Normalise by the real part's length.
    let inverse_length = 1.0 / real.length();
    DualQuat { real: Quat::from_vec4(real * inverse_length), dual: Quat::from_vec4(dual * inverse_length) }
}

/// A direction turned by the unit quaternion `real`: the rotation part of `transform_point`,
/// `n + 2 r × (r × n + w n)`.
fn turn(real: Quat, n: Vec3A) -> Vec3A {
    let r = vector(real);
    n + 2.0 * r.cross(r.cross(n) + real.w * n)
}
