//! A mesh's shader, read as the material this program draws: a picture beside the model, or a
//! colour.
//!
//! Doom 3 names a material in its `.mtr` files (`models/characters/imp/imp`), which MD5 files do
//! not carry. Many exporters write a texture's file name instead (`guard1_body.png`), others a bare
//! name whose picture sits beside the mesh (`"Body"` and `Body.png`), and this program's exporter
//! writes a file name, or a colour (`md5_export/shaders.rs`). So a shader is read as:
//! - **a picture file** when it ends in `.png`, `.jpg`, `.jpeg` or `.tga` (PNG, JPEG or TGA:
//!   `material/tga.rs`): looked for as the path it gives, relative to the model's folder, then by
//!   its file name alone beside the model (the folder a shader written on another machine names
//!   is not here). A file that cannot be had is said once, and its mesh drawn without it.
//! - **a colour** when it ends in `rgba R G B A`, each number 0 to 1: a material of that base
//!   colour, named by what comes before.
//! - anything else, **a name**: its last part (`imp` of `models/characters/imp/imp`) is looked
//!   for beside the model as `NAME.png`, `NAME.jpg`, `NAME.jpeg`, then `NAME.tga`, in any letter
//!   case, as engines find them; with none there, a plain mesh (a Doom 3 material's name need
//!   name no picture). Where the files are looked for, and how they are read, is `pictures.rs`.
//!
//! A picture file must lie inside the model's folder (`model_folder.rs`), be a regular file, and
//! fit the model's budget of image bytes (`budget.rs`); one file named by several meshes is read
//! once.

use super::pictures::{EXTENSIONS, Pictures, Source, find, find_bare, image};
use crate::budget::{self, Budget};
use crate::material::{self, Material, Materials, Run};
use glam::Vec4;
use skinning_method::printable::{printable, quoted};
use std::collections::HashMap;
use std::ops::Range;
use std::path::PathBuf;

/// The names the pictures of `shaders` may go by, paths from the model's folder: each picture's
/// path as its shader gives it, where that is relative, then its file name alone; for a bare name,
/// `NAME.png` ... `NAME.tga`, their extensions in small and capital letters. A page that can only
/// ask for files by name fetches these.
pub fn named(shaders: &[&str]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut add = |name: String| {
        if !names.contains(&name) {
            names.push(name);
        }
    };
    for &shader in shaders {
        match (picture(shader), bare(shader)) {
            (Some(file), _) => {
                if relative(shader, file) {
                    add(shader.to_string());
                }
                add(file.to_string());
            }
            (None, Some(name)) => {
                for extension in EXTENSIONS {
                    add(format!("{name}.{extension}"));
                    add(format!("{name}.{}", extension.to_ascii_uppercase()));
                }
            }
            (None, None) => {}
        }
    }
    names
}

/// The materials of a model's meshes, and what they came from.
pub struct Found {
    pub materials: Materials,
    /// The image files read from disk.
    pub files: Vec<PathBuf>,
    /// Whether each mesh's shader gave it a material (a picture, or a colour).
    pub drawn: Vec<bool>,
}

/// The materials the meshes' `shaders` name, each mesh's over its run of the model's triangles
/// (`triangles[m]`), their pictures from `pictures`.
pub fn materials(
    shaders: &[&str],
    triangles: &[Range<usize>],
    pictures: Pictures,
    notes: &mut Vec<String>,
) -> Found {
    let mut materials = Materials::default();
    let mut read: HashMap<PathBuf, Option<usize>> = HashMap::new();
    let mut bytes = Budget::new("image bytes", budget::IMAGE_BYTES);
    let mut drawn = Vec::with_capacity(shaders.len());
    for (m, (&shader, run)) in shaders.iter().zip(triangles).enumerate() {
        let material = if let Some((name, base_color)) = colour(shader) {
            Some(Material { name: printable(&name).into_owned(), base_color, ..Material::default() })
        } else {
            let mut unread = |why: String| {
                notes.push(format!("mesh {m}'s shader {}: {why}; drawn without its texture", quoted(shader)))
            };
            let source = match (picture(shader), bare(shader)) {
                (Some(file), _) => {
                    find(pictures, shader, relative(shader, file), file).map_err(&mut unread).ok()
                }
                // A bare name with no picture beside it is a plain mesh, said nowhere but --info.
                (None, Some(name)) => find_bare(pictures, name),
                (None, None) => None,
            };
            let mut texture = None;
            if let Some(Source { path, file, given }) = &source {
                texture = match read.get(path) {
                    Some(&known) => known,
                    None => {
                        let kept = image(path, file, *given, &mut bytes, &mut materials.images)
                            .map_err(&mut unread)
                            .ok();
                        read.insert(path.clone(), kept);
                        kept
                    }
                };
            }
            (source.zip(texture)).map(|(source, t)| Material {
                name: printable(&source.file).into_owned(),
                texture: Some(t),
                ..Material::default()
            })
        };
        drawn.push(material.is_some());
        if let Some(material) = material {
            materials.list.push(material);
            materials.runs.push(Run { triangles: run.clone(), material: Some(materials.list.len() - 1) });
        }
    }
    notes.extend(material::past_pixel_budget(&materials.images, materials.pixel_budget));
    let on_disk = matches!(pictures, Pictures::Folder(_));
    let files =
        read.into_iter().filter(|(_, kept)| on_disk && kept.is_some()).map(|(path, _)| path).collect();
    Found { materials, files, drawn }
}

