//! The file being written: its JSON objects, and the bytes of its one buffer.
//!
//! Every array of numbers goes into the buffer in a **buffer view** of its own, packed tight (no
//! `byteStride`: the spec forbids it on animation and inverse-bind-matrix views, and it is needed
//! only when views are shared), each starting at a multiple of 4 bytes (spec, "Data Alignment": an
//! accessor's offset must be a multiple of its component size, a vertex attribute's of 4). An
//! **accessor** says how to read the view: component type, element type, count, and for POSITION
//! and animation key times the `min` and `max` the spec requires. Channels with the same key times
//! share one accessor of them, as a sampler may (an MD5 clip's are all its frames); channels with
//! the same values share theirs, and channels of one animation with both the same share one
//! sampler: a file whose one sampler moved 128 nodes loads as 128 channels, and goes out as it came,
//! its keys written once, not 128 times.

use super::error::{Container, ExportError};
use super::json;
use base64::Engine;
use skinning_method::clip::Channel;
use std::collections::HashMap;

// glTF's numbers for what the file holds (spec, "Accessor Data Types", "Buffers and Buffer Views",
// "Meshes").
const FLOAT: u32 = 5126;
const UNSIGNED_SHORT: u32 = 5123;
const UNSIGNED_INT: u32 = 5125;
pub const ARRAY_BUFFER: u32 = 34962;
pub const ELEMENT_ARRAY_BUFFER: u32 = 34963;
pub const POINTS: u32 = 0;
pub const LINES: u32 = 1;
pub const LINE_LOOP: u32 = 2;
pub const TRIANGLES: u32 = 4;

/// A number type an accessor can hold, written little-endian.
pub trait Component: Copy {
    const TYPE: u32;
    fn put(self, bytes: &mut Vec<u8>);
    fn as_f32(self) -> f32;
}

impl Component for f32 {
    const TYPE: u32 = FLOAT;
    fn put(self, bytes: &mut Vec<u8>) {
        bytes.extend_from_slice(&self.to_le_bytes());
    }
    fn as_f32(self) -> f32 {
        self
    }
}

impl Component for u16 {
    const TYPE: u32 = UNSIGNED_SHORT;
    fn put(self, bytes: &mut Vec<u8>) {
        bytes.extend_from_slice(&self.to_le_bytes());
    }
    fn as_f32(self) -> f32 {
        self as f32
    }
}

impl Component for u32 {
    const TYPE: u32 = UNSIGNED_INT;
    fn put(self, bytes: &mut Vec<u8>) {
        bytes.extend_from_slice(&self.to_le_bytes());
    }
    fn as_f32(self) -> f32 {
        self as f32
    }
}

/// The file being written: its JSON, and the bytes of its one buffer.
#[derive(Default)]
pub struct File {
    pub root: json::Root,
    bin: Vec<u8>,
    /// The key times written so far (their bits), and the accessor of each.
    times: HashMap<Vec<u32>, usize>,
    /// The keys' values written so far: a hash of their bytes, and the accessors that have it.
    values: HashMap<u64, Vec<usize>>,
    /// The samplers of the animation being written: (input, output, interpolation), and the
    /// animation (its index once pushed) they are in.
    samplers: HashMap<(usize, usize, &'static str), (usize, usize)>,
}

impl File {
    /// Appends `data` to the buffer in a view of its own, starting on a multiple of 4 bytes, and
    /// returns the accessor that reads it; with its `min` and `max` when `bounds` is true.
    pub fn accessor<C: Component, const N: usize>(
        &mut self,
        data: &[[C; N]],
        target: Option<u32>,
        bounds: bool,
    ) -> usize {
        self.bin.resize(self.bin.len().next_multiple_of(4), 0);
        let byte_offset = self.bin.len();
        data.iter().flatten().for_each(|c| c.put(&mut self.bin));
        let byte_length = self.bin.len() - byte_offset;
        let buffer_view = push(
            &mut self.root.buffer_views,
            json::BufferView { buffer: 0, byte_offset, byte_length, target },
        );
        let column = |c: usize| data.iter().map(move |e| e[c].as_f32());
        let (min, max) = match bounds {
            true => (
                Some((0..N).map(|c| column(c).fold(f32::INFINITY, f32::min)).collect()),
                Some((0..N).map(|c| column(c).fold(f32::NEG_INFINITY, f32::max)).collect()),
            ),
            false => (None, None),
        };
        let accessor = json::Accessor {
            buffer_view,
            component_type: C::TYPE,
            count: data.len(),
            kind: kind(N),
            min,
            max,
        };
        push(&mut self.root.accessors, accessor)
    }

    /// Appends raw `bytes` (an image file) in a view of its own and returns the view.
    pub fn bytes_view(&mut self, bytes: &[u8]) -> usize {
        self.bin.resize(self.bin.len().next_multiple_of(4), 0);
        let byte_offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        let view = json::BufferView { buffer: 0, byte_offset, byte_length: bytes.len(), target: None };
        push(&mut self.root.buffer_views, view)
    }

