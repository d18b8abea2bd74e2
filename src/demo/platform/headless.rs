//! `--headless`: the same drawing with no window and no display server.
//!
//! EGL can open a GPU (or Mesa's software renderer) directly as a "device". We make a context with no
//! surface at all, draw into a framebuffer object of the requested size, and read the pixels back.
//! `--dump --skinning gpu` uses the same kind of context to run the skinning shader (LBS or DQS,
//! as `--method` says) and read back what it computed.

use super::context;
use super::session::Session;
use crate::demo::draw::gl;
use crate::demo::output::console;
use crate::demo::output::failure::Failure;
use crate::demo::output::picture::save_png;
use crate::demo::output::write_file;
use glam::Vec3A;
use skinning_formats::dump::{Frames, Played, Settings};
use skinning_formats::material::Looks;
use skinning_method::dual_quat::DqPalette;
use skinning_method::frame::{Posed, Skinner};
use skinning_method::lbs_or_dqs::{Method, Palette, SkinsByMethod};
use skinning_method::model::Model;
use skinning_method::skin::Skin;
use std::error::Error;
use std::path::Path;

#[cfg(not(any(target_os = "macos", target_os = "ios")))]
pub fn run(mut session: Session) -> Result<(), Failure> {
    let (width, height) = session.size();
    // A depth buffer only where a surface may be lit: the article's outline has no triangles.
    let depth = !session.demo.model.triangles.is_empty();
    let (_context, gl) = offscreen(width, height, depth)?;
    let mut renderer = super::start::renderer(&mut session, gl)?;
    while !session.finished() {
        session.draw_frame(&mut renderer, width, height, 1.0)?;
        // A window's buffer swap hands each frame to the driver; with no window we must. Without
        // it Mesa queues frame after frame (with a copy of every buffer we overwrite) and memory grows.
        renderer.flush();
    }
    session.print_stats()?;
    if let Some(path) = &session.options.screenshot {
        save_png(path, width, height, &mut |top, rows| renderer.read_rows(width, height, top, rows))?;
    }
    Ok(())
}

/// `--dump FILE --skinning gpu`: the dump's skinned positions come from the vertex shader, read back
/// through transform feedback, so they can be compared with a CPU dump number for number.
#[cfg(not(any(target_os = "macos", target_os = "ios")))]
pub fn dump_gpu(
    path: &Path,
    model: &Model,
    played: Played,
    frames: Frames,
    settings: Settings,
) -> Result<(), Failure> {
    use crate::demo::draw::gpu_skin::GpuSkin;
    use crate::demo::model::gpu_fit::gpu_can_skin;
    use skinning_formats::dump::{By, write_dump_with};

    gpu_can_skin(&model.skin).map_err(|e| Failure::new(2, e))?;
    let (_context, gl) = offscreen(1, 1, false)?;
    // The dump reads positions and normals back: no surface, so no looks.
    let mut gpu = GpuSkin::new(&gl, model, &Looks::default())?;
    if let Some(note) = gpu.take_morph_note() {
        console::say(&format!("note: {note}"));
    }
    let dq = (DqPalette::new(model.skin.joints().len()), false);
    let mut read_back = ReadBack { gl: &gl, gpu, failure: None, method: settings.method, dq };
    let written = write_file(path, |mut file| {
        let by = By::Outside { name: "gpu", by: &mut read_back };
        write_dump_with(&mut file, model, played, frames, Settings { by, ..settings })
    });
    read_back.gpu.delete(&gl);
    match read_back.failure {
        Some(e) => Err(e.into()),
        None => written,
    }
}

