//! Each mesh's material, kept in its shader: the file name of its texture, written beside the
//! model, or its colour. `md5_import/shaders.rs` reads both back.
//!
//! An MD5 mesh names one shader, which Doom 3 looks up in its `.mtr` files and other programs
//! mostly read as a picture's file name. So:
//! - a part whose material has a texture gets the picture's file name (`fox_material.png`), and
//!   the picture's own bytes are written beside the `.md5mesh` under it; the file is named after
//!   the image, else its material, made safe as a clip's file is (`names.rs`), with the extension
//!   its kind takes. (The colour a texture is multiplied by is not kept.)
//! - a part whose material has a colour alone gets `NAME rgba R G B A`: the material's name (its
//!   spaces made `_`), then the linear base colour, each number shortest.
//! - a part without a material keeps its own name, as before.
//!
//! MD5 gives a mesh one shader: a part whose triangles take several materials is written as one
//! mesh per material (`pieces.rs`), each with its own.

use super::names::file_stem;
use super::pieces::Piece;
use super::text::number;
use crate::material::{ImageKind, Looks};
use skinning_method::model::Model;
use std::collections::HashSet;

/// The shaders of a model's MD5 meshes, and the pictures they name.
pub struct Shaders {
    /// Piece `i`'s shader (`pieces.rs`).
    pub of_piece: Vec<String>,
    /// Each picture to write beside the `.md5mesh`: its file name, and which image it is.
    pub pictures: Vec<(String, usize)>,
}

/// Each piece's shader, from its material; a piece without one keeps its part's name.
pub fn shaders(model: &Model, looks: &Looks, pieces: &[Piece]) -> Shaders {
    let materials = &looks.materials;
    let mut out = Shaders { of_piece: Vec::new(), pictures: Vec::new() };
    // Image i goes out once, as file_of[i].
    let mut file_of: Vec<Option<String>> = vec![None; materials.images.len()];
    let mut taken = HashSet::new();
    for piece in pieces {
        let Some(material) = piece.material.and_then(|m| materials.list.get(m)) else {
            out.of_piece.push(model.parts[piece.part].name.clone());
            continue;
        };
        let shader = match material.texture.filter(|&i| i < materials.images.len()) {
            Some(i) => file_of[i]
                .get_or_insert_with(|| {
                    let image = &materials.images[i];
                    let named = [&image.name, &material.name].into_iter().find(|n| !n.is_empty());
                    let stem = named.map_or("texture", |n| without_extension(n));
                    let extension = match image.kind {
                        ImageKind::Png => "png",
                        ImageKind::Jpeg => "jpg",
                        ImageKind::Tga => "tga",
                    };
                    let file = format!("{}.{extension}", file_stem(stem, &mut taken));
                    out.pictures.push((file.clone(), i));
                    file
                })
                .clone(),
            None => {
                let name: String = material
                    .name
                    .chars()
                    .map(|c| if c.is_whitespace() || c == '"' || c.is_control() { '_' } else { c })
                    .collect();
                let [r, g, b, a] = material.base_color.to_array().map(|x| number(x, "").unwrap_or_default());
                format!("{} rgba {r} {g} {b} {a}", if name.is_empty() { "colour" } else { &name })
            }
        };
        out.of_piece.push(shader);
    }
    out
}

/// A name without the extension of a picture it may end in (`fox.png` → `fox`).
fn without_extension(name: &str) -> &str {
    let lower = name.to_ascii_lowercase();
    [".png", ".jpg", ".jpeg", ".tga"]
        .iter()
        .find(|e| lower.ends_with(*e))
        .map_or(name, |e| &name[..name.len() - e.len()])
}
