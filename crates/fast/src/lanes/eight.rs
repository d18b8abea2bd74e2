//! The loop over a run of vertices, for every kind of lanes: whole groups of eight, then the last
//! few in a group of their own. Each group is skinned by a [`GroupSkin`] on lanes [`F32x8`]
//! (`kernel.rs`). Where the normals are moved by the blended matrix (linear blending), they take
//! loops of their own, a block of groups at a time ([`blocks_with_normals`]).

/// How many groups a block takes in [`blocks_with_normals`]: 64 vertices, whose kept numbers
/// (3.3 KB) stay in the first-level cache.
const BLOCK: usize = 8;

use super::kernel::{AHEAD, F32x8, GROUP, GroupSkin, Inputs, moved_normal, normalised, refs};
use glam::Vec3A;
use skinning_method::skin::VertexInfluences;

/// The loop over a run of vertices, reading its [`Inputs`]: groups of eight, then the last few in a group filled up with
/// copies of the first of them, so that every vertex goes through the very same arithmetic
/// wherever the run starts and ends. `normals` is empty for positions alone; otherwise it and
/// `bind_normals` have one per vertex.
#[inline(always)]
pub fn blend_run<L: F32x8>(
    proof: L::Proof,
    method: impl GroupSkin,
    inputs: Inputs,
    positions: &mut [Vec3A],
    normals: &mut [Vec3A],
) {
    let Inputs { influences: vertices, bind, bind_normals } = inputs;
    let (groups, rest) = vertices.as_chunks::<GROUP>();
    let (points, points_rest) = bind.as_chunks::<GROUP>();
    let (out, out_rest) = positions.as_chunks_mut::<GROUP>();
    let (bind, bind_rest) = bind_normals.as_chunks::<GROUP>();
    let (normals, normals_rest) = normals.as_chunks_mut::<GROUP>();
    let whole = Groups { groups, points, bind };
    whole_groups::<L, _>(proof, method, whole, out, normals);
    if let Some(&first) = rest.first() {
        let mut group = [first; GROUP];
        group[..rest.len()].copy_from_slice(rest);
        let mut points = [points_rest[0]; GROUP];
        points[..points_rest.len()].copy_from_slice(points_rest);
        let mut bind = [Vec3A::X; GROUP];
        bind[..bind_rest.len()].copy_from_slice(bind_rest);
        let (mut positions, mut normals) = ([Vec3A::ZERO; GROUP], [Vec3A::ZERO; GROUP]);
        let with_normals = !normals_rest.is_empty();
        let normals_in = with_normals.then_some((L::load(proof, refs(&bind)), &mut normals));
        method.skin::<L>(proof, &group, &points, &mut positions, normals_in);
        out_rest.copy_from_slice(&positions[..rest.len()]);
        normals_rest.copy_from_slice(&normals[..normals_rest.len()]);
    }
}

/// A run's whole groups, what they are skinned from: the influences, and the positions and normals
/// before the blend (no normals for positions alone).
#[derive(Clone, Copy)]
struct Groups<'a> {
    groups: &'a [[VertexInfluences; GROUP]],
    points: &'a [[Vec3A; GROUP]],
    bind: &'a [[Vec3A; GROUP]],
}

/// The whole groups of a run. A function, not a closure: a closure takes the instruction set of
/// the function it is written in, not of `run_avx2` it is inlined into, and every intrinsic in it
/// was a call. The lines each group writes [`AHEAD`] groups on are asked for early.
#[inline(always)]
fn whole_groups<L: F32x8, M: GroupSkin>(
    proof: L::Proof,
    method: M,
    whole: Groups,
    out: &mut [[Vec3A; GROUP]],
    normals: &mut [[Vec3A; GROUP]],
) {
    let Groups { groups, points, bind } = whole;
    let (out_at, normals_at) = (out.as_ptr(), normals.as_ptr());
    let with_normals = !normals.is_empty();
    if with_normals && M::BY_MATRIX {
        return blocks_with_normals::<L, M>(proof, method, whole, out, normals);
    }
    let groups = groups.iter().zip(points).zip(out).enumerate();
    if !with_normals {
        for (i, ((group, points), out)) in groups {
            L::prefetch(out_at.wrapping_add(i + AHEAD).cast());
            method.skin::<L>(proof, group, points, out, None);
        }
        return;
    }
    for ((i, ((group, points), out)), (bind, normals)) in groups.zip(bind.iter().zip(normals)) {
        L::prefetch(out_at.wrapping_add(i + AHEAD).cast());
        L::prefetch(normals_at.wrapping_add(i + AHEAD).cast());
        let bind_normals = L::load(proof, refs(bind));
        method.skin::<L>(proof, group, points, out, Some((bind_normals, normals)));
    }
}

/// The whole groups with normals, where they are moved by the blended matrix: three loops a block
/// of [`BLOCK`] groups. Each group's positions, its matrices' columns kept; then each group's
/// moved normal (`kernel.rs`: `moved_normal`), kept; then each normalised. As in the four lanes
/// (`four.rs`): a loop of one group's whole work was too long for the processor to start the next
/// group while a square root finished, and each loop writes one output stream.
#[inline(always)]
fn blocks_with_normals<L: F32x8, M: GroupSkin>(
    proof: L::Proof,
    method: M,
    Groups { groups, points, bind }: Groups,
    out: &mut [[Vec3A; GROUP]],
    normals: &mut [[Vec3A; GROUP]],
) {
    // One length for all, so that the indexing below is checked once.
    let n = groups.len();
    let (points, bind, out, normals) = (&points[..n], &bind[..n], &mut out[..n], &mut normals[..n]);
    let (out_at, normals_at) = (out.as_ptr(), normals.as_ptr());
    let zero = L::splat(proof, 0.0);
    let mut columns = [[[zero; 3]; 3]; BLOCK];
    let mut moved = [([zero; 3], zero); BLOCK];
    for start in (0..n).step_by(BLOCK) {
        let end = n.min(start + BLOCK);
        for i in start..end {
            L::prefetch(out_at.wrapping_add(i + AHEAD).cast());
            L::prefetch(normals_at.wrapping_add(i + AHEAD).cast());
            if let Some(kept) = method.columns::<L>(proof, &groups[i], &points[i], &mut out[i]) {
                columns[i - start] = kept;
            }
        }
        for i in start..end {
            moved[i - start] = moved_normal(columns[i - start], L::load(proof, refs(&bind[i])));
        }
        for i in start..end {
            let (m, det) = moved[i - start];
            // The bind normals are loaded here again, for the rare group with a normal of no length.
            L::store(normalised(m, det, L::load(proof, refs(&bind[i]))), &mut normals[i]);
        }
    }
}
