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
//! The decoding itself is the draco-core crate's, a port of Google's Draco decoder. Here: the
//! bytes the accessors declare are spent from the model's budget of decoded bytes
//! (`budget::DECODED_BYTES`) before the stream is decoded, and the decoder may make no more points
//! or faces than the accessors declare, nor more than twice their bytes (Draco's own limits; twice,
//! as Draco may hold a value wider than its accessor), so a stream of a few bytes cannot ask for
//! gigabytes. Every decoded count must equal its accessor's. The plain bytes go into one new
//! buffer, each accessor pointed at a new view of it, and the document is checked again
//! (`document.rs`): from then on the file reads as if it had never been compressed. What does not fit is refused in one line
//! naming the primitive.

use super::error::{ImportError, label};
use crate::budget::Budget;
use draco_core::{
    DataType, DecodeLimits, DecoderBuffer, FaceIndex, Mesh, MeshDecoder, PointAttribute, PointIndex,
};
use gltf::json::{self, accessor::ComponentType, validation::Checked};
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
            primitive(root, m, p, &extension, buffers, budget, &mut decoded)
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
    m: usize,
    p: usize,
    extension: &Value,
    buffers: &[Vec<u8>],
    budget: &mut Budget,
    decoded: &mut Decoded,
) -> Result<(), String> {
    let damaged = |what: &str| format!("{what}; the file is damaged: export or download it again");
    let primitive = &root.meshes[m].primitives[p];
    if primitive.mode != Checked::Valid(json::mesh::Mode::Triangles) {
        return Err("its Draco data is not triangles, the only mode this program decodes".into());
    }
    let Some(indices) = primitive.indices.map(|i| i.value()) else {
        return Err(damaged("it has no indices accessor for its Draco data's triangles"));
    };
    // Each attribute the extension names: its Draco id and its accessor.
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

    // What the accessors declare, spent before the stream is decoded; the decoder may make no more.
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
        return Err(damaged(&format!(
            "its indices accessor holds {count} indices; its Draco data decodes to {} triangles",
            mesh.num_faces()
        )));
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

/// The number type of an accessor's components (the schema check has made it a valid one).
fn component(accessor: &json::Accessor) -> ComponentType {
    match accessor.component_type {
        Checked::Valid(t) => t.0,
        Checked::Invalid => ComponentType::F32,
    }
}

/// Bytes of one element of `accessor`.
fn element_size(accessor: &json::Accessor) -> usize {
    let components = match accessor.type_ {
        Checked::Valid(t) => t.multiplicity(),
        Checked::Invalid => 1,
    };
    components * component(accessor).size()
}

/// The `count` points' values of `attribute` written to `out` as numbers of type `to`: copied as
/// they are when Draco kept them in that type, converted one by one when not.
fn values(attribute: &PointAttribute, count: usize, to: ComponentType, out: &mut Vec<u8>) {
    let from = attribute.data_type();
    let stride = attribute.byte_stride().max(0) as usize;
    let size = from.byte_length().max(1);
    let same = matches!(
        (from, to),
        (DataType::Int8, ComponentType::I8)
            | (DataType::Uint8, ComponentType::U8)
            | (DataType::Int16, ComponentType::I16)
            | (DataType::Uint16, ComponentType::U16)
            | (DataType::Uint32, ComponentType::U32)
            | (DataType::Float32, ComponentType::F32)
    );
    let mut row = vec![0u8; stride];
    for point in 0..count {
        let index = attribute.mapped_index(PointIndex(point as u32));
        // The decoder made every value a point maps to; a row it did not make reads as zeros.
        if !attribute.buffer().try_read(index.0 as usize * stride, &mut row) {
            row.fill(0);
        }
        if same {
            out.extend_from_slice(&row);
        } else {
            row.chunks_exact(size).for_each(|bytes| put(out, number(bytes, from), to));
        }
    }
}

/// One little-endian number of Draco's type `kind`.
fn number(bytes: &[u8], kind: DataType) -> f64 {
    let array = |n: usize| -> [u8; 8] { std::array::from_fn(|i| if i < n { bytes[i] } else { 0 }) };
    match kind {
        DataType::Int8 => f64::from(bytes[0] as i8),
        DataType::Uint8 | DataType::Bool => f64::from(bytes[0]),
        DataType::Int16 => f64::from(i16::from_le_bytes([bytes[0], bytes[1]])),
        DataType::Uint16 => f64::from(u16::from_le_bytes([bytes[0], bytes[1]])),
        DataType::Int32 => f64::from(i32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])),
        DataType::Uint32 => f64::from(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])),
        DataType::Float32 => f64::from(f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])),
        DataType::Int64 => i64::from_le_bytes(array(8)) as f64,
        DataType::Uint64 => u64::from_le_bytes(array(8)) as f64,
        DataType::Float64 => f64::from_le_bytes(array(8)),
        DataType::Invalid => 0.0,
    }
}

/// `value` appended as one little-endian number of type `to` (an integer type takes the nearest
/// value it holds).
fn put(out: &mut Vec<u8>, value: f64, to: ComponentType) {
    match to {
        ComponentType::I8 => out.push(value as i8 as u8),
        ComponentType::U8 => out.push(value as u8),
        ComponentType::I16 => out.extend_from_slice(&(value as i16).to_le_bytes()),
        ComponentType::U16 => out.extend_from_slice(&(value as u16).to_le_bytes()),
        ComponentType::U32 => out.extend_from_slice(&(value as u32).to_le_bytes()),
        ComponentType::F32 => out.extend_from_slice(&(value as f32).to_le_bytes()),
    }
}
