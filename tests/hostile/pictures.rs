//! Pictures and textured models written by the cases themselves: a square facing the camera with
//! its texture coordinates, PNGs (small ones through the `png` crate; large black ones by hand,
//! a few bytes per row), and JPEGs of one colour written by hand in any colour model (grey, YCbCr,
//! Adobe's CMYK and YCCK), whole, cut short, or claiming more pixels than they hold.

use common::gltf_build::Gltf;
use serde_json::{Value, json};

/// A unit square facing +z on one bone, its texture coordinates 0 to 1 across it; its one
/// primitive takes material 0 when the file has materials. The file's `images`, `textures` and
/// `materials` are the case's to set.
pub fn square() -> Gltf {
    let mut g = Gltf::new();
    g.json["nodes"] = json!([{ "name": "root" }, { "name": "square", "mesh": 0, "skin": 0 }]);
    g.json["scenes"] = json!([{ "nodes": [0, 1] }]);
    g.json["scene"] = json!(0);
    let positions = [-1.0f32, -1.0, 0.0, 1.0, -1.0, 0.0, 1.0, 1.0, 0.0, -1.0, 1.0, 0.0];
    let normals = [0.0f32, 0.0, 1.0].repeat(4);
    let uv = [0.0f32, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0];
    let attributes = json!({
        "POSITION": g.floats(&positions, "VEC3"),
        "NORMAL": g.floats(&normals, "VEC3"),
        "TEXCOORD_0": g.floats(&uv, "VEC2"),
        "JOINTS_0": g.ints(&[0; 16], "VEC4", 5123, false),
        "WEIGHTS_0": g.floats(&[1.0f32, 0.0, 0.0, 0.0].repeat(4), "VEC4"),
    });
    let indices = g.ints(&[0, 1, 2, 0, 2, 3], "SCALAR", 5123, false);
    g.json["meshes"] =
        json!([{ "primitives": [{ "attributes": attributes, "indices": indices, "material": 0 }] }]);
    let ibm = g.floats(&glam::Mat4::IDENTITY.to_cols_array(), "MAT4");
    g.json["skins"] = json!([{ "joints": [0], "inverseBindMatrices": ibm }]);
    g
}

/// `n` materials, material i showing texture i (through TEXCOORD_0), texture i image i.
pub fn materials_showing(g: &mut Gltf, images: Vec<Value>) {
    let n = images.len();
    g.json["images"] = json!(images);
    g.json["textures"] = (0..n).map(|i| json!({ "source": i })).collect();
    g.json["materials"] =
        (0..n).map(|i| json!({ "pbrMetallicRoughness": { "baseColorTexture": { "index": i } } })).collect();
}

/// A PNG of `width` x `height` pixels all of colour `rgba`, through the `png` crate.
pub fn png(width: u32, height: u32, rgba: [u8; 4]) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgba);
    let data = rgba.repeat(width as usize * height as usize);
    encoder.write_header().expect("header").write_image_data(&data).expect("pixels");
    bytes
}

/// A PNG of `width` x `height` transparent black RGBA pixels, written by hand: its zlib stream is
/// one zero byte and then "the 258 bytes before again" over and over (deflate's fixed codes,
/// 13 bits each), so an 8192 x 8192 picture, 256 MiB decoded, is 1.7 MB of file, made in no time.
pub fn black_png(width: u32, height: u32) -> Vec<u8> {
    let raw = (width as u64 * 4 + 1) * height as u64; // each row: filter 0, then its bytes
    let mut bits = Bits::default();
    bits.put(0b011, 3); // the last block, fixed codes (BFINAL 1, BTYPE 01, first bit first)
    bits.code(0b0011_0000, 8); // the literal 0
    let (matches, rest) = ((raw - 1) / 258, (raw - 1) % 258);
    for _ in 0..matches {
        bits.code(0b1100_0101, 8); // length 258 (code 285)
        bits.code(0, 5); // distance 1 (code 0)
    }
    for _ in 0..rest {
        bits.code(0b0011_0000, 8);
    }
    bits.code(0, 7); // end of block (code 256)
    let mut zlib = vec![0x78, 0x01];
    zlib.extend(bits.bytes());
    // Adler-32 of `raw` zeros: a stays 1, b gains 1 a byte.
    let adler = ((raw % 65521) << 16 | 1) as u32;
    zlib.extend(adler.to_be_bytes());
    let mut ihdr = Vec::new();
    ihdr.extend(width.to_be_bytes());
    ihdr.extend(height.to_be_bytes());
    ihdr.extend([8, 6, 0, 0, 0]); // 8 bits, RGBA, deflate, filter 0, not interlaced
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    for (kind, data) in [(b"IHDR", ihdr), (b"IDAT", zlib), (b"IEND", Vec::new())] {
        out.extend((data.len() as u32).to_be_bytes());
        let chunk: Vec<u8> = kind.iter().chain(&data).copied().collect();
        out.extend(&chunk);
        out.extend(crc32(&chunk).to_be_bytes());
    }
    out
}

