//! Images: the pictures the materials' textures show (spec, "Images"), each read once per source
//! and kept within the model's budgets (`budget.rs`).
//!
//! An image's bytes are in a buffer view of the file (then it must say its `mimeType`), in a
//! `data:` URI, or in a file beside the model inside its folder, by the same rules as a buffer's
//! files (`buffers.rs`, `model_folder.rs`). Its JSON is read here, not through the `gltf` crate,
//! whose `Image::source` panics on an image with a buffer view and no `mimeType`, or with neither
//! a `uri` nor a buffer view. The first is read by its bytes, with a note; the second, and one
//! that names both places, is drawn without, with a note.
//!
//! Many images may name one source: the same bytes of a buffer, one `data:` URI, one file (found
//! by where its path leads). The source is read once, and each of them is the same image; its
//! bytes are spent from the model's budget of image bytes once. Its size is read from its header
//! (no pixel is decoded here); the sizes of all the images kept are spent from the budget of
//! pixels when the model is drawn (`material::fit`), so loading says here what drawing will do.

use super::buffers::{Located, locate, read};
use crate::budget::{self, Budget};
use crate::material::{self, Image, ImageKind};
use crate::model_folder::Beside;
use gltf::json;
use skinning_method::printable::printable;
use std::collections::HashMap;
use std::path::PathBuf;

/// Where an image's bytes are, as the model's images are told apart: two images that name the
/// same bytes, however, are one source.
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
enum Source<'u> {
    View { buffer: usize, start: usize, end: usize },
    Data(&'u str),
    File(PathBuf),
    Given(&'u [u8]),
}

/// The images read so far, and what is spent of the model's budget of image bytes.
pub struct Images<'a> {
    root: &'a json::Root,
    buffers: &'a [Vec<u8>],
    beside: Beside<'a>,
    /// glTF image i is `kept[of_image[i]]`, or cannot be shown (Some(None)); None: not read yet.
    of_image: Vec<Option<Option<usize>>>,
    of_source: HashMap<Source<'a>, Option<usize>>,
    bytes: Budget,
    /// The images past the budget of bytes: the first one's message, and how many.
    past: (Option<String>, usize),
    pub kept: Vec<Image>,
}

impl<'a> Images<'a> {
    pub fn new(root: &'a json::Root, buffers: &'a [Vec<u8>], beside: Beside<'a>) -> Images<'a> {
        Images {
            root,
            buffers,
            beside,
            of_image: vec![None; root.images.len()],
            of_source: HashMap::new(),
            bytes: Budget::new("image bytes", budget::IMAGE_BYTES),
            past: (None, 0),
            kept: Vec::new(),
        }
    }

    /// The kept image glTF image `index` is, read the first time it is asked for; None if it
    /// cannot be shown, said once in `notes`.
    pub fn get(&mut self, index: usize, notes: &mut Vec<String>) -> Option<usize> {
        if let Some(known) = self.of_image.get(index).copied().flatten() {
            return known;
        }
        let kept = match self.source(index, notes) {
            Ok(source) => match self.of_source.get(&source) {
                Some(&known) => known,
                None => {
                    let read = self.read(index, &source, notes);
                    self.of_source.insert(source, read);
                    read
                }
            },
            Err(why) => {
                notes.push(format!("image {index}: {why}; drawn without its texture"));
                None
            }
        };
        if let Some(slot) = self.of_image.get_mut(index) {
            *slot = Some(kept);
        }
        kept
    }

    /// Where image `index`'s bytes are, from its JSON; a buffer view without `mimeType` is noted.
    fn source(&self, index: usize, notes: &mut Vec<String>) -> Result<Source<'a>, String> {
        let image = self.root.images.get(index).ok_or("it does not exist")?;
        match (&image.uri, &image.buffer_view) {
            (Some(_), Some(_)) => Err("it names both a uri and a bufferView (glTF: one or the other)".into()),
            (None, None) => Err("it names neither a uri nor a bufferView, so its bytes are nowhere".into()),
            (None, Some(view)) => {
                if image.mime_type.is_none() {
                    notes.push(format!(
                        "image {index} has a bufferView and no mimeType (glTF requires one there); \
                         read as what its first bytes say it is"
                    ));
                }
                let view = self.root.buffer_views.get(view.value()).ok_or("its bufferView does not exist")?;
                let start = view.byte_offset.map_or(0, |o| o.0 as usize);
                let end = start.saturating_add(view.byte_length.0 as usize);
                Ok(Source::View { buffer: view.buffer.value(), start, end })
            }
            (Some(uri), None) => match locate(uri, self.beside)? {
                Located::Data(encoded) => Ok(Source::Data(encoded)),
                Located::File { path, .. } => Ok(Source::File(path)),
                Located::Given(bytes) => Ok(Source::Given(bytes)),
            },
        }
    }

