//! Accessors: typed views of a buffer's bytes (spec, "Accessors").
//!
//! An **accessor** says how to read `count` elements out of a buffer: each element is a `type`
//! (SCALAR, VEC3, MAT4...) of `componentType` numbers (float, or 8, 16, 32-bit integers, little
//! endian). A **buffer view** is the slice of the buffer it reads, starting at the view's
//! `byteOffset` plus the accessor's; elements lie `byteStride` bytes apart, or packed tight.
//! A `normalized` integer stands for a number from 0 to 1 (or -1 to 1 when signed): `u8 255` is 1.0.
//! A **sparse** accessor starts from its view (or from zeros) and replaces some elements.
//!
//! We read the bytes here rather than through the crate's reader, so a damaged file (an offset past
//! the end, a count of zero, the wrong type) is an error naming the accessor, never a crash.

use super::error::ImportError;
use gltf::accessor::{DataType, Dimensions};

/// The most elements one accessor may have: an accessor with no view (sparse, from zeros) has no
/// bytes to bound its count, so a damaged count could otherwise ask for any amount of memory.
const MAX_ELEMENTS: usize = 1 << 24;

/// Every element of `accessor` as `N` floats: floats as they are, normalized integers scaled to
/// [0, 1] or [-1, 1] (the spec's int-to-float equations), other integers as their value.
/// `usage` says what the accessor is for, in error messages. Every number must be finite.
pub fn read_floats<const N: usize>(
    accessor: &gltf::Accessor,
    buffers: &[Vec<u8>],
    usage: &str,
) -> Result<Vec<[f32; N]>, ImportError> {
    let kind = accessor.data_type();
    let normalized = accessor.normalized();
    let elements = read(accessor, buffers, usage, |bytes| component_f32(bytes, kind, normalized))?;
    if let Some(i) = elements.iter().position(|e: &[f32; N]| e.iter().any(|x| !x.is_finite())) {
        return Err(fail(accessor, usage, format!("element {i} holds a NaN or infinite number")));
    }
    Ok(elements)
}

/// Every element of `accessor` as `N` unsigned integers; the accessor must hold unsigned integers
/// (vertex indices, JOINTS_n).
pub fn read_indices<const N: usize>(
    accessor: &gltf::Accessor,
    buffers: &[Vec<u8>],
    usage: &str,
) -> Result<Vec<[u32; N]>, ImportError> {
    let kind = accessor.data_type();
    if !matches!(kind, DataType::U8 | DataType::U16 | DataType::U32) {
        return Err(fail(accessor, usage, format!("holds {kind:?} numbers, which cannot be indices")));
    }
    read(accessor, buffers, usage, |bytes| component_u32(bytes, kind))
}

fn fail(accessor: &gltf::Accessor, usage: &str, problem: String) -> ImportError {
    ImportError::Accessor { accessor: accessor.index(), usage: usage.to_string(), problem }
}

