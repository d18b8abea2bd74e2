//! Which files a `.gltf` names, on the web: a page can only ask its server for files by name, so
//! before the model is opened its JSON says which buffers and images to fetch from beside it. The
//! loader is then handed them by name, as the desktop's finds them in the folder
//! (`model/load/read.rs`, the formats crate's `load_with_files`), and checks them as it always does.

use super::folder::percent_decode;

/// Whether `bytes`, the model file's, are glTF's JSON (not a `.glb`, whose first bytes are `glTF`).
pub fn is_gltf(bytes: &[u8]) -> bool {
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// The `uri`s of the buffers and images that name files (not `data:`), in the JSON's order.
pub fn gltf_uris(bytes: &[u8]) -> Vec<String> {
    let Ok(json) = serde_json::from_slice::<serde_json::Value>(bytes) else { return Vec::new() };
    ["buffers", "images"]
        .iter()
        .filter_map(|list| json.get(list)?.as_array())
        .flatten()
        .filter_map(|item| item.get("uri")?.as_str())
        .filter(|uri| !uri.starts_with("data:"))
        .filter_map(percent_decode)
        .collect()
}
