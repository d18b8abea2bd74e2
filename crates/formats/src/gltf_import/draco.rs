//! Draco compression (the glTF extension `KHR_draco_mesh_compression`): a primitive's vertices and
//! triangles kept as one Draco stream, decoded into plain buffers before anything reads them.
//!
//! A compressed primitive keeps its usual `attributes` and `indices`: accessors that say how many
//! elements of which type each holds, but point at no buffer view. Its extension names the buffer
//! view that holds the stream, and which of the stream's attributes (by Draco's id) is which glTF
//! attribute: `{"POSITION": 0, "NORMAL": 1, ...}`. Decoding the stream gives Draco's points and
//! faces; each attribute, read point by point, becomes its accessor's elements (in the accessor's
//! number type), and the faces its `indices`. Attributes the extension does not name (morph
//! targets among them) are plain accessors as in any file.
//!
//! The decoding itself is the draco-core crate's, Draco's decoder rewritten in Rust (it reads what
//! Google's own reads). Here: the bytes the accessors declare are spent from the model's budget of decoded bytes
//! (`budget::DECODED_BYTES`) before the stream is decoded, and the decoder may make no more points
//! or faces than the accessors declare, nor more than twice their bytes (Draco's own limits; twice,
//! as Draco may hold a value wider than its accessor), so a stream of a few bytes cannot ask for
//! gigabytes. Every decoded count must equal its accessor's. The plain bytes go into one new
//! buffer, each accessor pointed at a new view of it, and the document is checked again
//! (`document.rs`): from then on the file reads as if it had never been compressed. What does not
//! fit is refused in one line naming the primitive. How a decoded attribute becomes its accessor's
//! numbers: `draco_values.rs`.

use super::draco_values::{component, element_size, put, values};
use super::error::{ImportError, label};
use crate::budget::Budget;
use draco_core::{DecodeLimits, DecoderBuffer, FaceIndex, Mesh, MeshDecoder};
use gltf::json::{self, validation::Checked};
use serde_json::Value;

const EXTENSION: &str = "KHR_draco_mesh_compression";

/// Whether any primitive of `root` is Draco-compressed.
pub fn compressed(root: &json::Root) -> bool {
    root.meshes.iter().flat_map(|m| &m.primitives).any(|p| extension(p).is_some())
}

fn extension(primitive: &json::mesh::Primitive) -> Option<&Value> {
    primitive.extensions.as_ref().and_then(|e| e.others.get(EXTENSION))
}

/// Decodes every Draco-compressed primitive of `root`: its accessors then read from a new buffer,
/// added to `buffers`, and it has the extension no more. The caller checks the schema again.
pub fn decode(
    root: &mut json::Root,
    buffers: &mut Vec<Vec<u8>>,
    budget: &mut Budget,
) -> Result<(), ImportError> {
    let mut decoded = Decoded { buffer: root.buffers.len(), bytes: Vec::new(), views: Vec::new() };
    for m in 0..root.meshes.len() {
        for p in 0..root.meshes[m].primitives.len() {
            let Some(extension) =
                root.meshes[m].primitives[p].extensions.as_mut().and_then(|e| e.others.remove(EXTENSION))
            else {
                continue;
            };
            let place =
                format!("mesh {} primitive {p} ({EXTENSION})", label(m, root.meshes[m].name.as_deref()));
            primitive(root, (m, p), &extension, buffers, budget, &mut decoded)
                .map_err(|problem| ImportError::Compressed { place, problem })?;
        }
    }
    let length = decoded.bytes.len();
    root.buffers.push(json::Buffer {
        byte_length: (length as u64).into(),
        name: None,
        uri: None,
        extensions: None,
        extras: Default::default(),
    });
    for (offset, length) in decoded.views {
        root.buffer_views.push(json::buffer::View {
            buffer: json::Index::new(decoded.buffer as u32),
            byte_length: (length as u64).into(),
            byte_offset: Some((offset as u64).into()),
            byte_stride: None,
            name: None,
            target: None,
            extensions: None,
            extras: Default::default(),
        });
    }
    buffers.push(decoded.bytes);
    Ok(())
}

/// Where the schema check will find a bufferView missing until the Draco streams are decoded: the
/// accessors each compressed primitive's extension fills in (`accessors[3].bufferView`).
pub fn pending(root: &json::Root) -> Vec<String> {
    let mut pending = Vec::new();
    for primitive in root.meshes.iter().flat_map(|m| &m.primitives) {
        let Some(extension) = extension(primitive) else { continue };
        let named = extension.get("attributes").and_then(Value::as_object).into_iter().flatten();
        let attributes = named.filter_map(|(name, _)| {
            primitive
                .attributes
                .iter()
                .find(|(semantic, _)| semantic.to_string() == *name)
                .map(|(_, a)| a.value())
        });
        for accessor in attributes.chain(primitive.indices.map(|i| i.value())) {
            pending.push(format!("accessors[{accessor}].bufferView"));
        }
    }
    pending
}

/// The plain bytes decoded so far, all in buffer `buffer`, and the views made of them.
struct Decoded {
    buffer: usize,
    bytes: Vec<u8>,
    /// (byteOffset, byteLength) of each new view, in order.
    views: Vec<(usize, usize)>,
}

impl Decoded {
    /// Starts a new view of the bytes `write` adds, 4-byte aligned as glTF asks; its index.
    fn view(&mut self, first_view: usize, write: impl FnOnce(&mut Vec<u8>)) -> u32 {
        self.bytes.resize(self.bytes.len().next_multiple_of(4), 0);
        let start = self.bytes.len();
        write(&mut self.bytes);
        self.views.push((start, self.bytes.len() - start));
        (first_view + self.views.len() - 1) as u32
    }
}