/// The vertex shader as the dump's skinner (`frame.rs`: `Skinner`), by the dump's `method`: each
/// frame's shape and palette to the GPU (for DQS, the palette's dual quaternions, which it makes
/// itself as the window's GPU layer does, and keeps for the dump: `dq`, and whether this frame's),
/// the positions and normals the shader computes read back through transform feedback. An OpenGL
/// failure is kept aside, so it is reported as itself and not as a file that cannot be written.
#[cfg(not(any(target_os = "macos", target_os = "ios")))]
struct ReadBack<'g> {
    gl: &'g glow::Context,
    gpu: crate::demo::draw::gpu_skin::GpuSkin,
    failure: Option<gl::GlError>,
    method: Method,
    dq: (DqPalette, bool),
}

#[cfg(not(any(target_os = "macos", target_os = "ios")))]
impl Skinner for ReadBack<'_> {
    fn skin(
        &mut self,
        _skin: &Skin,
        posed: Posed,
        positions: &mut [Vec3A],
        normals: &mut [Vec3A],
    ) -> Result<(), Box<dyn Error + Send + Sync>> {
        self.dq.1 = false;
        let palette = match self.method {
            Method::Lbs => Palette::Lbs(posed.palette),
            Method::Dqs => {
                self.dq.0.update(posed.palette)?;
                self.dq.1 = true;
                Palette::Dqs { joints: &self.dq.0.joints, scale: self.dq.0.scale }
            }
        };
        self.gpu.set_shape(self.gl, posed.morph);
        self.gpu.capture(self.gl, palette, positions, normals).map_err(|e| {
            let said = e.to_string();
            self.failure = Some(e);
            said.into()
        })
    }
}

#[cfg(not(any(target_os = "macos", target_os = "ios")))]
impl SkinsByMethod for ReadBack<'_> {
    fn dq(&self) -> Option<&DqPalette> {
        self.dq.1.then_some(&self.dq.0)
    }
}

/// An EGL context with no window, current on this thread, drawing into a `width` x `height`
/// offscreen framebuffer, with a depth buffer if asked (the lit surface needs one). Keep the
/// context alive while using `gl`; the framebuffer goes with it.
#[cfg(not(any(target_os = "macos", target_os = "ios")))]
pub fn offscreen(
    width: u32,
    height: u32,
    depth: bool,
) -> Result<(glutin::api::egl::context::PossiblyCurrentContext, glow::Context), Failure> {
    let display = egl_device_display()?;
    let context = surfaceless_context(&display)?;
    let gl = context::load(&display)?;
    console::say(&format!("headless, {}", gl::version_string(&gl)));
    framebuffer(&gl, width, height, depth)?;
    Ok((context, gl))
}

/// The failure when EGL cannot draw offscreen here, with what it said (`detail`).
#[cfg(not(any(target_os = "macos", target_os = "ios")))]
fn no_egl(detail: String) -> Failure {
    Failure::new(
        3,
        format!(
            "drawing offscreen needs an EGL driver ({detail}); on Debian or Ubuntu install libegl1 and libgl1-mesa-dri"
        ),
    )
}

/// An EGL display on a device, with no display server: Mesa's software device if there is one (it
/// is everywhere and draws the same pixels on every machine), else the first EGL lists.
#[cfg(not(any(target_os = "macos", target_os = "ios")))]
fn egl_device_display() -> Result<glutin::display::Display, Failure> {
    use glutin::api::egl::{device::Device, display::Display};

    let devices: Vec<Device> =
        Device::query_devices().map_err(|e| no_egl(format!("no EGL devices: {e}")))?.collect();
    let device = devices
        .iter()
        .find(|d| d.extensions().contains("EGL_MESA_device_software"))
        .or_else(|| devices.first())
        .ok_or_else(|| no_egl("EGL lists no devices".into()))?;
    // SAFETY: the device came from EGL's own list; no native display is involved.
    let display = unsafe { Display::with_device(device, None) }.map_err(|e| no_egl(e.to_string()))?;
    Ok(glutin::display::Display::Egl(display))
}

