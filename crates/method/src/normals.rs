//! Normals that follow the skin: the direction a surface faces, moved with it (article 004).
//!
//! A **normal** is a direction perpendicular to the surface at a vertex; lighting needs it, to tell
//! how squarely the light meets the surface. Article 004 gives the first half of the rule: a normal
//! moves with the bones' rotation but not their translation (a direction has no position to move).
//! The second half: a normal moves by the **inverse transpose** of the matrix that moves its
//! vertex, and under linear blending that matrix is the blended one, `M = Σ wᵢ palette[jointᵢ]`
//! (its 3x3 part). So
//!
//! ```text
//! skinned normal = normalize(inverse_transpose(Σ wᵢ Mᵢ) · n)
//! ```
//!
//! **Why the inverse transpose.** A normal is perpendicular to every edge e of the surface:
//! `n · e = 0`. M carries an edge to `M e`; what stays perpendicular to it? `(M⁻ᵀ n) · (M e) =
//! nᵀ M⁻¹ M e = n · e = 0`. The plain `M n` keeps that only when M is a rotation (then M⁻ᵀ = M)
//! or a rotation and one scale for all axes; stretch one axis and `M n` leans towards the stretch.
//! Another way to see it: a face's normal is the cross product of two of its edges, and for any
//! 3x3 matrix `(M a) × (M b) = cofactor(M) (a × b)`, where `cofactor(M) = det(M) M⁻ᵀ` has the
//! cross products of M's columns for its columns. That is how [`skin_normal`] computes it: three
//! cross products and no division, the determinant's sign kept so that a mirroring matrix points
//! the normal as `M⁻ᵀ` does. Normalising takes away the length `det(M)` leaves.
//!
//! **Why the blended matrix.** The skinned position is `Σ wᵢ Mᵢ p = (Σ wᵢ Mᵢ) p`: near the vertex,
//! the surface moves by that one matrix, so its normal must move by that matrix's inverse
//! transpose. Engines take two shortcuts ([`Rule`]): the blended matrix as it is, `Σ wᵢ Mᵢ n`,
//! wrong under non-uniform scale; and each joint's inverse transpose, blended, `Σ wᵢ Mᵢ⁻ᵀ n`, which
//! is right for one joint but wrong wherever linear blending collapses a joint (the `twist`):
//! there the blended matrix squashes the surface, and the true normal leans with the squash.
//! `tests/normal_rules.rs` measures both on the twist and on a non-uniformly scaled model.
//!
//! **Every influence.** The blended matrix sums every influence of the vertex ([`blended_matrix`]:
//! the four slots, then the extras it is given). This lesson's loop, [`normals_run`], is the
//! blend's second output stream: it runs the rule ([`BlendNormal`], for `blend.rs`'s `Linear`)
//! over the four slots of every vertex, beside the blend of the positions, and a vertex with more
//! (the skin's extras, `skin/extras.rs`) gets its normal again in a second pass
//! ([`finish_extra_normals`]), from every influence, before the inverse transpose: a normal cannot
//! be finished after it, as a sum of positions could be.
//!
//! Dual quaternions turn the normal by the blended rotation (`dual_quat.rs`: `DualQuats`). A
//! mesh with no normals of its own gets flat ones, computed by whoever draws it from its skinned
//! triangles every frame: there is nothing to skin ([`face_normals`], `normals/shape.rs`). The article's outline has bind
//! normals of its own, worked out from its bind mesh (`scene.rs`: `outline_normals`).
//! An MD5 model, which stores no normals either, gets smooth ones worked out once from its bind
//! pose as Doom 3's engine works them out ([`smooth_normals`], `normals/smooth.rs`), then skinned
//! by the rule.

mod shape;
mod smooth;

pub use shape::{face_normal, face_normals};
pub use smooth::smooth_normals;

use crate::blend::{Blend, Linear};
use crate::skin::{ExtraInfluence, SLOTS, Skin, VertexInfluences};
use glam::{Mat3A, Mat4, Vec3A, Vec4};
use std::ops::Range;