/// Bits packed first bit first into bytes, as deflate and JPEG want them (deflate: least
/// significant bit first; `code` puts a Huffman code's bits from its most significant).
#[derive(Default)]
struct Bits {
    bytes: Vec<u8>,
    used: u32,
}

impl Bits {
    /// `n` bits of `value`, least significant first (deflate's order for everything but codes).
    fn put(&mut self, value: u32, n: u32) {
        for i in 0..n {
            if self.used.is_multiple_of(8) {
                self.bytes.push(0);
            }
            let bit = (value >> i) & 1;
            *self.bytes.last_mut().expect("pushed") |= (bit as u8) << (self.used % 8);
            self.used += 1;
        }
    }

    /// A Huffman code of `n` bits, most significant first.
    fn code(&mut self, code: u32, n: u32) {
        for i in (0..n).rev() {
            self.put((code >> i) & 1, 1);
        }
    }

    fn bytes(self) -> Vec<u8> {
        self.bytes
    }
}

/// CRC-32 as PNG chunks carry it (ISO 3309), bit by bit: the chunks here are small.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= byte as u32;
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// How a hand-written JPEG stores its colour: its components' values, and the Adobe APP14
/// marker's transform (0: CMYK, 2: YCCK) where it has one.
pub struct JpegColour {
    pub samples: Vec<u8>,
    pub adobe: Option<u8>,
}

/// A baseline JPEG of one colour, `width` x `height` pixels (multiples of 8) of data, whose header
/// claims `claimed` (width, height), written by hand: each 8 x 8 block only its DC coefficient
/// (quantised by 8, so a sample v is the coefficient v - 128), every component sampled 1 x 1.
pub fn jpeg(colour: &JpegColour, (width, height): (u16, u16), claimed: (u16, u16)) -> Vec<u8> {
    let n = colour.samples.len() as u8;
    let mut out = vec![0xFF, 0xD8];
    let mut segment = |marker: u8, body: &[u8]| {
        out.extend([0xFF, marker]);
        out.extend((body.len() as u16 + 2).to_be_bytes());
        out.extend(body);
    };
    if let Some(transform) = colour.adobe {
        segment(0xEE, &[b"Adobe".as_slice(), &[0, 100, 0, 0, 0, 0, transform]].concat());
    }
    segment(0xDB, &[[0u8].as_slice(), &[8; 64]].concat());
    let mut frame = vec![8];
    frame.extend(claimed.1.to_be_bytes());
    frame.extend(claimed.0.to_be_bytes());
    frame.push(n);
    for c in 1..=n {
        frame.extend([c, 0x11, 0]);
    }
    segment(0xC0, &frame);
    // DC: the categories 0 to 11, each a 4-bit code (its own number). AC: end of block is "00".
    segment(0xC4, &[[0x00].as_slice(), &[0, 0, 0, 12], &[0; 12], &(0..12).collect::<Vec<u8>>()].concat());
    segment(0xC4, &[[0x10].as_slice(), &[0, 2], &[0; 14], &[0x00, 0x01]].concat());
    let mut scan = vec![n];
    for c in 1..=n {
        scan.extend([c, 0x00]);
    }
    scan.extend([0, 63, 0]);
    segment(0xDA, &scan);
    let mut bits = Bits::default();
    let blocks = (width as usize / 8) * (height as usize / 8);
    for block in 0..blocks {
        for &sample in &colour.samples {
            // Each block's DC is the difference from the one before in its component.
            let diff = if block == 0 { sample as i32 - 128 } else { 0 };
            let category = 32 - diff.unsigned_abs().leading_zeros();
            bits.code(category, 4);
            let value = if diff < 0 { diff + (1 << category) - 1 } else { diff };
            bits.code(value as u32, category);
            bits.code(0b00, 2);
        }
    }
    // Padded with 1 bits; a 0xFF byte of data is followed by 0x00.
    while !bits.used.is_multiple_of(8) {
        bits.put(1, 1);
    }
    let data = bits.bytes().into_iter().map(|b| b.reverse_bits());
    for byte in data {
        out.push(byte);
        if byte == 0xFF {
            out.push(0);
        }
    }
    out.extend([0xFF, 0xD9]);
    out
}
