//! What a surface looks like: its material's base colour, and the texture coordinates that say
//! where on the base colour's picture each vertex lies.
//!
//! Skinning moves a vertex's position and its normal, nothing else. A vertex also carries its
//! **texture coordinates** (glTF's `TEXCOORD_0`, MD5's `( s t )`): a point `(u, v)` on a picture,
//! 0 to 1 across and down, that stays glued to the vertex however the bones move it. So they are
//! read once, kept beside the model ([`Looks::texcoords`]) and written back out unchanged; the
//! blend never touches them.
//!
//! A **material** (glTF's `pbrMetallicRoughness`, reduced to what this program draws) is a base
//! colour: a factor, linear RGBA, times the colour its texture has at the vertex's `(u, v)`, where
//! it has a texture; each of the factor's numbers is 0 to 1. A texture is an image file, PNG,
//! JPEG or TGA, kept here as the file's bytes and its size (read from its header), and decoded only when
//! it is drawn ([`decode`], `material/pixels.rs`), so `--info`, `--dump` and the exports never
//! pay for its pixels (but for a TGA, which the glTF export writes as a PNG).
//! Which triangles take which material is a list of runs over the model's triangles
//! ([`Materials::runs`]): a glTF primitive is one run.

mod image;
mod pixels;
mod smaller;
mod tga;

pub use image::{Image, ImageKind, MAX_PIXELS, Pixels};
pub use pixels::{decode, decode_smaller, fit, fit_side, size};

use glam::{Vec2, Vec4};
use std::ops::Range;

/// What a model's surface looks like, kept beside the model (`model.rs`), since skinning never
/// changes it: where the loaders put it, and where drawing and the exports read it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Looks {
    /// Each vertex's texture coordinates, or none.
    pub texcoords: Vec<Vec2>,
    /// Its materials, and which triangles take each; none for the article.
    pub materials: Materials,
}

/// The materials of a model, its images, and which triangles take which material.
#[derive(Clone, Debug, PartialEq)]
pub struct Materials {
    pub list: Vec<Material>,
    pub images: Vec<Image>,
    /// Runs of `Model::triangles`, in order, each drawn with one material (None: plain).
    pub runs: Vec<Run>,
    /// The pixels its textures may hold, decoded: `budget::PIXELS`, or less where the rest of the
    /// model leaves less of its budget (`budget.rs`: `Holding::pixels_left`). The largest pictures
    /// are drawn smaller until they fit ([`fit`]).
    pub pixel_budget: u64,
}

impl Default for Materials {
    fn default() -> Self {
        Materials {
            list: Vec::new(),
            images: Vec::new(),
            runs: Vec::new(),
            pixel_budget: crate::budget::PIXELS,
        }
    }
}

/// A base colour, and perhaps a picture to multiply it by.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    pub name: String,
    /// Linear red, green, blue, alpha, each 0 to 1 (glTF's `baseColorFactor`; 1, 1, 1, 1 where
    /// absent).
    pub base_color: Vec4,
    /// The image of [`Materials::images`] the factor multiplies, read at the texture coordinates.
    pub texture: Option<usize>,
    /// glTF's alpha mode MASK: a point whose alpha is below this is not drawn (None: opaque).
    pub alpha_cutoff: Option<f32>,
}

impl Default for Material {
    fn default() -> Self {
        Material { name: String::new(), base_color: Vec4::ONE, texture: None, alpha_cutoff: None }
    }
}

/// A run of triangles and the material they take.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub triangles: Range<usize>,
    pub material: Option<usize>,
}

/// The note a model's textures need when their pixels together pass the model's budget of
/// `budget` pixels ([`Materials::pixel_budget`]): how many of the largest are drawn smaller
/// ([`fit`]). None when they fit.
pub fn past_pixel_budget(images: &[Image], budget: u64) -> Option<String> {
    let sizes: Vec<(u32, u32)> = images.iter().map(|i| (i.width, i.height)).collect();
    let smaller = fit(&sizes, budget).iter().filter(|&&k| k > 0).count();
    (smaller > 0).then(|| {
        let total: u64 = sizes.iter().map(|&(w, h)| w as u64 * h as u64).sum();
        format!(
            "the textures hold {total} pixels, past the model's budget of {budget} texture pixels; \
             {smaller} of the largest are drawn at half their width and height, or less, to fit"
        )
    })
}
