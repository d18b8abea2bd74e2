//! The desktop's OpenGL context, through glutin: on a window (with glutin-winit, which makes the
//! two together) or with no window at all (`headless.rs`). OpenGL 3.3 core where the driver has
//! it, else OpenGL ES 3.0; the shaders are written for both (`draw/gl.rs`). The web page gets its
//! context from the browser instead (`web/canvas.rs`).

use crate::demo::output::failure::Failure;
use glow::HasContext;
use glutin::config::{Config, ConfigTemplateBuilder, GlConfig};
use glutin::context::{ContextApi, ContextAttributesBuilder, GlProfile, NotCurrentContext, Version};
use glutin::display::{Display, GlDisplay};
use glutin_winit::DisplayBuilder;
use std::ffi::CStr;
use std::panic::AssertUnwindSafe;

/// The window, and the config its OpenGL surface will have (glutin-winit creates the two together).
pub fn window_and_config(
    event_loop: &winit::event_loop::ActiveEventLoop,
    attributes: winit::window::WindowAttributes,
) -> Result<(winit::window::Window, Config), Failure> {
    // Almost any config will do: we draw lines and points, and Xvfb offers no multisampling
    // anyway. The lit surface needs a depth buffer: the first config the platform lists that has
    // one (the first is its preferred), else the first of all, where the surface's far side may
    // then show through. glutin-winit wants a config back from the picker, so an empty list (a
    // driver with no config for this screen) can only leave it by unwinding, with a payload of its
    // own that we turn into the one-line error.
    let template = ConfigTemplateBuilder::new();
    let pick = |configs: Box<dyn Iterator<Item = Config> + '_>| {
        let mut first = None;
        for config in configs {
            if config.depth_size() > 0 {
                return config;
            }
            first.get_or_insert(config);
        }
        first.unwrap_or_else(|| std::panic::panic_any(NoConfig))
    };
    let built = std::panic::catch_unwind(AssertUnwindSafe(|| {
        DisplayBuilder::new().with_window_attributes(Some(attributes)).build(event_loop, template, pick)
    }));
    let (window, config) = match built {
        Ok(built) => built.map_err(|e| Failure::new(3, format!("cannot set up OpenGL for a window: {e}")))?,
        Err(payload) if payload.is::<NoConfig>() => return Err(Failure::new(3, NO_CONFIG)),
        Err(payload) => std::panic::resume_unwind(payload),
    };
    let window = window.ok_or_else(|| Failure::new(1, "the window was not created"))?;
    Ok((window, config))
}

/// The panic payload of a config picker given no config; the panic hook prints nothing for it.
pub struct NoConfig;

const NO_CONFIG: &str = "the graphics driver offers no OpenGL configuration for this display; update the \
                         graphics driver, or install Mesa's (Debian: libgl1-mesa-dri libegl-mesa0)";

/// Creates a context: OpenGL 3.3 core if the driver has it, else OpenGL ES 3.0.
pub fn create_context(
    display: &Display,
    config: &Config,
    window: Option<winit::raw_window_handle::RawWindowHandle>,
) -> Result<NotCurrentContext, Failure> {
    let core = ContextAttributesBuilder::new()
        .with_context_api(ContextApi::OpenGl(Some(Version::new(3, 3))))
        .with_profile(GlProfile::Core)
        .build(window);
    let es = ContextAttributesBuilder::new()
        .with_context_api(ContextApi::Gles(Some(Version::new(3, 0))))
        .build(window);
    // SAFETY: `config` came from `display`, and `window` (if any) is alive for this call.
    unsafe { display.create_context(config, &core).or_else(|_| display.create_context(config, &es)) }
        .map_err(|e| Failure::new(3, format!("{NO_GL}: {e}")))
}

const NO_GL: &str = "this driver offers neither OpenGL 3.3 nor OpenGL ES 3.0; update the graphics driver, \
                     or install Mesa's software renderer (Debian: libgl1-mesa-dri)";

/// Loads the OpenGL functions of the current context and checks its version.
pub fn load(display: &Display) -> Result<glow::Context, Failure> {
    // SAFETY: a context of `display` is current on this thread, so the pointers it returns are valid.
    let gl =
        unsafe { glow::Context::from_loader_function_cstr(|name: &CStr| display.get_proc_address(name)) };
    let v = gl.version();
    let enough = if v.is_embedded { v.major >= 3 } else { (v.major, v.minor) >= (3, 3) };
    if !enough {
        return Err(Failure::new(3, format!("{NO_GL} (got {}.{})", v.major, v.minor)));
    }
    Ok(gl)
}
