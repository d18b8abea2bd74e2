//! What the surface looks like: each primitive's `TEXCOORD_0` and material (spec, "Materials",
//! "Textures", "Images"), into the model's [`Materials`] and texture coordinates.
//!
//! A material's base colour is `baseColorFactor` (linear RGBA, each 0 to 1, white where absent)
//! times its `baseColorTexture`, read at each point's texture coordinates, where it has one. A
//! texture's `KHR_texture_transform` (an offset, rotation and scale of its texture coordinates)
//! moves the texture coordinates of the primitives that use it, as they are read. A
//! texture is an image (PNG or JPEG, told apart by its first bytes), read once per source within
//! the model's budgets (`images.rs`). Its bytes are kept as they are; the program decodes them
//! when it draws (`material.rs`).
//!
//! What the program cannot show is said once and drawn without: a texture read through another
//! set of texture coordinates than `TEXCOORD_0`, one with no `source` (its picture only in an
//! extension, such as `EXT_texture_webp`), an image that cannot be read or is neither PNG nor
//! JPEG. A factor outside 0 to 1 is clamped, with a note. A primitive without `TEXCOORD_0` in a
//! model where others have it gets (0, 0).

use super::accessors::read_floats;
use super::error::{ImportError, label};
use super::images::Images;
use crate::material::{Looks, Material, Materials, Run};
use crate::model_folder::Beside;
use glam::{Affine2, Vec2, Vec4};
use gltf::mesh::Semantic;
use skinning_method::printable::printable;
use std::ops::Range;

/// What the meshes' primitives said about their looks, gathered as `primitives.rs` reads them,
/// until [`GatheredLooks::finish`] makes them the model's [`Looks`].
#[derive(Default)]
pub struct GatheredLooks {
    /// One per vertex read so far; (0, 0) where a primitive has no TEXCOORD_0.
    texcoords: Vec<Vec2>,
    /// Some primitive had TEXCOORD_0.
    any: bool,
    /// Runs of the model's triangles, each with its glTF material.
    runs: Vec<Run>,
}

impl GatheredLooks {
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
        let transform = uv_transform(primitive);
        self.texcoords.extend(uv.into_iter().map(|uv| transform.transform_point2(Vec2::from(uv))));
        self.any = true;
        Ok(())
    }

    /// The model's triangles `triangles` came from `primitive`: they take its material.
    pub fn run(&mut self, primitive: &gltf::Primitive, triangles: Range<usize>) {
        if !triangles.is_empty() {
            self.runs.push(Run { triangles, material: primitive.material().index() });
        }
    }

    /// The model's looks: the texture coordinates (none if no primitive had any) and the materials,
    /// their images read from wherever the file keeps them (`images.rs`), drawn within `pixels`
    /// (what the model's budget leaves them, `budget.rs`). What cannot be shown goes to `notes`.
    pub fn finish(
        self,
        document: &gltf::Document,
        buffers: &[Vec<u8>],
        beside: Beside,
        pixels: u64,
        notes: &mut Vec<String>,
    ) -> Looks {
        let texcoords = if self.any { self.texcoords } else { Vec::new() };
        let mut materials = Materials { runs: self.runs, pixel_budget: pixels, ..Materials::default() };
        let mut images = Images::new(document.as_json(), buffers, beside);
        // Textures without a source, and factors outside 0 to 1: the first of each, and how many.
        let (mut sourceless, mut outside) = (Said::default(), Said::default());
        for material in document.materials() {
            let pbr = material.pbr_metallic_roughness();
            let name = printable(material.name().unwrap_or("")).into_owned();
            let label = label(material.index().unwrap_or(0), material.name());
            let mut texture = None;
            if let Some(info) = pbr.base_color_texture() {
                // KHR_texture_transform may name the set instead of the texture info.
                let set = info.texture_transform().and_then(|t| t.tex_coord()).unwrap_or(info.tex_coord());
                if set != 0 {
                    notes.push(format!(
                        "the material {name:?} reads its texture through TEXCOORD_{set}; drawn in its \
                         base colour alone (this program reads TEXCOORD_0)"
                    ));
                } else if let Some(image) = info.texture().source() {
                    texture = images.get(image.index(), notes);
                } else {
                    sourceless.add(|| format!("material {label}'s texture {}", info.texture().index()));
                }
            }
            let alpha_cutoff = match material.alpha_mode() {
                gltf::material::AlphaMode::Mask => Some(material.alpha_cutoff().unwrap_or(0.5)),
                _ => None,
            };
            let factor = pbr.base_color_factor();
            // An infinity becomes 0 or 1; a NaN (which JSON cannot write) 0.
            let clamped = factor.map(|x| if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) });
            if clamped != factor {
                outside
                    .add(|| format!("material {label}'s baseColorFactor {factor:?} is drawn as {clamped:?}"));
            }
            materials.list.push(Material { name, base_color: Vec4::from(clamped), texture, alpha_cutoff });
        }
        sourceless.say(notes, "materials", |first| {
            format!(
                "{first} names no image (no source: glTF leaves its picture to an extension, such as \
                 EXT_texture_webp or KHR_texture_basisu, which this program does not read); drawn in \
                 its base colour alone"
            )
        });
        outside.say(notes, "materials", |first| {
            format!("{first}: each number is 0 to 1 in glTF, and this program clamps it so")
        });
        materials.images = images.finish(pixels, notes);
        Looks { texcoords, materials }
    }
}

/// Where `primitive`'s texture coordinates lead in its base colour texture: the texture's
/// KHR_texture_transform (offset, rotation in radians, scale), as the extension's matrix
/// translation x rotation x scale; the identity without one, or where its numbers overflow (a JSON
/// number past 32-bit floats reads as infinite). gltfpack stores texture coordinates as 16-bit
/// integers and puts the scale and offset that give them back here.
fn uv_transform(primitive: &gltf::Primitive) -> Affine2 {
    let info = primitive.material().pbr_metallic_roughness().base_color_texture();
    let transform = info
        .and_then(|info| info.texture_transform())
        .map(|t| Affine2::from_scale_angle_translation(t.scale().into(), t.rotation(), t.offset().into()));
    transform.filter(|t| t.is_finite()).unwrap_or(Affine2::IDENTITY)
}

/// A note said once for many of a kind: the first one's words, and how many there were.
#[derive(Default)]
struct Said {
    first: Option<String>,
    count: usize,
}

impl Said {
    fn add(&mut self, first: impl FnOnce() -> String) {
        self.first.get_or_insert_with(first);
        self.count += 1;
    }

    /// Says the note, if there is one: `note(first)`, then how many more `kinds` were like it.
    fn say(self, notes: &mut Vec<String>, kinds: &str, note: impl FnOnce(&str) -> String) {
        if let Some(first) = self.first {
            let more = match self.count - 1 {
                0 => String::new(),
                n => format!(" (and {n} more {kinds} like it)"),
            };
            notes.push(format!("{}{more}", note(&first)));
        }
    }
}
