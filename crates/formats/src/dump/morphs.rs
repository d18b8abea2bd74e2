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

use super::format::Points;
use serde::Serialize;
use skinning_method::morph::MeshMorph;

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
