//! The fast path: positions and normals together, eight (or four) vertices at a time in the vector lanes.
//!
//! `blend::blend_run` and `normals::skin_normal` are the method as the article writes it, one vertex
//! after another: read them first. This file does the same arithmetic, organised for the machine.
//!
//! **What a vector lane is.** A processor's vector registers hold several numbers side by side:
//! SSE's 128 bits hold four `f32`s, AVX's 256 bits eight. One instruction works on every slot, or
//! **lane**, at once: `_mm256_mul_ps(a, b)` makes eight products in the time of one. glam already
//! uses the four lanes of SSE for one vertex's `Vec4`: a column times a number is one instruction.
//! But normals waste them: a cross product has three useful lanes and needs shuffles to line its
//! numbers up, a dot product adds lanes of one register together, and a length is one number.
//!
//! **Why structure-of-arrays.** So turn it round: give each lane a different *vertex*. One register
//! holds the x of eight vertices, another their y, another their z: a structure of arrays, where
//! the mesh stores an array of structures (a vertex with its x, y and z together). Then a cross
//! product is six multiplies and three subtractions, lane by lane, with no shuffle; a length, a
//! square root and a division serve eight normals. The data is still stored a vertex at a time, so
//! each group of eight is turned round on the way in and out (a transpose, a few shuffles a vertex).
//! Positions alone, by linear blending, are not turned round: a position is a matrix's columns
//! times numbers, which one vertex's registers already suit, so they run a vertex at a time, the
//! matrix blended once.
//!
//! **The math**, per vertex (`lanes/linear.rs`, for `blend.rs`'s `Linear`), the rule of `normals.rs`:
//!
//! ```text
//! M        = Σ wᵢ palette[jointᵢ]                   the blended matrix, once per vertex
//! position = M · bind                               (its 3x3 part, then its translation)
//! moved    = cofactor(M) · n                        cofactor(M) = [y × z, z × x, x × y]
//! normal   = moved · sign(det M) / |moved|          det M = x · (y × z)
//!            n, the bind normal, where |moved| is 0
//! ```
//!
//! `blend.rs`'s `Linear` sums `wᵢ (palette[jointᵢ] · bind)` instead: the same position (a matrix product
//! distributes over the sum), rounded differently, so the two agree to about 1e-7 of the model's
//! size. The normals follow `skin_normal` operation for operation: without fused multiply-add
//! (portable and SSE2 lanes) they are its bits exactly; with it they differ by a few in the last
//! place (`tests/lanes.rs` checks both, on every sample model).
//!
//! **Dual quaternions** (`lanes/dual.rs`, for `dual_quat.rs`'s `DualQuats`) take the same road: the
//! signed weighted sum a vertex at a time, then normalising, turning and translating eight at a
//! time. They agree with the readable loop to a rounding.
//!
//! **Which lanes** ([`Lanes`]): AVX2 with FMA where the processor has them (found when the program
//! runs, with `is_x86_feature_detected!`: most x86-64 processors since 2013-15), else SSE2 (every
//! x86-64 processor), else plain arrays the compiler vectorises as it can (any processor); in the
//! page, WebAssembly's `simd128` where the build turns it on (`.cargo/config.toml` does). The
//! math is written once, over traits (`lanes/kernel.rs`: `Lane`, `F32x8`, `F32x4`); each kind of
//! lanes is a file of small functions around `std::arch`'s intrinsics (`avx2.rs`, `sse2.rs`,
//! `four/sse2.rs`, `four/simd128.rs`) or plain loops (`portable.rs`). SSE2 and `simd128` are four
//! lanes, and blend linearly in a kernel of their own (`lanes/four.rs`: the palette as rows, four
//! vertices at a time); dual quaternions, and skins of more joints than its stack copy, take the
//! eight-lane kernel. No crate: `std::arch` gives runtime detection and FMA, where a portable crate
//! such as `wide` picks its instructions when the program is compiled (SSE2 alone for the default
//! x86-64 target), and it would be one more crate to build and keep optimised in the release
//! profile.
//!
//! **Plain stores.** Every kind of lanes writes its outputs with plain stores. At a million
//! vertices a plain store first reads the line it fills, and non-temporal stores, which skip that
//! read, were tried: on an Intel Xeon they saved a little, on an AMD EPYC they cost more than that
//! (chapter 14, "Past the caches").
//!
//! **Every vertex alike.** A vertex's result does not depend on which group it falls in: the last
//! few vertices of a run are blended in a group filled up with copies. So chunks on many threads
//! (`parallel.rs`) give the one-thread result bit for bit, as for `blend::blend_run`.
//!
//! **Every influence.** The lanes blend a vertex's four slots, as `blend::blend_run`'s main loop
//! does. A vertex with more (the skin's extras, `skin/extras.rs`) is finished by the readable
//! second pass, over the same run, once the lanes are done: `blend::finish_extras` blends its
//! position again whole, and `normals::finish_extra_normals` its normal, by the same method ([`Lanes::blend_run`] runs it, so every caller
//! gets every influence). Most models have no extras, and the pass then costs a search of an empty
//! table.
//!
//! **The morph** happens before: a model with morph targets hands the fast path this frame's shape,
//! its positions and normals (`morph.rs`: `Morphed::shape`), beside the skin's own influences, as
//! it hands it to the readable `blend_run`.

