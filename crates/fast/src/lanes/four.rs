//! Linear blending in four lanes of 128 bits: SSE2 on x86-64 (`four/sse2.rs`) and WebAssembly's
//! `simd128`, the page's lanes (`four/simd128.rs`). Four vertices at a time, and a palette turned
//! round first.
//!
//! **Rows, not columns.** A palette matrix is stored by columns, four of four numbers, but its
//! bottom row is always 0 0 0 1: a quarter of what a column-wise blend adds up is known in advance.
//! So the run first copies the palette as rows, the top three (`Rows`: 12 numbers a joint, each row
//! one register), and a vertex's blend `Σ wᵢ Mᵢ` is 3 registers times 4 weights, 12 products and
//! 9 sums, where columns from 0 take 16 and 16. That is the saving four lanes need: with no fused
//! multiply-add, every product and sum is an instruction, and the blend is most of them.
//!
//! **Then across four vertices.** Four vertices' blended rows, turned round (three 4x4
//! transposes), are the matrices' twelve numbers, each in a register of four vertices: what the
//! lane-by-lane math of `kernel.rs` wants, the position `M · bind` in 6 products and sums a
//! row, the normal by the rule (`kernel.rs`: `normal_rule`). Nothing is wasted on the
//! bottom row, and no number is summed across a register.
//!
//! **The same numbers.** Each of the twelve is summed as `normals.rs`'s `blended_matrix` sums it
//! (`w₀ m₀` first, then each next term added), and the position and the normal take glam's and
//! `normal_by`'s steps, so these lanes give the reference's normals and the eight-lane SSE2
//! kernel's positions, number for number (`tests/lanes.rs`, `crates/fast/tests/every_lanes.rs`;
//! the sum starts at `w₀ m₀` where the reference adds it to 0, which can differ only in a zero's
//! sign). The palette is copied onto the stack, [`ROWS_ON_STACK`] joints at most: a skin with more
//! runs on the eight lanes, which read the palette as it is. Lanes that fuse the multiply-adds
//! (a page built with relaxed-simd) give those numbers to a rounding.
//!
//! **Three loops a block.** Positions and normals take three loops a block of fours, each short
//! enough that the processor works on several of its fours at once: a normal ends in a square root
//! and a division, which held up the next four in one long loop. Natively (`fours_with_normals`):
//! the blend and the position, then the moved normal, then the normalising. V8 spilled a long
//! loop's registers to the stack, so `simd128` asks for short loops: positions alone a vertex at a
//! time, by the palette's columns (`by_columns`: no turning round, 16 products and 12 sums for the
//! blend); with normals, every vertex's blend in a loop of its own first, then the three loops.
//! The same numbers every way.
//!
//! **Plain stores**, as every kind of lanes (`lanes.rs` says why): these are bound by their
//! arithmetic, a vertex taking about as long at a million as at 100,000.

#[cfg(target_arch = "x86_64")]
pub mod sse2;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub mod simd128;

use super::kernel::{F32x4, Inputs, moved_normal, normal_rule, normalised};
use glam::{Mat4, Vec3A};
use skinning_method::skin::VertexInfluences;

/// How many joints' rows fit the stack copy (16 KB): every sample model, and the bench's 64 bones.
pub const ROWS_ON_STACK: usize = 256;

/// How many fours a block takes (`fours_with_normals`): 64 vertices, whose kept numbers (6.4 KB)
/// stay in the first-level cache.
const BLOCK: usize = 16;

/// A joint's matrix as its top three rows: row r holds `m[c][r]` for the columns c = x, y, z and
/// the translation. Aligned to 64 bytes, a cache line: a joint is read from one line, and its
/// address is the joint times 64, one shift.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Rows([[f32; 4]; 3]);

