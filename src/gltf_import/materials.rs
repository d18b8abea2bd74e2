//! What the surface looks like: each primitive's `TEXCOORD_0` and material (spec, "Materials",
//! "Textures", "Images"), into the model's [`Materials`] and texture coordinates.
//!
//! A material's base colour is `baseColorFactor` (linear RGBA, white where absent) times its
//! `baseColorTexture`, read at each point's texture coordinates, where it has one. A texture is
//! an image (PNG or JPEG, told apart by its first bytes) in a buffer view of the file, in a
//! `data:` URI, or in a file beside the model inside its folder, by the same rules as a buffer's
//! files (`buffers.rs`, `model_folder.rs`). Its bytes are kept as they are; the program decodes
//! them when it draws (`material.rs`).
//!
//! What the program cannot show is said once and drawn without: a texture read through another
//! set of texture coordinates than `TEXCOORD_0`, an image that cannot be read or is neither PNG
//! nor JPEG. A primitive without `TEXCOORD_0` in a model where others have it gets (0, 0).

use super::accessors::read_floats;
use super::buffers::read_uri;
use super::error::ImportError;
use crate::material::{Image, ImageKind, Material, Materials, Run};
use crate::printable::printable;
use glam::{Vec2, Vec4};
use gltf::mesh::Semantic;
use std::ops::Range;
use std::path::Path;

/// The most bytes an image file beside the model is read to: a texture's file is rarely past a
/// few tens of MB, and a damaged or hostile one could be anything.
const MAX_IMAGE_FILE: usize = 256 << 20;

/// What the meshes' primitives said about their looks, gathered as `meshes.rs` reads them.
#[derive(Default)]
pub struct Looks {
    /// One per vertex read so far; (0, 0) where a primitive has no TEXCOORD_0.
    texcoords: Vec<Vec2>,
    /// Some primitive had TEXCOORD_0.
    any: bool,
    /// Runs of the model's triangles, each with its glTF material.
    runs: Vec<Run>,
}

impl Looks {
    /// Reads `primitive`'s TEXCOORD_0, one per vertex of its `vertices`, or (0, 0) each without.
    pub fn read(
        &mut self,
        primitive: &gltf::Primitive,
        buffers: &[Vec<u8>],
        place: &str,
        vertices: usize,
    ) -> Result<(), ImportError> {
        let Some(accessor) = primitive.get(&Semantic::TexCoords(0)) else {
            self.texcoords.resize(self.texcoords.len() + vertices, Vec2::ZERO);
            return Ok(());
        };
        let uv = read_floats::<2>(&accessor, buffers, &format!("TEXCOORD_0 of mesh {place}"))?;
        if uv.len() != vertices {
            let problem =
                format!("TEXCOORD_0 has {} entries for {vertices} vertices; they must match", uv.len());
            return Err(ImportError::Mesh { mesh: place.to_string(), problem });
        }
        self.texcoords.extend(uv.into_iter().map(Vec2::from));
        self.any = true;
        Ok(())
    }

    /// The model's triangles `triangles` came from `primitive`: they take its material.
    pub fn run(&mut self, primitive: &gltf::Primitive, triangles: Range<usize>) {
        if !triangles.is_empty() {
            self.runs.push(Run { triangles, material: primitive.material().index() });
        }
    }

    /// The texture coordinates (none if no primitive had any) and the materials, their images
    /// read from wherever the file keeps them. What cannot be shown goes to `notes`.
    pub fn finish(
        self,
        document: &gltf::Document,
        buffers: &[Vec<u8>],
        base_dir: Option<&Path>,
        notes: &mut Vec<String>,
    ) -> (Vec<Vec2>, Materials) {
        let texcoords = if self.any { self.texcoords } else { Vec::new() };
        let mut materials = Materials { runs: self.runs, ..Materials::default() };
        // glTF image i becomes images[image_of[i]], read the first time a material uses it.
        let mut image_of: Vec<Option<Option<usize>>> = vec![None; document.images().len()];
        for material in document.materials() {
            let pbr = material.pbr_metallic_roughness();
            let name = printable(material.name().unwrap_or("")).into_owned();
            let mut texture = None;
            if let Some(info) = pbr.base_color_texture() {
                let image = info.texture().source();
                if info.tex_coord() != 0 {
                    notes.push(format!(
                        "the material {name:?} reads its texture through TEXCOORD_{}; drawn in its \
                         base colour alone (this program reads TEXCOORD_0)",
                        info.tex_coord()
                    ));
                } else {
                    let index = image.index();
                    texture = *image_of[index].get_or_insert_with(|| {
                        read_image(&image, buffers, base_dir)
                            .map(|read| {
                                materials.images.push(read);
                                materials.images.len() - 1
                            })
                            .map_err(|why| {
                                notes.push(format!("image {index}: {why}; drawn without its texture"))
                            })
                            .ok()
                    });
                }
            }
            let alpha_cutoff = match material.alpha_mode() {
                gltf::material::AlphaMode::Mask => Some(material.alpha_cutoff().unwrap_or(0.5)),
                _ => None,
            };
            let base_color = Vec4::from(pbr.base_color_factor());
            materials.list.push(Material { name, base_color, texture, alpha_cutoff });
        }
        (texcoords, materials)
    }
}

/// An image's bytes, from its buffer view, its `data:` URI or its file beside the model.
fn read_image(image: &gltf::Image, buffers: &[Vec<u8>], base_dir: Option<&Path>) -> Result<Image, String> {
    let bytes = match image.source() {
        gltf::image::Source::View { view, .. } => {
            let buffer = &buffers[view.buffer().index()];
            let range = view.offset()..view.offset().saturating_add(view.length());
            buffer.get(range).ok_or("its buffer view runs past its buffer")?.to_vec()
        }
        gltf::image::Source::Uri { uri, .. } => read_uri(uri, base_dir, MAX_IMAGE_FILE)?,
    };
    let kind = ImageKind::of(&bytes).ok_or("it is neither a PNG nor a JPEG")?;
    let name = printable(image.name().unwrap_or("")).into_owned();
    Ok(Image { name, kind, bytes })
}