mod aligned;
#[cfg(target_arch = "x86_64")]
mod avx2;
mod dual;
mod eight;
// The four lanes exist where SSE2 or simd128 does; elsewhere the eight portable ones do it all.
#[cfg_attr(
    not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))),
    allow(dead_code)
)]
mod four;
mod kernel;
mod linear;
mod portable;
#[cfg(target_arch = "x86_64")]
mod sse2;

pub use four::ROWS_ON_STACK;
pub use kernel::GROUP;

use glam::Vec3A;
use kernel::GroupSkin;
use skinning_method::blend::{Linear, finish_extras};
use skinning_method::dual_quat::DualQuats;
use skinning_method::lbs_or_dqs::Palette;
use skinning_method::normals::{BlendNormal, finish_extra_normals};
use skinning_method::skin::{Shape, Skin};
use std::ops::Range;

/// Which vector lanes the fast path runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lanes {
    /// Eight lanes as a plain array, on any processor (`lanes/portable.rs`).
    Portable,
    /// SSE2, on any x86-64 processor: linear blending in four lanes, one SSE register
    /// (`lanes/four/sse2.rs`); dual quaternions, and a skin past the four lanes' palette copy, in
    /// eight lanes as two registers (`lanes/sse2.rs`).
    Sse2,
    /// Eight lanes in one AVX register, with fused multiply-add (`lanes/avx2.rs`).
    Avx2Fma,
    /// Four lanes in one WebAssembly `v128`, the page's (`lanes/four/simd128.rs`), where the
    /// build has `simd128`: linear blending in them, dual quaternions on the portable lanes.
    Simd128,
}

impl Lanes {
    /// The widest lanes this processor has: what the program uses.
    pub fn best() -> Lanes {
        *Lanes::all().iter().rev().find(|lanes| lanes.runs_here()).unwrap_or(&Lanes::Portable)
    }

    /// Every kind, narrowest first (the tests run each one this processor has).
    pub fn all() -> [Lanes; 4] {
        [Lanes::Portable, Lanes::Simd128, Lanes::Sse2, Lanes::Avx2Fma]
    }

