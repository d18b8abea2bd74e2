//! OpenGL plumbing shared by the window, the headless run and the web page: what the context is,
//! compiling the shaders, the bytes of the numbers handed to it. Boilerplate; the skinning is elsewhere. (Getting a context is each
//! platform's: glutin's on the desktop, `platform/context.rs`; the browser's WebGL2 on the web.)

use crate::demo::output::failure::Failure;
use glow::HasContext;
use std::fmt;

/// Something OpenGL refused, with enough detail to fix it.
#[derive(Debug)]
pub enum GlError {
    /// A shader did not compile: which file, and the driver's log.
    Compile {
        file: String,
        log: String,
    },
    /// The shaders compiled but do not link into a program.
    Link {
        files: String,
        log: String,
    },
    /// A shader file from `SKINNING_SHADERS` could not be read.
    ReadShader {
        file: String,
        error: String,
    },
    Other(String),
}

impl fmt::Display for GlError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let one_line = |log: &str| log.split_whitespace().collect::<Vec<_>>().join(" ");
        match self {
            GlError::Compile { file, log } => write!(f, "{file} does not compile: {}", one_line(log)),
            GlError::Link { files, log } => write!(f, "{files} do not link: {}", one_line(log)),
            GlError::ReadShader { file, error } => write!(f, "cannot read shader {file}: {error}"),
            GlError::Other(message) => write!(f, "OpenGL error: {message}"),
        }
    }
}

impl From<GlError> for Failure {
    fn from(e: GlError) -> Failure {
        Failure::new(1, e.to_string())
    }
}

/// The driver's description of the context and its renderer, e.g. "OpenGL 4.5 (Core Profile) Mesa
/// 22.3.6 on llvmpipe (LLVM 15.0.6, 256 bits)".
pub fn version_string(gl: &glow::Context) -> String {
    // SAFETY: a context is current (see `load`).
    unsafe {
        let version = gl.get_parameter_string(glow::VERSION);
        // Desktop drivers say "4.5 (Core Profile) Mesa ...", OpenGL ES ones "OpenGL ES 3.2 Mesa ...".
        let api = if version.starts_with("OpenGL") { "" } else { "OpenGL " };
        format!("{api}{version} on {}", gl.get_parameter_string(glow::RENDERER))
    }
}

/// A shader's file name and its source as built into the program.
pub type ShaderFile = (&'static str, &'static str);

/// Compiles and links a program from two shader files.
///
/// The files carry no `#version` line: OpenGL 3.3 wants `#version 330 core`, OpenGL ES 3.0 wants
/// `#version 300 es` and a default precision, and we only know which we got at run time.
/// Set `SKINNING_SHADERS` to a folder to read the shaders from there instead of the built-in copies,
/// to experiment without recompiling. `defines` go after the version line.
pub fn compile_program_with(
    gl: &glow::Context,
    vertex: ShaderFile,
    fragment: ShaderFile,
    defines: &str,
    feedback: &[&str],
) -> Result<glow::Program, GlError> {
    let header = if gl.version().is_embedded {
        "#version 300 es\nprecision highp float;\nprecision highp int;\n"
    } else {
        "#version 330 core\n"
    };
    // SAFETY: a context is current; every handle used here is created here.
    unsafe {
        let program = gl.create_program().map_err(GlError::Other)?;
        let mut shaders = Vec::new();
        for (kind, (file, built_in)) in [(glow::VERTEX_SHADER, vertex), (glow::FRAGMENT_SHADER, fragment)] {
            let (file, source) = shader_source(file, built_in)?;
            let shader = gl.create_shader(kind).map_err(GlError::Other)?;
            // `#line 1` makes the driver's line numbers match the file's.
            gl.shader_source(shader, &format!("{header}{defines}#line 1\n{source}"));
            gl.compile_shader(shader);
            if !gl.get_shader_compile_status(shader) {
                let log = gl.get_shader_info_log(shader);
                gl.delete_shader(shader);
                gl.delete_program(program);
                return Err(GlError::Compile { file: file.to_string(), log });
            }
            gl.attach_shader(program, shader);
            shaders.push(shader);
        }
        if !feedback.is_empty() {
            gl.transform_feedback_varyings(program, feedback, glow::INTERLEAVED_ATTRIBS);
        }
        gl.link_program(program);
        for shader in shaders {
            gl.detach_shader(program, shader);
            gl.delete_shader(shader);
        }
        if !gl.get_program_link_status(program) {
            let log = gl.get_program_info_log(program);
            gl.delete_program(program);
            return Err(GlError::Link { files: format!("{} and {}", vertex.0, fragment.0), log });
        }
        Ok(program)
    }
}

