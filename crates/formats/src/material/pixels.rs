//! From an image file's bytes to the pixels a texture holds: its size from its header alone
//! ([`size`], what loading and `--info` read), its pixels ([`decode`]), and its pixels made
//! smaller as they are decoded ([`decode_smaller`]) where a model's textures pass its budget of
//! pixels ([`fit`]) or one is larger than the GPU takes (`smaller.rs`).
//!
//! PNG is decoded with the `png` crate, JPEG with `zune-jpeg`, both in pure Rust, TGA by hand
//! (`tga.rs`), all strictly: a file
//! cut short, or whose header claims more pixels than its data holds, is an error in words, never
//! a picture filled in with grey. A JPEG is decoded to RGB and given its alpha here: its colours
//! may be stored as CMYK or YCCK (Adobe's), which the decoder turns into RGB that way only.

use super::image::{Image, ImageKind, MAX_PIXELS, Pixels};
use super::smaller::{Smaller, smaller};
use std::collections::BinaryHeap;

/// An image's width and height, read from its header without decoding a pixel; an error if it
/// cannot be read, is empty, or holds more than [`MAX_PIXELS`].
pub fn size(kind: ImageKind, bytes: &[u8]) -> Result<(u32, u32), String> {
    let (width, height) = match kind {
        ImageKind::Png => {
            let reader = png::Decoder::new(std::io::Cursor::new(bytes))
                .read_info()
                .map_err(|e| format!("not a readable PNG ({e})"))?;
            (reader.info().width, reader.info().height)
        }
        ImageKind::Jpeg => {
            let mut decoder = jpeg_decoder(bytes);
            decoder.decode_headers().map_err(|e| format!("not a readable JPEG ({})", words(&e)))?;
            let (width, height) = decoder.dimensions().ok_or("a JPEG without a size")?;
            (width as u32, height as u32)
        }
        ImageKind::Tga => super::tga::size(bytes)?,
    };
    if width == 0 || height == 0 {
        return Err(format!("{width} x {height} pixels, an empty picture"));
    }
    if width as u64 * height as u64 > MAX_PIXELS {
        return Err(format!("{width} x {height} pixels, more than this program decodes (8192 x 8192)"));
    }
    Ok((width, height))
}

/// Decodes an image into RGBA pixels. A damaged file, one cut short, or one whose pixels are not
/// the size its header says, is an error in words, never a crash or a grey guess.
pub fn decode(image: &Image) -> Result<Pixels, String> {
    let (width, height) = size(image.kind, &image.bytes)?;
    let (channels, data) = match image.kind {
        ImageKind::Png => decode_png(&image.bytes)?,
        ImageKind::Jpeg => {
            let data = jpeg_decoder(&image.bytes)
                .decode()
                .map_err(|e| format!("its JPEG data is damaged or cut short ({})", words(&e)))?;
            (3, data)
        }
        ImageKind::Tga => (4, super::tga::decode(&image.bytes)?),
    };
    let count = width as usize * height as usize;
    if data.len() != count * channels {
        return Err("its data does not fill the picture its header describes".into());
    }
    Ok(Pixels { width, height, rgba: to_rgba(data, channels, count) })
}

/// Decodes an image halved `halvings` times (`smaller.rs`). A PNG is made smaller row by row as
/// it is decoded, so its full size is never held: a PNG of 8192 x 8192 drawn at 4096 x 4096 is
/// decoded within the memory `tests/hostile/pictures_drawn.rs` allows (350 MiB at the peak). An
/// interlaced PNG, whose rows come in seven passes, a JPEG and a TGA are decoded whole first.
pub fn decode_smaller(image: &Image, halvings: u32) -> Result<Pixels, String> {
    let (width, height) = size(image.kind, &image.bytes)?;
    if image.kind == ImageKind::Png && halvings > 0 {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(&image.bytes[..]));
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = decoder.read_info().map_err(|e| format!("not a readable PNG ({e})"))?;
        if !reader.info().interlaced {
            let channels = reader.output_color_type().0.samples();
            let mut out = Smaller::new(width, height, halvings);
            let mut rgba = Vec::new();
            while let Some(row) = reader.next_row().map_err(|e| format!("its PNG data is damaged ({e})"))? {
                if row.data().len() != width as usize * channels {
                    return Err("its data does not fill the picture its header describes".into());
                }
                out.row(match channels {
                    4 => row.data(),
                    _ => {
                        rgba.clear();
                        rgba.extend_from_slice(row.data());
                        rgba = to_rgba(std::mem::take(&mut rgba), channels, width as usize);
                        &rgba
                    }
                });
            }
            return out.finish();
        }
    }
    match halvings {
        0 => decode(image),
        _ => smaller(&decode(image)?, halvings),
    }
}

/// The decoder's error in words, without the quotes it puts around them.
fn words(error: &zune_jpeg::errors::DecodeErrors) -> String {
    error.to_string().trim_matches('"').to_string()
}

