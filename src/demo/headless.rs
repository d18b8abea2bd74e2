//! `--headless`: the same drawing with no window and no display server.
//!
//! EGL can open a GPU (or Mesa's software renderer) directly as a "device". We make a context with no
//! surface at all, draw into a framebuffer object of the requested size, and read the pixels back.

use super::{Failure, Session, gl, render::Renderer, save_png};

#[cfg(not(any(target_os = "macos", target_os = "ios")))]
pub fn run(mut session: Session) -> Result<(), Failure> {
    use glow::HasContext;
    use glutin::api::egl::{device::Device, display::Display};
    use glutin::config::{ConfigSurfaceTypes, ConfigTemplateBuilder};
    use glutin::display::GlDisplay;

    let no_egl = |detail: String| {
        Failure::new(
            3,
            format!(
                "--headless needs an EGL driver ({detail}); on Debian or Ubuntu install libegl1 and libgl1-mesa-dri"
            ),
        )
    };
    // Prefer Mesa's software device: it is everywhere and draws the same pixels on every machine.
    let devices: Vec<Device> =
        Device::query_devices().map_err(|e| no_egl(format!("no EGL devices: {e}")))?.collect();
    let device = devices
        .iter()
        .find(|d| d.extensions().contains("EGL_MESA_device_software"))
        .or_else(|| devices.first())
        .ok_or_else(|| no_egl("EGL lists no devices".into()))?;
    // SAFETY: the device came from EGL's own list; no native display is involved.
    let display = unsafe { Display::with_device(device, None) }.map_err(|e| no_egl(e.to_string()))?;
    let display = glutin::display::Display::Egl(display);

    // No window, so the config needs no surface type.
    let template = ConfigTemplateBuilder::new().with_surface_type(ConfigSurfaceTypes::empty()).build();
    // SAFETY: the template holds no native window handle.
    let config = unsafe { display.find_configs(template) }
        .ok()
        .and_then(|mut configs| configs.next())
        .ok_or_else(|| no_egl("the EGL device offers no OpenGL config".into()))?;
    let context = match gl::create_context(&display, &config, None)? {
        glutin::context::NotCurrentContext::Egl(context) => context,
        #[allow(unreachable_patterns)]
        _ => return Err(no_egl("not an EGL context".into())),
    };
    let _context = context.make_current_surfaceless().map_err(|e| no_egl(e.to_string()))?;
    let gl = gl::load(&display)?;
    eprintln!("skinning: headless, {}", gl::version_string(&gl));

    // An offscreen colour buffer to draw into, in place of a window.
    let (width, height) = session.size();
    // SAFETY: the context made above is current on this thread for the rest of this function.
    let (framebuffer, renderbuffer) = unsafe {
        let framebuffer = gl.create_framebuffer().map_err(gl::GlError::Other)?;
        let renderbuffer = gl.create_renderbuffer().map_err(gl::GlError::Other)?;
        gl.bind_renderbuffer(glow::RENDERBUFFER, Some(renderbuffer));
        gl.renderbuffer_storage(glow::RENDERBUFFER, glow::RGBA8, width as i32, height as i32);
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(framebuffer));
        gl.framebuffer_renderbuffer(
            glow::FRAMEBUFFER,
            glow::COLOR_ATTACHMENT0,
            glow::RENDERBUFFER,
            Some(renderbuffer),
        );
        if gl.check_framebuffer_status(glow::FRAMEBUFFER) != glow::FRAMEBUFFER_COMPLETE {
            return Err(Failure::new(1, format!("cannot make a {width}x{height} offscreen framebuffer")));
        }
        (framebuffer, renderbuffer)
    };

    let mut renderer = Renderer::new(gl, &session.demo.model)?;
    while !session.finished() {
        session.draw_frame(&mut renderer, width, height, 1.0);
        // A window's buffer swap hands each frame to the driver; with no window we must. Without
        // it Mesa queues frame after frame (with a copy of every buffer we overwrite) and memory grows.
        // SAFETY: the context made above is still current on this thread.
        unsafe { renderer.gl().flush() };
    }
    let pixels = renderer.read_pixels(width, height);
    session.print_stats();
    // SAFETY: as above; the handles were created above and are deleted once.
    unsafe {
        renderer.gl().delete_framebuffer(framebuffer);
        renderer.gl().delete_renderbuffer(renderbuffer);
    }
    drop(renderer);
    if let Some(path) = &session.options.screenshot {
        save_png(path, width, height, &pixels)?;
    }
    Ok(())
}

#[cfg(any(target_os = "macos", target_os = "ios"))]
pub fn run(_session: Session) -> Result<(), Failure> {
    Err(Failure::new(3, "--headless needs EGL, which macOS does not have; run without --headless"))
}
