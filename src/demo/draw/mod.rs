//! Drawing with OpenGL: the layers of lines and points, the skinned mesh on the GPU, the vertex
//! inspector's marks, and the colours they use. `render.rs` is where a frame is drawn; the rest is
//! the GL plumbing under it.

pub mod colors;
pub mod gl;
pub mod gpu_palette;
pub mod gpu_skin;
#[cfg(test)]
mod gpu_tests;
pub mod inspector;
pub mod layer;
pub mod render;
pub mod skin_program;
pub mod surface;
