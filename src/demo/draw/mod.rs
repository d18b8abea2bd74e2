//! Drawing with OpenGL: the picture's layers as strokes of points and lines (`strokes.rs`), the lit surface (`surface.rs`) in its
//! materials' colours (`looks.rs`), the skinned mesh on the GPU (`gpu_skin.rs`, its programs in
//! `skin_program.rs`, its influences in `gpu_influences.rs`, its morph targets in `gpu_morph.rs`, a crowd's palettes in
//! `crowd_palettes.rs`),
//! the vertex inspector's marks, reaching's targets and poles (`reach_marks.rs`), a bone's trail
//! (`trail.rs`), the floor's grid under a body that travels
//! or the ground under the feet (`floor_grid.rs`), in the colours of
//! `demo/colors.rs`; how many GL objects the program holds, for `--stats` (`gl_objects.rs`). `render.rs` is where a frame is drawn (`render/read.rs` reads it back
//! for a screenshot); the rest is the GL plumbing under it.

pub mod crowd_palettes;
pub mod floor_grid;
pub mod gl;
#[cfg(not(target_arch = "wasm32"))]
pub mod gl_objects;
pub mod gpu_influences;
pub mod gpu_morph;
pub mod gpu_palette;
pub mod gpu_skin;
pub mod inspector;
pub mod looks;
pub mod reach_marks;
pub mod render;
pub mod skin_program;
pub mod strokes;
pub mod surface;
pub mod text;
pub mod trail;
