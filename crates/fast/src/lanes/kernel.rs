//! The fast path's math, written once for every kind of lanes: eight vertices at a time. The loop
//! over a run of them is `eight.rs`.
//!
//! [`F32x8`] is eight `f32`s, one per vertex of a group, and what the math needs of them: add,
//! multiply, a square root, a choice lane by lane. `avx2.rs` makes it one AVX register, `sse2.rs`
//! two SSE registers, `portable.rs` a plain array. Each also moves the group's data between the
//! two layouts ([`F32x8::blended_matrices`], [`F32x8::blended_dual_quats`], [`F32x8::load`],
//! [`F32x8::store`]): the vertices and the outputs are stored a vertex at a time, the arithmetic
//! runs a number at a time across the group. Positions alone, by linear blending, need no turning
//! round: a position is four columns times numbers, which suits a vertex's own registers
//! ([`F32x8::blended_positions`]). The math of a group is a [`GroupSkin`]: linear blending
//! (`linear.rs`) or dual quaternions (`dual.rs`).

use glam::{Mat4, Vec3A};
use skinning_method::dual_quat::DualQuat;
use skinning_method::skin::VertexInfluences;
use std::ops::{Add, Mul, Sub};

/// How many vertices the loop takes at once: one `f32` each in an `F32x8`.
pub const GROUP: usize = 8;

/// Numbers side by side, one per vertex, and the arithmetic the rule needs of them, lane by lane:
/// what eight lanes ([`F32x8`]) and four lanes (`four.rs`: `F32x4`) both are.
pub trait Lane: Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> {
    /// `self * b + c`: rounded once with fused multiply-add (AVX2's lanes say so), else twice, as
    /// here. Not `f32::mul_add`: it is a slow library call where the processor has no FMA.
    #[inline(always)]
    fn mul_add(self, b: Self, c: Self) -> Self {
        self * b + c
    }
    /// `self * b - c`: rounded once with fused multiply-add, else twice, as here.
    #[inline(always)]
    fn mul_sub(self, b: Self, c: Self) -> Self {
        self * b - c
    }
    /// `1 / sqrt(self)`, each step rounded (glam's `length_recip`).
    fn recip_sqrt(self) -> Self;
    /// `self` with the sign bit of `sign`.
    fn with_sign_of(self, sign: Self) -> Self;
    /// Lane by lane: `yes` where `self` is finite and above 0, `no` elsewhere (NaN included).
    fn finite_positive_or(self, yes: [Self; 3], no: [Self; 3]) -> [Self; 3];
}

/// Eight `f32`s, one per vertex of a group; every operation works on all eight at once.
///
/// A value of these lanes is made only from a [`F32x8::Proof`]: the functions that make one
/// (`splat`, `load`, the `blended_` three) take it, and the rest take values already made. So
/// where an `F32x8` exists, its processor was checked, and its operations may use its instructions.
pub trait F32x8: Lane {
    /// That this processor runs these lanes: a value only the check can make (AVX2's is made by
    /// `HasAvx2Fma::detect`); `()` for lanes every processor they compile for runs.
    type Proof: Copy;
    /// The same number in every lane.
    fn splat(proof: Self::Proof, x: f32) -> Self;

