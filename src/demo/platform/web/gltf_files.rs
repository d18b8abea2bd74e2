//! A `.gltf` and the files it names, on the web. The desktop's loader opens a buffer's or an
//! image's file itself, relative to the model's folder; a page has no folder, only the bytes it
//! fetched or was handed. So before the loader sees the JSON, each `uri` that names a file is
//! replaced by that file's bytes as a `data:` URI, a form the loader reads anyway (`buffers.rs` of
//! the formats crate). Then the loader checks everything as it always does.
//!
//! A file that is not there is said as the desktop says it: a buffer's stops the load, an image's
//! is a note and the surface is drawn without that texture.

use super::folder::{Files, inside, percent_decode};
use base64::Engine;
use skinning_formats::gltf_import::ImportError;
use skinning_method::printable::quoted;

/// Whether `bytes`, the model `name`, is glTF's JSON (not a `.glb`, whose first bytes are `glTF`).
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

/// The `.gltf` `bytes` from `folder` with each file its buffers and images name, taken from
/// `files`, written into it as a `data:` URI. A `uri` that leads outside the folder, or to a file
/// not there, is refused as the desktop refuses it: a buffer's as the error, an image's in `notes`
/// (its `uri` then names no bytes, and the loader leaves its texture out). JSON that does not read
/// is handed on as it is, for the loader to say what is wrong with it.
pub fn with_data_uris(
    bytes: &[u8],
    folder: &str,
    files: &Files,
    notes: &mut Vec<String>,
) -> Result<Vec<u8>, ImportError> {
    let Ok(mut json) = serde_json::from_slice::<serde_json::Value>(bytes) else { return Ok(bytes.to_vec()) };
    for list in ["buffers", "images"] {
        let Some(items) = json.get_mut(list).and_then(|l| l.as_array_mut()) else { continue };
        for (index, item) in items.iter_mut().enumerate() {
            let Some(uri) = item.get("uri").and_then(|u| u.as_str()) else { continue };
            if uri.starts_with("data:") {
                continue;
            }
            let bytes = percent_decode(uri)
                .and_then(|name| inside(folder, &name))
                .ok_or_else(|| {
                    format!(
                        "its uri {} leads outside the model's folder, which a model may not read; put \
                         the file in the model's folder and name it by a path inside it",
                        quoted(uri)
                    )
                })
                .and_then(|name| {
                    files.get(&name).map_err(|why| {
                        format!(
                            "cannot read {} ({why}); put the files the model names next to it",
                            quoted(&name)
                        )
                    })
                });
            let data = match (bytes, list) {
                (Ok(bytes), _) => base64::engine::general_purpose::STANDARD.encode(bytes),
                (Err(problem), "buffers") => return Err(ImportError::Buffer { buffer: index, problem }),
                (Err(problem), _) => {
                    notes.push(format!("image {index}: {problem}; drawn without its texture"));
                    String::new()
                }
            };
            item["uri"] = format!("data:application/octet-stream;base64,{data}").into();
        }
    }
    Ok(serde_json::to_vec(&json).unwrap_or_else(|_| bytes.to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GLTF: &str = r#"{"asset":{"version":"2.0"},
        "buffers":[{"uri":"body%20a.bin","byteLength":3},{"uri":"data:application/octet-stream;base64,AAAA"}],
        "images":[{"uri":"skin.png"}]}"#;

    #[test]
    fn the_files_a_gltf_names_become_data_uris() {
        assert!(is_gltf(b"  {\"asset\":{}}") && !is_gltf(b"glTF\x02\0\0\0"));
        assert_eq!(gltf_uris(GLTF.as_bytes()), ["body a.bin", "skin.png"]);
        let files = Files {
            entries: vec![
                ("m/body a.bin".into(), Ok(vec![1, 2, 3])),
                ("m/skin.png".into(), Err("HTTP 404".into())),
            ],
            notes: Vec::new(),
        };
        let mut notes = Vec::new();
        let out = with_data_uris(GLTF.as_bytes(), "m/", &files, &mut notes).expect("the buffer is there");
        let json: serde_json::Value = serde_json::from_slice(&out).expect("JSON");
        assert_eq!(json["buffers"][0]["uri"], "data:application/octet-stream;base64,AQID");
        assert_eq!(json["buffers"][1]["uri"], "data:application/octet-stream;base64,AAAA");
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].starts_with("image 0: cannot read \"m/skin.png\" (HTTP 404)"), "{notes:?}");
    }

    #[test]
    fn a_buffer_outside_the_folder_or_missing_stops_the_load() {
        let gltf = br#"{"buffers":[{"uri":"../secret.bin","byteLength":1}]}"#;
        let e = with_data_uris(gltf, "m/", &Files::default(), &mut Vec::new()).expect_err("refused");
        assert!(e.to_string().starts_with("buffer 0: its uri \"../secret.bin\" leads outside"), "{e}");
        let gltf = br#"{"buffers":[{"uri":"gone.bin","byteLength":1}]}"#;
        let e = with_data_uris(gltf, "", &Files::default(), &mut Vec::new()).expect_err("refused");
        assert!(e.to_string().contains("not among the files given to the page"), "{e}");
    }
}
