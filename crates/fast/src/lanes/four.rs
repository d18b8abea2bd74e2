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
//! runs on the eight lanes, which read the palette as it is.

#[cfg(target_arch = "x86_64")]
pub mod sse2;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub mod simd128;

use super::kernel::{F32x4, Inputs, normal_rule};
use glam::{Mat4, Vec3A};
use skinning_method::skin::VertexInfluences;

/// How many joints' rows fit the stack copy (16 KB): every sample model, and the bench's 64 bones.
pub const ROWS_ON_STACK: usize = 256;

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
    if palette.len() > ROWS_ON_STACK {
        return false;
    }
    let mut rows = [Rows([[0.0; 4]; 3]); ROWS_ON_STACK];
    for (rows, m) in rows.iter_mut().zip(palette) {
        let t = m.transpose();
        *rows = Rows([t.x_axis.to_array(), t.y_axis.to_array(), t.z_axis.to_array()]);
    }
    let rows = &rows[..palette.len()];
    let Inputs { influences, bind, bind_normals } = inputs;
    let (groups, rest) = influences.as_chunks::<4>();
    let (points, points_rest) = bind.as_chunks::<4>();
    let (out, out_rest) = positions.as_chunks_mut::<4>();
    let (bind_n, bind_n_rest) = bind_normals.as_chunks::<4>();
    let with_normals = !normals.is_empty();
    let (out_n, out_n_rest) = normals.as_chunks_mut::<4>();
    if !with_normals {
        for ((group, points), out) in groups.iter().zip(points).zip(out) {
            four::<L>(rows, group, points, out, None, stream);
        }
    } else {
        let both = groups.iter().zip(points).zip(out).zip(bind_n.iter().zip(out_n));
        for (((group, points), out), (bind_n, out_n)) in both {
            four::<L>(rows, group, points, out, Some((bind_n, out_n)), stream);
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
        let normals_in = (!out_n_rest.is_empty()).then_some((&bind_n, &mut normals));
        four::<L>(rows, &group, &points, &mut positions, normals_in, false);
        out_rest.copy_from_slice(&positions[..rest.len()]);
        out_n_rest.copy_from_slice(&normals[..out_n_rest.len()]);
    }
    true
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
    let plus = |sum: [L; 3], w: L, m: &[[f32; 4]; 3]| {
        [sum[0] + w * L::load(&m[0]), sum[1] + w * L::load(&m[1]), sum[2] + w * L::load(&m[2])]
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

/// Four vertices: their matrices blended and turned round, then the positions and the normals.
#[inline(always)]
fn four<L: F32x4>(
    rows: &[Rows],
    group: &[VertexInfluences; 4],
    bind: &[Vec3A; 4],
    positions: &mut [Vec3A; 4],
    normals: Option<(&[Vec3A; 4], &mut [Vec3A; 4])>,
    stream: bool,
) {
    let b = [
        blended::<L>(rows, &group[0]),
        blended(rows, &group[1]),
        blended(rows, &group[2]),
        blended(rows, &group[3]),
    ];
    // Row r of the four, turned round: m_r[c] is number (r, c) of the four matrices.
    let m0 = L::transpose4([b[0][0], b[1][0], b[2][0], b[3][0]]);
    let m1 = L::transpose4([b[0][1], b[1][1], b[2][1], b[3][1]]);
    let m2 = L::transpose4([b[0][2], b[1][2], b[2][2], b[3][2]]);
    // The position, as glam's `transform_point3a`: x·p.x, + y·p.y, + z·p.z, + the translation.
    let p = load3::<L>(bind);
    let row = |m: [L; 4]| m[2].mul_add(p[2], m[1].mul_add(p[1], m[0] * p[0])) + m[3];
    store3([row(m0), row(m1), row(m2)], positions, stream);
    if let Some((bind_n, out)) = normals {
        let columns = [[m0[0], m1[0], m2[0]], [m0[1], m1[1], m2[1]], [m0[2], m1[2], m2[2]]];
        store3(normal_rule(columns, load3(bind_n)), out, stream);
    }
}
