//! Reaching the desktop's display server, and losing it.
//!
//! - Which server. winit takes Wayland whenever `WAYLAND_DISPLAY` is set, and gives up if no
//!   compositor answers there, even when an X server (`DISPLAY`) is fine. A `WAYLAND_DISPLAY` left
//!   over from a compositor that went away is common (a restarted desktop, ssh, tmux), so we
//!   knock on the Wayland socket first: if nothing answers and `DISPLAY` is set, the window goes to
//!   the X server, as other programs on such a desktop do.
//! - What it needs. `libraries` checks the server's libraries, and OpenGL's, before winit loads them.
//! - An X screen with 8-bit colour (a palette) has no visual OpenGL can draw into; that is said
//!   in those words, instead of EGL's "[3001] initialization failed".
//! - Losing it. When the X server goes away, Xlib calls its "I/O error handler", whose default
//!   prints two lines and exits. Ours prints one line that says what happened, and exits 1.

use super::console;
use super::failure::Failure;
use super::libraries::{self, Server};
use std::ffi::{c_int, c_void};
use std::path::PathBuf;
use std::sync::OnceLock;
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::raw_window_handle::{HasDisplayHandle, RawDisplayHandle};

/// What the program says when the display server goes away under it.
pub const LOST: &str = "the display connection was lost (the display server quit or crashed)";

/// The fewest bits of colour a screen needs for an OpenGL window (Mesa draws into 16-bit ones).
const MIN_DEPTH: c_int = 15;

/// Picks the display server, checks its libraries, and creates winit's event loop for it.
pub fn event_loop() -> Result<EventLoop<()>, Failure> {
    let no_window = |why: String| {
        Failure::new(3, format!("cannot open a window: {why}; or draw offscreen with --headless --frames N"))
    };
    let server = pick_server().map_err(no_window)?;
    libraries::check(server).map_err(no_window)?;
    let mut builder = EventLoop::builder();
    if server == Server::X11 {
        use winit::platform::x11::EventLoopBuilderExtX11;
        builder.with_x11();
        watch_for_lost_x_server();
    }
    builder.build().map_err(|e| {
        // winit's message starts with where in winit's source it was raised; the user needs the rest.
        let text = e.to_string();
        let reason =
            text.split_once(".rs:").and_then(|(_, rest)| rest.split_once(": ")).map_or(&*text, |r| r.1);
        let reason = reason.trim_end_matches('.');
        no_window(match server {
            Server::X11 => format!("{reason}; is the X server at DISPLAY={} running?", env("DISPLAY")),
            Server::Wayland => format!("{reason}; is the Wayland compositor running?"),
        })
    })
}

/// Wayland if `WAYLAND_DISPLAY` (or `WAYLAND_SOCKET`) is set and answers, else X11 if `DISPLAY`
/// is set.
fn pick_server() -> Result<Server, String> {
    let x11 = !env("DISPLAY").is_empty();
    if !env("WAYLAND_SOCKET").is_empty() {
        // An already connected socket handed to us: nothing to knock on.
        return Ok(Server::Wayland);
    }
    let wayland = env("WAYLAND_DISPLAY");
    if wayland.is_empty() {
        return match x11 {
            true => Ok(Server::X11),
            false => Err("no display server: neither DISPLAY nor WAYLAND_DISPLAY is set; \
                          run it on a desktop, or set DISPLAY"
                .into()),
        };
    }
    // The socket is WAYLAND_DISPLAY itself if it is a path, else a name in XDG_RUNTIME_DIR.
    let socket = match PathBuf::from(&wayland) {
        path if path.is_absolute() => path,
        name => PathBuf::from(env("XDG_RUNTIME_DIR")).join(name),
    };
    match std::os::unix::net::UnixStream::connect(&socket) {
        Ok(_) => Ok(Server::Wayland),
        Err(_) if x11 => Ok(Server::X11),
        Err(e) => Err(format!(
            "no Wayland compositor answers at {} (WAYLAND_DISPLAY={wayland}): {e}, and DISPLAY is not set",
            socket.display()
        )),
    }
}

/// Refuses an X screen with too few colours for OpenGL, before glutin tries and fails obscurely.
pub fn check_colour_depth(event_loop: &ActiveEventLoop) -> Result<(), Failure> {
    let Ok(handle) = event_loop.display_handle() else { return Ok(()) };
    let RawDisplayHandle::Xlib(xlib) = handle.as_raw() else { return Ok(()) };
    let (Some(display), Some(default_depth)) = (xlib.display, x11_function::<DefaultDepth>(c"XDefaultDepth"))
    else {
        return Ok(());
    };
    // SAFETY: `display` is winit's open Xlib display and `screen` its screen number, both alive
    // while the event loop is; XDefaultDepth only reads them.
    let depth = unsafe { default_depth(display.as_ptr(), xlib.screen) };
    if depth >= MIN_DEPTH {
        return Ok(());
    }
    Err(Failure::new(
        3,
        format!(
            "cannot set up OpenGL for a window: the X screen has {depth}-bit colour, and OpenGL needs \
             {MIN_DEPTH} bits or more; run the X server with 24-bit colour (e.g. Xvfb -screen 0 1024x768x24)"
        ),
    ))
}

type DefaultDepth = unsafe extern "C" fn(*mut c_void, c_int) -> c_int;
type IoErrorHandler = unsafe extern "C" fn(*mut c_void) -> c_int;
type SetIoErrorHandler = unsafe extern "C" fn(Option<IoErrorHandler>) -> Option<IoErrorHandler>;

/// Replaces Xlib's I/O error handler (called when the connection to the X server breaks) by ours.
fn watch_for_lost_x_server() {
    if let Some(set_handler) = x11_function::<SetIoErrorHandler>(c"XSetIOErrorHandler") {
        // SAFETY: `display_lost` has the signature Xlib expects; the handler is process-wide.
        unsafe { set_handler(Some(display_lost)) };
    }
}

/// Xlib's I/O error handler: one line, then exit 1 at once (Xlib would exit after we return).
unsafe extern "C" fn display_lost(_display: *mut c_void) -> c_int {
    console::say(LOST);
    // SAFETY: `_exit` ends the process without running exit handlers, some of which (the OpenGL
    // driver's) would talk to the server that is gone.
    unsafe { libc::_exit(1) }
}

/// A function of libX11, the same library winit has loaded; None if it cannot be found.
fn x11_function<T: Copy>(name: &std::ffi::CStr) -> Option<T> {
    static LIBX11: OnceLock<Option<libloading::Library>> = OnceLock::new();
    // SAFETY: libX11 is already loaded by winit (or is about to be); loading it again only counts.
    let library = LIBX11.get_or_init(|| unsafe { libloading::Library::new("libX11.so.6") }.ok()).as_ref()?;
    // SAFETY: every `T` used here is the C signature of the function `name` names in Xlib.h; the
    // library stays loaded for the whole run (it lives in a static), so the pointer stays valid.
    unsafe { library.get::<T>(name.to_bytes_with_nul()).ok().map(|f| *f) }
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_default()
}
