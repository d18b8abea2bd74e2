//! The clock the frames are timed with. On the desktop it is the standard library's `Instant`; a
//! browser has no such clock for WebAssembly (`std::time::Instant::now` panics there), so the page
//! reads `performance.now()` through `web-time`, whose `Instant` has the same methods.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;
#[cfg(target_arch = "wasm32")]
pub use web_time::Instant;
