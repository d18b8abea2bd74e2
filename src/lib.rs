//! # Skeletal skinning, step by step
//!
//! A mesh follows a moving skeleton. The method lives in a crate of its own, `skinning-method`
//! (`crates/method/`), with no window, no file and no `unsafe` in it; the fast path is
//! `skinning-fast` (`crates/fast/`), the file formats `skinning-formats` (`crates/formats/`), and
//! this package is the program on top: the camera (`camera.rs`) and `src/demo/`, which draws what
//! the method computes. Read it in the book's order, one chapter of `docs/` beside each step: the
//! one reading list is `skinning-method`'s own, `crates/method/src/lib.rs`, which names the
//! method's modules in that order and, in their places, the chapters that read the other crates
//! and this program ([`camera`] frames the model for drawing; the rest is `src/demo/`).

pub mod camera;
