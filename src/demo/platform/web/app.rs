//! The page as winit's application: the desktop's window (`window.rs`), in a canvas.
//!
//! winit calls us back as on the desktop: `resumed` when the canvas may be used, `window_event`
//! for keys, the mouse, fingers and `RedrawRequested` (on the browser's next animation frame, where
//! we draw), `about_to_wait` where we ask for the next one. And `user_event`, for what reaches the
//! page from outside the canvas (`web/mod.rs`): a model's files, fetched or handed over, and the
//! bar's buttons, each the key it stands for.
//!
//! What differs from the desktop: the model can arrive late (a fetch) or change (a file dropped),
//! so the demo and its renderer are made whenever one arrives; `--frames N` stops the drawing after
//! N frames, leaving the picture, as a page cannot exit (a key or the mouse starts it again); and a
//! picture the desktop saves as a file is handed over as a download.

use super::canvas::Canvas;
use super::download;
use crate::demo::cli::help::KEYS;
use crate::demo::cli::options::Options;
use crate::demo::draw::gl;
use crate::demo::draw::render::Renderer;
use crate::demo::model::files::Files;
use crate::demo::model::load::{self, Loaded, Loading};
use crate::demo::output::console;
use crate::demo::output::failure::Failure;
use crate::demo::output::page;
use crate::demo::output::picture::png_bytes;
use crate::demo::platform::input::{self, Pointer};
use crate::demo::platform::session::Session;
use crate::demo::platform::start;
use crate::demo::show::state::Reply;
use crate::demo::time::Instant;
use crate::demo::words::status::Fps;
use std::time::Duration;
use winit::application::ApplicationHandler;
use winit::event::{ElementState, KeyEvent, WindowEvent};
use winit::event_loop::ActiveEventLoop;
use winit::window::WindowId;

/// What reaches the page from outside the canvas.
pub enum Asked {
    /// A model's files: the model `name` ("" for the article's scene) and the files it names, and
    /// those of a `--clips-from` file. `first`: what the page's address asked for, shown with the
    /// address's flags; a model dropped later gets only `--size`.
    Open { name: String, files: Files, first: bool },
    /// A button of the page's bar: the key it stands for.
    Key(String),
}

/// The page: its flags, its canvas, and the model it shows.
pub struct Page {
    options: Options,
    canvas: Option<Canvas>,
    shown: Option<Shown>,
    /// What arrived before the canvas was ready.
    waiting: Vec<Asked>,
    pointer: Pointer,
    fps: Fps,
    title_updated: Option<Instant>,
}

/// A model being drawn: the same session and renderer as the desktop's window.
struct Shown {
    session: Session,
    renderer: Renderer,
    /// Stopped: `--frames N` are drawn, or a frame failed. Input starts it again (not a failure).
    stopped: bool,
    failed: bool,
}

impl Page {
    pub fn new(options: Options) -> Page {
        Page {
            options,
            canvas: None,
            shown: None,
            waiting: Vec::new(),
            pointer: Pointer::default(),
            fps: Fps::default(),
            title_updated: None,
        }
    }

    /// Shows the model in `files` (see [`Asked::Open`]), or says in one line why not; a model that
    /// fails to open leaves the one shown before, if any.
    fn open(&mut self, name: &str, files: &Files, first: bool) {
        let Some(canvas) = &self.canvas else { return };
        let options = match first {
            true => self.options.clone(),
            false => Options { size: self.options.size, model: Some(name.into()), ..Options::default() },
        };
        let opened = match load::handed(&options, files) {
            Ok(Loading::Show(loaded)) => show(canvas, options, *loaded),
            Ok(Loading::Described) => return,
            Err(failure) => Err(failure),
        };
        self.started(opened, name, first);
    }

    /// The article's scene, when the address names no model.
    fn open_scene(&mut self) {
        let Some(canvas) = &self.canvas else { return };
        let shown = match load::load(&self.options) {
            Ok(Loading::Show(loaded)) => show(canvas, self.options.clone(), *loaded),
            Ok(Loading::Described) => return,
            Err(failure) => Err(failure),
        };
        self.started(shown, "", true);
    }

    fn started(&mut self, shown: Result<Shown, Failure>, name: &str, first: bool) {
        match shown {
            Ok(shown) => {
                // A model that opens after one that failed: the page shows it, and no failure.
                page::set_data("failure", "");
                page::set_data("model", name);
                page::set_data("frames", "0");
                self.shown = Some(shown);
                self.wake();
            }
            Err(failure) if first => page::failed(&failure.message),
            Err(failure) => console::say(&failure.message),
        }
    }

    /// Asks for a frame; a page stopped after `--frames N` goes on (not one that failed).
    fn wake(&mut self) {
        if let (Some(canvas), Some(shown)) = (&self.canvas, &mut self.shown)
            && !shown.failed
        {
            shown.stopped = false;
            canvas.window.request_redraw();
        }
    }

    /// A key, typed on the canvas or pressed on the bar.
    fn key(&mut self, text: &str) {
        let Some(shown) = &mut self.shown else { return };
        let demo = &mut shown.session.demo;
        match demo.key(text) {
            Reply::Help => page::keys(KEYS, true),
            Reply::Screenshot => {
                let name = demo.screenshot_name();
                if let Some(canvas) = &self.canvas {
                    screenshot(canvas, shown, &name, true);
                }
            }
            Reply::Refused(why) => console::say(&why),
            Reply::Said(line) => page::show(&line),
            Reply::Changed | Reply::Nothing => {}
        }
        self.title_updated = None;
        self.wake();
    }