/// Reads `count` elements of `N` components each, decoding one component with `decode`.
fn read<T: Copy + Default, const N: usize>(
    accessor: &gltf::Accessor,
    buffers: &[Vec<u8>],
    usage: &str,
    decode: impl Fn(&[u8]) -> T,
) -> Result<Vec<[T; N]>, ImportError> {
    let bad = |problem: String| fail(accessor, usage, problem);
    let dimensions = accessor.dimensions();
    let wanted = match N {
        1 => Dimensions::Scalar,
        2 => Dimensions::Vec2,
        3 => Dimensions::Vec3,
        4 => Dimensions::Vec4,
        _ => Dimensions::Mat4,
    };
    if dimensions != wanted {
        return Err(bad(format!("is {dimensions:?}, {usage} needs {wanted:?}")));
    }
    let count = accessor.count();
    if count == 0 || count > MAX_ELEMENTS {
        return Err(bad(format!("count is {count}; it must be 1 to {MAX_ELEMENTS}")));
    }
    let size = accessor.data_type().size();
    let element = size * N;
    let decode_element = |bytes: &[u8]| std::array::from_fn(|c| decode(&bytes[c * size..(c + 1) * size]));

    let mut elements = match accessor.view() {
        Some(view) => {
            let stride = view.stride().unwrap_or(element);
            if stride < element {
                return Err(bad(format!(
                    "its view's byteStride {stride} is less than an element ({element})"
                )));
            }
            let bytes =
                view_bytes(&view, accessor.offset(), count, stride, element, buffers).map_err(&bad)?;
            (0..count).map(|i| decode_element(&bytes[i * stride..])).collect()
        }
        None if accessor.sparse().is_some() => vec![[T::default(); N]; count],
        None => return Err(bad("has neither a buffer view nor sparse values".into())),
    };

    // Sparse: `count` (index, value) pairs replace elements; indices strictly increase (spec, "Sparse Accessors").
    if let Some(sparse) = accessor.sparse() {
        let replaced = sparse.count();
        if replaced == 0 || replaced > count {
            return Err(bad(format!("sparse count {replaced} is not 1 to {count}")));
        }
        let indices = sparse.indices();
        let index_size = indices.index_type().size();
        let index_bytes =
            view_bytes(&indices.view(), indices.offset(), replaced, index_size, index_size, buffers)
                .map_err(&bad)?;
        let values = sparse.values();
        let value_bytes =
            view_bytes(&values.view(), values.offset(), replaced, element, element, buffers).map_err(&bad)?;
        let index_kind = match index_size {
            1 => DataType::U8,
            2 => DataType::U16,
            _ => DataType::U32,
        };
        let mut previous = None;
        for k in 0..replaced {
            let at = component_u32(&index_bytes[k * index_size..], index_kind) as usize;
            if at >= count || previous.is_some_and(|p| at <= p) {
                return Err(bad(format!("sparse index {at} is out of order or past element {}", count - 1)));
            }
            elements[at] = decode_element(&value_bytes[k * element..]);
            previous = Some(at);
        }
    }
    Ok(elements)
}

/// The bytes from the first element to the end of the last, after checking they lie inside the
/// view and the view inside its buffer. Arithmetic is checked: a damaged offset may be near 2^64.
fn view_bytes<'b>(
    view: &gltf::buffer::View,
    offset: usize,
    count: usize,
    stride: usize,
    element: usize,
    buffers: &'b [Vec<u8>],
) -> Result<&'b [u8], String> {
    let buffer = &buffers[view.buffer().index()];
    let view_end = view.offset().checked_add(view.length());
    if view_end.is_none_or(|end| end > buffer.len()) {
        return Err(format!(
            "buffer view {} reaches past the end of buffer {} ({} bytes)",
            view.index(),
            view.buffer().index(),
            buffer.len()
        ));
    }
    let needed = (count - 1).checked_mul(stride).and_then(|b| b.checked_add(element));
    let end = needed.and_then(|n| n.checked_add(offset));
    match end {
        Some(end) if end <= view.length() => Ok(&buffer[view.offset() + offset..view.offset() + end]),
        _ => Err(format!("its {count} elements reach past the end of buffer view {}", view.index())),
    }
}

fn component_f32(bytes: &[u8], kind: DataType, normalized: bool) -> f32 {
    let b = |i: usize| bytes[i];
    match (kind, normalized) {
        (DataType::F32, _) => f32::from_le_bytes([b(0), b(1), b(2), b(3)]),
        (DataType::I8, true) => (b(0) as i8 as f32 / 127.0).max(-1.0),
        (DataType::U8, true) => b(0) as f32 / 255.0,
        (DataType::I16, true) => (i16::from_le_bytes([b(0), b(1)]) as f32 / 32767.0).max(-1.0),
        (DataType::U16, true) => u16::from_le_bytes([b(0), b(1)]) as f32 / 65535.0,
        (DataType::U32, true) => {
            (u32::from_le_bytes([b(0), b(1), b(2), b(3)]) as f64 / u32::MAX as f64) as f32
        }
        (DataType::I8, false) => b(0) as i8 as f32,
        (DataType::U8, false) => b(0) as f32,
        (DataType::I16, false) => i16::from_le_bytes([b(0), b(1)]) as f32,
        (DataType::U16, false) => u16::from_le_bytes([b(0), b(1)]) as f32,
        (DataType::U32, false) => u32::from_le_bytes([b(0), b(1), b(2), b(3)]) as f32,
    }
}

fn component_u32(bytes: &[u8], kind: DataType) -> u32 {
    match kind {
        DataType::U8 => bytes[0] as u32,
        DataType::U16 => u16::from_le_bytes([bytes[0], bytes[1]]) as u32,
        _ => u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
    }
}
