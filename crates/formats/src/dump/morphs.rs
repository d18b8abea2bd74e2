//! The dump's morph targets: each mesh's targets in the model's part of the file (`"morphs"`),
//! and each frame's weights (`"morph_weights"`), so that every morphed bind position can be redone
//! by hand: for vertex `first + i` of a mesh,
//!
//! ```text
//! morphed bind = vertices[first + i].bind + Σ_k morph_weights[first_weight + k] * displacements[i * targets + k]
//! ```
//!
//! (and the normal likewise, normalised, from `"normal_displacements"`), which the frame's
//! palette then blends as it blends any bind position (`morph.rs`).
//!
//! Step 4 of each of the dump's frames is the morph (`morph.rs`: `Morph`), which also tells a
//! skinner outside the CPU the weights it made, before the blend ([`Telling`]).

use super::format::Points;
use serde::Serialize;
use skinning_method::frame::{Reshape, Source};
use skinning_method::morph::{MeshMorph, Morph};
use skinning_method::skin::{Shape, Skin};

/// One mesh's morph targets, as the dump writes them.
#[derive(Serialize)]
pub(super) struct MorphOut<'a> {
    pub name: &'a str,
    /// The node (bone) holding the mesh.
    pub bone: usize,
    /// The mesh's first vertex, and how many it has.
    pub first: usize,
    pub count: usize,
    /// Where its weights start in each frame's `"morph_weights"`: one per target.
    pub first_weight: usize,
    /// The targets' names (empty where the file gave none).
    pub targets: &'a [String],
    /// Each vertex's displacement for each target, vertex after vertex.
    pub displacements: Points<'a>,
    /// The same for its normals; absent where the skin has none.
    #[serde(skip_serializing_if = "Points::is_empty")]
    pub normal_displacements: Points<'a>,
}

/// The model's morph targets, mesh by mesh.
pub(super) fn morphs_out(morphs: &[MeshMorph]) -> Vec<MorphOut<'_>> {
    morphs
        .iter()
        .map(|m| MorphOut {
            name: &m.name,
            bone: m.bone,
            first: m.vertices.start,
            count: m.vertices.len(),
            first_weight: m.weights.start,
            targets: &m.targets,
            displacements: Points(&m.positions),
            normal_displacements: Points(&m.normals),
        })
        .collect()
}

/// Who is told each frame's morph weights (`morph.rs`: `Morphed::weights`) as step 4 makes them.
pub type Told<'a> = &'a dyn Fn(&[f32]);

/// Step 4 of a dump's frame: the morph, and whoever is `told` its weights before the blend.
pub(super) struct Telling<'a> {
    pub morph: Morph<'a>,
    pub told: Option<Told<'a>>,
}

impl Reshape for Telling<'_> {
    fn reshape<'s>(&'s mut self, skin: &'s Skin, source: &dyn Source, time: f64) -> Shape<'s> {
        self.morph.reshape(skin, source, time);
        if let Some(told) = self.told {
            told(&self.morph.morphed.weights);
        }
        self.morph.morphed.shape(skin)
    }
}
