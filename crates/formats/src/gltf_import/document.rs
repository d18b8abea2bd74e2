//! From bytes to a checked glTF document: `.glb` or JSON, the required extensions, the schema.
//!
//! A `.gltf` file is JSON. A `.glb` is the same JSON packed with its binary data (spec, "GLB
//! File Format Specification"): a 12-byte header (`glTF`, version 2, total length), a JSON chunk,
//! and optionally a `BIN` chunk that buffer 0 may point at (`glb.rs` takes it apart). The `gltf`
//! crate parses the JSON and checks it against the schema: every index points at something that
//! exists, every enum value is known. Its API then trusts those checks (and panics where they did not hold), so a
//! document is only handed on once they passed; the two places its check misses are checked here
//! first (`guard_unchecked`).
//!
//! `extensionsRequired` lists extensions a reader must understand to show the file correctly. Those
//! that only change how surfaces look (materials, textures, lights) do not change a skeleton, so
//! they are noted and ignored. Those this loader reads itself ([`READ_HERE`]: quantized and
//! compressed meshes, texture transforms) pass. Any other required extension is one this program
//! does not read: refused, naming it (and what it does, for `KHR_meshopt_compression`, meshopt's
//! newer form, which this program does not decode yet).

use super::error::ImportError;
use super::glb;
use gltf::json;
use skinning_method::printable::{printable, quoted};
use std::io::{Read, Seek, SeekFrom};

/// A glTF document that passed the schema checks, and the `.glb` binary chunk if there was one.
pub struct Checked {
    pub document: gltf::Document,
    pub blob: Option<Vec<u8>>,
}

/// Extensions a file may require that change nothing this program reads: how surfaces look
/// beyond their base colour, which is all of a material this program draws (`materials.rs`).
const ONLY_LOOKS: [&str; 5] =
    ["KHR_materials_", "KHR_texture_", "EXT_texture_", "MSFT_texture_", "KHR_lights_punctual"];

/// Extensions whose data this loader reads itself: quantized attributes are normalized integers,
/// which `accessors.rs` decodes like any other (KHR_mesh_quantization); compressed meshes are
/// decoded before anything reads them (`draco.rs`, `meshopt.rs`); a texture's offset, rotation and
/// scale move its texture coordinates (KHR_texture_transform, `materials.rs`).
pub const READ_HERE: [&str; 4] = [
    "KHR_mesh_quantization",
    "KHR_draco_mesh_compression",
    "EXT_meshopt_compression",
    "KHR_texture_transform",
];

/// What a refused extension does, for the message, if it is one this program knows of.
fn what_it_does(extension: &str) -> Option<&'static str> {
    match extension {
        "KHR_meshopt_compression" => Some("meshopt compression"),
        _ => None,
    }
}

/// Reads and checks the `.glb` or `.gltf` in `file`, `size` bytes long, called `name` in messages.
/// Notes about ignored extensions and mended containers go to `notes`.
///
/// The first bytes decide, before the rest is read: `glTF` is a `.glb`, read chunk by chunk as its
/// header says (`glb.rs`); a `{`, perhaps after whitespace, is JSON, read whole; anything else is
/// refused at once, however big the file is.
pub fn read<R: Read + Seek>(
    file: &mut R,
    size: u64,
    name: &str,
    notes: &mut Vec<String>,
) -> Result<Checked, ImportError> {
    let io = |error: std::io::Error| ImportError::Read { path: name.to_string(), error };
    let mut magic = [0u8; 4];
    let got = glb::read_up_to(file, &mut magic).map_err(io)?;
    if magic[..got] == *b"glTF" {
        let glb = glb::read(file, size, notes).map_err(|e| match e {
            glb::Error::Io(e) => io(e),
            glb::Error::File(e) => e,
        })?;
        let root = serde_json::from_slice::<json::Root>(&glb.json)
            .map_err(|e| ImportError::NotGltf(format!("its JSON chunk cannot be read: {e}")))?;
        return check(root, glb.bin, notes);
    }
    // A glTF JSON file is one object: `{`, perhaps after whitespace. Looked for a block at a time,
    // so a file of nothing but whitespace is not held in memory either.
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    let mut block = vec![0u8; 64 * 1024];
    let first = loop {
        let n = glb::read_up_to(file, &mut block).map_err(io)?;
        if let Some(&b) = block[..n].iter().find(|b| !b.is_ascii_whitespace()) {
            break Some(b);
        }
        if n < block.len() {
            break None;
        }
    };
    if first != Some(b'{') {
        return Err(ImportError::NotGltf("it is neither JSON nor a .glb".into()));
    }
    drop(block);
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(size as usize).map_err(|_| io(std::io::ErrorKind::OutOfMemory.into()))?;
    file.read_to_end(&mut bytes).map_err(io)?;
    // serde_json's parse, called here rather than through gltf-json's `Root::from_slice`: it is
    // generic over the types it fills in, so it is compiled into this crate and optimised with it
    // in a release build (gltf-json itself is not: a million nodes load in a third of the time).
    let root = serde_json::from_slice::<json::Root>(&bytes)
        .map_err(|e| ImportError::NotGltf(format!("its JSON cannot be read as glTF: {e}")))?;
    drop(bytes);
    check(root, None, notes)
}

/// Checks a parsed document: its version, its required extensions, then the schema.
fn check(
    mut root: json::Root,
    blob: Option<Vec<u8>>,
    notes: &mut Vec<String>,
) -> Result<Checked, ImportError> {
    if !root.asset.version.starts_with("2.") {
        let version = quoted(&root.asset.version);
        return Err(ImportError::NotGltf(format!("asset.version is {version}, this program reads 2.x")));
    }

    // Required extensions: note what only changes the looks, refuse the rest.
    for extension in &root.extensions_required {
        if READ_HERE.contains(&extension.as_str()) {
            continue;
        }
        if ONLY_LOOKS.iter().any(|prefix| extension.starts_with(prefix)) {
            let extension = printable(extension);
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
    Ok(Checked { document: validated(root)?, blob })
}

/// The document of `root`, once it passes the crate's schema check; else the first problem, where
/// it is. An accessor that a Draco stream fills in has no bufferView until the stream is decoded
/// (`draco.rs`): that alone is let pass here, and `draco.rs` checks the decoded document again.
pub fn validated(root: json::Root) -> Result<gltf::Document, ImportError> {
    use json::validation::{Error, Validate};
    let pending = super::draco::pending(&root);
    let mut errors = Vec::new();
    root.validate(&root, json::Path::new, &mut |path, error| {
        let path = path().to_string();
        if !(matches!(error, Error::Missing) && pending.contains(&path)) {
            errors.push((path, error));
        }
    });
    let Some((place, problem)) = errors.first() else {
        return Ok(gltf::Document::from_json_without_validation(root));
    };
    let more = match errors.len() {
        1 => String::new(),
        n => format!(" (and {} more)", n - 1),
    };
    Err(ImportError::Invalid { place: place.clone(), problem: format!("{problem}{more}") })
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
