//! The inspector's first table, for a vertex of a mesh with morph targets: where it was modelled,
//! each target's displacement and weight this frame, and their sum, the bind position the skin's
//! table (`inspect.rs`: `Report`) then starts from. The sum is `morph::morph_position`'s, in its order,
//! so it is the skin's bind position bit for bit.

use super::xyz::{DECIMALS, Xyz};
use crate::morph::{MeshMorph, morph_position};
use crate::printable::{printable, quoted};
use crate::skin::Skin;
use glam::Vec3A;
use std::fmt;

/// Vertex `vertex`'s morph this frame, as a table; nothing for a vertex without targets.
pub struct MorphTable<'a> {
    pub skin: &'a Skin,
    /// The model's morph targets (`morph.rs`: `MorphTargets`).
    pub targets: &'a [MeshMorph],
    /// This frame's weights, every mesh's (`Morphed::weights`).
    pub weights: &'a [f32],
    pub vertex: usize,
}

impl fmt::Display for MorphTable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let Some(m) = self.targets.iter().find(|m| m.vertices.contains(&self.vertex)) else {
            return Ok(());
        };
        let weights = &self.weights[m.weights.clone()];
        let modelled = self.skin.bind()[self.vertex];
        let displacements = m.displacements(self.vertex - m.vertices.start);
        let shaped = morph_position(modelled, weights, displacements);
        writeln!(f, "vertex {}: morph targets of mesh {}, before the skin", self.vertex, quoted(&m.name))?;
        const DISPLACEMENT: &str = "displacement";
        let labels: Vec<String> =
            (0..m.target_count()).map(|k| printable(&m.target_label(k)).into_owned()).collect();
        let name_width = labels.iter().map(String::len).max().unwrap_or(0).max("target".len());
        let point_width = Xyz(modelled.into()).to_string().len().max(DISPLACEMENT.len());
        writeln!(
            f,
            "  {:<name_width$}  weight  {DISPLACEMENT:<point_width$}  weight * displacement",
            "target"
        )?;
        let d = DECIMALS;
        for ((label, &weight), &displacement) in labels.iter().zip(weights).zip(displacements) {
            // As in the sum: a target at weight 0 adds nothing.
            let moved = if weight != 0.0 { weight * displacement } else { Vec3A::ZERO };
            let moved = Xyz(moved.into());
            let displacement = Xyz(displacement.into()).to_string();
            writeln!(f, "  {label:<name_width$}  {weight:>6.d$}  {displacement:<point_width$}  {moved}")?;
        }
        // The sums sit under the last column.
        let label_width = name_width + 2 + 6 + 2 + point_width;
        writeln!(f, "  {:<label_width$}  {}", "modelled position", Xyz(modelled.into()))?;
        writeln!(f, "  {:<label_width$}  {}", "sum = bind position for the skin", Xyz(shaped.into()))
    }
}
