//! meshopt compression (the glTF extension `EXT_meshopt_compression`, what gltfpack writes): a
//! buffer view's bytes kept compressed elsewhere, decoded back into the view before anything
//! reads it.
//!
//! A compressed view keeps its usual `buffer`, `byteOffset` and `byteLength`: where its plain
//! bytes belong. Its extension says where the compressed stream is (another `buffer`, offset and
//! length), and how to decode it: `count` elements of `byteStride` bytes, in one of three `mode`s
//! (`ATTRIBUTES`: vertex data, each byte of an element predicted from the element before; `TRIANGLES`
//! and `INDICES`: vertex indices), then a `filter` that undoes a packing of the numbers
//! (`OCTAHEDRAL` unit vectors, `QUATERNION` rotations, `EXPONENTIAL` floats). The plain bytes
//! usually belong in a **fallback** buffer, one with no data of its own (its extension says
//! `"fallback": true`): `buffers.rs` does not read it, and here it is made, zeros, then filled.
//!
//! The decoding itself is the meshoptimizer-rs crate's, a port of meshoptimizer's own decoder (the
//! format's reference). Here: what each view needs is checked against the file (streams inside
//! their buffers, `count` x `byteStride` equal to the view's `byteLength`), and what the fallback
//! buffers will hold is spent from the model's budget of decoded bytes (`budget::DECODED_BYTES`)
//! before any is made. A stream that does not decode is refused in one line naming its view.

use super::error::ImportError;
use crate::budget::Budget;
use meshoptimizer_rs::codec::{Filter, Mode, decode_buffer_view_into};
use meshoptimizer_rs::{Limits, Workspace};
use serde_json::Value;

const EXTENSION: &str = "EXT_meshopt_compression";

/// Makes each fallback buffer (zeros, its `byteLength` spent from `budget`), then decodes every
/// compressed buffer view into its place in `buffers`.
pub fn decode(
    document: &gltf::Document,
    buffers: &mut [Vec<u8>],
    budget: &mut Budget,
) -> Result<(), ImportError> {
    for buffer in document.buffers().filter(|b| is_fallback(b)) {
        let index = buffer.index();
        let fail = |problem: String| ImportError::Buffer { buffer: index, problem };
        let length = buffer.length();
        budget
            .spend(length as u64)
            .map_err(|why| fail(format!("its meshopt-compressed data is too large to load: {why}")))?;
        let mut zeros = Vec::new();
        zeros.try_reserve_exact(length).map_err(|_| fail(format!("{length} bytes cannot be had")))?;
        zeros.resize(length, 0);
        buffers[index] = zeros;
    }
    let mut workspace = Workspace::new(Limits::default());
    for view in document.views() {
        let Some(extension) = view.extension_value(EXTENSION) else { continue };
        decode_view(&view, extension, buffers, &mut workspace).map_err(|problem| {
            ImportError::Compressed { place: format!("buffer view {} ({EXTENSION})", view.index()), problem }
        })?;
    }
    Ok(())
}

/// A buffer that only stands in for meshopt-compressed data: it has no bytes to read.
pub fn is_fallback(buffer: &gltf::Buffer) -> bool {
    buffer.extension_value(EXTENSION).and_then(|e| e.get("fallback")).and_then(Value::as_bool) == Some(true)
}

/// One view: its stream decoded into the bytes of the view's own buffer.
fn decode_view(
    view: &gltf::buffer::View,
    extension: &Value,
    buffers: &mut [Vec<u8>],
    workspace: &mut Workspace,
) -> Result<(), String> {
    let number = |name: &str| extension.get(name).and_then(Value::as_u64).map(|n| n as usize);
    let needed =
        |name: &str| number(name).ok_or_else(|| format!("its extension has no {name}; the file is damaged"));
    let (source, length) = (needed("buffer")?, needed("byteLength")?);
    let (count, stride, offset) =
        (needed("count")?, needed("byteStride")?, number("byteOffset").unwrap_or(0));
    let word = |name: &str, default: &'static str| extension.get(name).map_or(Some(default), Value::as_str);
    let mode = word("mode", "").and_then(|m| Mode::parse(m).ok());
    let filter = word("filter", "NONE").and_then(|f| Filter::parse(f).ok());
    let (Some(mode), Some(filter)) = (mode, filter) else {
        return Err(
            "its mode or filter is none that EXT_meshopt_compression defines; the file is damaged".into()
        );
    };
    if count.checked_mul(stride) != Some(view.length()) {
        return Err(format!(
            "it decodes to {count} x {stride} bytes, but the view is {} bytes long; the file is damaged",
            view.length()
        ));
    }
    // The stream is copied out first: it may lie in the very buffer it decodes into.
    let stream = buffers
        .get(source)
        .and_then(|b| b.get(offset..offset.checked_add(length)?))
        .ok_or_else(|| format!("its stream lies outside buffer {source}; the file is damaged"))?
        .to_vec();
    let start = view.offset();
    let destination = buffers[view.buffer().index()]
        .get_mut(start..start.saturating_add(view.length()))
        .ok_or("the view lies outside its buffer; the file is damaged")?;
    decode_buffer_view_into(destination, mode, filter, count, stride, &stream, workspace).map_err(|e| {
        format!("its stream cannot be decoded ({e}); the file is damaged: export or download it again")
    })
}
