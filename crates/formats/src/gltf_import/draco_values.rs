//! A Draco attribute's values as its glTF accessor's numbers (`draco.rs` decodes the stream).
//!
//! Draco keeps each attribute's distinct values once, and maps each point to one of them: a
//! point's value is read through that map, and the points come out in Draco's order, the order
//! its faces use. Draco keeps the number type the encoder gave it, which for files written from
//! glTF is the accessor's own (floats, 8- or 16-bit integers): the bytes are then copied as they
//! are. Where the two differ, each number is converted, as Draco's own decoder does when a
//! caller asks for another type.

use draco_core::{DataType, PointAttribute, PointIndex};
use gltf::json::{self, accessor::ComponentType, validation::Checked};

/// The number type of an accessor's components (the schema check has made it a valid one).
pub fn component(accessor: &json::Accessor) -> ComponentType {
    match accessor.component_type {
        Checked::Valid(t) => t.0,
        Checked::Invalid => ComponentType::F32,
    }
}

/// Bytes of one element of `accessor`.
pub fn element_size(accessor: &json::Accessor) -> usize {
    let components = match accessor.type_ {
        Checked::Valid(t) => t.multiplicity(),
        Checked::Invalid => 1,
    };
    components * component(accessor).size()
}

/// The `count` points' values of `attribute` written to `out` as numbers of type `to`: copied as
/// they are when Draco kept them in that type, converted one by one when not.
pub fn values(attribute: &PointAttribute, count: usize, to: ComponentType, out: &mut Vec<u8>) {
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
pub fn put(out: &mut Vec<u8>, value: f64, to: ComponentType) {
    match to {
        ComponentType::I8 => out.push(value as i8 as u8),
        ComponentType::U8 => out.push(value as u8),
        ComponentType::I16 => out.extend_from_slice(&(value as i16).to_le_bytes()),
        ComponentType::U16 => out.extend_from_slice(&(value as u16).to_le_bytes()),
        ComponentType::U32 => out.extend_from_slice(&(value as u32).to_le_bytes()),
        ComponentType::F32 => out.extend_from_slice(&(value as f32).to_le_bytes()),
    }
}
