//! The model the program shows: the article's scene or a model file, loaded (`load.rs`, the one
//! loader), described for `--info` (`info.rs` for glTF, `md5_info.rs` for MD5, with their morph
//! targets in `morph_info.rs` and materials in `looks_info.rs`), written out again
//! (`exports.rs`: `--export-gltf`, `--export-md5`), and what of it GPU skinning takes
//! (`gpu_fit.rs`). Another model's clips made its own: `clips_from.rs`. A model handed over as files rather than found on disk (a web page's) is
//! `files.rs`. No OpenGL.

#[cfg(not(target_arch = "wasm32"))]
pub mod exports;
mod clips_from;
pub mod files;
pub mod gpu_fit;
pub mod info;
pub mod load;
pub mod looks_info;
pub mod md5_info;
mod morph_info;
