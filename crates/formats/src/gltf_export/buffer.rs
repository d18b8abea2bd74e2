//! The file being written: its JSON objects, and the bytes of its one buffer.
//!
//! The buffer is never held: [`File`] is made twice (`gltf_export.rs`: `Export`). The first time
//! its [`Sink`] only counts, so the JSON learns where each view lies and how long the buffer is;
//! the second time the same calls, in the same order, write each view's bytes as they are made,
//! after the JSON. Which channels share keys is decided the same way both times, by comparing
//! their numbers where the model holds them (a hash finds the candidates), not the bytes written.
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

use super::json;
use skinning_method::clip::Channel;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::io::{self, Write};

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

/// Where the buffer's bytes go: nowhere, only counted (the pass that lays the file out), or to
/// the file (the pass that writes it).
pub enum Sink<'w> {
    Count,
    Write(&'w mut dyn Write),
}

/// The numbers of a channel's values, made again from where the model holds them: to compare a
/// later channel's with, without keeping a copy.
type Values<'a> = Box<dyn Fn() -> Vec<u32> + 'a>;

/// The file being written: its JSON, and where its buffer's bytes go (`'a`: the clips' tracks,
/// whose keys it compares; `'w`: the file written to).
pub struct File<'a, 'w> {
    pub root: json::Root,
    sink: Sink<'w>,
    /// The buffer's length so far, in bytes.
    pub len: usize,
    /// The first error the sink gave: `accessor` answers with an accessor, so the error waits here
    /// for the end (`finish`), and nothing more is written after it.
    error: Option<io::Error>,
    /// The key times written so far: a hash of their bits, and the accessors and times that have it.
    times: HashMap<u64, Vec<(usize, &'a [f32])>>,
    /// The keys' values written so far: a hash of their bits, and the accessors that have it, each
    /// with a way to make its numbers again.
    values: HashMap<u64, Vec<(usize, Values<'a>)>>,
    /// The samplers of the animation being written: (input, output, interpolation), and the
    /// animation (its index once pushed) they are in.
    samplers: HashMap<(usize, usize, &'static str), (usize, usize)>,
}

/// The bytes of one accessor gathered this many at a time before they go to the sink.
const CHUNK: usize = 1 << 16;

impl<'a, 'w> File<'a, 'w> {
    pub fn new(sink: Sink<'w>) -> Self {
        File {
            root: json::Root::default(),
            sink,
            len: 0,
            error: None,
            times: HashMap::new(),
            values: HashMap::new(),
            samplers: HashMap::new(),
        }
    }

    /// `bytes` to the sink (counted only by the first pass), after the first error nothing.
    fn write(&mut self, bytes: &[u8]) {
        self.len += bytes.len();
        if let (Sink::Write(out), None) = (&mut self.sink, &self.error)
            && let Err(e) = out.write_all(bytes)
        {
            self.error = Some(e);
        }
    }

    /// Zeros up to the next multiple of 4 bytes, where every view starts.
    fn align(&mut self) {
        let pad = self.len.next_multiple_of(4) - self.len;
        self.write(&[0; 3][..pad]);
    }

    /// Appends `data` to the buffer in a view of its own, starting on a multiple of 4 bytes, and
    /// returns the accessor that reads it; with its `min` and `max` when `bounds` is true.
    pub fn accessor<C: Component, const N: usize>(
        &mut self,
        data: &[[C; N]],
        target: Option<u32>,
        bounds: bool,
    ) -> usize {
        self.align();
        let byte_offset = self.len;
        match self.sink {
            Sink::Count => self.len += data.len() * N * size_of::<C>(),
            Sink::Write(_) => {
                let mut bytes = Vec::with_capacity(CHUNK.min(data.len() * N * size_of::<C>()));
                for element in data {
                    element.iter().for_each(|c| c.put(&mut bytes));
                    if bytes.len() >= CHUNK - 64 {
                        self.write(&bytes);
                        bytes.clear();
                    }
                }
                self.write(&bytes);
            }
        }
        let byte_length = self.len - byte_offset;
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
        self.align();
        let byte_offset = self.len;
        self.write(bytes);
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
        channel: Option<&'a Channel<T>>,
        floats: impl Fn(&T) -> [f32; N] + Copy + 'a,
    ) {
        let Some(channel) = channel else { return };
        let input = self.shared_times(&channel.times);
        let values: Vec<[f32; N]> = channel.values.iter().map(floats).collect();
        let again = move || channel.values.iter().flat_map(floats).map(f32::to_bits).collect();
        let output = self.shared_accessor(&values, Box::new(again));
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

    /// The accessor of key times `times`, with their bounds: one written before with the same
    /// numbers, or a new one.
    fn shared_times(&mut self, times: &'a [f32]) -> usize {
        let same = |a: &[f32], b: &[f32]| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
        };
        let hash = hash_of(times.iter().map(|t| t.to_bits()));
        let found = self.times.get(&hash).and_then(|list| list.iter().find(|(_, t)| same(t, times)));
        if let Some(&(accessor, _)) = found {
            return accessor;
        }
        let elements: Vec<[f32; 1]> = times.iter().map(|&t| [t]).collect();
        let accessor = self.accessor(&elements, None, true);
        self.times.entry(hash).or_default().push((accessor, times));
        accessor
    }

    /// The accessor of `data` (no bounds, no target): one written before with the same numbers
    /// (`again` makes them), or a new one.
    fn shared_accessor<const N: usize>(&mut self, data: &[[f32; N]], again: Values<'a>) -> usize {
        let bits: Vec<u32> = data.iter().flatten().map(|x| x.to_bits()).collect();
        let hash = hash_of(std::iter::once(N as u32).chain(bits.iter().copied()));
        let root = &self.root;
        let same = |accessor: usize, made: &Values| {
            let a = &root.accessors[accessor];
            a.count == data.len() && a.kind == kind(N) && made() == bits
        };
        let found = self.values.get(&hash).and_then(|list| list.iter().find(|(a, made)| same(*a, made)));
        if let Some(&(accessor, _)) = found {
            return accessor;
        }
        let accessor = self.accessor(data, None, false);
        self.values.entry(hash).or_default().push((accessor, again));
        accessor
    }

    /// The buffer's last padding, and its length, or the first error writing it.
    pub fn finish(mut self) -> io::Result<(json::Root, usize)> {
        self.align();
        match self.error {
            Some(e) => Err(e),
            None => Ok((self.root, self.len)),
        }
    }
}

/// A hash of `numbers`, to find candidates quickly: equal numbers are then checked one by one.
fn hash_of(numbers: impl Iterator<Item = u32>) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    numbers.for_each(|x| x.hash(&mut hasher));
    hasher.finish()
}

/// `glTF`, `JSON` and `BIN\0` read as little-endian words (spec, "GLB File Format Specification").
pub const GLB_MAGIC: u32 = 0x4654_6C67;
pub const CHUNK_JSON: u32 = 0x4E4F_534A;
pub const CHUNK_BIN: u32 = 0x004E_4942;

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
