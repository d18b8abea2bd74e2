//! Creeps made on purpose, so the soak test can show that each kind is caught.
//!
//! `tests/soak.rs` trusts `--stats` to see memory that grows. To know that it would, the test runs
//! the program with `SKINNING_SOAK_CREEP` set to one of these, and checks that the line gives it
//! away; a run without the variable (every user's) never makes one.
//!
//! | creep | what it keeps every frame | what `--stats` shows |
//! |---|---|---|
//! | `kept` | a 1 KiB allocation, leaked | allocations in steady frames; heap held grows |
//! | `growing` | 256 more bytes in one buffer | allocations (each time it moves); heap held grows |
//! | `texture` | a new 64 x 64 texture, never deleted | the GL objects count grows |
//! | `driver` | 64 KiB from C's `malloc`, as a driver's own leak | resident memory rises all through |
//!
//! And one that is not a creep: `step` takes 16 MiB from `malloc` once, at frame 1,600, as Mesa
//! does now and then on a busy machine. Resident memory jumps, in one eighth of the second half
//! only, and the test must not call that a leak.
use glow::HasContext;

/// One kind of creep, and what it has kept so far.
pub enum Creep {
    Kept,
    Growing(Vec<u8>),
    Texture,
    Driver,
    /// Frames drawn so far.
    Step(u64),
}

/// The variable that asks for a creep.
pub const VARIABLE: &str = "SKINNING_SOAK_CREEP";

impl Creep {
    /// The creep `SKINNING_SOAK_CREEP` asks for; None without it. An unknown value is a mistake in
    /// a test, said in one line.
    pub fn from_env() -> Result<Option<Creep>, String> {
        let Some(value) = std::env::var_os(VARIABLE) else { return Ok(None) };
        match value.to_str() {
            Some("kept") => Ok(Some(Creep::Kept)),
            Some("growing") => Ok(Some(Creep::Growing(Vec::new()))),
            Some("texture") => Ok(Some(Creep::Texture)),
            Some("driver") => Ok(Some(Creep::Driver)),
            Some("step") => Ok(Some(Creep::Step(0))),
            _ => Err(format!("{VARIABLE} is kept, growing, texture, driver or step, not {value:?}")),
        }
    }

    /// Keeps this frame's share, on the thread that draws (the context is current there).
    pub fn once_a_frame(&mut self, gl: &glow::Context) {
        match self {
            Creep::Kept => {
                Box::leak(vec![1u8; 1024].into_boxed_slice());
            }
            Creep::Growing(buffer) => buffer.extend_from_slice(&[1u8; 256]),
            Creep::Texture => {
                let pixels = vec![200u8; 64 * 64 * 4];
                // SAFETY: the context is current on this thread (the caller draws with it); the
                // upload reads 64 * 64 RGBA bytes, which is what `pixels` holds.
                unsafe {
                    if let Ok(texture) = gl.create_texture() {
                        gl.bind_texture(glow::TEXTURE_2D, Some(texture));
                        let data = glow::PixelUnpackData::Slice(Some(&pixels));
                        let rgba = glow::RGBA as i32;
                        gl.tex_image_2d(
                            glow::TEXTURE_2D,
                            0,
                            rgba,
                            64,
                            64,
                            0,
                            glow::RGBA,
                            glow::UNSIGNED_BYTE,
                            data,
                        );
                        gl.bind_texture(glow::TEXTURE_2D, None);
                    }
                }
            }
            Creep::Driver => keep_from_c(64 * 1024),
            Creep::Step(frames) => {
                *frames += 1;
                if *frames == 1_600 {
                    keep_from_c(16 * 1024 * 1024);
                }
            }
        }
    }
}

/// Takes `size` bytes from C's `malloc`, touches each, and never frees them: memory the program's
/// allocator never sees, as a driver's is.
fn keep_from_c(size: usize) {
    // SAFETY: the block is written only if malloc gave it, and only within its `size` bytes; it is
    // never freed, so no one else ever uses it.
    unsafe {
        let block = libc::malloc(size);
        if !block.is_null() {
            std::ptr::write_bytes(block.cast::<u8>(), 1, size);
        }
    }
}
