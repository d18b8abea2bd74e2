//! What a glTF file will become, counted from its JSON before anything is read or built
//! (`budget.rs`: [`Holding`]): the vertices and triangles of every mesh once for each node in the
//! shown scene that places it, the bones, the animation keys by what their channels store (the
//! weights channels their own budget keeps), and the morph displacements (no more than their own
//! budget keeps). Only the accessors' counts are looked at, so a file of a few hundred bytes
//! that asks for billions is refused at once.

use crate::budget::{self, Holding};
use gltf::animation::{Interpolation, Property};
use gltf::mesh::{Mode, Semantic};

/// What `document` will hold once built, its meshes placed by the nodes `shown`.
pub fn holding<'a>(document: &gltf::Document, shown: impl Iterator<Item = gltf::Node<'a>>) -> Holding {
    let mut holding = Holding { bones: document.nodes().len() as u64 + 1, ..Holding::default() };
    holding.bones += document.skins().map(|s| s.joints().len() as u64).sum::<u64>();
    for node in shown {
        let Some(mesh) = node.mesh() else { continue };
        for primitive in mesh.primitives() {
            let vertices = primitive.get(&Semantic::Positions).map_or(0, |a| a.count() as u64);
            let corners = primitive.indices().map_or(vertices, |a| a.count() as u64);
            let triangles = match primitive.mode() {
                Mode::Points => 0,
                Mode::Lines => corners / 2,
                Mode::Triangles => corners / 3,
                Mode::LineLoop | Mode::LineStrip | Mode::TriangleStrip | Mode::TriangleFan => corners,
            };
            let targets = primitive.morph_targets().len() as u64;
            holding.vertices = holding.vertices.saturating_add(vertices);
            holding.triangles = holding.triangles.saturating_add(triangles);
            holding.displacements = holding.displacements.saturating_add(vertices.saturating_mul(targets));
        }
    }
    // The skeleton's keys are all kept (past their budget the model is refused, `animations.rs`);
    // a weights channel is left out where the budget of keys has no room left for it.
    let (mut keys_left, mut weights) = (budget::KEYS, Vec::new());
    for channel in document.animations().flat_map(|a| a.channels().collect::<Vec<_>>()) {
        let sampler = channel.sampler();
        let keys = sampler.input().count() as u64;
        let values = sampler.output().count() as u64;
        let per_key = match sampler.interpolation() {
            Interpolation::CubicSpline => 3,
            _ => 1,
        };
        let (value_bytes, channels) = match channel.target().property() {
            Property::Translation | Property::Scale => (12, 1),
            Property::Rotation => (16, 1),
            // One channel per morph target, each with its own times.
            Property::MorphTargetWeights => (4, values.checked_div(keys * per_key).unwrap_or(0).max(1)),
        };
        let counted = keys.saturating_mul(channels);
        let bytes = counted.saturating_mul(4).saturating_add(values.saturating_mul(value_bytes));
        match channel.target().property() {
            Property::MorphTargetWeights => weights.push((counted, bytes)),
            _ => {
                keys_left = keys_left.saturating_sub(counted);
                holding.key_bytes = holding.key_bytes.saturating_add(bytes);
            }
        }
    }
    for (counted, bytes) in weights {
        if counted <= keys_left {
            keys_left -= counted;
            holding.key_bytes = holding.key_bytes.saturating_add(bytes);
        }
    }
    // Past their own budget, targets are left out (`morphs.rs`): no more are held.
    holding.displacements = holding.displacements.min(budget::DISPLACEMENTS);
    holding
}
