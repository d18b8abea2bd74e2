//! The files beside a model that it names: each buffer's and each image's `uri` that is a path,
//! not a `data:` URI. They are what the model was read from besides its own file, and an export
//! must never write over them (`src/demo/output/inputs.rs`).
//!
//! Read from the raw JSON, without asking the `gltf` crate, whose `Image::source` cannot describe
//! an image that names neither a `uri` nor a `bufferView`. A path is counted where it leads once
//! its `%` escapes are decoded and its links followed, whether the loader read it or refused it:
//! a list too long by a file the loader would not read only protects that file too.

use super::buffers::percent_decode;
use std::path::{Path, PathBuf};

/// Where each `uri` of `document`'s buffers and images that names a file in `base_dir` leads,
/// links followed (only those that are there), each once.
pub fn named(document: &gltf::Document, base_dir: Option<&Path>) -> Vec<PathBuf> {
    let Some(dir) = base_dir else { return Vec::new() };
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let json = document.as_json();
    let buffers = json.buffers.iter().filter_map(|b| b.uri.as_deref());
    let images = json.images.iter().filter_map(|i| i.uri.as_deref());
    let mut files: Vec<PathBuf> = (buffers.chain(images))
        .filter(|uri| !uri.starts_with("data:"))
        .filter_map(|uri| dir.join(percent_decode(uri)?).canonicalize().ok())
        .collect();
    files.sort();
    files.dedup();
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_buffer_and_image_file_is_named_once_and_data_uris_are_none() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        for name in ["a b.bin", "skin.png"] {
            std::fs::write(dir.path().join(name), b"x").unwrap();
        }
        let json = r#"{"asset": {"version": "2.0"},
            "buffers": [{"byteLength": 1, "uri": "a%20b.bin"}, {"byteLength": 1, "uri": "data:,x"},
                        {"byteLength": 1, "uri": "./a b.bin"}, {"byteLength": 1, "uri": "gone.bin"}],
            "images": [{"uri": "skin.png"}, {"mimeType": "image/png"}]}"#;
        let document = gltf::Gltf::from_slice_without_validation(json.as_bytes()).expect("parses").document;
        let found = named(&document, Some(dir.path()));
        let home = dir.path().canonicalize().unwrap();
        assert_eq!(found, [home.join("a b.bin"), home.join("skin.png")]);
        assert!(named(&document, None).is_empty(), "a model read from memory names no file");
    }
}