/// The run by linear blending on four lanes `L`, positions and (where `normals` is not empty) normals;
/// false, with nothing written, where the palette is bigger than the stack copy.
#[inline(always)]
pub fn blend_run<L: F32x4>(
    palette: &[Mat4],
    inputs: Inputs,
    positions: &mut [Vec3A],
    normals: &mut [Vec3A],
) -> bool {
    // A bigger skin runs on the eight lanes, positions alone too: the same kernel either way.
    if palette.len() > ROWS_ON_STACK {
        return false;
    }
    let Inputs { influences, bind, bind_normals } = inputs;
    if L::SHORT_LOOPS && normals.is_empty() {
        // Positions alone: a vertex at a time, by the palette's columns as they are stored.
        for ((v, p), out) in influences.iter().zip(bind).zip(positions.iter_mut()) {
            by_columns::<L>(palette, v, *p).put(out);
        }
        return true;
    }
    let mut rows = [Rows([[0.0; 4]; 3]); ROWS_ON_STACK];
    for (rows, m) in rows.iter_mut().zip(palette) {
        let t = m.transpose();
        *rows = Rows([t.x_axis.to_array(), t.y_axis.to_array(), t.z_axis.to_array()]);
    }
    let rows = &rows[..palette.len()];
    let (groups, rest) = influences.as_chunks::<4>();
    let (points, points_rest) = bind.as_chunks::<4>();
    let (out, out_rest) = positions.as_chunks_mut::<4>();
    let (bind_n, bind_n_rest) = bind_normals.as_chunks::<4>();
    let with_normals = !normals.is_empty();
    let (out_n, out_n_rest) = normals.as_chunks_mut::<4>();
    let whole = Fours { groups, points, bind_n };
    if !with_normals {
        let (points, out) = (&points[..groups.len()], &mut out[..groups.len()]);
        for (i, group) in groups.iter().enumerate() {
            four::<L>(rows, group, &points[i], &mut out[i]);
        }
    } else {
        fours_with_normals::<L>(rows, whole, out, out_n);
    }
    // The last few: a four filled up with copies of the first of them, the same arithmetic.
    if let Some(&first) = rest.first() {
        let mut group = [first; 4];
        group[..rest.len()].copy_from_slice(rest);
        let mut points = [points_rest[0]; 4];
        points[..rest.len()].copy_from_slice(points_rest);
        let mut bind_n = [Vec3A::X; 4];
        bind_n[..bind_n_rest.len()].copy_from_slice(bind_n_rest);
        let (mut positions, mut normals) = ([Vec3A::ZERO; 4], [Vec3A::ZERO; 4]);
        let columns = four::<L>(rows, &group, &points, &mut positions);
        if !out_n_rest.is_empty() {
            store3(normal_rule(columns, load3(&bind_n)), &mut normals);
        }
        out_rest.copy_from_slice(&positions[..rest.len()]);
        out_n_rest.copy_from_slice(&normals[..out_n_rest.len()]);
    }
    true
}

/// A run's whole fours, what they are skinned from: the influences, and the positions and normals
/// before the blend.
#[derive(Clone, Copy)]
struct Fours<'a> {
    groups: &'a [[VertexInfluences; 4]],
    points: &'a [[Vec3A; 4]],
    bind_n: &'a [[Vec3A; 4]],
}

/// Positions and normals in blocks of [`BLOCK`] fours, three loops a block: each four's blend and
/// position (its matrices' columns kept), then each four's moved normal (kept), then each
/// normalised. A loop of a few dozen instructions leaves the processor room to start the next fours
/// while a square root finishes. Lanes that ask for short loops ([`F32x4::SHORT_LOOPS`]) blend
/// every vertex's rows in a loop of its own first. By index, not by `zip`: the iterators' set-up
/// stayed a call a block. The same arithmetic every way.
#[inline(always)]
fn fours_with_normals<L: F32x4>(
    rows: &[Rows],
    Fours { groups, points, bind_n }: Fours,
    out: &mut [[Vec3A; 4]],
    out_n: &mut [[Vec3A; 4]],
) {
    // One length for all, so that the indexing below is checked once.
    let n = groups.len();
    let (points, bind_n, out, out_n) = (&points[..n], &bind_n[..n], &mut out[..n], &mut out_n[..n]);
    let mut blended_rows = [[[L::splat(0.0); 3]; 4]; BLOCK];
    let mut columns = [[[L::splat(0.0); 3]; 3]; BLOCK];
    let mut moved = [([L::splat(0.0); 3], L::splat(0.0)); BLOCK];
    for start in (0..n).step_by(BLOCK) {
        let end = n.min(start + BLOCK);
        if L::SHORT_LOOPS {
            let (rows_of, vertices) = (blended_rows.as_flattened_mut(), groups[start..end].as_flattened());
            for (k, v) in vertices.iter().enumerate() {
                rows_of[k] = blended::<L>(rows, v);
            }
            for i in start..end {
                columns[i - start] = positions_of::<L>(&blended_rows[i - start], &points[i], &mut out[i]);
            }
        } else {
            for i in start..end {
                columns[i - start] = four::<L>(rows, &groups[i], &points[i], &mut out[i]);
            }
        }
        for i in start..end {
            moved[i - start] = moved_normal(columns[i - start], load3(&bind_n[i]));
        }
        for i in start..end {
            let (m, det) = moved[i - start];
            // The bind normal is loaded here again, for the rare four with a normal of no length.
            store3(normalised(m, det, load3(&bind_n[i])), &mut out_n[i]);
        }
    }
}

