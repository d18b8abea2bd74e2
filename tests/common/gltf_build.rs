//! Writing glTF files inside the tests, by hand: the JSON with `serde_json::json!` and the numbers
//! packed little-endian into one buffer. Independent of the loader (and of any exporter): what the
//! tests check the loader against is what they wrote here.

use base64::Engine;
use serde_json::{Value, json};
use std::path::Path;

/// A glTF document being written: its JSON, and buffer 0's bytes.
pub struct Gltf {
    pub json: Value,
    pub bin: Vec<u8>,
}

impl Default for Gltf {
    fn default() -> Self {
        Self::new()
    }
}

impl Gltf {
    pub fn new() -> Gltf {
        Gltf {
            json: json!({ "asset": { "version": "2.0", "generator": "skinning tests" } }),
            bin: Vec::new(),
        }
    }

    /// Appends `value` to the top-level array `key` and returns its index.
    pub fn push(&mut self, key: &str, value: Value) -> usize {
        let array = self.json.as_object_mut().unwrap().entry(key).or_insert_with(|| json!([]));
        let array = array.as_array_mut().unwrap();
        array.push(value);
        array.len() - 1
    }

    /// Packs `bytes` (4-byte aligned) into buffer 0 as a new buffer view; returns the view's index.
    pub fn view(&mut self, bytes: &[u8]) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.push("bufferViews", json!({ "buffer": 0, "byteOffset": offset, "byteLength": bytes.len() }))
    }

    /// A float accessor of `type_` ("SCALAR", "VEC3", "MAT4"...) holding `data`; POSITION needs
    /// `min` and `max`, so every VEC3 gets them.
    pub fn floats(&mut self, data: &[f32], type_: &str) -> usize {
        let n = components(type_);
        let bytes: Vec<u8> = data.iter().flat_map(|x| x.to_le_bytes()).collect();
        let view = self.view(&bytes);
        let mut accessor =
            json!({ "bufferView": view, "componentType": 5126, "count": data.len() / n, "type": type_ });
        if type_ == "VEC3" || type_ == "SCALAR" {
            let column = |c: usize| data.iter().skip(c).step_by(n).copied();
            let min: Vec<f32> = (0..n).map(|c| column(c).fold(f32::INFINITY, f32::min)).collect();
            let max: Vec<f32> = (0..n).map(|c| column(c).fold(f32::NEG_INFINITY, f32::max)).collect();
            accessor["min"] = json!(min);
            accessor["max"] = json!(max);
        }
        self.push("accessors", accessor)
    }

    /// An accessor of unsigned bytes (5121) or shorts (5123), `normalized` or not.
    pub fn ints(&mut self, data: &[u32], type_: &str, component: u32, normalized: bool) -> usize {
        let bytes: Vec<u8> = match component {
            5121 => data.iter().map(|&x| x as u8).collect(),
            5123 => data.iter().flat_map(|&x| (x as u16).to_le_bytes()).collect(),
            _ => data.iter().flat_map(|&x| x.to_le_bytes()).collect(),
        };
        let view = self.view(&bytes);
        let count = data.len() / components(type_);
        let mut accessor =
            json!({ "bufferView": view, "componentType": component, "count": count, "type": type_ });
        if normalized {
            accessor["normalized"] = json!(true);
        }
        self.push("accessors", accessor)
    }

    fn with_buffer(&self, uri: Option<String>) -> Value {
        let mut json = self.json.clone();
        let mut buffer = json!({ "byteLength": self.bin.len() });
        if let Some(uri) = uri {
            buffer["uri"] = json!(uri);
        }
        json["buffers"] = json!([buffer]);
        json
    }

    /// A `.gltf` with its buffer embedded as a base64 `data:` URI.
    pub fn embedded(&self) -> Vec<u8> {
        let encoded = base64::engine::general_purpose::STANDARD.encode(&self.bin);
        let uri = format!("data:application/octet-stream;base64,{encoded}");
        serde_json::to_vec_pretty(&self.with_buffer(Some(uri))).unwrap()
    }

    /// A `.gltf` in `dir` whose buffer is the file `bin_name` next to it; returns the .gltf's path.
    pub fn external(&self, dir: &Path, gltf_name: &str, bin_name: &str) -> std::path::PathBuf {
        let uri = bin_name.replace(' ', "%20");
        std::fs::write(dir.join(bin_name), &self.bin).unwrap();
        let path = dir.join(gltf_name);
        std::fs::write(&path, serde_json::to_vec_pretty(&self.with_buffer(Some(uri))).unwrap()).unwrap();
        path
    }

    /// A `.glb`: 12-byte header, the JSON chunk (padded with spaces), the BIN chunk (padded with 0).
    pub fn glb(&self) -> Vec<u8> {
        let mut json = serde_json::to_vec(&self.with_buffer(None)).unwrap();
        while !json.len().is_multiple_of(4) {
            json.push(b' ');
        }
        let mut bin = self.bin.clone();
        while !bin.len().is_multiple_of(4) {
            bin.push(0);
        }
        let total = 12 + 8 + json.len() + 8 + bin.len();
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(b"glTF");
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&(total as u32).to_le_bytes());
        out.extend_from_slice(&(json.len() as u32).to_le_bytes());
        out.extend_from_slice(b"JSON");
        out.extend_from_slice(&json);
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&bin);
        out
    }
}

fn components(type_: &str) -> usize {
    match type_ {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" => 4,
        "MAT4" => 16,
        other => panic!("no such accessor type {other}"),
    }
}

/// A deterministic stream of numbers (xorshift64): the same mutations on every run, no crate needed.
pub struct XorShift(pub u64);

impl XorShift {
    /// The next number of the stream.
    pub fn next_number(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_number() % n.max(1) as u64) as usize
    }
}
