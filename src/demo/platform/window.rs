//! The window: winit for the window and its events, glutin for the OpenGL context on it.
//!
//! winit calls us back: `resumed` when we may create the window, `window_event` for input and for
//! `RedrawRequested` (where we draw), `about_to_wait` when the event queue is empty (where we ask
//! for the next frame, so the animation runs continuously).

use super::context;
use super::display;
use super::input::{self, Pointer};
use super::session::Session;
use crate::demo::cli::help::KEYS;
use crate::demo::draw::gl;
use crate::demo::draw::render::Renderer;
use crate::demo::output::console;
use crate::demo::output::failure::Failure;
use crate::demo::output::picture::save_png;
use crate::demo::show::state::{Demo, Reply};
use crate::demo::words::status::Fps;
use glutin::context::PossiblyCurrentContext;
use glutin::display::{GetGlDisplay, GlDisplay};
use glutin::prelude::{GlSurface, NotCurrentGlContext};
use glutin::surface::{Surface, SurfaceAttributesBuilder, SwapInterval, WindowSurface};
use std::num::NonZeroU32;
use std::time::{Duration, Instant};
use winit::application::ApplicationHandler;
use winit::dpi::{LogicalSize, PhysicalSize, Size};
use winit::event::{ElementState, KeyEvent, WindowEvent};
use winit::event_loop::ActiveEventLoop;
use winit::keyboard::{Key, NamedKey};
use winit::raw_window_handle::HasWindowHandle;
use winit::window::{Window, WindowId};

pub fn run(session: Session) -> Result<(), Failure> {
    let event_loop = display::event_loop()?;
    let mut app = App {
        session,
        gl: None,
        failure: None,
        pointer: Pointer::default(),
        fps: Fps::default(),
        title_updated: None,
    };
    display::run_or_lost(|| event_loop.run_app(&mut app))?;
    if let Some(failure) = app.failure {
        return Err(failure);
    }
    app.session.print_stats()?;
    app.session.check_screenshot_taken()
}

/// The window and its OpenGL, dropped in the order the fields are declared (Rust drops a struct's
/// fields top to bottom): the renderer's GL objects first, while the context is still current;
/// then the surface, which belongs to the window; then the context; the window last. Reordering
/// these fields would delete GL objects without a context, or a window under its surface.
struct WindowGl {
    renderer: Renderer,
    surface: Surface<WindowSurface>,
    context: PossiblyCurrentContext,
    window: Window,
}

struct App {
    session: Session,
    gl: Option<WindowGl>,
    failure: Option<Failure>,
    /// The mouse: `input.rs` (fingers reach it only on the web page).
    pointer: Pointer,
    fps: Fps,
    title_updated: Option<Instant>,
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gl.is_some() {
            return;
        }
        match create_window(event_loop, &mut self.session) {
            Ok(gl) => {
                gl.window.request_redraw();
                self.gl = Some(gl);
                if let Err(failure) = console::show(KEYS) {
                    self.fail(event_loop, failure);
                }
            }
            Err(failure) => self.fail(event_loop, failure),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(gl) = &mut self.gl else { return };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Destroyed => self.fail(event_loop, Failure::new(1, display::WINDOW_GONE)),
            WindowEvent::Resized(size) => {
                // A minimised window can be 0 x 0: there is no surface to resize or draw into then.
                if let (Some(w), Some(h)) = (NonZeroU32::new(size.width), NonZeroU32::new(size.height)) {
                    gl.surface.resize(&gl.context, w, h);
                    gl.window.request_redraw();
                }
            }
            WindowEvent::KeyboardInput {
                event: KeyEvent { logical_key, state: ElementState::Pressed, .. },
                ..
            } => self.key_pressed(event_loop, &logical_key),
            WindowEvent::CursorMoved { .. }
            | WindowEvent::MouseInput { .. }
            | WindowEvent::MouseWheel { .. } => self.pointer.event(
                &mut self.session.demo,
                &event,
                gl.window.inner_size(),
                gl.window.scale_factor(),
            ),
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            _ => {}
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(gl) = &self.gl {
            gl.window.request_redraw();
        }
    }
}

impl App {
    fn fail(&mut self, event_loop: &ActiveEventLoop, failure: Failure) {
        self.failure.get_or_insert(failure);
        event_loop.exit();
    }

    /// A key pressed: Escape quits; any other the demo answers (`show/state/keys.rs`), and what it
    /// answers is shown, saved or said here.
    fn key_pressed(&mut self, event_loop: &ActiveEventLoop, logical_key: &Key) {
        let Some(gl) = &mut self.gl else { return };
        if *logical_key == Key::Named(NamedKey::Escape) {
            return event_loop.exit();
        }
        let Some(text) = input::typed(logical_key) else { return };
        let demo = &mut self.session.demo;
        let shown = match demo.key(text) {
            Reply::Help => console::show(KEYS),
            Reply::Screenshot => screenshot(gl, demo),
            Reply::Refused(why) => {
                console::say(&why);
                Ok(())
            }
            Reply::Said(line) => console::show(&line),
            Reply::Changed | Reply::Nothing => Ok(()),
        };
        if let Err(failure) = shown {
            return self.fail(event_loop, failure);
        }
        self.title_updated = None;
    }