    /// Each vertex's blended matrix `Σ wᵢ palette[jointᵢ]` from its four joints and weights,
    /// summed a vertex at a time, then turned round so that `[c][r]` holds row r of column c for
    /// the eight vertices (columns x, y, z and the translation).
    fn blended_matrices(
        proof: Self::Proof,
        palette: &[Mat4],
        group: &[VertexInfluences; GROUP],
    ) -> [[Self; 3]; 4];
    /// Positions alone: each vertex's blended matrix, and its position `M · bind` from it, a vertex
    /// at a time, with no turning round. The same operations, in the same order, as the lanes'
    /// `times` and `+ t`, so the same bits.
    fn blended_positions(
        proof: Self::Proof,
        palette: &[Mat4],
        group: &[VertexInfluences; GROUP],
        bind: &[Vec3A; GROUP],
        positions: &mut [Vec3A; GROUP],
    );
    /// Each vertex's weighted sum of its joints' dual quaternions, each term turned to the side of
    /// the first joint's rotation (`dual_quat.rs`, step 1), summed a vertex at a time, then turned
    /// round: the real part's x, y, z, w, then the dual part's.
    fn blended_dual_quats(
        proof: Self::Proof,
        dq_palette: &[DualQuat],
        group: &[VertexInfluences; GROUP],
    ) -> [Self; 8];
    /// Eight vectors as x, y and z.
    fn load(proof: Self::Proof, v: [&Vec3A; GROUP]) -> [Self; 3];
    /// x, y and z back into eight vectors, with plain stores. This and `blended_positions` are where
    /// the outputs are written.
    fn store(v: [Self; 3], out: &mut [Vec3A; GROUP]);

    /// A hint: fetch the lines the loop writes [`AHEAD`] groups on, so that the read a plain store
    /// makes first overlaps the groups between. `at` may be past the end: a prefetch never faults.
    #[inline(always)]
    fn prefetch(_at: *const Vec3A) {}
}

/// How many groups ahead the loop asks for its outputs' lines ([`F32x8::prefetch`]): 512 bytes of
/// positions, which pays in a crowd (chapter 14, "A crowd").
pub const AHEAD: usize = 4;

/// The eight vectors' cross products, lane by lane: `a × b`.
#[inline(always)]
pub fn cross<L: Lane>(a: [L; 3], b: [L; 3]) -> [L; 3] {
    [a[1].mul_sub(b[2], a[2] * b[1]), a[2].mul_sub(b[0], a[0] * b[2]), a[0].mul_sub(b[1], a[1] * b[0])]
}

/// The eight vectors' dot products, lane by lane: `a · b`.
#[inline(always)]
pub fn dot<L: Lane>(a: [L; 3], b: [L; 3]) -> L {
    a[2].mul_add(b[2], a[1].mul_add(b[1], a[0] * b[0]))
}

/// `m · v` for the 3x3 matrix of columns `m`, lane by lane (glam's order: x, then y, then z).
#[inline(always)]
pub fn times<L: Lane>(m: [[L; 3]; 3], v: [L; 3]) -> [L; 3] {
    [
        m[2][0].mul_add(v[2], m[1][0].mul_add(v[1], m[0][0] * v[0])),
        m[2][1].mul_add(v[2], m[1][1].mul_add(v[1], m[0][1] * v[0])),
        m[2][2].mul_add(v[2], m[1][2].mul_add(v[1], m[0][2] * v[0])),
    ]
}

/// The normal by the rule of `normals.rs` (`normal_by`), lane by lane, from the blended matrix's
/// columns `m` and the normal before the blend `n`: what `linear.rs` makes, in two halves that the
/// four lanes (`four.rs`) run a block of fours apart.
#[inline(always)]
pub fn normal_rule<L: Lane>(m: [[L; 3]; 3], n: [L; 3]) -> [L; 3] {
    let (moved, det) = moved_normal(m, n);
    normalised(moved, det, n)
}

/// The first half of [`normal_rule`]: `cofactor(M) · n`, and `det(M)` for its sign.
#[inline(always)]
pub fn moved_normal<L: Lane>(m: [[L; 3]; 3], n: [L; 3]) -> ([L; 3], L) {
    let [x, y, z] = m;
    // cofactor(M) · n, whose columns are the cross products of M's columns; det(M) = x · (y × z).
    let cofactor = [cross(y, z), cross(z, x), cross(x, y)];
    (times(cofactor, n), dot(x, cofactor[0]))
}

