//! The materials, out as glTF's: each one's base colour factor, and its texture, the image file's
//! own bytes in a buffer view of the file (spec, "Images": PNG or JPEG, with its `mimeType`); a
//! TGA (an MD5 model's), which glTF cannot hold, as a PNG of its pixels.
//!
//! This program keeps a material's base colour and nothing else of it, so the rest is written as
//! a plain surface: not metal (`metallicFactor` 0, where glTF's default is 1, a metal), fully
//! rough. The material's index is the same as in the model, so a primitive names it as it is.

use super::buffer::{File, push};
use super::json::{Image, Material, Pbr, Texture, TextureInfo};
use crate::material::Looks;

/// Every material of `model`, and the images its textures use.
pub fn materials(file: &mut File, looks: &Looks) {
    let materials = &looks.materials;
    // Image i is written once, the first time a material uses it, as texture texture_of[i].
    let mut texture_of: Vec<Option<usize>> = vec![None; materials.images.len()];
    for material in &materials.list {
        let texture = material.texture.filter(|&i| i < materials.images.len()).map(|i| {
            *texture_of[i].get_or_insert_with(|| {
                let image = &materials.images[i];
                let (bytes, mime_type) = match image.kind.mime_type() {
                    Some(mime_type) => (std::borrow::Cow::Borrowed(&image.bytes[..]), mime_type),
                    None => (std::borrow::Cow::Owned(as_png(image)), "image/png"),
                };
                let buffer_view = file.bytes_view(&bytes);
                let source =
                    push(&mut file.root.images, Image { name: image.name.clone(), buffer_view, mime_type });
                push(&mut file.root.textures, Texture { source })
            })
        });
        let pbr = Pbr {
            base_color_factor: material.base_color.to_array(),
            base_color_texture: texture.map(|index| TextureInfo { index }),
            metallic_factor: 0.0,
            roughness_factor: 1.0,
        };
        let (alpha_mode, alpha_cutoff) = match material.alpha_cutoff {
            Some(cutoff) => (Some("MASK"), Some(cutoff)),
            None => (None, None),
        };
        let name = material.name.clone();
        file.root.materials.push(Material { name, pbr_metallic_roughness: pbr, alpha_mode, alpha_cutoff });
    }
}

/// A TGA's pixels as a PNG file. Its header was read when it was loaded; data that then does not
/// decode is written as one grey pixel, and the material keeps its colour.
fn as_png(image: &crate::material::Image) -> Vec<u8> {
    let (width, height, rgba) = match crate::material::decode(image) {
        Ok(pixels) => (pixels.width, pixels.height, pixels.rgba),
        Err(_) => (1, 1, vec![128, 128, 128, 255]),
    };
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    // Into memory, of a size and length that agree: writing cannot fail.
    if let Ok(mut writer) = encoder.write_header() {
        let _ = writer.write_image_data(&rgba);
    }
    bytes
}