/// A skinning method that also turns normals: where a vertex's bind `normal` turns, by the
/// same influences that move its position. [`Linear`] by the rule above; dual quaternions by their
/// blended rotation (`dual_quat.rs`).
pub trait BlendNormal: Blend {
    fn normal(&self, v: &VertexInfluences, extras: &[ExtraInfluence], normal: Vec3A) -> Vec3A;
}

impl BlendNormal for Linear<'_> {
    /// The rule: the inverse transpose of the blended matrix `Σ wᵢ palette[jointᵢ]`.
    fn normal(&self, v: &VertexInfluences, extras: &[ExtraInfluence], normal: Vec3A) -> Vec3A {
        normal_by(&blended_matrix(v, extras, self.0), normal)
    }
}

/// The blend's second output stream over a run of the skin's vertices: `normals[i]` gets the
/// normal of vertex `vertices.start + i`, turned by `method` from where `bind_normals` (one per
/// vertex of the skin: its own, or this frame's shape) has it. Every influence counts: the four
/// slots, then [`finish_extra_normals`].
///
/// # Panics
/// If `bind_normals` has not one normal per vertex, or `normals` is not the run's length.
pub fn normals_run(
    skin: &Skin,
    bind_normals: &[Vec3A],
    method: &impl BlendNormal,
    vertices: Range<usize>,
    normals: &mut [Vec3A],
) {
    assert_eq!(bind_normals.len(), skin.len(), "one normal per vertex in");
    let run = &skin.vertex_influences()[vertices.clone()];
    assert_eq!(run.len(), normals.len(), "one output normal per vertex");
    for ((v, &n), out) in run.iter().zip(&bind_normals[vertices.clone()]).zip(normals.iter_mut()) {
        *out = method.normal(v, &[], n);
    }
    finish_extra_normals(skin, bind_normals, method, vertices.start, normals);
}

/// The second pass for normals: each vertex of `first..first + normals.len()` that has extras
/// gets its normal again, from every influence (`blend.rs`: `finish_extras` says why whole).
pub fn finish_extra_normals(
    skin: &Skin,
    bind_normals: &[Vec3A],
    method: &impl BlendNormal,
    first: usize,
    normals: &mut [Vec3A],
) {
    for (vertex, extras) in skin.extras_by_vertex(first..first + normals.len()) {
        let v = &skin.vertex_influences()[vertex];
        normals[vertex - first] = method.normal(v, extras, bind_normals[vertex]);
    }
}

/// `det(m) · m⁻ᵀ`: the matrix whose columns are the cross products of `m`'s columns, so that
/// `(m a) × (m b) = cofactor(m) (a × b)`. It exists even where `m` has no inverse.
pub fn cofactor(m: &Mat3A) -> Mat3A {
    let (x, y, z) = (m.x_axis, m.y_axis, m.z_axis);
    Mat3A::from_cols(y.cross(z), z.cross(x), x.cross(y))
}

/// `m⁻ᵀ`, the matrix that moves normals when `m` moves points: the cofactor matrix over the
/// determinant (not finite where `m` has no inverse).
pub fn inverse_transpose(m: &Mat3A) -> Mat3A {
    cofactor(m) * (1.0 / m.determinant())
}

/// The 3x3 part of `Σ wᵢ palette[jointᵢ]`: the one matrix that moves the surface around vertex `v`
/// (unused slots weigh 0 and add nothing, as in the blend), over its four slots and the `extras`
/// given (none in the main loop; the vertex's own in the blend's second pass).
pub fn blended_matrix(v: &VertexInfluences, extras: &[ExtraInfluence], palette: &[Mat4]) -> Mat3A {
    let (mut x, mut y, mut z) = (Vec4::ZERO, Vec4::ZERO, Vec4::ZERO);
    let mut add = |joint: usize, w: f32| {
        let m = &palette[joint];
        x += w * m.x_axis;
        y += w * m.y_axis;
        z += w * m.z_axis;
    };
    for i in 0..SLOTS {
        add(v.joints[i] as usize, v.weights[i]);
    }
    for extra in extras {
        add(extra.joint, extra.weight);
    }
    Mat3A::from_cols(Vec3A::from_vec4(x), Vec3A::from_vec4(y), Vec3A::from_vec4(z))
}

