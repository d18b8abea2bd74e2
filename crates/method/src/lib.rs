//! # Skeletal skinning: the method
//!
//! A mesh follows a moving skeleton: the bone tree, the offsets, the palette, the blend, clips, and
//! one frame of the method written once; then the later lessons on top of it: normals, dual
//! quaternions, many clips at once, reaching, morph targets, the inspector. Only glam, and no
//! `unsafe`: what is faster lives in `skinning-fast`, what reads files in `skinning-formats`, what
//! draws in the `skinning` program. The book (`docs/`) reads these files in its order; the whole
//! reading list is the `skinning` package's `src/lib.rs`.

#![forbid(unsafe_code)]

pub mod blend;
pub mod clip;
pub mod dual_quat;
pub mod frame;
pub mod inspect;
pub mod mixer;
pub mod model;
pub mod morph;
pub mod normals;
pub mod printable;
pub mod reach;
pub mod scene;
pub mod skeleton;
pub mod skin;
pub mod transform;
