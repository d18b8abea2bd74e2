//! The AVX lanes' turning round, registers only: the classic 8x8 transpose (interleave pairs, then
//! fours, then swap the 128-bit halves), and the 4x4 one in each half. `unsafe fn`s: the caller
//! promises the processor has AVX, as every caller in `avx2.rs` can show (`HasAvx2Fma`).

use std::arch::x86_64::*;

/// Eight rows in, eight columns out: number k of row j becomes number j of column k.
///
/// # Safety
/// Only where the processor has AVX.
#[inline(always)]
pub unsafe fn transpose8(r: &[__m256; 8]) -> [__m256; 8] {
    // SAFETY: this `unsafe fn` asks its caller for AVX (`avx2.rs` calls it from
    // `blended_matrices` and `blended_dual_quats`, each holding a `HasAvx2Fma`); the unpacks,
    // shuffles and permutes touch registers alone.
    unsafe {
        // Pairs: t0 = r0.0 r1.0 r0.1 r1.1 | r0.4 r1.4 r0.5 r1.5, t1 = r0.2 r1.2 r0.3 r1.3 | ...
        let (t0, t1) = (_mm256_unpacklo_ps(r[0], r[1]), _mm256_unpackhi_ps(r[0], r[1]));
        let (t2, t3) = (_mm256_unpacklo_ps(r[2], r[3]), _mm256_unpackhi_ps(r[2], r[3]));
        let (t4, t5) = (_mm256_unpacklo_ps(r[4], r[5]), _mm256_unpackhi_ps(r[4], r[5]));
        let (t6, t7) = (_mm256_unpacklo_ps(r[6], r[7]), _mm256_unpackhi_ps(r[6], r[7]));
        // Fours: s0 = r0.0 r1.0 r2.0 r3.0 | r0.4 r1.4 r2.4 r3.4, s1 the same of .1 | .5...
        const LOW: i32 = 0b01_00_01_00;
        const HIGH: i32 = 0b11_10_11_10;
        let (s0, s1) = (_mm256_shuffle_ps::<LOW>(t0, t2), _mm256_shuffle_ps::<HIGH>(t0, t2));
        let (s2, s3) = (_mm256_shuffle_ps::<LOW>(t1, t3), _mm256_shuffle_ps::<HIGH>(t1, t3));
        let (s4, s5) = (_mm256_shuffle_ps::<LOW>(t4, t6), _mm256_shuffle_ps::<HIGH>(t4, t6));
        let (s6, s7) = (_mm256_shuffle_ps::<LOW>(t5, t7), _mm256_shuffle_ps::<HIGH>(t5, t7));
        // Halves: the low halves of rows 0-3 and 4-7 make columns 0-3, the high halves 4-7.
        [
            _mm256_permute2f128_ps::<0x20>(s0, s4),
            _mm256_permute2f128_ps::<0x20>(s1, s5),
            _mm256_permute2f128_ps::<0x20>(s2, s6),
            _mm256_permute2f128_ps::<0x20>(s3, s7),
            _mm256_permute2f128_ps::<0x31>(s0, s4),
            _mm256_permute2f128_ps::<0x31>(s1, s5),
            _mm256_permute2f128_ps::<0x31>(s2, s6),
            _mm256_permute2f128_ps::<0x31>(s3, s7),
        ]
    }
}

/// Four 128-bit rows in each half (rows j and j + 4 of eight), columns out: number k of row j
/// becomes number j of column k, in each half.
///
/// # Safety
/// Only where the processor has AVX.
#[inline(always)]
pub unsafe fn transpose4x2([q0, q1, q2, q3]: [__m256; 4]) -> [__m256; 4] {
    // SAFETY: this `unsafe fn` asks its caller for AVX (`avx2.rs`'s `load8` and `store`, which hold
    // a `HasAvx2Fma` or `Avx2`s made with one); unpacks and shuffles of registers, no memory.
    unsafe {
        let (t0, t1) = (_mm256_unpacklo_ps(q0, q1), _mm256_unpacklo_ps(q2, q3));
        let (t2, t3) = (_mm256_unpackhi_ps(q0, q1), _mm256_unpackhi_ps(q2, q3));
        [
            _mm256_shuffle_ps::<0b01_00_01_00>(t0, t1),
            _mm256_shuffle_ps::<0b11_10_11_10>(t0, t1),
            _mm256_shuffle_ps::<0b01_00_01_00>(t2, t3),
            _mm256_shuffle_ps::<0b11_10_11_10>(t2, t3),
        ]
    }
}