/// Decodes primitive `p` of mesh `m` in `root` by its `extension`, its accessors pointed at the
/// new views. The problem, when it cannot, in words that say what to do.
fn primitive(
    root: &mut json::Root,
    (m, p): (usize, usize),
    extension: &Value,
    buffers: &[Vec<u8>],
    budget: &mut Budget,
    decoded: &mut Decoded,
) -> Result<(), String> {
    let Named { attributes, indices, stream } =
        named(root, &root.meshes[m].primitives[p], extension, buffers)?;
    let mesh = decode_stream(root, &attributes, indices, stream, budget)?;
    let first_view = root.buffer_views.len();
    for &(id, a) in &attributes {
        let attribute = mesh
            .attribute_by_unique_id(id)
            .ok_or_else(|| damaged(&format!("its Draco data has no attribute {id}")))?;
        let accessor = &root.accessors[a];
        let (count, components) =
            (accessor.count.0 as usize, element_size(accessor) / component(accessor).size());
        if count != mesh.num_points() || usize::from(attribute.num_components()) != components {
            return Err(damaged(&format!(
                "accessor {a} holds {count} elements of {components} numbers; its Draco data decodes to {} of {}",
                mesh.num_points(),
                attribute.num_components()
            )));
        }
        let to = component(accessor);
        let view = decoded.view(first_view, |out| values(attribute, count, to, out));
        let accessor = &mut root.accessors[a];
        (accessor.buffer_view, accessor.byte_offset) = (Some(json::Index::new(view)), None);
    }
    let accessor = &root.accessors[indices];
    let count = accessor.count.0 as usize;
    if count != 3 * mesh.num_faces() {
        let triangles = mesh.num_faces();
        let problem = format!(
            "its indices accessor holds {count} indices; its Draco data decodes to {triangles} triangles"
        );
        return Err(damaged(&problem));
    }
    let to = component(accessor);
    let view = decoded.view(first_view, |out| {
        let corners = (0..mesh.num_faces()).flat_map(|f| mesh.face(FaceIndex(f as u32)));
        corners.for_each(|corner| put(out, f64::from(corner.0), to));
    });
    let accessor = &mut root.accessors[indices];
    (accessor.buffer_view, accessor.byte_offset) = (Some(json::Index::new(view)), None);
    Ok(())
}

/// A problem with the file's Draco data, and what to do.
fn damaged(what: &str) -> String {
    format!("{what}; the file is damaged: export or download it again")
}

/// What `extension` names in `primitive`: each attribute's Draco id and accessor, the indices
/// accessor, and the bytes of the stream.
fn named<'b>(
    root: &json::Root,
    primitive: &json::mesh::Primitive,
    extension: &Value,
    buffers: &'b [Vec<u8>],
) -> Result<Named<'b>, String> {
    if primitive.mode != Checked::Valid(json::mesh::Mode::Triangles) {
        return Err("its Draco data is not triangles, the only mode this program decodes".into());
    }
    let Some(indices) = primitive.indices.map(|i| i.value()) else {
        return Err(damaged("it has no indices accessor for its Draco data's triangles"));
    };
    let mut attributes = Vec::new();
    for (name, id) in extension.get("attributes").and_then(Value::as_object).into_iter().flatten() {
        let accessor = primitive.attributes.iter().find(|(semantic, _)| semantic.to_string() == *name);
        let (Some((_, accessor)), Some(id)) = (accessor, id.as_u64()) else {
            return Err(damaged(&format!(
                "its extension names the attribute {name:?}, which it does not have"
            )));
        };
        attributes.push((id as u32, accessor.value()));
    }
    let stream = extension
        .get("bufferView")
        .and_then(Value::as_u64)
        .and_then(|v| root.buffer_views.get(v as usize))
        .and_then(|view| {
            let start = view.byte_offset.map_or(0, |o| o.0) as usize;
            buffers.get(view.buffer.value())?.get(start..start.checked_add(view.byte_length.0 as usize)?)
        })
        .ok_or_else(|| damaged("its bufferView is missing or lies outside its buffer"))?;
    Ok(Named { attributes, indices, stream })
}

/// What a primitive's Draco extension names.
struct Named<'b> {
    /// Each attribute's Draco id and its accessor.
    attributes: Vec<(u32, usize)>,
    /// The accessor of its triangles' indices.
    indices: usize,
    /// The Draco stream.
    stream: &'b [u8],
}

/// The Draco mesh in `stream`, once what its accessors declare is spent from `budget`; the decoder
/// may make no more points or faces than they declare, nor more than twice their bytes.
fn decode_stream(
    root: &json::Root,
    attributes: &[(u32, usize)],
    indices: usize,
    stream: &[u8],
    budget: &mut Budget,
) -> Result<Mesh, String> {
    let size = |a: usize| root.accessors[a].count.0.saturating_mul(element_size(&root.accessors[a]) as u64);
    let points = attributes.iter().map(|&(_, a)| root.accessors[a].count.0).max().unwrap_or(0);
    let declared = attributes.iter().fold(size(indices), |sum, &(_, a)| sum.saturating_add(size(a)));
    budget.spend(declared).map_err(|why| format!("its Draco data is too large to load: {why}"))?;
    let limits = DecodeLimits::default()
        .with_max_points(points)
        .with_max_faces(root.accessors[indices].count.0 / 3)
        .with_max_decoded_bytes(declared.saturating_mul(2));
    let mut mesh = Mesh::new();
    MeshDecoder::new()
        .decode(&mut DecoderBuffer::new(stream).with_limits(limits), &mut mesh)
        .map_err(|e| damaged(&format!("its Draco data cannot be decoded ({e})")))?;
    Ok(mesh)
}
