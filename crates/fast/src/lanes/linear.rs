//! Linear blend skinning for a group of eight, lane by lane: the blended matrix once per vertex,
//! and from it the position and the normal by the rule of `normals.rs`.
//!
//! The normal's sums are in the reference's order (`normals::skin_normal`), so lanes without fused
//! multiply-add round exactly as it does. The position is not the reference's: `Linear::position` sums
//! `wᵢ (Mᵢ · bind)`, and this takes `(Σ wᵢ Mᵢ) · bind`, the same point rounded differently, about
//! 1e-7 of the model's size apart (`lanes.rs`). Without fused multiply-add, that position is the
//! bits of glam's `Mat4::transform_point3a` on the blended matrix (`tests/lanes.rs`).

use super::four;
use super::kernel::{F32x4, F32x8, GROUP, GroupSkin, Inputs, normal_rule, refs, times};
use glam::{Mat4, Vec3A};
use skinning_method::blend::Linear;
use skinning_method::skin::VertexInfluences;

/// A group's positions, lane by lane, from each vertex's blended matrix; returns the matrices'
/// columns x, y and z, by which the normals are moved.
#[inline(always)]
fn positions_and_columns<L: F32x8>(
    proof: L::Proof,
    palette: &[Mat4],
    group: &[VertexInfluences; GROUP],
    bind: &[Vec3A; GROUP],
    positions: &mut [Vec3A; GROUP],
) -> [[L; 3]; 3] {
    // Once per vertex: the blended matrix M, its columns x, y, z and its translation t.
    let [x, y, z, t] = L::blended_matrices(proof, palette, group);
    // The position: M · bind + t.
    let moved = times([x, y, z], L::load(proof, refs(bind)));
    L::store([moved[0] + t[0], moved[1] + t[1], moved[2] + t[2]], positions);
    [x, y, z]
}

impl GroupSkin for Linear<'_> {
    #[inline(always)]
    fn skin<L: F32x8>(
        self,
        proof: L::Proof,
        group: &[VertexInfluences; GROUP],
        bind: &[Vec3A; GROUP],
        positions: &mut [Vec3A; GROUP],
        normals: Option<([L; 3], &mut [Vec3A; GROUP])>,
    ) {
        // Positions alone need no lanes: a vertex at a time, with no turning round.
        let Some((n, out)) = normals else {
            return L::blended_positions(proof, self.0, group, bind, positions);
        };
        let columns = positions_and_columns(proof, self.0, group, bind, positions);
        L::store(normal_rule(columns, n), out);
    }

    const BY_MATRIX: bool = true;

    #[inline(always)]
    fn columns<L: F32x8>(
        self,
        proof: L::Proof,
        group: &[VertexInfluences; GROUP],
        bind: &[Vec3A; GROUP],
        positions: &mut [Vec3A; GROUP],
    ) -> Option<[[L; 3]; 3]> {
        Some(positions_and_columns(proof, self.0, group, bind, positions))
    }

    /// The four-lane kernel of `four.rs`, with the palette as rows, where it fits the stack copy.
    #[inline(always)]
    fn four_lanes<F: F32x4>(self, inputs: Inputs, positions: &mut [Vec3A], normals: &mut [Vec3A]) -> bool {
        four::blend_run::<F>(self.0, inputs, positions, normals)
    }
}