/// The name and the colour of a shader ending in `rgba R G B A`, each number 0 to 1.
fn colour(shader: &str) -> Option<(String, Vec4)> {
    let words: Vec<&str> = shader.split_whitespace().collect();
    let [ref name @ .., rgba, r, g, b, a] = words[..] else { return None };
    let numbers: Vec<f32> = [r, g, b, a].iter().map(|n| n.parse::<f32>().ok()).collect::<Option<_>>()?;
    let inside = numbers.iter().all(|n| (0.0..=1.0).contains(n));
    (rgba == "rgba" && inside).then(|| (name.join(" "), Vec4::from_slice(&numbers)))
}

/// The file name of a shader that names a picture file (after its last `/` or `\`).
fn picture(shader: &str) -> Option<&str> {
    let file = last_part(shader);
    let extension = std::path::Path::new(file).extension()?.to_ascii_lowercase();
    EXTENSIONS.contains(&extension.to_str()?).then_some(file)
}

/// The name a shader that is neither a picture file nor a colour gives its picture: its last
/// part, if that is a plain file name (no spaces, not `.` or `..`).
fn bare(shader: &str) -> Option<&str> {
    let name = last_part(shader);
    let plain = !name.is_empty() && name != "." && name != ".." && !name.contains(char::is_whitespace);
    (plain && colour(shader).is_none() && picture(shader).is_none()).then_some(name)
}

/// What comes after a shader's last `/` or `\`.
fn last_part(shader: &str) -> &str {
    shader.rsplit(['/', '\\']).next().unwrap_or(shader)
}

/// Whether a shader gives its picture's path relative to the model's folder (not only a name).
fn relative(shader: &str, file: &str) -> bool {
    !shader.contains(['\\', ':']) && !shader.starts_with('/') && shader != file
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
        assert_eq!(picture("guard1_body.TGA"), Some("guard1_body.TGA"));
        assert_eq!(bare("models/characters/imp/imp"), Some("imp"));
        assert_eq!(
            (bare("Body"), bare("guard1_body.tga"), bare("Main rgba 1 0 0 1")),
            (Some("Body"), None, None)
        );
    }

    #[test]
    fn handed_over_pictures_are_found_by_the_names_a_page_asks_for() {
        let shaders = ["textures/skin.png", "body rgba 1 0 0 1", "models/imp", "f:\\art\\face.jpg"];
        let imp = ["imp.png", "imp.PNG", "imp.jpg", "imp.JPG", "imp.jpeg", "imp.JPEG", "imp.tga", "imp.TGA"];
        let mut names = vec!["textures/skin.png", "skin.png"];
        names.extend(imp);
        names.push("face.jpg");
        assert_eq!(named(&shaders), names);
        // A 1 x 1 PNG, handed over by its file name alone (a dropped file has no folder).
        let png = include_bytes!("../../tests/data/one-pixel.png").to_vec();
        let given = [("skin.png".to_string(), png)];
        let mut notes = Vec::new();
        let runs = [0..1, 1..2, 2..3, 3..4];
        let Found { materials, files: read, drawn } =
            materials(&shaders, &runs, Pictures::Given(&given), &mut notes);
        assert_eq!(drawn, [true, true, false, false], "the picture, the colour; no imp, no face");
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
