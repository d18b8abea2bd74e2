//! # Skeletal skinning: the fast path
//!
//! The method's blend (`skinning-method`'s `blend.rs`), organised for the machine: eight vertices
//! at a time in the processor's vector lanes ([`lanes`]), and a mesh cut into chunks on every core
//! ([`parallel`]). [`FastPath`] puts both together as a frame's blender: the program asks for it by
//! name, the book's frame uses the readable loop. Chapter 14 (`docs/14-every-core.md`) measures
//! what each costs; [`synthetic`] makes the skinned tube it times, and [`alloc_count`] counts the
//! allocations a frame makes (none). [`crowd`] runs many characters of one model, a character to a
//! job on those threads.

pub mod alloc_count;
pub mod crowd;
pub mod fast_path;
pub mod lanes;
pub mod parallel;
pub mod synthetic;

pub use fast_path::FastPath;