/// A JPEG decoder set to be strict, to give RGB, and to take any size JPEG allows (65535 a side;
/// [`size`] bounds the pixels).
fn jpeg_decoder(bytes: &[u8]) -> zune_jpeg::JpegDecoder<zune_jpeg::zune_core::bytestream::ZCursor<&[u8]>> {
    use zune_jpeg::zune_core::{bytestream::ZCursor, colorspace::ColorSpace, options::DecoderOptions};
    // RGB, not RGBA: the decoder's CMYK and YCCK conversions are right only into three channels.
    let options = DecoderOptions::default()
        .jpeg_set_out_colorspace(ColorSpace::RGB)
        .set_strict_mode(true)
        .set_max_width(u16::MAX as usize)
        .set_max_height(u16::MAX as usize);
    zune_jpeg::JpegDecoder::new_with_options(ZCursor::new(bytes), options)
}

/// A PNG's pixels as its channels per pixel (grey, grey and alpha, RGB or RGBA) and their bytes.
fn decode_png(bytes: &[u8]) -> Result<(usize, Vec<u8>), String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    // Palettes and 16-bit channels become 8-bit RGB(A), grey stays grey: made RGBA by `to_rgba`.
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(|e| format!("not a readable PNG ({e})"))?;
    let buffer_size = reader.output_buffer_size().ok_or("its size overflows")?;
    let mut buffer = vec![0; buffer_size];
    let frame = reader.next_frame(&mut buffer).map_err(|e| format!("its PNG data is damaged ({e})"))?;
    buffer.truncate(frame.buffer_size());
    Ok((frame.color_type.samples(), buffer))
}

/// `count` pixels of `channels` bytes each (1 grey, 2 grey and alpha, 3 RGB, 4 RGBA) made RGBA,
/// in the same buffer: it grows to four bytes a pixel and is filled from the end, so each pixel
/// is read before anything is written over it.
fn to_rgba(mut data: Vec<u8>, channels: usize, count: usize) -> Vec<u8> {
    if channels == 4 {
        return data;
    }
    data.resize(count * 4, 0);
    for i in (0..count).rev() {
        let at = i * channels;
        let pixel = match channels {
            1 => [data[at], data[at], data[at], 255],
            2 => [data[at], data[at], data[at], data[at + 1]],
            _ => [data[at], data[at + 1], data[at + 2], 255],
        };
        data[i * 4..i * 4 + 4].copy_from_slice(&pixel);
    }
    data
}

/// How many times each picture of `sizes` is halved so that together they hold at most `budget`
/// pixels: the one with the most pixels first, one halving at a time, so small textures keep
/// their detail while a few large ones give way.
pub fn fit(sizes: &[(u32, u32)], budget: u64) -> Vec<u32> {
    let mut halvings = vec![0; sizes.len()];
    let pixels = |(w, h): (u32, u32), k: u32| (w >> k).max(1) as u64 * (h >> k).max(1) as u64;
    let mut total: u64 = sizes.iter().map(|&s| pixels(s, 0)).sum();
    let mut largest: BinaryHeap<(u64, usize)> =
        (sizes.iter().enumerate()).map(|(i, &s)| (pixels(s, 0), i)).collect();
    while total > budget {
        let Some((now, i)) = largest.pop() else { break };
        if now == 1 {
            break; // every picture is one pixel: nothing is left to halve
        }
        halvings[i] += 1;
        let smaller = pixels(sizes[i], halvings[i]);
        total = total - now + smaller;
        largest.push((smaller, i));
    }
    halvings
}

