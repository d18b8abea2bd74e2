//! A mesh's shader, read as the material this program draws: a picture beside the model, or a
//! colour.
//!
//! Doom 3 names a material in its `.mtr` files (`models/characters/imp/imp`), which MD5 files do
//! not carry. Many exporters write a texture's file name instead (`guard1_body.png`), and this
//! program's exporter writes one, or a colour (`md5_export/shaders.rs`). So a shader is read as:
//! - **a PNG or JPEG file** when it ends in `.png`, `.jpg` or `.jpeg`: looked for as the path it
//!   gives, relative to the model's folder, then by its file name alone beside the model (the
//!   folder a shader written on another machine names is not here). The file must lie inside the
//!   model's folder (`model_folder.rs`), be a regular file, and fit the model's budget of image
//!   bytes (`budget.rs`); one file named by several meshes is read once. A file that cannot be had
//!   is said once, and its mesh drawn without it.
//! - **a colour** when it ends in `rgba R G B A`, each number 0 to 1: a material of that base
//!   colour, named by what comes before.
//! - anything else: a plain mesh, as before (a Doom 3 material's name says nothing to draw).

use crate::budget::{self, Budget};
use crate::material::{self, Image, ImageKind, Material, Materials, Run};
use crate::model_folder::{Refused, inside};
use glam::Vec4;
use skinning_method::printable::{printable, quoted};
use std::collections::HashMap;
use std::io::Read;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The materials the meshes' `shaders` name, each mesh's over its run of the model's triangles
/// (`triangles[m]`); `folder`, the model's (None: no file is read). Also the image files read.
pub fn materials(
    shaders: &[&str],
    triangles: &[Range<usize>],
    folder: Option<&Path>,
    notes: &mut Vec<String>,
) -> (Materials, Vec<PathBuf>) {
    let mut materials = Materials::default();
    let mut read: HashMap<PathBuf, Option<usize>> = HashMap::new();
    let mut bytes = Budget::new("image bytes", budget::IMAGE_BYTES);
    for (m, (&shader, run)) in shaders.iter().zip(triangles).enumerate() {
        let material = if let Some((name, base_color)) = colour(shader) {
            Some(Material { name: printable(&name).into_owned(), base_color, ..Material::default() })
        } else if let (Some(file), Some(folder)) = (picture(shader), folder) {
            let texture = match find(folder, shader, file) {
                Ok(path) => match read.get(&path) {
                    Some(&known) => known,
                    None => {
                        let image = image(&path, file, &mut bytes, &mut materials.images);
                        let kept = image
                            .map_err(|why| {
                                notes.push(format!(
                                    "mesh {m}'s shader {}: {why}; drawn without its texture",
                                    quoted(shader)
                                ))
                            })
                            .ok();
                        read.insert(path, kept);
                        kept
                    }
                },
                Err(why) => {
                    notes.push(format!(
                        "mesh {m}'s shader {}: {why}; drawn without its texture",
                        quoted(shader)
                    ));
                    None
                }
            };
            texture.map(|t| Material {
                name: printable(file).into_owned(),
                texture: Some(t),
                ..Material::default()
            })
        } else {
            None
        };
        if let Some(material) = material {
            materials.list.push(material);
            materials.runs.push(Run { triangles: run.clone(), material: Some(materials.list.len() - 1) });
        }
    }
    notes.extend(material::past_pixel_budget(&materials.images));
    let files = read.into_iter().filter(|(_, kept)| kept.is_some()).map(|(path, _)| path).collect();
    (materials, files)
}

/// The name and the colour of a shader ending in `rgba R G B A`, each number 0 to 1.
fn colour(shader: &str) -> Option<(String, Vec4)> {
    let words: Vec<&str> = shader.split_whitespace().collect();
    let [ref name @ .., rgba, r, g, b, a] = words[..] else { return None };
    let numbers: Vec<f32> = [r, g, b, a].iter().map(|n| n.parse::<f32>().ok()).collect::<Option<_>>()?;
    let inside = numbers.iter().all(|n| (0.0..=1.0).contains(n));
    (rgba == "rgba" && inside).then(|| (name.join(" "), Vec4::from_slice(&numbers)))
}

/// The file name of a shader that names a PNG or JPEG file (after its last `/` or `\`).
fn picture(shader: &str) -> Option<&str> {
    let file = shader.rsplit(['/', '\\']).next().unwrap_or(shader);
    let extension = Path::new(file).extension()?.to_ascii_lowercase();
    ["png", "jpg", "jpeg"].contains(&extension.to_str()?).then_some(file)
}

/// Where the shader's picture is: the path it gives, relative to the model's folder, else its file
/// name beside the model; or why neither will do.
fn find(folder: &Path, shader: &str, file: &str) -> Result<PathBuf, String> {
    let relative = !shader.contains(['\\', ':']) && !shader.starts_with('/') && shader != file;
    let mut outside = false;
    for name in [relative.then_some(shader), Some(file)].into_iter().flatten() {
        match inside(folder, Path::new(name)) {
            Ok(path) => return Ok(path),
            Err(Refused::Outside) => outside = true,
            Err(Refused::Unreadable(_)) => {}
        }
    }
    Err(match outside {
        true => "it leads outside the model's folder, which a model may not read".into(),
        false => format!("no file {} beside the model", quoted(file)),
    })
}

/// Reads the picture at `path` (a regular file), within the budget of image bytes, into `images`.
fn image(path: &Path, file: &str, bytes: &mut Budget, images: &mut Vec<Image>) -> Result<usize, String> {
    let size = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !size.is_file() {
        return Err("it is not a regular file".into());
    }
    bytes.spend(size.len()).map_err(|why| format!("its {why}"))?;
    let mut data = Vec::new();
    let opened = std::fs::File::open(path).map_err(|e| e.to_string())?;
    // No more than its size said: a file that grows while it is read is cut there.
    opened.take(size.len()).read_to_end(&mut data).map_err(|e| e.to_string())?;
    let kind = ImageKind::of(&data).ok_or("it is neither a PNG nor a JPEG")?;
    let (width, height) = material::size(kind, &data)?;
    images.push(Image { name: printable(file).into_owned(), kind, bytes: data, width, height });
    Ok(images.len() - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shader_is_a_colour_a_picture_or_a_name() {
        assert_eq!(colour("Main rgba 0.5 0.25 0 1"), Some(("Main".into(), Vec4::new(0.5, 0.25, 0.0, 1.0))));
        assert_eq!(colour("rgba 1 1 1 1"), Some((String::new(), Vec4::ONE)));
        assert_eq!(colour("Main rgba 0.5 0.25 0 2"), None, "past 1");
        assert_eq!(colour("Main 0.5 0.25 0 1"), None, "no rgba");
        assert_eq!(picture("models/bob/guard1_body.PNG"), Some("guard1_body.PNG"));
        assert_eq!(picture("f:\\md5viewer\\guard1_face.jpg"), Some("guard1_face.jpg"));
        assert_eq!(picture("models/characters/imp/imp"), None);
        assert_eq!(picture("guard1_body.tga"), None, "a TGA is not drawn");
    }
}