    /// Whether this processor runs these lanes.
    pub fn runs_here(self) -> bool {
        match self {
            Lanes::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Lanes::Sse2 => true,
            #[cfg(target_arch = "x86_64")]
            Lanes::Avx2Fma => is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma"),
            // Compiled in or not: WebAssembly has no asking at run time.
            Lanes::Simd128 => cfg!(all(target_arch = "wasm32", target_feature = "simd128")),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// Its name, as the bench prints it.
    pub fn name(self) -> &'static str {
        match self {
            Lanes::Portable => "portable",
            Lanes::Sse2 => "sse2",
            Lanes::Avx2Fma => "avx2+fma",
            Lanes::Simd128 if cfg!(feature = "relaxed-simd") => "simd128+relaxed",
            Lanes::Simd128 => "simd128",
        }
    }

    /// Whether these lanes fuse a multiply and an add into one rounding where the readable blend
    /// rounds twice, so that they give its numbers to a rounding, not bit for bit: AVX2's, and the
    /// page's lanes with the feature `relaxed-simd` (which fuses where the processor can).
    pub fn fused(self) -> bool {
        match self {
            Lanes::Avx2Fma => true,
            Lanes::Simd128 => cfg!(feature = "relaxed-simd"),
            Lanes::Portable | Lanes::Sse2 => false,
        }
    }

    /// The fast path over a run of the skin's vertices, by either method: `positions[i]` gets
    /// vertex `vertices.start + i` of `shape` blended by the skin's influences, and `normals[i]`
    /// its normal moved by the method, every influence counted (the four slots in the lanes, then
    /// the readable second passes, `blend::finish_extras` and `normals::finish_extra_normals`);
    /// `normals` empty for positions alone. Allocates nothing. What
    /// `blend::blend_run` computes, to a rounding.
    ///
    /// # Panics
    /// If the palette has not one entry per joint, the lengths do not match, or this processor does
    /// not run these lanes ([`Lanes::runs_here`]).
    pub fn blend_run(
        self,
        skin: &Skin,
        shape: Shape,
        palette: Palette,
        vertices: Range<usize>,
        positions: &mut [Vec3A],
        normals: &mut [Vec3A],
    ) {
        match palette {
            Palette::Lbs(palette) => {
                // Each matrix on a cache line of its own (`lanes/aligned.rs` says why).
                let mut lines = aligned::Lines::new();
                let palette = lines.of(palette);
                self.run_then_extras(Linear(palette), skin, shape, vertices, positions, normals)
            }
            Palette::Dqs { joints, scale } => {
                let method = DualQuats { joints, scale };
                self.run_then_extras(method, skin, shape, vertices, positions, normals)
            }
        }
    }

    /// `method` over the run in the lanes, then the second pass for the vertices with extras.
    fn run_then_extras(
        self,
        method: impl GroupSkin + BlendNormal,
        skin: &Skin,
        shape: Shape,
        vertices: Range<usize>,
        positions: &mut [Vec3A],
        normals: &mut [Vec3A],
    ) {
        assert_eq!(method.joints(), skin.joints().len(), "one palette entry per joint");
        self.run(method, skin, shape, vertices.clone(), positions, normals);
        finish_extras(skin, shape.positions, &method, vertices.start, positions);
        if !normals.is_empty() {
            finish_extra_normals(skin, shape.normals, &method, vertices.start, normals);
        }
    }

    /// `method` over the run, on these lanes. The AVX2 kernel's linear blend and the four lanes
    /// (`four.rs`) index the palette by each slot's joint without checking it: `Skin::add_vertex`
    /// refused any joint past the skin's, and the caller above checked the palette has one entry
    /// per joint. The eight-lane SSE2 loop and the dual quaternions keep the check.
    fn run(
        self,
        method: impl GroupSkin,
        skin: &Skin,
        shape: Shape,
        vertices: Range<usize>,
        positions: &mut [Vec3A],
        normals: &mut [Vec3A],
    ) {
        let run = &skin.vertex_influences()[vertices.clone()];
        assert_eq!(shape.positions.len(), skin.len(), "one position per vertex in");
        let bind = &shape.positions[vertices.clone()];
        assert_eq!(run.len(), positions.len(), "one output position per vertex");
        let bind_normals = match normals.is_empty() {
            true => &[][..],
            false => &shape.normals[vertices],
        };
        assert_eq!(bind_normals.len(), normals.len(), "one output normal per vertex");
        assert!(self.runs_here(), "this processor has no {} lanes", self.name());
        let inputs = kernel::Inputs { influences: run, bind, bind_normals };
        match self {
            #[cfg(target_arch = "x86_64")]
            Lanes::Avx2Fma => {
                let proof = avx2::HasAvx2Fma::detect().expect("runs_here found AVX2 and FMA");
                // SAFETY: `run_avx2` is compiled for AVX2 and FMA, so it may run only where the
                // processor has them; `proof` exists, and `HasAvx2Fma::detect` makes one only then.
                unsafe { run_avx2(proof, method, inputs, positions, normals) }
            }
            #[cfg(target_arch = "x86_64")]
            Lanes::Sse2 => {
                // Linear blending on four lanes with the palette as rows (`four.rs`), where it has one.
                if !method.four_lanes::<four::sse2::Sse2x4>(inputs, positions, normals) {
                    eight::blend_run::<sse2::Sse2>((), method, inputs, positions, normals)
                }
            }
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Lanes::Simd128 => four::simd128::run(method, inputs, positions, normals),
            _ => eight::blend_run::<portable::Portable>((), method, inputs, positions, normals),
        }
    }
}

/// The kernel compiled for AVX2 and FMA: everything it calls is inlined here, so every instruction
/// in it may use them. Only to be called where the processor has them, which `proof` shows.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn run_avx2(
    proof: avx2::HasAvx2Fma,
    method: impl GroupSkin,
    inputs: kernel::Inputs,
    positions: &mut [Vec3A],
    normals: &mut [Vec3A],
) {
    eight::blend_run::<avx2::Avx2>(proof, method, inputs, positions, normals);
}
