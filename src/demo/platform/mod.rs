//! What the program needs from the system to show anything, on each platform it runs on.
//!
//! On the desktop: a window (winit and glutin, `window.rs`) or an offscreen context (EGL,
//! `headless.rs`), the OpenGL context on either (`context.rs`), the display server and the libraries
//! behind them (`display.rs`, `libraries.rs`, `xlib.rs`). In a browser (`web/`): a canvas on a web
//! page, WebGL2 on it, the page's own buttons (its messages: `output/page.rs`). Both run the same
//! [`session::Session`] frame after frame and hand it the same keys, mouse and fingers
//! (`input.rs`); only the clock differs (`demo/time.rs`).

#[cfg(not(target_arch = "wasm32"))]
pub mod context;
#[cfg(not(target_arch = "wasm32"))]
pub mod creep;
#[cfg(not(target_arch = "wasm32"))]
pub mod display;
/// GPU skinning at its limit of joints, against the CPU (chapter 6): tests that need EGL.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod gpu_tests;
#[cfg(not(target_arch = "wasm32"))]
pub mod headless;
pub mod input;
#[cfg(not(target_arch = "wasm32"))]
pub mod libraries;
pub mod memory;
pub mod session;
pub mod start;
#[cfg(target_arch = "wasm32")]
pub mod web;
/// The web page's model files, which to fetch and the flags in its address: plain Rust, so
/// `cargo test` on the desktop tests them too.
#[cfg(all(test, not(target_arch = "wasm32")))]
#[path = "web"]
mod web_files {
    pub mod folder;
}
#[cfg(not(target_arch = "wasm32"))]
pub mod window;
#[cfg(not(target_arch = "wasm32"))]
pub mod xlib;
