//! What the program needs from the system to show anything: a window (winit and glutin,
//! `window.rs`) or an offscreen context (EGL, `headless.rs`), the display server and the libraries
//! behind them (`display.rs`, `libraries.rs`, `xlib.rs`), and the [`session::Session`] both run frame after
//! frame.

pub mod display;
pub mod headless;
pub mod libraries;
pub mod session;
pub mod window;
pub mod xlib;