    /// Reads a source not read before, within the budget of image bytes, and keeps it if it is a
    /// PNG or JPEG whose header reads; else None, said once in `notes`.
    fn read(&mut self, index: usize, source: &Source, notes: &mut Vec<String>) -> Option<usize> {
        match self.bytes_of(source) {
            Ok(bytes) => match kept(self.root, index, bytes) {
                Ok(image) => {
                    self.kept.push(image);
                    Some(self.kept.len() - 1)
                }
                Err(why) => {
                    notes.push(format!("image {index}: {why}; drawn without its texture"));
                    None
                }
            },
            Err(Spent::Past(why)) => {
                self.past.0.get_or_insert(format!("image {index}: its {why}"));
                self.past.1 += 1;
                None
            }
            Err(Spent::Unreadable(why)) => {
                notes.push(format!("image {index}: {why}; drawn without its texture"));
                None
            }
        }
    }

    /// A source's bytes, spent from the budget before they are copied or read.
    fn bytes_of(&mut self, source: &Source) -> Result<Vec<u8>, Spent> {
        match source {
            Source::View { buffer, start, end } => {
                let bytes = (self.buffers.get(*buffer))
                    .and_then(|b| b.get(*start..*end))
                    .ok_or(Spent::Unreadable("its buffer view runs past its buffer".into()))?;
                self.bytes.spend(bytes.len() as u64).map_err(Spent::Past)?;
                Ok(bytes.to_vec())
            }
            Source::Data(encoded) => {
                let bytes = read(&Located::Data(encoded), 0).map_err(Spent::Unreadable)?;
                self.bytes.spend(bytes.len() as u64).map_err(Spent::Past)?;
                Ok(bytes)
            }
            Source::Given(bytes) => {
                self.bytes.spend(bytes.len() as u64).map_err(Spent::Past)?;
                Ok(bytes.to_vec())
            }
            Source::File(path) => {
                let shown = printable(&path.display().to_string()).into_owned();
                let size = std::fs::metadata(path)
                    .map_err(|e| Spent::Unreadable(format!("cannot read {shown} ({e})")))?
                    .len();
                self.bytes.spend(size).map_err(Spent::Past)?;
                let file = Located::File { path: path.clone(), shown, size };
                read(&file, size as usize).map_err(Spent::Unreadable)
            }
        }
    }

    /// The images kept; the notes say which were past the budget of bytes, and which will be
    /// drawn smaller to fit the budget of `pixels`.
    pub fn finish(self, pixels: u64, notes: &mut Vec<String>) -> Vec<Image> {
        if let (Some(first), n) = self.past {
            let more = match n - 1 {
                0 => String::new(),
                more => format!(", and so are {more} more images past it"),
            };
            notes.push(format!("{first}; drawn without its texture{more}"));
        }
        notes.extend(material::past_pixel_budget(&self.kept, pixels));
        self.kept
    }
}

/// Why a source's bytes were not had: past the budget (said once for all), or unreadable.
enum Spent {
    Past(String),
    Unreadable(String),
}

/// An image from its bytes: PNG or JPEG by its first bytes, its size from its header.
fn kept(root: &json::Root, index: usize, bytes: Vec<u8>) -> Result<Image, String> {
    let kind = ImageKind::of(&bytes).ok_or("it is neither a PNG nor a JPEG")?;
    let (width, height) = material::size(kind, &bytes)?;
    let name = root.images.get(index).and_then(|i| i.name.as_deref()).unwrap_or("");
    Ok(Image { name: printable(name).into_owned(), kind, bytes, width, height })
}