    /// Draws the next frame, counts it on the page, and stops after `--frames N`.
    fn draw(&mut self) {
        let (Some(canvas), Some(shown)) = (&self.canvas, &mut self.shown) else { return };
        let size = canvas.window.inner_size();
        if shown.stopped || size.width == 0 || size.height == 0 {
            return;
        }
        let scale = canvas.window.scale_factor();
        if let Err(failure) = shown.session.draw_frame(&mut shown.renderer, size.width, size.height, scale) {
            (shown.stopped, shown.failed) = (true, true);
            return page::failed(&failure.message);
        }
        page::set_data("frames", &shown.session.frames_drawn.to_string());
        self.fps.tick();
        // The page's title is the window's: set a few times a second, as the desktop's window's is.
        if self.title_updated.is_none_or(|t| t.elapsed() > Duration::from_millis(250)) {
            page::set_title(&shown.session.demo.title(self.fps.rate));
            self.title_updated = Some(Instant::now());
        }
        if shown.session.finished() && !shown.stopped {
            shown.stopped = true;
            if let Err(failure) = shown.session.print_stats() {
                console::say(&failure.message);
            }
            if let Some(path) = shown.session.options.screenshot.clone() {
                screenshot(canvas, shown, &path.to_string_lossy(), false);
            }
            // Drawn again on a key or the mouse, from where it stopped; not again here.
            shown.session.options.frames = None;
            shown.session.options.screenshot = None;
        }
    }
}

/// The demo of `loaded` as `options` ask, with a renderer on `canvas`: `run` in `demo/mod.rs`
/// and `create_window` in `window.rs`, for the page.
fn show(canvas: &Canvas, options: Options, loaded: Loaded) -> Result<Shown, Failure> {
    let mut session = start::session(options, loaded)?;
    let renderer = start::renderer(&mut session, canvas.gl())?;
    Ok(Shown { session, renderer, stopped: false, failed: false })
}

/// Draws the frame shown once more, as it is (nothing moves on).
fn draw_again(canvas: &Canvas, shown: &mut Shown) {
    let size = canvas.window.inner_size();
    let scene = shown.session.demo.scene(size.width, size.height, canvas.window.scale_factor());
    shown.renderer.draw(&scene, size.width, size.height);
}

/// The picture on the canvas, drawn afresh, handed over as the PNG file `name` (clicked at once
/// if `now`, as `P` asks; else a link, as `--screenshot` after `--frames N` gets).
fn screenshot(canvas: &Canvas, shown: &mut Shown, name: &str, now: bool) {
    draw_again(canvas, shown);
    let size = canvas.window.inner_size();
    let (w, h) = (size.width, size.height);
    let renderer = &shown.renderer;
    let offered = png_bytes(w, h, &mut |top, rows| renderer.read_rows(w, h, top, rows))
        .map_err(|f| f.message)
        .and_then(|bytes| download::offer(name, &bytes, "image/png", now));
    if let Err(why) = offered {
        console::say(&format!("cannot save {name}: {why}"));
    }
}

impl ApplicationHandler<Asked> for Page {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.canvas.is_some() {
            return;
        }
        let canvas = match Canvas::new(event_loop, self.options.size.unwrap_or((640, 480))) {
            Ok(canvas) => canvas,
            Err(failure) => return page::failed(&failure.message),
        };
        console::say(&gl::version_string(&canvas.gl()));
        page::keys(KEYS, false);
        self.canvas = Some(canvas);
        if self.options.model.is_none() && self.options.motion.clips_from.is_none() {
            self.open_scene();
        }
        for asked in std::mem::take(&mut self.waiting) {
            self.user_event(event_loop, asked);
        }
    }

    fn user_event(&mut self, _event_loop: &ActiveEventLoop, asked: Asked) {
        if self.canvas.is_none() {
            return self.waiting.push(asked);
        }
        match asked {
            Asked::Open { name, files, first } => self.open(&name, &files, first),
            Asked::Key(key) => self.key(&key),
        }
    }

    fn window_event(&mut self, _event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let (Some(canvas), Some(shown)) = (&self.canvas, &mut self.shown) else { return };
        match event {
            WindowEvent::KeyboardInput {
                event: KeyEvent { logical_key, state: ElementState::Pressed, .. },
                ..
            } => {
                if let Some(text) = input::typed(&logical_key) {
                    self.key(text);
                }
            }
            WindowEvent::CursorMoved { .. }
            | WindowEvent::MouseInput { .. }
            | WindowEvent::MouseWheel { .. }
            | WindowEvent::Touch(_) => {
                let (size, scale) = (canvas.window.inner_size(), canvas.window.scale_factor());
                self.pointer.event(&mut shown.session.demo, &event, size, scale);
                if !matches!(event, WindowEvent::CursorMoved { .. }) || self.pointer.busy() {
                    self.wake();
                }
            }
            WindowEvent::Resized(size) => {
                // A canvas given new pixels is cleared: a page stopped after `--frames N` draws
                // the same frame again.
                canvas.resized(size);
                match shown.stopped {
                    true => draw_again(canvas, shown),
                    false => canvas.window.request_redraw(),
                }
            }
            WindowEvent::RedrawRequested => self.draw(),
            _ => {}
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if let (Some(canvas), Some(shown)) = (&self.canvas, &self.shown)
            && !shown.stopped
        {
            canvas.window.request_redraw();
        }
    }
}