/// One vertex's position from the palette's columns as they are stored, without turning round:
/// `Σ wᵢ Mᵢ` a column at a time (16 products and 12 sums, the bottom row's too), then `M · bind`
/// with the position's numbers spread across registers. Each of the three numbers is summed in the
/// same order as by rows, so the same bits; the fourth lane, 1, lands in the vector's padding.
#[inline(always)]
fn by_columns<L: F32x4>(palette: &[Mat4], v: &VertexInfluences, p: Vec3A) -> L {
    // SAFETY: every joint of a `VertexInfluences` is below the palette's length, as in `blended`.
    let m = |i: usize| unsafe { palette.get_unchecked(v.joints[i] as usize) };
    let w = L::spread(L::load(&v.weights));
    let column = |m: &Mat4, c: usize| L::load(&m.col(c).to_array());
    let first =
        |m: &Mat4| [w[0] * column(m, 0), w[0] * column(m, 1), w[0] * column(m, 2), w[0] * column(m, 3)];
    let plus = |sum: [L; 4], w: L, m: &Mat4| {
        [
            w.mul_add(column(m, 0), sum[0]),
            w.mul_add(column(m, 1), sum[1]),
            w.mul_add(column(m, 2), sum[2]),
            w.mul_add(column(m, 3), sum[3]),
        ]
    };
    let c = plus(plus(plus(first(m(0)), w[1], m(1)), w[2], m(2)), w[3], m(3));
    let [x, y, z, _] = L::vector(p).spread();
    c[2].mul_add(z, c[1].mul_add(y, c[0] * x)) + c[3]
}

/// One vertex's blended rows, `Σ wᵢ rows[jointᵢ]` from 0, in `blended_matrix`'s order. This
/// file's hot loop is written out, without iterator chains or `array::map`: in a loop this size
/// the compiler stopped inlining them, and these lanes took several times as long.
#[inline(always)]
fn blended<L: F32x4>(rows: &[Rows], v: &VertexInfluences) -> [L; 3] {
    // SAFETY: `rows` has one entry per palette matrix, and every joint of a `VertexInfluences` is
    // below the palette's length: `Skin::add_vertex` refused joints past the skin's, and
    // `Lanes::run_then_extras` asserted one palette matrix per joint of the skin.
    let row = |i: usize| unsafe { &rows.get_unchecked(v.joints[i] as usize).0 };
    // The four weights in one load, each then spread across a register.
    let w = L::spread(L::load(&v.weights));
    // The first term alone, not added to 0: the same number (but for the sign of a zero).
    let m = row(0);
    let first = [w[0] * L::load(&m[0]), w[0] * L::load(&m[1]), w[0] * L::load(&m[2])];
    // `w · m + sum`: the same number as `sum + w · m` where `mul_add` rounds twice, fused where the
    // lanes fuse it.
    let plus = |sum: [L; 3], w: L, m: &[[f32; 4]; 3]| {
        [
            w.mul_add(L::load(&m[0]), sum[0]),
            w.mul_add(L::load(&m[1]), sum[1]),
            w.mul_add(L::load(&m[2]), sum[2]),
        ]
    };
    plus(plus(plus(first, w[1], row(1)), w[2], row(2)), w[3], row(3))
}

/// Four vectors turned round into x, y and z.
#[inline(always)]
fn load3<L: F32x4>(v: &[Vec3A; 4]) -> [L; 3] {
    let [x, y, z, _] = L::transpose4([L::vector(v[0]), L::vector(v[1]), L::vector(v[2]), L::vector(v[3])]);
    [x, y, z]
}

/// x, y and z turned back into four vectors.
#[inline(always)]
fn store3<L: F32x4>(v: [L; 3], out: &mut [Vec3A; 4]) {
    let [a, b, c, d] = L::transpose4([v[0], v[1], v[2], L::splat(0.0)]);
    a.put(&mut out[0]);
    b.put(&mut out[1]);
    c.put(&mut out[2]);
    d.put(&mut out[3]);
}

/// Four vertices' blended rows turned round, then their positions written; returns the matrices'
/// columns x, y and z, for the normals.
#[inline(always)]
fn positions_of<L: F32x4>(b: &[[L; 3]; 4], bind: &[Vec3A; 4], positions: &mut [Vec3A; 4]) -> [[L; 3]; 3] {
    // Row r of the four, turned round: m_r[c] is number (r, c) of the four matrices; and row r
    // of the positions, as glam's `transform_point3a`: x·p.x, + y·p.y, + z·p.z, + the translation.
    // A row at a time, so that few values are alive at once.
    let p = load3::<L>(bind);
    let mut moved = [L::splat(0.0); 3];
    let mut columns = [[L::splat(0.0); 3]; 3];
    for r in 0..3 {
        let m = L::transpose4([b[0][r], b[1][r], b[2][r], b[3][r]]);
        moved[r] = m[2].mul_add(p[2], m[1].mul_add(p[1], m[0] * p[0])) + m[3];
        (columns[0][r], columns[1][r], columns[2][r]) = (m[0], m[1], m[2]);
    }
    store3(moved, positions);
    columns
}

/// Four vertices' blend and positions; returns the matrices' columns x, y and z, for the normals.
#[inline(always)]
fn four<L: F32x4>(
    rows: &[Rows],
    group: &[VertexInfluences; 4],
    bind: &[Vec3A; 4],
    positions: &mut [Vec3A; 4],
) -> [[L; 3]; 3] {
    let b = [
        blended::<L>(rows, &group[0]),
        blended(rows, &group[1]),
        blended(rows, &group[2]),
        blended(rows, &group[3]),
    ];
    positions_of::<L>(&b, bind, positions)
}
