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
//! A part whose triangles take several materials is written with its first one's: MD5 gives a mesh
//! one shader. That is said once ([`Shaders::notes`]).

use super::names::file_stem;
use super::text::number;
use crate::material::{ImageKind, Looks};
use skinning_method::model::Model;
use skinning_method::printable::quoted;
use std::collections::HashSet;

/// The shaders of a model's parts, and the pictures they name.
pub struct Shaders {
    /// Part `p`'s shader.
    pub of_part: Vec<String>,
    /// Each picture to write beside the `.md5mesh`: its file name, and which image it is.
    pub pictures: Vec<(String, usize)>,
    /// What could not be kept, one line each.
    pub notes: Vec<String>,
}

/// Each part's shader, from its first triangle's material.
pub fn shaders(model: &Model, looks: &Looks) -> Shaders {
    let materials = &looks.materials;
    let mut out = Shaders { of_part: Vec::new(), pictures: Vec::new(), notes: Vec::new() };
    // Image i goes out once, as file_of[i].
    let mut file_of: Vec<Option<String>> = vec![None; materials.images.len()];
    let mut taken = HashSet::new();
    // The materials each part's triangles take, in the order they first come: one pass over the
    // runs, a triangle's part found from its first corner.
    let mut used: Vec<Vec<usize>> = vec![Vec::new(); model.parts.len()];
    for run in &materials.runs {
        let Some(m) = run.material.filter(|&m| m < materials.list.len()) else { continue };
        for corners in model.triangles.get(run.triangles.clone()).unwrap_or_default() {
            let p = model.parts.partition_point(|p| p.vertices.end <= corners[0] as usize);
            if let Some(used) = used.get_mut(p).filter(|u| !u.contains(&m)) {
                used.push(m);
            }
        }
    }
    for (part, used) in model.parts.iter().zip(&used) {
        let Some(&first) = used.first() else {
            out.of_part.push(part.name.clone());
            continue;
        };
        let material = &materials.list[first];
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
        if used.len() > 1 {
            out.notes.push(format!(
                "MD5 gives a mesh one shader: mesh {}'s triangles of {} materials are all written with its first, {}",
                quoted(&part.name),
                used.len(),
                quoted(&shader)
            ));
        }
        out.of_part.push(shader);
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
