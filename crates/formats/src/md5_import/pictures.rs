//! Where the pictures an MD5 model's shaders name are found (`shaders.rs` says how a shader names
//! one), and how each is read: on disk in the model's folder, or among files a web page was
//! handed, in both cases as a file inside the model's folder (`model_folder.rs`), within the
//! model's budget of image bytes (`budget.rs`).
//!
//! A file name is tried as it is written, then in any letter case: a model made on Windows names
//! `Body.PNG` what lies beside it as `body.png`.

use crate::budget::Budget;
use crate::material::{self, Image, ImageKind};
use crate::model_folder::{Refused, inside};
use skinning_method::printable::{printable, quoted};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The extensions of the picture files a shader may name, and a bare name is looked for with, in
/// the order they are tried.
pub const EXTENSIONS: [&str; 4] = ["png", "jpg", "jpeg", "tga"];

/// Where the pictures the shaders name are looked for: nowhere (a model from its texts alone), the
/// model's folder on disk, or files handed over by name (paths from the model's folder, as
/// `shaders::named` gives them): the same choice as a glTF file's other files (`model_folder.rs`).
pub use crate::model_folder::Beside as Pictures;

/// A picture found: where it is (the key it is read once by), its file name, and its bytes where
/// they were handed over.
pub struct Source<'a> {
    pub path: PathBuf,
    pub file: String,
    pub given: Option<&'a [u8]>,
}

/// Where the picture `file` a shader names is: the path the shader gives, relative to the model's
/// folder (if `relative`), else its file name beside the model; or why neither will do.
pub fn find<'a>(
    pictures: Pictures<'a>,
    shader: &str,
    relative: bool,
    file: &str,
) -> Result<Source<'a>, String> {
    let names = [relative.then_some(shader), Some(file)];
    let mut outside = false;
    for name in names.into_iter().flatten() {
        match one(pictures, name) {
            Ok(Some(source)) => return Ok(source),
            Ok(None) => {}
            Err(Refused::Outside) => outside = true,
            Err(Refused::Unreadable(_)) => {}
        }
    }
    Err(match outside {
        true => "it leads outside the model's folder, which a model may not read".into(),
        false => format!("no file {} beside the model", quoted(file)),
    })
}

/// The picture a bare name stands for beside the model: `NAME.png`, `NAME.jpg`, `NAME.jpeg`, then
/// `NAME.tga`, the first there.
pub fn find_bare<'a>(pictures: Pictures<'a>, name: &str) -> Option<Source<'a>> {
    EXTENSIONS.iter().find_map(|extension| one(pictures, &format!("{name}.{extension}")).ok().flatten())
}

/// The file `name` (a path from the model's folder), as written, else in any letter case.
fn one<'a>(pictures: Pictures<'a>, name: &str) -> Result<Option<Source<'a>>, Refused> {
    let file = name.rsplit(['/', '\\']).next().unwrap_or(name);
    match pictures {
        Pictures::None => Ok(None),
        Pictures::Folder(folder) => {
            let path = match inside(folder, Path::new(name)) {
                Err(Refused::Unreadable(_)) => match any_case(folder, name) {
                    Some(other) => inside(folder, &other)?,
                    None => return Ok(None),
                },
                found => found?,
            };
            let file = path.file_name().map_or(file.to_string(), |f| f.to_string_lossy().into_owned());
            Ok(Some(Source { path, file, given: None }))
        }
        Pictures::Given(files) => {
            let exact = files.iter().find(|(n, _)| n == name);
            let found = exact.or_else(|| files.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)));
            Ok(found.map(|(n, data)| Source {
                path: PathBuf::from(n),
                file: n.rsplit('/').next().unwrap_or(n).to_string(),
                given: Some(&data[..]),
            }))
        }
    }
}

/// `name`'s file in its folder under the model's `folder`, spelled in other letters' case: the
/// first entry of that folder whose name is the same but for case.
fn any_case(folder: &Path, name: &str) -> Option<PathBuf> {
    let name = Path::new(name);
    let (within, file) = (name.parent().unwrap_or(Path::new("")), name.file_name()?.to_str()?);
    let listed = if folder.as_os_str().is_empty() { Path::new(".") } else { folder }.join(within);
    let entries = std::fs::read_dir(listed).ok()?;
    let mut found: Vec<String> = (entries.filter_map(|e| e.ok()?.file_name().into_string().ok()))
        .filter(|n| n.eq_ignore_ascii_case(file))
        .collect();
    // The same one every run, whatever order the folder lists them in.
    found.sort();
    found.first().map(|n| within.join(n))
}

/// Reads the picture `file` found at `path` (its bytes `given`, or a regular file on disk), within
/// the budget of image bytes, into `images`.
pub fn image(
    path: &Path,
    file: &str,
    given: Option<&[u8]>,
    bytes: &mut Budget,
    images: &mut Vec<Image>,
) -> Result<usize, String> {
    let data = match given {
        Some(data) => {
            bytes.spend(data.len() as u64).map_err(|why| format!("its {why}"))?;
            data.to_vec()
        }
        None => {
            let size = std::fs::metadata(path).map_err(|e| e.to_string())?;
            if !size.is_file() {
                return Err("it is not a regular file".into());
            }
            bytes.spend(size.len()).map_err(|why| format!("its {why}"))?;
            let mut data = Vec::new();
            let opened = std::fs::File::open(path).map_err(|e| e.to_string())?;
            // No more than its size said: a file that grows while it is read is cut there.
            opened.take(size.len()).read_to_end(&mut data).map_err(|e| e.to_string())?;
            data
        }
    };
    let kind = ImageKind::of_file(file, &data).ok_or("it is neither a PNG, a JPEG nor a TGA")?;
    let (width, height) = material::size(kind, &data)?;
    images.push(Image { name: printable(file).into_owned(), kind, bytes: data, width, height });
    Ok(images.len() - 1)
}