/// The second half of [`normal_rule`]: `moved` turned round where `det` is negative, normalised;
/// the bind normal `n` where there is no length to normalise.
#[inline(always)]
pub fn normalised<L: Lane>(moved: [L; 3], det: L, n: [L; 3]) -> [L; 3] {
    let recip = dot(moved, moved).recip_sqrt();
    let scale = recip.with_sign_of(det);
    let normal = [moved[0] * scale, moved[1] * scale, moved[2] * scale];
    recip.finite_positive_or(normal, n)
}

/// Four `f32`s, one per vertex of four, in one 128-bit register.
#[cfg_attr(
    not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))),
    allow(dead_code)
)]
pub trait F32x4: Lane {
    /// Whether `four.rs` keeps its loops short for these lanes: positions alone a vertex at a time
    /// by the palette's columns; with normals, each vertex's blend in a loop of its own before the
    /// rest of the four (`fours_with_normals`). For an engine whose register allocator spilled the
    /// long loops (V8).
    const SHORT_LOOPS: bool = false;
    /// The same number in every lane.
    fn splat(x: f32) -> Self;
    /// Four numbers from memory (any alignment).
    fn load(v: &[f32; 4]) -> Self;
    /// Each lane of `self` across a whole register: `[a a a a], [b b b b]`...
    fn spread(self) -> [Self; 4];
    /// A vector's x, y, z and its padding, one register.
    fn vector(v: Vec3A) -> Self;
    /// Four rows in, four columns out: number k of row j becomes number j of column k.
    fn transpose4(rows: [Self; 4]) -> [Self; 4];
    /// One vector out, its first three lanes and the fourth (into the vector's padding).
    fn put(self, to: &mut Vec3A);
}

/// A way to skin a group of eight vertices, lane by lane: linear blending (`Linear`, in
/// `linear.rs`) or dual quaternions (`DualQuats`, in `dual.rs`).
pub trait GroupSkin: Copy {
    /// The eight positions from the group's positions before the blend, `bind`, and the eight
    /// normals where `normals` gives theirs and room for them.
    fn skin<L: F32x8>(
        self,
        proof: L::Proof,
        group: &[VertexInfluences; GROUP],
        bind: &[Vec3A; GROUP],
        positions: &mut [Vec3A; GROUP],
        normals: Option<([L; 3], &mut [Vec3A; GROUP])>,
    );

    /// Whether this way of skinning moves a normal by the blended matrix, as linear blending does.
    /// Then the eight lanes' loop runs the normals in loops of their own (`eight.rs`:
    /// `blocks_with_normals`), from the columns [`GroupSkin::columns`] keeps.
    const BY_MATRIX: bool = false;

    /// Where [`GroupSkin::BY_MATRIX`]: the eight positions, and the blended matrices' columns x, y
    /// and z for the normals. None, and nothing written, for the other ways.
    #[inline(always)]
    fn columns<L: F32x8>(
        self,
        _proof: L::Proof,
        _group: &[VertexInfluences; GROUP],
        _bind: &[Vec3A; GROUP],
        _positions: &mut [Vec3A; GROUP],
    ) -> Option<[[L; 3]; 3]> {
        None
    }

    /// The whole run on four lanes `F` (`four.rs`), where this way of skinning has a four-lane
    /// kernel for it: true if it ran, false (nothing written) where the caller must run the eight.
    #[inline(always)]
    fn four_lanes<F: F32x4>(self, _inputs: Inputs, _positions: &mut [Vec3A], _normals: &mut [Vec3A]) -> bool {
        false
    }
}

/// Eight vectors as the lanes load them.
#[inline(always)]
pub fn refs(v: &[Vec3A; GROUP]) -> [&Vec3A; GROUP] {
    [&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]]
}

/// What a run of vertices is skinned from, each a stream of one per vertex, as ozz's
/// `SkinningJob` takes its input spans: the influences, the positions before the blend, and the
/// normals before it (empty for positions alone).
#[derive(Clone, Copy)]
pub struct Inputs<'a> {
    pub influences: &'a [VertexInfluences],
    pub bind: &'a [Vec3A],
    pub bind_normals: &'a [Vec3A],
}
