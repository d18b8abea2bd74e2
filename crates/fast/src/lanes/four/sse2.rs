//! Four lanes as one SSE register (`__m128`), for `four.rs`: every x86-64 processor has SSE2.
//! The same instructions as the eight-lane `sse2.rs`, whose 4x4 transpose and finite-positive
//! mask these lanes share.

// Why this file's `unsafe` blocks are sound: SSE and SSE2 are part of x86-64, and this file is
// compiled only for it (`four.rs`: `#[cfg(target_arch = "x86_64")]`), so every processor that runs
// it has the instructions. The one read is `load`'s, inside a `&[f32; 4]`; `put` writes through
// glam's conversion, into a `&mut Vec3A`.

use super::super::kernel::Lane;
use super::super::sse2::{finite_positive, transpose4};
use super::F32x4;
use glam::Vec3A;
use std::arch::x86_64::*;
use std::ops::{Add, Mul, Sub};

/// Four lanes in one SSE register.
#[derive(Clone, Copy)]
pub struct Sse2x4(__m128);

impl Add for Sse2x4 {
    type Output = Sse2x4;
    #[inline(always)]
    fn add(self, b: Sse2x4) -> Sse2x4 {
        // SAFETY: SSE is part of x86-64; an add of registers.
        Sse2x4(unsafe { _mm_add_ps(self.0, b.0) })
    }
}

impl Sub for Sse2x4 {
    type Output = Sse2x4;
    #[inline(always)]
    fn sub(self, b: Sse2x4) -> Sse2x4 {
        // SAFETY: SSE is part of x86-64; a subtraction of registers.
        Sse2x4(unsafe { _mm_sub_ps(self.0, b.0) })
    }
}

impl Mul for Sse2x4 {
    type Output = Sse2x4;
    #[inline(always)]
    fn mul(self, b: Sse2x4) -> Sse2x4 {
        // SAFETY: SSE is part of x86-64; a product of registers.
        Sse2x4(unsafe { _mm_mul_ps(self.0, b.0) })
    }
}

impl Lane for Sse2x4 {
    // No fused multiply-add: `mul_add` and `mul_sub` are the trait's, rounded twice.

    #[inline(always)]
    fn recip_sqrt(self) -> Sse2x4 {
        // SAFETY: SSE is part of x86-64; a square root and a division of registers.
        Sse2x4(unsafe { _mm_div_ps(_mm_set1_ps(1.0), _mm_sqrt_ps(self.0)) })
    }

    #[inline(always)]
    fn with_sign_of(self, sign: Sse2x4) -> Sse2x4 {
        // SAFETY: SSE is part of x86-64; the sign bit moved between two registers by and-not, and, or.
        unsafe {
            let bit = _mm_set1_ps(-0.0);
            Sse2x4(_mm_or_ps(_mm_andnot_ps(bit, self.0), _mm_and_ps(bit, sign.0)))
        }
    }

    #[inline(always)]
    fn finite_positive_or(self, yes: [Sse2x4; 3], no: [Sse2x4; 3]) -> [Sse2x4; 3] {
        // SAFETY: SSE is part of x86-64; a mask's bits and bitwise selects of registers.
        unsafe {
            let keep = finite_positive(self.0);
            // Every lane kept, as in any mesh but a broken one: no choosing (one test, not nine).
            if _mm_movemask_ps(keep) == 0b1111 {
                return yes;
            }
            let pick = |r: usize| Sse2x4(_mm_or_ps(_mm_and_ps(keep, yes[r].0), _mm_andnot_ps(keep, no[r].0)));
            [pick(0), pick(1), pick(2)]
        }
    }
}

impl F32x4 for Sse2x4 {
    #[inline(always)]
    fn splat(x: f32) -> Sse2x4 {
        // SAFETY: SSE is part of x86-64; a broadcast into a register.
        Sse2x4(unsafe { _mm_set1_ps(x) })
    }

    #[inline(always)]
    fn load(v: &[f32; 4]) -> Sse2x4 {
        // SAFETY: SSE is part of x86-64; the load reads the sixteen bytes of `v`, unaligned.
        Sse2x4(unsafe { _mm_loadu_ps(v.as_ptr()) })
    }

    #[inline(always)]
    fn spread(self) -> [Sse2x4; 4] {
        // SAFETY: SSE is part of x86-64; shuffles of a register.
        unsafe {
            let v = self.0;
            [
                Sse2x4(_mm_shuffle_ps::<0b00_00_00_00>(v, v)),
                Sse2x4(_mm_shuffle_ps::<0b01_01_01_01>(v, v)),
                Sse2x4(_mm_shuffle_ps::<0b10_10_10_10>(v, v)),
                Sse2x4(_mm_shuffle_ps::<0b11_11_11_11>(v, v)),
            ]
        }
    }

    #[inline(always)]
    fn vector(v: Vec3A) -> Sse2x4 {
        Sse2x4(v.into())
    }

    #[inline(always)]
    fn transpose4(rows: [Sse2x4; 4]) -> [Sse2x4; 4] {
        let [a, b, c, d] = transpose4([rows[0].0, rows[1].0, rows[2].0, rows[3].0]);
        [Sse2x4(a), Sse2x4(b), Sse2x4(c), Sse2x4(d)]
    }

    #[inline(always)]
    fn put(self, to: &mut Vec3A) {
        // The whole register, its fourth lane into the vector's padding.
        *to = self.0.into();
    }
}
