//! What a surface looks like: its material's base colour, and the texture coordinates that say
//! where on the base colour's picture each vertex lies.
//!
//! Skinning moves a vertex's position and its normal, nothing else. A vertex also carries its
//! **texture coordinates** (glTF's `TEXCOORD_0`, MD5's `( s t )`): a point `(u, v)` on a picture,
//! 0 to 1 across and down, that stays glued to the vertex however the bones move it. So they are
//! read once, kept on the model ([`Model::texcoords`](crate::model::Model::texcoords)) and written
//! back out unchanged; the blend never touches them.
//!
//! A **material** (glTF's `pbrMetallicRoughness`, reduced to what this program draws) is a base
//! colour: a factor, linear RGBA, times the colour its texture has at the vertex's `(u, v)`, where
//! it has a texture. A texture is an image file, PNG or JPEG, kept here as the file's bytes and
//! decoded only when it is drawn ([`decode`]), so `--info` and the exports never pay for it.
//! Which triangles take which material is a list of runs over the model's triangles
//! ([`Materials::runs`]): a glTF primitive is one run.

use glam::Vec4;
use std::ops::Range;

/// The materials of a model, its images, and which triangles take which material.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Materials {
    pub list: Vec<Material>,
    pub images: Vec<Image>,
    /// Runs of `Model::triangles`, in order, each drawn with one material (None: plain).
    pub runs: Vec<Run>,
}

/// A base colour, and perhaps a picture to multiply it by.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    pub name: String,
    /// Linear red, green, blue, alpha (glTF's `baseColorFactor`; 1, 1, 1, 1 where absent).
    pub base_color: Vec4,
    /// The image of [`Materials::images`] the factor multiplies, read at the texture coordinates.
    pub texture: Option<usize>,
    /// glTF's alpha mode MASK: a point whose alpha is below this is not drawn (None: opaque).
    pub alpha_cutoff: Option<f32>,
}

impl Default for Material {
    fn default() -> Self {
        Material { name: String::new(), base_color: Vec4::ONE, texture: None, alpha_cutoff: None }
    }
}

/// A run of triangles and the material they take.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub triangles: Range<usize>,
    pub material: Option<usize>,
}

/// The two kinds of image file a glTF texture may be (spec, "Images").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageKind {
    Png,
    Jpeg,
}

impl ImageKind {
    /// What the first bytes of a file say it is: PNG's and JPEG's own signatures.
    pub fn of(bytes: &[u8]) -> Option<ImageKind> {
        match bytes {
            [0x89, b'P', b'N', b'G', ..] => Some(ImageKind::Png),
            [0xFF, 0xD8, 0xFF, ..] => Some(ImageKind::Jpeg),
            _ => None,
        }
    }

    /// glTF's `mimeType` for it.
    pub fn mime_type(self) -> &'static str {
        match self {
            ImageKind::Png => "image/png",
            ImageKind::Jpeg => "image/jpeg",
        }
    }
}

/// An image file as it was stored: what kind, and its bytes, not yet decoded.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    pub name: String,
    pub kind: ImageKind,
    pub bytes: Vec<u8>,
}

