//! From bytes to a checked glTF document: `.glb` or JSON, the required extensions, the schema.
//!
//! A `.gltf` file is JSON. A `.glb` is the same JSON packed with its binary data (spec, "GLB
//! File Format Specification"): a 12-byte header (`glTF`, version 2, total length), a JSON chunk,
//! and optionally a `BIN` chunk that buffer 0 may point at. The `gltf` crate parses both and
//! checks the JSON against the schema: every index points at something that exists, every enum
//! value is known. Its API then trusts those checks (and panics where they did not hold), so a
//! document is only handed on once they passed; the two places its check misses are checked here
//! first (`guard_unchecked`).
//!
//! `extensionsRequired` lists extensions a reader must understand to show the file correctly. Those
//! that only change how surfaces look (materials, textures, lights) do not change a skeleton, so
//! they are noted and ignored; mesh compression (Draco, meshopt) would hide the vertices from us,
//! so such a file is refused, naming the extension and what it does. Any other required extension
//! is one this program does not know: refused too, naming it.

use super::error::ImportError;
use gltf::json;

/// A glTF document that passed the schema checks, and the `.glb` binary chunk if there was one.
pub struct Checked {
    pub document: gltf::Document,
    pub blob: Option<Vec<u8>>,
}

/// Extensions a file may require that change nothing this program reads: how surfaces look.
/// (This program draws no surfaces or images at all.)
const ONLY_LOOKS: [&str; 5] =
    ["KHR_materials_", "KHR_texture_", "EXT_texture_", "MSFT_texture_", "KHR_lights_punctual"];

/// Extensions whose data this loader reads itself: quantized attributes are normalized integers,
/// which `accessors.rs` decodes like any other (spec extension KHR_mesh_quantization).
pub const READ_HERE: [&str; 1] = ["KHR_mesh_quantization"];

/// What a refused extension does, for the message, if it is one this program knows of.
fn what_it_does(extension: &str) -> Option<&'static str> {
    match extension {
        "KHR_draco_mesh_compression" => Some("Draco mesh compression"),
        "EXT_meshopt_compression" | "KHR_meshopt_compression" => Some("meshopt compression"),
        _ => None,
    }
}

/// Parses and checks `bytes` as a `.glb` or `.gltf` file. Notes about ignored extensions go to `notes`.
pub fn parse(bytes: &[u8], notes: &mut Vec<String>) -> Result<Checked, ImportError> {
    let gltf = if bytes.starts_with(b"glTF") {
        check_glb_header(bytes)?;
        gltf::Gltf::from_slice_without_validation(bytes).map_err(|e| match e {
            gltf::Error::Binary(e) => ImportError::BadGlb(e.to_string()),
            other => ImportError::NotGltf(format!("its JSON chunk cannot be read: {other}")),
        })?
    } else {
        // A glTF JSON file is one object: `{`, perhaps after whitespace.
        let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
        if first != Some(&b'{') {
            return Err(ImportError::NotGltf("it is neither JSON nor a .glb".into()));
        }
        gltf::Gltf::from_slice_without_validation(bytes)
            .map_err(|e| ImportError::NotGltf(format!("its JSON cannot be read as glTF: {e}")))?
    };
    let gltf::Gltf { document, blob } = gltf;
    let mut root = document.into_json();
    if !root.asset.version.starts_with("2.") {
        let version = &root.asset.version;
        return Err(ImportError::NotGltf(format!("asset.version is {version:?}, this program reads 2.x")));
    }

    // Required extensions: note what only changes the looks, refuse the rest.
    for extension in &root.extensions_required {
        if READ_HERE.contains(&extension.as_str()) {
            continue;
        }
        if ONLY_LOOKS.iter().any(|prefix| extension.starts_with(prefix)) {
            notes.push(format!(
                "ignored the required extension {extension}: it changes only how surfaces look"
            ));
            continue;
        }
        return Err(ImportError::Unsupported { extension: extension.clone(), what: what_it_does(extension) });
    }
    // They are dealt with; the crate would refuse every one it does not implement itself.
    root.extensions_required.clear();

    guard_unchecked(&root)?;
    let document = gltf::Document::from_json(root).map_err(|e| match e {
        gltf::Error::Validation(errors) => {
            let (place, problem) =
                errors.first().map_or(("the root".to_string(), "invalid".to_string()), |(p, e)| {
                    (p.to_string(), e.to_string())
                });
            let more = match errors.len() {
                0 | 1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            ImportError::Invalid { place, problem: format!("{problem}{more}") }
        }
        other => ImportError::NotGltf(other.to_string()),
    })?;
    Ok(Checked { document, blob })
}

/// The 12-byte header of a `.glb`: magic, version 2, and a total length that fits the file.
/// (Checked here because the crate subtracts the header size from the length before looking.)
fn check_glb_header(bytes: &[u8]) -> Result<(), ImportError> {
    let word = |at: usize| bytes.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let (Some(version), Some(length)) = (word(4), word(8)) else {
        return Err(ImportError::BadGlb(format!("the header needs 12 bytes, the file has {}", bytes.len())));
    };
    if version != 2 {
        return Err(ImportError::NotGltf(format!(
            "a .glb of version {version}, this program reads version 2"
        )));
    }
    let length = length as usize;
    if length < 12 || length > bytes.len() {
        return Err(ImportError::BadGlb(format!(
            "the header says {length} bytes, the file has {} (cut short?)",
            bytes.len()
        )));
    }
    Ok(())
}

/// What the crate's schema check misses or trips over, checked first: it reads each primitive's
/// POSITION accessor by index before checking the index exists, and it checks no animation
/// channel's target (its node, and its path: translation, rotation, scale or weights).
fn guard_unchecked(root: &json::Root) -> Result<(), ImportError> {
    let invalid = |place: String, problem: String| Err(ImportError::Invalid { place, problem });
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            let position = json::validation::Checked::Valid(json::mesh::Semantic::Positions);
            if let Some(index) = primitive.attributes.get(&position)
                && index.value() >= root.accessors.len()
            {
                let place = format!("meshes[{m}].primitives[{p}].attributes.POSITION");
                return invalid(place, format!("accessor {} does not exist", index.value()));
            }
        }
    }
    for (a, animation) in root.animations.iter().enumerate() {
        for (c, channel) in animation.channels.iter().enumerate() {
            let place = |what: &str| format!("animations[{a}].channels[{c}].target.{what}");
            if channel.target.node.value() >= root.nodes.len() {
                return invalid(
                    place("node"),
                    format!("node {} does not exist", channel.target.node.value()),
                );
            }
            if !matches!(channel.target.path, json::validation::Checked::Valid(_)) {
                return invalid(place("path"), "not translation, rotation, scale or weights".into());
            }
        }
    }
    Ok(())
}
