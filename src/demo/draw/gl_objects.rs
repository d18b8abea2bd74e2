//! How many buffers and textures OpenGL holds for the program: the GPU side of "nothing creeps".
//!
//! The allocation counter sees the program's heap, not what it asks the driver to keep. A buffer or
//! texture made every frame and never deleted grows the driver's memory, frame after frame, where
//! no Rust allocation shows it. OpenGL has no call that lists objects, but `glIsBuffer(n)` and
//! `glIsTexture(n)` say whether the name `n` is a live one; drivers hand out small names, counting
//! up from 1, so asking about the first [`NAMES_ASKED`] names counts every object a program of
//! this size makes. `--stats` counts at a few frames only, after the warm-up and along the second
//! half of the run; the warm-up's count and the last must match (`tests/soak.rs`).

use glow::HasContext;
use std::num::NonZeroU32;

/// Names asked about: far more than the few dozen buffers and textures the program makes, so a
/// leak shows as a count that climbs (up to this many) rather than staying put.
pub const NAMES_ASKED: u32 = 65_536;

/// Live buffers and textures among the names 1 to [`NAMES_ASKED`]. Asks 131,072 questions of the
/// driver, each a table look-up: a few milliseconds, so only at a few frames of a run.
pub fn count_gl_objects(gl: &glow::Context) -> u32 {
    let mut live = 0;
    for name in (1..=NAMES_ASKED).filter_map(NonZeroU32::new) {
        // SAFETY: asking whether a name is an object changes nothing and is defined for any name;
        // the caller keeps the context current on this thread (as for every call of the renderer).
        let (buffer, texture) =
            unsafe { (gl.is_buffer(glow::NativeBuffer(name)), gl.is_texture(glow::NativeTexture(name))) };
        live += u32::from(buffer) + u32::from(texture);
    }
    live
}