/// A decoded image: `width` x `height` pixels of red, green, blue, alpha, a byte each, row by row
/// from the top (the row glTF's v = 0 names).
#[derive(Clone, Debug, PartialEq)]
pub struct Pixels {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

/// The most pixels an image may decode to: 8192 x 8192, a quarter of a GiB in RGBA. A file that
/// says more is most likely damaged, and would not fit a GPU's texture anyway.
pub const MAX_PIXELS: u64 = 8192 * 8192;

/// Decodes an image into RGBA pixels: PNG with the `png` crate, JPEG with `zune-jpeg`, both in
/// pure Rust. A damaged or too large file is an error in words, never a crash.
pub fn decode(image: &Image) -> Result<Pixels, String> {
    match image.kind {
        ImageKind::Png => decode_png(&image.bytes),
        ImageKind::Jpeg => decode_jpeg(&image.bytes),
    }
}

fn decode_png(bytes: &[u8]) -> Result<Pixels, String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    // Palettes and 16-bit channels become 8-bit RGB(A), grey stays grey: made RGBA below.
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(|e| format!("not a readable PNG ({e})"))?;
    let (width, height) = (reader.info().width, reader.info().height);
    if width as u64 * height as u64 > MAX_PIXELS {
        return Err(format!("{width} x {height} pixels, more than this program decodes"));
    }
    let size = reader.output_buffer_size().ok_or("its size overflows")?;
    let mut buffer = vec![0; size];
    let frame = reader.next_frame(&mut buffer).map_err(|e| format!("its PNG data is damaged ({e})"))?;
    let channels = frame.color_type.samples();
    let pixels = &buffer[..frame.buffer_size()];
    let rgba = match channels {
        1 => pixels.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        2 => pixels.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect(),
        3 => pixels.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
        _ => pixels.to_vec(),
    };
    Ok(Pixels { width, height, rgba })
}

fn decode_jpeg(bytes: &[u8]) -> Result<Pixels, String> {
    use zune_jpeg::zune_core::{bytestream::ZCursor, colorspace::ColorSpace, options::DecoderOptions};
    let options = DecoderOptions::default().jpeg_set_out_colorspace(ColorSpace::RGBA);
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(ZCursor::new(bytes), options);
    decoder.decode_headers().map_err(|e| format!("not a readable JPEG ({e:?})"))?;
    let (width, height) = decoder.dimensions().ok_or("a JPEG without a size")?;
    if width as u64 * height as u64 > MAX_PIXELS {
        return Err(format!("{width} x {height} pixels, more than this program decodes"));
    }
    let rgba = decoder.decode().map_err(|e| format!("its JPEG data is damaged ({e:?})"))?;
    if rgba.len() != width * height * 4 {
        return Err("its JPEG data does not fill the picture".into());
    }
    Ok(Pixels { width: width as u32, height: height as u32, rgba })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_png_written_here_decodes_to_its_own_pixels() {
        let mut bytes = Vec::new();
        {
            let mut encoder = png::Encoder::new(&mut bytes, 2, 1);
            encoder.set_color(png::ColorType::Rgb);
            let mut writer = encoder.write_header().unwrap();
            writer.write_image_data(&[255, 0, 0, 0, 0, 255]).unwrap();
        }
        assert_eq!(ImageKind::of(&bytes), Some(ImageKind::Png));
        let image = Image { name: "two".into(), kind: ImageKind::Png, bytes };
        let pixels = decode(&image).unwrap();
        assert_eq!((pixels.width, pixels.height), (2, 1));
        assert_eq!(pixels.rgba, [255, 0, 0, 255, 0, 0, 255, 255]);
    }

    #[test]
    fn a_jpeg_decodes_to_its_colour() {
        // 16 x 16 pixels of one blue, saved as JPEG by Blender (tests/data/blue.jpg).
        let bytes = include_bytes!("../tests/data/blue.jpg").to_vec();
        assert_eq!(ImageKind::of(&bytes), Some(ImageKind::Jpeg));
        let pixels = decode(&Image { name: "blue".into(), kind: ImageKind::Jpeg, bytes }).unwrap();
        assert_eq!((pixels.width, pixels.height, pixels.rgba.len()), (16, 16, 16 * 16 * 4));
        for p in pixels.rgba.chunks_exact(4) {
            assert!(p[2] > 200 && p[0] < 120 && p[3] == 255, "{p:?}");
        }
    }

    #[test]
    fn damaged_images_are_errors() {
        let png = Image { name: "x".into(), kind: ImageKind::Png, bytes: b"\x89PNG\r\n\x1a\nnope".to_vec() };
        assert!(decode(&png).is_err());
        let jpeg = Image { name: "x".into(), kind: ImageKind::Jpeg, bytes: vec![0xFF, 0xD8, 0xFF, 0, 1, 2] };
        assert!(decode(&jpeg).is_err());
        assert_eq!(ImageKind::of(b"GIF89a"), None);
    }
}
