//! Morph targets out (spec, "Morph Targets"), the mirror of `gltf_import/morphs.rs`: each part's
//! [`MeshMorph`] as its primitives' `targets`, its default weights as the mesh's `weights`, its
//! targets' names as the mesh's `extras.targetNames` (where Blender and three.js look), and a
//! clip's weight channels as one `weights` channel per mesh node.
//!
//! The displacements are written as the model holds them, in the model's space: every part is a
//! mesh on a node of its own, placed by its skin (`meshes.rs`), so a rigid mesh's displacements,
//! moved into the model's space when it was read, stay there, as its positions do. A `weights`
//! channel keys every target of its mesh at once: per key, one value per target (three for
//! CUBICSPLINE: the in-tangents, the values, the out-tangents), which is how the importer splits it.

use super::buffer::{ARRAY_BUFFER, File, push};
use super::error::ExportError;
use super::json::{self, Animation};
use super::nodes::Turn;
use skinning_method::clip::{Interpolation, Track};
use skinning_method::morph::MeshMorph;
use std::collections::BTreeMap;
use std::ops::Range;

/// The morph targets, of all the model's `morphs`, of the part whose vertices are `part`, if it
/// has any.
pub fn of_part<'a>(morphs: &'a [MeshMorph], part: &Range<usize>) -> Option<&'a MeshMorph> {
    morphs.iter().find(|m| m.vertices == *part && m.target_count() > 0)
}

/// One primitive's `targets` for its vertices `range`: per target, its `POSITION` displacements
/// (with the bounds the spec asks of them) and, where the mesh has them, its `NORMAL` ones.
pub fn targets(
    file: &mut File,
    morph: &MeshMorph,
    range: Range<usize>,
    turn: Turn,
) -> Vec<BTreeMap<String, usize>> {
    let n = morph.target_count();
    let local = range.start - morph.vertices.start..range.end - morph.vertices.start;
    let column = |all: &[glam::Vec3A], k: usize| -> Vec<[f32; 3]> {
        local.clone().map(|i| turn.point(all[i * n + k].into()).to_array()).collect()
    };
    (0..n)
        .map(|k| {
            let mut target = BTreeMap::new();
            let positions = column(&morph.positions, k);
            target.insert("POSITION".to_string(), file.accessor(&positions, Some(ARRAY_BUFFER), true));
            if !morph.normals.is_empty() {
                let normals = column(&morph.normals, k);
                target.insert("NORMAL".to_string(), file.accessor(&normals, Some(ARRAY_BUFFER), false));
            }
            target
        })
        .collect()
}

/// The mesh's default weights and, where any target has a name, the names.
pub fn mesh_fields(morph: Option<&MeshMorph>) -> (Vec<f32>, Option<json::MeshExtras>) {
    let Some(morph) = morph else { return (Vec::new(), None) };
    let named = morph.targets.iter().any(|name| !name.is_empty());
    let extras = named.then(|| json::MeshExtras { target_names: morph.targets.clone() });
    (morph.defaults.clone(), extras)
}

/// Where a morphed part's mesh went: the bone whose weight channels move it, the node that shows
/// it, and how many targets it has.
pub struct MorphedMesh {
    pub bone: usize,
    pub node: usize,
    pub targets: usize,
}

/// A track's weight channels as one `weights` channel on each node showing a mesh of its bone
/// (`morphed`: every morphed part's). The per-target channels must share their key times and
/// interpolation, as a glTF channel's targets do.
pub fn weight_channels(
    file: &mut File,
    animation: &mut Animation,
    track: &Track,
    morphed: &[MorphedMesh],
) -> Result<(), ExportError> {
    let Some(first) = track.weights.first() else { return Ok(()) };
    let n = track.weights.len();
    let shared = |c: &&skinning_method::clip::Channel<f32>| {
        c.times == first.times
            && c.interpolation == first.interpolation
            && c.values.len() == first.values.len()
    };
    if !track.weights.iter().all(|c| shared(&c)) {
        return Err(ExportError::WeightKeys { clip: animation.name.clone() });
    }
    let per_key = if first.interpolation == Interpolation::CubicSpline { 3 } else { 1 };
    // Per key: its values of every target, each group of `n` in the target's order.
    let mut values: Vec<[f32; 1]> = Vec::with_capacity(first.values.len() * n);
    for key in 0..first.times.len() {
        for part in 0..per_key {
            values.extend(track.weights.iter().map(|c| [c.values[key * per_key + part]]));
        }
    }
    for mesh in morphed.iter().filter(|m| m.bone == track.bone && m.targets == n) {
        let times: Vec<[f32; 1]> = first.times.iter().map(|&t| [t]).collect();
        let input = file.accessor(&times, None, true);
        let output = file.accessor(&values, None, false);
        let interpolation = first.interpolation.name();
        let sampler = push(&mut animation.samplers, json::Sampler { input, output, interpolation });
        let target = json::Target { node: mesh.node, path: "weights" };
        animation.channels.push(json::Channel { sampler, target });
    }
    Ok(())
}
