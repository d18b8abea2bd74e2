//! `--info`'s line about the surface: the materials the lit surface takes in the plain view, their
//! textures, and whether the vertices have texture coordinates (`material.rs`).

use skinning_formats::gltf_import::counted;
use skinning_formats::material::ImageKind;
use skinning_formats::material::Looks;

/// One line: `materials: 1, 1 texture (PNG), drawn ...; texture coordinates on all 1728 vertices`.
pub fn looks(looks: &Looks) -> String {
    let materials = &looks.materials;
    let kinds: Vec<&str> = (materials.images.iter())
        .map(|image| match image.kind {
            ImageKind::Png => "PNG",
            ImageKind::Jpeg => "JPEG",
            ImageKind::Tga => "TGA",
        })
        .collect();
    let textures = match kinds.is_empty() {
        true => "no texture".to_string(),
        false => format!("{} ({})", counted(kinds.len(), "texture", "textures"), kinds.join(", ")),
    };
    let surface = match materials.list.len() {
        0 => "materials: none (the lit surface is drawn in the skinned mesh's red)".to_string(),
        n => format!("materials: {n}, {textures}, drawn on the lit surface, except in the weight view"),
    };
    let texcoords = match looks.texcoords.len() {
        0 => "no texture coordinates".to_string(),
        n => format!("texture coordinates on all {}", counted(n, "vertex", "vertices")),
    };
    format!("{surface}; {texcoords}")
}
