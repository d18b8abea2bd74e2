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

/// Where the pictures the shaders name are looked for.
#[derive(Clone, Copy, Debug)]
pub enum Pictures<'a> {
    /// Nowhere: no picture is read (a model from its texts alone).
    None,
    /// The model's folder, on disk.
    Folder(&'a Path),
    /// Files handed over by name, each a path from the model's folder (as [`named`] gives them),
    /// with their bytes: what a web page fetched from beside the model.
    Given(&'a [(String, Vec<u8>)]),
}

/// The names the pictures of `shaders` may go by, paths from the model's folder: each picture's
/// path as its shader gives it, where that is relative, then its file name alone. A page that can
/// only ask for files by name fetches these.
pub fn named(shaders: &[&str]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for &shader in shaders {
        let Some(file) = picture(shader) else { continue };
        for name in [relative(shader, file).then_some(shader), Some(file)].into_iter().flatten() {
            if !names.iter().any(|n| n == name) {
                names.push(name.to_string());
            }
        }
    }
    names
}

/// The materials the meshes' `shaders` name, each mesh's over its run of the model's triangles
/// (`triangles[m]`), their pictures from `pictures`. Also the image files read from disk.
pub fn materials(
    shaders: &[&str],
    triangles: &[Range<usize>],
    pictures: Pictures,
    notes: &mut Vec<String>,
) -> (Materials, Vec<PathBuf>) {
    let mut materials = Materials::default();
    let mut read: HashMap<PathBuf, Option<usize>> = HashMap::new();
    let mut bytes = Budget::new("image bytes", budget::IMAGE_BYTES);
    for (m, (&shader, run)) in shaders.iter().zip(triangles).enumerate() {
        let material = if let Some((name, base_color)) = colour(shader) {
            Some(Material { name: printable(&name).into_owned(), base_color, ..Material::default() })
        } else if let (Some(file), false) = (picture(shader), matches!(pictures, Pictures::None)) {
            let texture = match find(pictures, shader, file) {
                Ok((path, given)) => match read.get(&path) {
                    Some(&known) => known,
                    None => {
                        let image = match given {
                            Some(data) => image_of(data.to_vec(), file, &mut bytes, &mut materials.images),
                            None => image(&path, file, &mut bytes, &mut materials.images),
                        };
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
    notes.extend(material::past_pixel_budget(&materials.images, materials.pixel_budget));
    let on_disk = matches!(pictures, Pictures::Folder(_));
    let files =
        read.into_iter().filter(|(_, kept)| on_disk && kept.is_some()).map(|(path, _)| path).collect();
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

/// Whether a shader gives its picture's path relative to the model's folder (not only a name).
fn relative(shader: &str, file: &str) -> bool {
    !shader.contains(['\\', ':']) && !shader.starts_with('/') && shader != file
}

/// Where the shader's picture is: the path it gives, relative to the model's folder, else its file
/// name beside the model; with its bytes where they were handed over; or why neither will do.
fn find<'a>(pictures: Pictures<'a>, shader: &str, file: &str) -> Result<(PathBuf, Option<&'a [u8]>), String> {
    let names = [relative(shader, file).then_some(shader), Some(file)];
    let mut outside = false;
    for name in names.into_iter().flatten() {
        match pictures {
            Pictures::None => {}
            Pictures::Folder(folder) => match inside(folder, Path::new(name)) {
                Ok(path) => return Ok((path, None)),
                Err(Refused::Outside) => outside = true,
                Err(Refused::Unreadable(_)) => {}
            },
            Pictures::Given(files) => {
                if let Some((_, data)) = files.iter().find(|(n, _)| n == name) {
                    return Ok((PathBuf::from(name), Some(data)));
                }
            }
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
    picture_of(data, file, images)
}

/// A picture handed over as `data`, within the budget of image bytes, into `images`.
fn image_of(data: Vec<u8>, file: &str, bytes: &mut Budget, images: &mut Vec<Image>) -> Result<usize, String> {
    bytes.spend(data.len() as u64).map_err(|why| format!("its {why}"))?;
    picture_of(data, file, images)
}

/// `data`, a PNG or JPEG file, as the model's next image (its size read from its header).
fn picture_of(data: Vec<u8>, file: &str, images: &mut Vec<Image>) -> Result<usize, String> {
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

    #[test]
    fn handed_over_pictures_are_found_by_the_names_a_page_asks_for() {
        let shaders = ["textures/skin.png", "body rgba 1 0 0 1", "models/imp", "f:\\art\\face.jpg"];
        assert_eq!(named(&shaders), ["textures/skin.png", "skin.png", "face.jpg"]);
        // A 1 x 1 PNG, handed over by its file name alone (a dropped file has no folder).
        let png = include_bytes!("../../tests/data/one-pixel.png").to_vec();
        let given = [("skin.png".to_string(), png)];
        let mut notes = Vec::new();
        let runs = [0..1, 1..2, 2..3, 3..4];
        let (materials, read) = materials(&shaders, &runs, Pictures::Given(&given), &mut notes);
        assert_eq!(materials.images.len(), 1, "{notes:?}");
        assert_eq!((materials.images[0].width, materials.images[0].height), (1, 1));
        assert!(read.is_empty(), "nothing was read from disk");
        // The face's picture was not handed over: said once, its mesh drawn plain.
        assert_eq!(
            notes,
            [
                "mesh 3's shader \"f:\\art\\face.jpg\": no file \"face.jpg\" beside the model; drawn without its texture"
            ]
        );
    }
}