/// An OpenGL context on `display` with no surface at all, current on this thread.
#[cfg(not(any(target_os = "macos", target_os = "ios")))]
fn surfaceless_context(
    display: &glutin::display::Display,
) -> Result<glutin::api::egl::context::PossiblyCurrentContext, Failure> {
    use glutin::config::{ConfigSurfaceTypes, ConfigTemplateBuilder};
    use glutin::display::GlDisplay;

    // No window, so the config needs no surface type.
    let template = ConfigTemplateBuilder::new().with_surface_type(ConfigSurfaceTypes::empty()).build();
    // SAFETY: the template holds no native window handle.
    let config = unsafe { display.find_configs(template) }
        .ok()
        .and_then(|mut configs| configs.next())
        .ok_or_else(|| no_egl("the EGL device offers no OpenGL config".into()))?;
    let context = match context::create_context(display, &config, None)? {
        glutin::context::NotCurrentContext::Egl(context) => context,
        #[allow(unreachable_patterns)]
        _ => return Err(no_egl("not an EGL context".into())),
    };
    context.make_current_surfaceless().map_err(|e| no_egl(e.to_string()))
}

/// An offscreen colour buffer of `width` x `height` to draw into, in place of a window, and a depth
/// buffer if asked, bound as the framebuffer. It lives as long as the context that `gl` draws with.
#[cfg(not(any(target_os = "macos", target_os = "ios")))]
fn framebuffer(gl: &glow::Context, width: u32, height: u32, depth: bool) -> Result<(), Failure> {
    use glow::HasContext;

    // SAFETY: the caller made the context behind `gl` current on this thread.
    unsafe {
        let framebuffer = gl.create_framebuffer().map_err(gl::GlError::Other)?;
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(framebuffer));
        let mut buffers = vec![(glow::RGBA8, glow::COLOR_ATTACHMENT0)];
        if depth {
            buffers.push((glow::DEPTH_COMPONENT24, glow::DEPTH_ATTACHMENT));
        }
        let bytes = (width as u64 * height as u64 * 4) * buffers.len() as u64;
        for (format, attachment) in buffers {
            let renderbuffer = gl.create_renderbuffer().map_err(gl::GlError::Other)?;
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(renderbuffer));
            gl.renderbuffer_storage(glow::RENDERBUFFER, format, width as i32, height as i32);
            // A big picture needs width x height x 4 bytes here (and as much again for depth). A
            // driver short of memory says GL_OUT_OF_MEMORY, or (Mesa) quietly leaves the
            // renderbuffer 0 pixels wide.
            let allocated = gl.get_renderbuffer_parameter_i32(glow::RENDERBUFFER, glow::RENDERBUFFER_WIDTH);
            if gl.get_error() == glow::OUT_OF_MEMORY || allocated != width as i32 {
                let mib = bytes >> 20;
                return Err(Failure::new(
                    1,
                    format!(
                        "not enough memory to draw a {width}x{height} picture ({mib} MiB); try a smaller --size"
                    ),
                ));
            }
            gl.framebuffer_renderbuffer(
                glow::FRAMEBUFFER,
                attachment,
                glow::RENDERBUFFER,
                Some(renderbuffer),
            );
        }
        if gl.check_framebuffer_status(glow::FRAMEBUFFER) != glow::FRAMEBUFFER_COMPLETE {
            return Err(Failure::new(1, format!("cannot make a {width}x{height} offscreen framebuffer")));
        }
    }
    Ok(())
}

#[cfg(any(target_os = "macos", target_os = "ios"))]
pub fn run(_session: Session) -> Result<(), Failure> {
    Err(Failure::new(3, "--headless needs EGL, which macOS does not have; run without --headless"))
}

#[cfg(any(target_os = "macos", target_os = "ios"))]
pub fn dump_gpu(_: &Path, _: &Model, _: Played, _: Frames, _: Settings) -> Result<(), Failure> {
    Err(Failure::new(3, "--dump --skinning gpu needs EGL, which macOS does not have; use --skinning cpu"))
}
