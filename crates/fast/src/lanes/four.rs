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
//! **Two loops, or three.** Natively, positions and normals take two loops a block of fours
//! (`fours_with_normals`): a normal ends in a square root and a division, which held up the next
//! four in one loop. V8 spilled a long loop's registers to the stack, so `simd128` asks for short
//! loops: positions alone a vertex at a time, by the palette's columns (`by_columns`: no turning
//! round, 16 products and 12 sums for the blend); positions and normals in three loops a block
//! (`staged`). The same numbers every way.

#[cfg(target_arch = "x86_64")]
pub mod sse2;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub mod simd128;

use super::kernel::{F32x4, Inputs, moved_normal, normal_rule, normalised};
use glam::{Mat4, Vec3A};
use skinning_method::skin::VertexInfluences;

/// How many joints' rows fit the stack copy (16 KB): every sample model, and the bench's 64 bones.
pub const ROWS_ON_STACK: usize = 256;

/// How many fours a block takes (`staged`, `fours_with_normals`): 64 vertices, whose kept numbers
/// (at most 4.8 KB) stay in the first-level cache.
const STAGED: usize = 16;

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
    stream: bool,
) -> bool {
    // A bigger skin runs on the eight lanes, positions alone too: the same kernel either way.
    if palette.len() > ROWS_ON_STACK {
        return false;
    }
    let Inputs { influences, bind, bind_normals } = inputs;
    if L::SHORT_LOOPS && normals.is_empty() {
        // Positions alone: a vertex at a time, by the palette's columns as they are stored.
        for ((v, p), out) in influences.iter().zip(bind).zip(positions.iter_mut()) {
            by_columns::<L>(palette, v, *p).put(out, false);
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
    if L::SHORT_LOOPS {
        staged::<L>(rows, whole, out, out_n, stream);
    } else if !with_normals {
        for ((group, points), out) in groups.iter().zip(points).zip(out) {
            four::<L>(rows, group, points, out, stream);
        }
    } else {
        // The loop twice, once for each kind of store, so that no four asks which.
        match stream {
            true => fours_with_normals::<L, true>(rows, whole, out, out_n),
            false => fours_with_normals::<L, false>(rows, whole, out, out_n),
        }
    }
    if stream {
        L::fence();
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
        let columns = four::<L>(rows, &group, &points, &mut positions, false);
        if !out_n_rest.is_empty() {
            store3(normal_rule(columns, load3(&bind_n)), &mut normals, false);
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

/// Positions and normals in blocks of [`STAGED`] fours: each four's position and moved normal, then
/// each normalised, a block's square roots side by side. A loop per kind of store (`STREAM`); not a
/// closure, which takes the instruction set of the function it is written in (`eight.rs` says more).
#[inline(always)]
fn fours_with_normals<L: F32x4, const STREAM: bool>(
    rows: &[Rows],
    Fours { groups, points, bind_n }: Fours,
    out: &mut [[Vec3A; 4]],
    out_n: &mut [[Vec3A; 4]],
) {
    let mut kept = [(([L::splat(0.0); 3], L::splat(0.0)), [L::splat(0.0); 3]); STAGED];
    let fours = groups.chunks(STAGED).zip(points.chunks(STAGED)).zip(out.chunks_mut(STAGED));
    let normals = bind_n.chunks(STAGED).zip(out_n.chunks_mut(STAGED));
    for (((groups, points), out), (bind_n, out_n)) in fours.zip(normals) {
        for ((((group, points), out), bind_n), kept) in
            groups.iter().zip(points).zip(out).zip(bind_n).zip(&mut kept)
        {
            let (columns, n) = (four::<L>(rows, group, points, out, STREAM), load3(bind_n));
            *kept = (moved_normal(columns, n), n);
        }
        for (out_n, ((moved, det), n)) in out_n.iter_mut().zip(&kept) {
            store3(normalised(*moved, *det, *n), out_n, STREAM);
        }
    }
}

/// `fours_with_normals` in three short loops a block, for lanes that ask for them
/// ([`F32x4::SHORT_LOOPS`]): every vertex's rows blended into memory first, then every four's
/// position and moved normal (kept), then every four's normalising. The same arithmetic.
#[inline(always)]
fn staged<L: F32x4>(
    rows: &[Rows],
    Fours { groups, points, bind_n }: Fours,
    out: &mut [[Vec3A; 4]],
    out_n: &mut [[Vec3A; 4]],
    stream: bool,
) {
    let mut blended_rows = [[L::splat(0.0); 3]; 4 * STAGED];
    let mut kept = [(([L::splat(0.0); 3], L::splat(0.0)), [L::splat(0.0); 3]); STAGED];
    let fours = groups.chunks(STAGED).zip(points.chunks(STAGED)).zip(out.chunks_mut(STAGED));
    let normals = bind_n.chunks(STAGED).zip(out_n.chunks_mut(STAGED));
    for (((groups, points), out), (bind_n, out_n)) in fours.zip(normals) {
        for (v, b) in groups.as_flattened().iter().zip(&mut blended_rows) {
            *b = blended::<L>(rows, v);
        }
        let (b, _) = blended_rows.as_chunks::<4>();
        for ((((b, points), out), bind_n), kept) in b.iter().zip(points).zip(out).zip(bind_n).zip(&mut kept) {
            let (columns, n) = (positions_of::<L>(b, points, out, stream), load3(bind_n));
            *kept = (moved_normal(columns, n), n);
        }
        for (out_n, ((moved, det), n)) in out_n.iter_mut().zip(&kept) {
            store3(normalised(*moved, *det, *n), out_n, stream);
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
fn store3<L: F32x4>(v: [L; 3], out: &mut [Vec3A; 4], stream: bool) {
    let [a, b, c, d] = L::transpose4([v[0], v[1], v[2], L::splat(0.0)]);
    a.put(&mut out[0], stream);
    b.put(&mut out[1], stream);
    c.put(&mut out[2], stream);
    d.put(&mut out[3], stream);
}

/// Four vertices' blended rows turned round, then their positions written; returns the matrices'
/// columns x, y and z, for the normals.
#[inline(always)]
fn positions_of<L: F32x4>(
    b: &[[L; 3]; 4],
    bind: &[Vec3A; 4],
    positions: &mut [Vec3A; 4],
    stream: bool,
) -> [[L; 3]; 3] {
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
    store3(moved, positions, stream);
    columns
}

/// Four vertices' blend and positions; returns the matrices' columns x, y and z, for the normals.
#[inline(always)]
fn four<L: F32x4>(
    rows: &[Rows],
    group: &[VertexInfluences; 4],
    bind: &[Vec3A; 4],
    positions: &mut [Vec3A; 4],
    stream: bool,
) -> [[L; 3]; 3] {
    let b = [
        blended::<L>(rows, &group[0]),
        blended(rows, &group[1]),
        blended(rows, &group[2]),
        blended(rows, &group[3]),
    ];
    positions_of::<L>(&b, bind, positions, stream)
}