    /// One channel of a track as a sampler (key times with their bounds, values) and a channel
    /// that points it at `path` of node `node`. Nothing for a channel the track does not have.
    pub fn channel<T, const N: usize>(
        &mut self,
        animation: &mut json::Animation,
        node: usize,
        path: &'static str,
        channel: Option<&Channel<T>>,
        floats: impl Fn(&T) -> [f32; N],
    ) {
        let Some(channel) = channel else { return };
        let bits: Vec<u32> = channel.times.iter().map(|t| t.to_bits()).collect();
        let input = match self.times.get(&bits) {
            Some(&input) => input,
            None => {
                let times: Vec<[f32; 1]> = channel.times.iter().map(|&t| [t]).collect();
                let input = self.accessor(&times, None, true);
                *self.times.entry(bits).or_insert(input)
            }
        };
        let values: Vec<[f32; N]> = channel.values.iter().map(floats).collect();
        let output = self.shared_accessor(&values);
        let interpolation = channel.interpolation.name();
        // Animations are pushed once their channels are made: this one will be the next.
        let this = self.root.animations.len();
        let sampler = match self.samplers.get(&(input, output, interpolation)) {
            Some(&(sampler, of)) if of == this => sampler,
            _ => {
                let sampler = push(&mut animation.samplers, json::Sampler { input, output, interpolation });
                self.samplers.insert((input, output, interpolation), (sampler, this));
                sampler
            }
        };
        animation.channels.push(json::Channel { sampler, target: json::Target { node, path } });
    }

    /// The accessor of `data` (no bounds, no target): one written before with the same bytes, or
    /// a new one.
    fn shared_accessor<const N: usize>(&mut self, data: &[[f32; N]]) -> usize {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        N.hash(&mut hasher);
        data.iter().flatten().for_each(|x| x.to_bits().hash(&mut hasher));
        let hash = hasher.finish();
        let same = |file: &File, accessor: usize| {
            let a = &file.root.accessors[accessor];
            let view = &file.root.buffer_views[a.buffer_view];
            let bytes = &file.bin[view.byte_offset..view.byte_offset + view.byte_length];
            a.count == data.len()
                && a.kind == kind(N)
                && bytes.chunks_exact(4).zip(data.iter().flatten()).all(|(b, x)| b == x.to_le_bytes())
        };
        let found = self.values.get(&hash).and_then(|list| list.iter().copied().find(|&a| same(self, a)));
        found.unwrap_or_else(|| {
            let accessor = self.accessor(data, None, false);
            self.values.entry(hash).or_default().push(accessor);
            accessor
        })
    }

    /// The JSON and the buffer, packed as `container` says.
    pub fn finish(mut self, container: Container) -> Result<Vec<u8>, ExportError> {
        self.bin.resize(self.bin.len().next_multiple_of(4), 0);
        let byte_length = self.bin.len();
        let json =
            |root: &json::Root| serde_json::to_vec_pretty(root).map_err(|e| ExportError::Json(e.to_string()));
        match container {
            Container::Gltf => {
                let encoded = base64::engine::general_purpose::STANDARD.encode(&self.bin);
                let uri = Some(format!("data:application/octet-stream;base64,{encoded}"));
                self.root.buffers.push(json::Buffer { byte_length, uri });
                json(&self.root)
            }
            Container::Glb => {
                // Buffer 0 without a uri is the BIN chunk. Chunks are 4-byte aligned: the JSON
                // padded with spaces, the buffer (already) with zeros.
                self.root.buffers.push(json::Buffer { byte_length, uri: None });
                let mut text = json(&self.root)?;
                text.resize(text.len().next_multiple_of(4), b' ');
                // The header (magic, version 2, the whole file's length), then each chunk: its
                // length, its type, its bytes. (Lengths are u32: a .glb holds at most 4 GiB; the
                // article's scene takes 12 KB, the Fox 0.3 MB.)
                let total = 12 + 8 + text.len() + 8 + self.bin.len();
                if total > u32::MAX as usize {
                    return Err(ExportError::TooBig(total));
                }
                let mut out = Vec::with_capacity(total);
                for word in [GLB_MAGIC, 2, total as u32, text.len() as u32, CHUNK_JSON] {
                    out.extend_from_slice(&word.to_le_bytes());
                }
                out.extend_from_slice(&text);
                for word in [self.bin.len() as u32, CHUNK_BIN] {
                    out.extend_from_slice(&word.to_le_bytes());
                }
                out.extend_from_slice(&self.bin);
                Ok(out)
            }
        }
    }
}

/// `glTF`, `JSON` and `BIN\0` read as little-endian words (spec, "GLB File Format Specification").
const GLB_MAGIC: u32 = 0x4654_6C67;
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

/// An accessor's element type for `n` numbers.
fn kind(n: usize) -> &'static str {
    match n {
        1 => "SCALAR",
        2 => "VEC2",
        3 => "VEC3",
        4 => "VEC4",
        _ => "MAT4", // 16 numbers: the only other size used here
    }
}

/// Appends `value` and returns its index: how glTF objects point at each other.
pub fn push<T>(list: &mut Vec<T>, value: T) -> usize {
    list.push(value);
    list.len() - 1
}
