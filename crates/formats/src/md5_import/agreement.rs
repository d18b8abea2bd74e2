//! Do the two formulas agree for this file? Seed 002's answer, and a number that checks it.
//!
//! MD5 keeps each weight's position in its joint's space; the article keeps one bind position per
//! vertex and one offset per joint. They are the same thing stored two ways when every weight of a
//! vertex is that vertex taken into its joint's space (article 002: "for any frame, a joint's vertices
//! keep constant coordinates in that joint's space"):
//!
//! ```text
//! weight_i.position = offset_i · bind        (offset_i = M_i(bind)⁻¹)
//! ```
//!
//! Then `Σ bias_i · M_i · weight_i.position = Σ bias_i · (M_i · offset_i) · bind` for every frame's
//! `M_i`: the first formula equals the second. An exporter whose weights of one vertex disagree
//! about where that vertex is breaks the equality. How far they disagree is
//! `|offset_i · bind - weight_i.position|`, which is also how far weight `i` alone, carried out of
//! its joint's space, puts the vertex from where the weights together put it (an offset is a rigid
//! motion: it keeps distances). The largest over the file, relative to the model's size, is its
//! **spread**: near 1e-7 (float rounding) the formulas agree; far above, they do not. It is taken
//! over the weights both sums use: every weight of a vertex blends, however many, and a weight of
//! bias 0 is in neither sum.

use super::vertices::StoredWeights;
use glam::Vec3;
use skinning_method::model::Model;
use skinning_method::printable::printable;
use std::fmt;

/// The file's largest disagreement between a stored weight position and `offset · bind`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// The largest `|offset · bind - weight.position|`, in the model's units.
    pub largest: f32,
    /// Where: the model's vertex, and the weight's place among that vertex's weights.
    pub vertex: usize,
    pub weight: usize,
    /// The model's size: the diagonal of the box around its bind-pose vertices.
    pub size: f32,
}

impl Spread {
    /// `largest` as a fraction of the model's size.
    pub fn relative(&self) -> f32 {
        if self.size > 0.0 { self.largest / self.size } else { self.largest }
    }
}

/// Where vertex `v`'s weight goes under the article's formula: `offset · bind`, in the weight's
/// joint's space, to set beside the position the file stores.
pub fn offset_times_bind(model: &Model, joint: usize, v: usize) -> Vec3 {
    let bind = Vec3::from(model.skin.bind()[v]);
    model.skin.joints()[joint].offset.transform_point3(bind)
}

/// The spread of a loaded MD5 model: every weight of every vertex compared.
pub fn spread(model: &Model, stored: &StoredWeights) -> Spread {
    let (mut min, mut max) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for p in model.skin.bind_positions() {
        (min, max) = (min.min(p), max.max(p));
    }
    let size = if min.is_finite() && max.is_finite() { (max - min).length() } else { 0.0 };
    let mut spread = Spread { largest: 0.0, vertex: 0, weight: 0, size };
    for v in 0..stored.runs.len() {
        for (i, w) in stored.of(v).iter().enumerate().filter(|(_, w)| w.bias > 0.0) {
            let apart = offset_times_bind(model, w.joint, v).distance(w.position);
            if apart > spread.largest {
                (spread.largest, spread.vertex, spread.weight) = (apart, v, i);
            }
        }
    }
    spread
}

/// One vertex's weights, the stored position beside `offset · bind`: what the vertex inspector
/// adds for an MD5 model.
pub struct WeightTable<'a> {
    pub model: &'a Model,
    pub stored: &'a StoredWeights,
    pub vertex: usize,
}

impl fmt::Display for WeightTable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let weights = self.stored.of(self.vertex);
        let name = |joint: usize| printable(&self.model.skeleton.bone(joint).name).into_owned();
        let width =
            weights.iter().map(|w| name(w.joint).chars().count()).max().unwrap_or(0).max("joint".len());
        writeln!(f, "  the file's weights (each in its joint's space) beside the article's offset · bind:")?;
        writeln!(
            f,
            "  {:<width$}  bias    stored position              offset · bind                apart",
            "joint"
        )?;
        for w in weights {
            let article = offset_times_bind(self.model, w.joint, self.vertex);
            let apart = article.distance(w.position);
            let (stored, article) = (xyz(w.position), xyz(article));
            writeln!(
                f,
                "  {:<width$}  {:.4}  {stored:<27}  {article:<27}  {apart:.1e}",
                name(w.joint),
                w.bias
            )?;
        }
        Ok(())
    }
}

fn xyz(p: Vec3) -> String {
    format!("({:.4}, {:.4}, {:.4})", p.x, p.y, p.z)
}