    /// `RedrawRequested`: the next frame drawn and shown; after the last (`--frames`), the
    /// screenshot if asked, and the end.
    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        let Some(gl) = &mut self.gl else { return };
        let size = gl.window.inner_size();
        if size.width == 0 || size.height == 0 {
            return;
        }
        let scale = gl.window.scale_factor();
        if let Err(failure) = self.session.draw_frame(&mut gl.renderer, size.width, size.height, scale) {
            return self.fail(event_loop, failure);
        }
        if self.session.finished() {
            if let Some(path) = &self.session.options.screenshot
                && let Err(e) = save_picture(&gl.renderer, size, path)
            {
                self.failure = Some(e);
            }
            event_loop.exit();
        }
        // Present every frame we draw, the first one included: Wayland maps the window then.
        if let Err(e) = gl.surface.swap_buffers(&gl.context) {
            self.fail(event_loop, Failure::new(1, format!("cannot show the frame: {e}")));
            return;
        }
        self.fps.tick();
        // Setting the title costs a round trip to the display server: a few times a second.
        if self.title_updated.is_none_or(|t| t.elapsed() > Duration::from_millis(250)) {
            gl.window.set_title(&self.session.demo.title(self.fps.rate));
            self.title_updated = Some(Instant::now());
        }
    }
}

fn create_window(event_loop: &ActiveEventLoop, session: &mut Session) -> Result<WindowGl, Failure> {
    let size: Size = match session.options.size {
        Some((w, h)) => PhysicalSize::new(w, h).into(),
        None => LogicalSize::new(640.0, 480.0).into(),
    };
    let attributes = Window::default_attributes().with_title("skinning").with_inner_size(size);
    display::check_colour_depth(event_loop)?;
    let (window, config) = context::window_and_config(event_loop, attributes)?;
    let handle =
        window.window_handle().map_err(|e| Failure::new(1, format!("no window handle: {e}")))?.as_raw();
    super::xlib::watch_window(handle);

    let display = config.display();
    let context = context::create_context(&display, &config, Some(handle))?;
    let size = window.inner_size();
    let (w, h) = (NonZeroU32::new(size.width.max(1)), NonZeroU32::new(size.height.max(1)));
    let (Some(w), Some(h)) = (w, h) else { unreachable!("max(1) is never zero") };
    let surface_attributes = SurfaceAttributesBuilder::<WindowSurface>::new().build(handle, w, h);
    // SAFETY: the window behind `handle` lives as long as the surface (both end up in `WindowGl`).
    let surface = unsafe { display.create_window_surface(&config, &surface_attributes) }
        .map_err(|e| Failure::new(1, format!("cannot create the window's OpenGL surface: {e}")))?;
    let context = context
        .make_current(&surface)
        .map_err(|e| Failure::new(1, format!("cannot use the OpenGL context: {e}")))?;
    let gl = context::load(&display)?;
    console::say(&gl::version_string(&gl));
    // Wait for the screen's refresh between frames; not every platform can, which is fine.
    let _ = surface.set_swap_interval(&context, SwapInterval::Wait(NonZeroU32::MIN));
    let renderer = super::start::renderer(session, gl)?;
    Ok(WindowGl { renderer, surface, context, window })
}

/// `P`: what the window shows, drawn afresh so the picture is exactly the current state, saved
/// under the demo's next name. A picture that could not be saved is worth a line, not the end.
fn screenshot(gl: &mut WindowGl, demo: &Demo) -> Result<(), Failure> {
    let path = demo.screenshot_name();
    let size = gl.window.inner_size();
    if size.width == 0 || size.height == 0 {
        return Ok(());
    }
    let scene = demo.scene(size.width, size.height, gl.window.scale_factor());
    gl.renderer.draw(&scene, size.width, size.height);
    match save_picture(&gl.renderer, size, std::path::Path::new(&path)) {
        Ok(()) => console::show(&format!("saved {path}")),
        Err(failure) if failure.signal.is_none() => {
            console::say(&failure.message);
            Ok(())
        }
        Err(failure) => Err(failure),
    }
}

/// Saves what `renderer` last drew, `size` pixels, as a PNG, a strip of rows at a time.
fn save_picture(renderer: &Renderer, size: PhysicalSize<u32>, path: &std::path::Path) -> Result<(), Failure> {
    let (w, h) = (size.width, size.height);
    save_png(path, w, h, &mut |top, rows| renderer.read_rows(w, h, top, rows))
}