/// The rule for one vertex over its four slots: `normalize(inverse_transpose(Σ wᵢ Mᵢ) · normal)`
/// (a vertex with extras: [`finish_extra_normals`], through [`blended_matrix`]).
pub fn skin_normal(v: &VertexInfluences, normal: Vec3A, palette: &[Mat4]) -> Vec3A {
    normal_by(&blended_matrix(v, &[], palette), normal)
}

/// The rule, given the blended matrix `m`: `normalize(inverse_transpose(m) · normal)`.
///
/// Computed as `cofactor(m) · normal`, turned round where `det(m) < 0`, then normalised. Where the
/// blend squashes the surface flat (`cofactor(m) · normal` is zero) there is no normal to find, and
/// the bind normal is kept. `shaders/skinning.vert` does the same steps, and `skinning-fast`'s
/// `lanes/kernel.rs` (`normal_rule`) does them eight or four vertices at a time.
pub fn normal_by(m: &Mat3A, normal: Vec3A) -> Vec3A {
    let (x, y, z) = (m.x_axis, m.y_axis, m.z_axis);
    let yz = y.cross(z);
    let moved = yz * normal.x + z.cross(x) * normal.y + x.cross(y) * normal.z;
    // det(M) = x · (y × z); its sign, not its size, is what the normal needs.
    let det = x.dot(yz);
    (moved * det.signum()).normalize_or(normal)
}

/// The rule, and the two shortcuts engines take, to set them side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The rule: the inverse transpose of the blended matrix ([`skin_normal`]).
    InverseTranspose,
    /// The blended matrix as it is: `normalize(Σ wᵢ Mᵢ n)`.
    BlendedMatrix,
    /// Each joint's inverse transpose, then blended: `normalize(Σ wᵢ Mᵢ⁻ᵀ n)`.
    PerJoint,
}

impl Rule {
    pub const ALL: [Rule; 3] = [Rule::InverseTranspose, Rule::BlendedMatrix, Rule::PerJoint];

    pub fn name(self) -> &'static str {
        match self {
            Rule::InverseTranspose => "inverse transpose of the blend",
            Rule::BlendedMatrix => "blended matrix as it is",
            Rule::PerJoint => "per-joint inverse transpose, blended",
        }
    }

    /// Vertex `v`'s skinned normal by this rule (unit length; where it has none, zero for the two
    /// shortcuts and the bind normal for the rule), from its four slots: the comparison is made on
    /// skins without extras.
    pub fn skin(self, v: &VertexInfluences, normal: Vec3A, palette: &[Mat4]) -> Vec3A {
        match self {
            Rule::InverseTranspose => skin_normal(v, normal, palette),
            Rule::BlendedMatrix => (blended_matrix(v, &[], palette) * normal).normalize_or_zero(),
            Rule::PerJoint => {
                let mut sum = Vec3A::ZERO;
                for i in 0..SLOTS {
                    let m = Mat3A::from_mat4(palette[v.joints[i] as usize]);
                    if v.weights[i] > 0.0 {
                        sum += v.weights[i] * (inverse_transpose(&m) * normal);
                    }
                }
                sum.normalize_or_zero()
            }
        }
    }
}

/// The angle between two directions, in degrees (0 to 180). From the sine and the cosine both:
/// `acos` of the dot product alone turns float rounding near 0° into hundredths of a degree.
pub fn degrees_between(a: Vec3A, b: Vec3A) -> f32 {
    a.cross(b).length().atan2(a.dot(b)).to_degrees()
}