/// How many halvings bring `width` and `height` both to at most `side` pixels (the GPU's
/// largest texture).
pub fn fit_side(width: u32, height: u32, side: u32) -> u32 {
    let side = side.max(1);
    (0..32).find(|&k| (width >> k) <= side && (height >> k) <= side).unwrap_or(32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32, color: png::ColorType, data: &[u8]) -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, width, height);
        encoder.set_color(color);
        encoder.write_header().unwrap().write_image_data(data).unwrap();
        bytes
    }

    fn image(kind: ImageKind, bytes: Vec<u8>) -> Image {
        let (width, height) = size(kind, &bytes).unwrap();
        Image { name: "x".into(), kind, bytes, width, height }
    }

    #[test]
    fn a_png_written_here_decodes_to_its_own_pixels() {
        let bytes = png(2, 1, png::ColorType::Rgb, &[255, 0, 0, 0, 0, 255]);
        assert_eq!(ImageKind::of(&bytes), Some(ImageKind::Png));
        let pixels = decode(&image(ImageKind::Png, bytes)).unwrap();
        assert_eq!((pixels.width, pixels.height), (2, 1));
        assert_eq!(pixels.rgba, [255, 0, 0, 255, 0, 0, 255, 255]);
        // Grey, and grey with alpha, become RGBA in place.
        let grey = decode(&image(ImageKind::Png, png(2, 1, png::ColorType::Grayscale, &[7, 9]))).unwrap();
        assert_eq!(grey.rgba, [7, 7, 7, 255, 9, 9, 9, 255]);
        let alpha = png(1, 1, png::ColorType::GrayscaleAlpha, &[7, 100]);
        assert_eq!(decode(&image(ImageKind::Png, alpha)).unwrap().rgba, [7, 7, 7, 100]);
    }

    #[test]
    fn a_jpeg_decodes_to_its_colour() {
        // 16 x 16 pixels of one blue, saved as JPEG by Blender (crates/formats/tests/data/blue.jpg).
        let bytes = include_bytes!("../../tests/data/blue.jpg").to_vec();
        assert_eq!(ImageKind::of(&bytes), Some(ImageKind::Jpeg));
        assert_eq!(size(ImageKind::Jpeg, &bytes), Ok((16, 16)));
        let pixels = decode(&image(ImageKind::Jpeg, bytes)).unwrap();
        assert_eq!((pixels.width, pixels.height, pixels.rgba.len()), (16, 16, 16 * 16 * 4));
        for p in pixels.rgba.chunks_exact(4) {
            assert!(p[2] > 200 && p[0] < 120 && p[3] == 255, "{p:?}");
        }
    }

    #[test]
    fn damaged_cut_and_empty_images_are_errors() {
        assert!(size(ImageKind::Png, b"\x89PNG\r\n\x1a\nnope").is_err());
        assert!(size(ImageKind::Jpeg, &[0xFF, 0xD8, 0xFF, 0, 1, 2]).is_err());
        assert_eq!(ImageKind::of(b"GIF89a"), None);
        // A PNG cut in its pixel data: its header reads, its pixels do not.
        let mut cut = png(64, 64, png::ColorType::Rgb, &[90; 64 * 64 * 3]);
        cut.truncate(cut.len() - 20);
        let cut = Image { name: "cut".into(), kind: ImageKind::Png, bytes: cut, width: 64, height: 64 };
        assert!(decode(&cut).is_err());
        // The Blender JPEG cut in its scan data: strict, an error, not a grey picture.
        let blue = include_bytes!("../../tests/data/blue.jpg");
        let cut = Image {
            name: "cut".into(),
            kind: ImageKind::Jpeg,
            bytes: blue[..blue.len() - 40].to_vec(),
            width: 16,
            height: 16,
        };
        assert!(decode(&cut).is_err());
    }

    #[test]
    fn a_png_decoded_smaller_row_by_row_is_the_whole_picture_made_smaller() {
        // Every colour type the decoder hands over (grey, grey and alpha, RGB, RGBA), odd sizes.
        let (w, h) = (13, 7);
        let bytes = |channels: usize| (0..w * h * channels).map(|i| (i * 37 % 256) as u8).collect::<Vec<_>>();
        for (color, channels) in [
            (png::ColorType::Grayscale, 1),
            (png::ColorType::GrayscaleAlpha, 2),
            (png::ColorType::Rgb, 3),
            (png::ColorType::Rgba, 4),
        ] {
            let image = image(ImageKind::Png, png(w as u32, h as u32, color, &bytes(channels)));
            let whole = decode(&image).unwrap();
            for halvings in 0..5 {
                let rows = decode_smaller(&image, halvings).unwrap();
                assert_eq!(rows, smaller(&whole, halvings).unwrap(), "{color:?}, {halvings}");
            }
        }
        // Cut in its pixel data: an error, as whole.
        let mut cut = png(64, 64, png::ColorType::Rgb, &[90; 64 * 64 * 3]);
        cut.truncate(cut.len() - 20);
        let cut = Image { name: "cut".into(), kind: ImageKind::Png, bytes: cut, width: 64, height: 64 };
        assert!(decode_smaller(&cut, 2).is_err());
    }

    #[test]
    fn fitting_a_budget_halves_the_largest_first() {
        // Four 8192 x 8192 pictures in a budget of one: each once (a quarter of its pixels).
        assert_eq!(fit(&[(8192, 8192); 4], 8192 * 8192), [1, 1, 1, 1]);
        // One large and ten small: the large one gives way, the small keep their detail.
        let mut sizes = vec![(8192, 8192)];
        sizes.extend([(256, 256); 10]);
        let halvings = fit(&sizes, 8192 * 8192);
        assert_eq!(halvings[0], 1);
        assert!(halvings[1..].iter().all(|&k| k == 0), "{halvings:?}");
        // Within the budget: nothing changes.
        assert_eq!(fit(&[(100, 100), (5, 5)], 1 << 20), [0, 0]);
        // Only the side: 100000 x 1 is three halvings from 16384.
        assert_eq!(fit_side(100_000, 1, 16384), 3);
        assert_eq!(fit_side(1, 20_000, 16384), 1);
        assert_eq!(fit_side(16384, 16384, 16384), 0);
    }
}