/// [`compile_program_with`] without extra defines or captured outputs.
pub fn compile_program(
    gl: &glow::Context,
    vertex: ShaderFile,
    fragment: ShaderFile,
) -> Result<glow::Program, GlError> {
    compile_program_with(gl, vertex, fragment, "", &[])
}

/// The shader's source and the name of the file it came from.
fn shader_source(file: &str, built_in: &str) -> Result<(String, String), GlError> {
    match std::env::var_os("SKINNING_SHADERS") {
        None => Ok((file.to_string(), built_in.to_string())),
        Some(dir) => {
            let name = file.rsplit('/').next().unwrap_or(file);
            let path = std::path::Path::new(&dir).join(name).display().to_string();
            match std::fs::read_to_string(&path) {
                Ok(source) => Ok((path, source)),
                Err(e) => Err(GlError::ReadShader { file: path, error: e.to_string() }),
            }
        }
    }
}

/// The bytes of a slice of plain numbers, for handing to OpenGL: bytemuck's `Pod` types have no
/// padding and take any bit pattern, so the cast needs no `unsafe` of ours.
pub fn as_bytes<T: bytemuck::Pod>(data: &[T]) -> &[u8] {
    bytemuck::cast_slice(data)
}

/// A size in bytes, a count or a byte offset as OpenGL takes it (`GLsizei`, `GLint`, `GLintptr`
/// in glow: 32 bits, signed): an error in words past 2^31 - 1, where `as i32` would wrap to a
/// smaller or negative number, and a read-back would read past its buffer. `n` is built with
/// `saturating_mul` by the callers, so a product too big for `usize` fails here too.
pub fn gl_size(n: usize, what: &str) -> Result<i32, GlError> {
    i32::try_from(n)
        .map_err(|_| GlError::Other(format!("{what}: {n} is more than one OpenGL call takes (2147483647)")))
}

/// RGBA bytes for a `width` x `height` texture: an error unless the buffer holds exactly
/// `width * height * 4` bytes (OpenGL would read that many from it, whatever it holds) and both
/// sides fit OpenGL's 32-bit signed sizes. The sides, as OpenGL takes them.
pub fn rgba_texture_size(width: u32, height: u32, rgba: &[u8]) -> Result<(i32, i32), GlError> {
    let wanted = (width as u64).saturating_mul(height as u64).saturating_mul(4);
    if rgba.len() as u64 != wanted {
        let holds = rgba.len();
        return Err(GlError::Other(format!(
            "a {width} x {height} texture needs {wanted} bytes, its pixels hold {holds}"
        )));
    }
    Ok((gl_size(width as usize, "a texture's width")?, gl_size(height as usize, "a texture's height")?))
}

#[cfg(test)]
mod tests {
    use super::{gl_size, rgba_texture_size};

    #[test]
    fn a_size_past_32_bits_is_an_error_not_a_wrapped_number() {
        assert_eq!(gl_size(24 * 1000, "bytes").unwrap(), 24_000);
        assert_eq!(gl_size(i32::MAX as usize, "bytes").unwrap(), i32::MAX);
        // 89,500,000 vertices of 24 bytes: `as i32` made this a negative number.
        let bytes = 89_500_000usize * 24;
        assert!((bytes as i32) < 0, "what the old cast did");
        let error = gl_size(bytes, "the captured bytes").unwrap_err().to_string();
        assert!(error.contains("the captured bytes: 2148000000 is more than"), "{error}");
        assert!(gl_size(usize::MAX.saturating_mul(24), "bytes").is_err());
    }

    #[test]
    fn a_texture_is_uploaded_only_from_width_times_height_times_four_bytes() {
        assert_eq!(rgba_texture_size(3, 2, &[0; 24]).unwrap(), (3, 2));
        let short = rgba_texture_size(3, 2, &[0; 23]).unwrap_err().to_string();
        assert!(short.contains("a 3 x 2 texture needs 24 bytes, its pixels hold 23"), "{short}");
        assert!(rgba_texture_size(3, 2, &[0; 25]).is_err());
        assert!(rgba_texture_size(u32::MAX, 1, &[]).is_err());
    }
}
