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
//!   prints two lines and exits. Ours prints one line that says what happened, and exits 1. winit
//!   itself may notice first: its event loop ends with a failure code, or one of its many
//!   `unwrap()`s on X requests panics. [`run_or_lost`] turns both into that same line, after
//!   checking that the server is really gone (so a genuine bug is still reported as one).
//! - Losing the window. A window manager's kill or `xdotool windowclose` destroys the window
//!   without asking (a close button asks: `CloseRequested`). winit then panics as it takes the
//!   keyboard focus away from the window that is gone (its input method's "unfocus"), or, without an
//!   input method, says `Destroyed`. Either is one line and exit 1 ([`WINDOW_GONE`]): the panic
//!   only once a fresh connection to the server finds the window gone (`xlib.rs`).

use super::libraries::{self, Server};
use super::xlib::{window_gone, x11_function};
use crate::demo::output::console;
use crate::demo::output::failure::Failure;
use std::ffi::{c_int, c_void};
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::OnceLock;
use winit::error::EventLoopError;
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::raw_window_handle::{HasDisplayHandle, RawDisplayHandle};

/// What the program says when the display server goes away under it.
pub const LOST: &str = "the display connection was lost (the display server quit or crashed)";

/// What the program says when its window is destroyed from outside.
pub const WINDOW_GONE: &str =
    "the window was destroyed from outside (by the window manager or another program), not closed";

/// The fewest bits of colour a screen needs for an OpenGL window (Mesa draws into 16-bit ones).
const MIN_DEPTH: c_int = 15;

/// The display server the window went to, once one is picked.
static SERVER: OnceLock<Server> = OnceLock::new();

/// Picks the display server, checks its libraries, and creates winit's event loop for it.
pub fn event_loop() -> Result<EventLoop<()>, Failure> {
    let no_window = |why: String| {
        // After a question ("is the X server ... running?") the way out is a sentence of its own.
        let or = if why.ends_with('?') { " Or" } else { "; or" };
        Failure::new(3, format!("cannot open a window: {why}{or} draw offscreen with --headless --frames N"))
    };
    let server = pick_server().map_err(no_window)?;
    libraries::check(server).map_err(no_window)?;
    let _ = SERVER.set(server);
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
    let socket = wayland_socket(&wayland);
    match std::os::unix::net::UnixStream::connect(&socket) {
        Ok(_) => Ok(Server::Wayland),
        Err(_) if x11 => Ok(Server::X11),
        Err(e) => Err(format!(
            "no Wayland compositor answers at {} (WAYLAND_DISPLAY={wayland}): {e}, and DISPLAY is not set",
            socket.display()
        )),
    }
}

/// Runs winit's event loop (`run`); if it fails or panics because the display server went away,
/// that is one line and exit 1. Any other panic goes on as the bug it is, with its usual line.
///
/// winit ends its loop with `ExitFailure` when it can no longer read the connection, which is
/// what a lost server looks like to it; but that is said to be "lost" only once the server is
/// found gone, like every other failure here.
pub fn run_or_lost(run: impl FnOnce() -> Result<(), EventLoopError>) -> Result<(), Failure> {
    *held_panic() = Some(None);
    let ran = std::panic::catch_unwind(AssertUnwindSafe(run));
    let panic_line = held_panic().take().flatten();
    match ran {
        Ok(Ok(())) => Ok(()),
        Ok(Err(EventLoopError::ExitFailure(_))) if server_gone() => Err(Failure::new(1, LOST)),
        Ok(Err(other)) if server_gone() => Err(Failure::new(1, format!("{LOST}: {other}"))),
        Ok(Err(other)) => Err(Failure::new(1, format!("the event loop failed: {other}"))),
        Err(_) if server_gone() => Err(Failure::new(1, LOST)),
        Err(_) if window_gone() => Err(Failure::new(1, WINDOW_GONE)),
        Err(panic) => {
            console::say(&panic_line.unwrap_or_default());
            std::panic::resume_unwind(panic)
        }
    }
}

/// While the event loop runs, a panic's line waits here (`Some(line)`) until we know whether the
/// server is gone; outside it this is None and a panic's line is printed at once.
fn held_panic() -> std::sync::MutexGuard<'static, Option<Option<String>>> {
    static HELD: std::sync::Mutex<Option<Option<String>>> = std::sync::Mutex::new(None);
    HELD.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Keeps a panic's line if the event loop is running (see [`run_or_lost`]); false if it is not,
/// and the caller prints the line itself.
pub fn hold_panic(line: &str) -> bool {
    match &mut *held_panic() {
        Some(slot) => {
            slot.get_or_insert_with(|| line.to_string());
            true
        }
        None => false,
    }
}

/// Whether the server is gone, giving it a moment: the connection can break a little before its
/// listening socket closes.
fn server_gone() -> bool {
    for _ in 0..20 {
        if connection_lost() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    false
}

/// Whether the display server we opened the window on no longer answers. (Only a local server
/// can be asked; for a remote X display this says no.)
fn connection_lost() -> bool {
    let socket = match SERVER.get() {
        None => return false,
        Some(Server::Wayland) => wayland_socket(&env("WAYLAND_DISPLAY")),
        Some(Server::X11) => {
            // DISPLAY is ":N", ":N.S" or "unix:N": the server listens on /tmp/.X11-unix/XN.
            let display = env("DISPLAY");
            let local = display.strip_prefix("unix").unwrap_or(&display);
            let Some(number) = local.strip_prefix(':').and_then(|n| n.split('.').next()) else {
                return false;
            };
            PathBuf::from(format!("/tmp/.X11-unix/X{number}"))
        }
    };
    std::os::unix::net::UnixStream::connect(socket).is_err()
}

/// Refuses an X screen with too few colours for OpenGL, before glutin tries and fails obscurely.
pub fn check_colour_depth(event_loop: &ActiveEventLoop) -> Result<(), Failure> {
    let Ok(handle) = event_loop.display_handle() else { return Ok(()) };
    let RawDisplayHandle::Xlib(xlib) = handle.as_raw() else { return Ok(()) };
    // SAFETY: `DefaultDepth` is XDefaultDepth's C signature in Xlib.h.
    let default_depth = unsafe { x11_function::<DefaultDepth>(c"XDefaultDepth") };
    let (Some(display), Some(default_depth)) = (xlib.display, default_depth) else {
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
    // SAFETY: `SetIoErrorHandler` is XSetIOErrorHandler's C signature in Xlib.h.
    if let Some(set_handler) = unsafe { x11_function::<SetIoErrorHandler>(c"XSetIOErrorHandler") } {
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

/// The compositor's socket: WAYLAND_DISPLAY itself if it is a path, else a name in XDG_RUNTIME_DIR.
fn wayland_socket(wayland_display: &str) -> PathBuf {
    match PathBuf::from(wayland_display) {
        path if path.is_absolute() => path,
        name => PathBuf::from(env("XDG_RUNTIME_DIR")).join(name),
    }
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_loop_that_fails_while_the_server_answers_is_not_called_lost() {
        // This test opens no display, so no server can be found gone: winit's failure is reported
        // as itself, not as a lost connection.
        let failure = run_or_lost(|| Err(EventLoopError::ExitFailure(1))).expect_err("it failed");
        assert_eq!(failure.code, 1);
        assert!(!failure.message.contains(LOST), "{failure}");
        assert!(failure.message.starts_with("the event loop failed"), "{failure}");
    }
}
