//! Morph targets: a known limit of this program, said once with how much it leaves out.
//!
//! A glTF primitive may carry **morph targets** (spec, "Morph Targets"): for each vertex, an offset
//! to its position per target, and the mesh (or an animation channel on `weights`) says how much of
//! each target to add before skinning: `bind + Σ weight[t] * offset[t]`. Faces and muscles are
//! often done that way. This program moves vertices with joints only, so it draws every vertex at
//! its plain bind position, as if every morph weight were 0.
//!
//! What a user loses is measured here: the longest offset any target gives any vertex, which is
//! how far from the spec's position a vertex can be drawn when its target is fully on. It is said
//! in the file's units and as a share of the model's size (the diagonal of the box around its bind
//! positions), in one note with the number of primitives and channels left out.

use super::accessors::read_floats;
use super::error::counted;
use glam::{Mat4, Vec3};

/// What a file's morph targets would have done, tallied over the primitives drawn.
#[derive(Debug, Default)]
pub struct Morphs {
    /// Drawn primitives that have morph targets.
    pub primitives: usize,
    /// Animation channels that move morph weights.
    pub channels: usize,
    /// The longest offset of any target of any drawn vertex, placed as the vertex is (None when no
    /// target's positions could be read: damaged morph data is left out as the rest is).
    pub reach: Option<f32>,
}

impl Morphs {
    /// Tallies `primitive`'s targets; `to_model` takes its positions where the model has them (the
    /// node's rest world transform for a rigid mesh, the identity for a skinned one).
    pub fn add(&mut self, primitive: &gltf::Primitive, buffers: &[Vec<u8>], to_model: Mat4) {
        let mut targets = primitive.morph_targets().peekable();
        if targets.peek().is_none() {
            return;
        }
        self.primitives += 1;
        for target in targets {
            let Some(accessor) = target.positions() else { continue };
            let Ok(offsets) = read_floats::<3>(&accessor, buffers, "a morph target's POSITION") else {
                continue;
            };
            for offset in offsets {
                let length = to_model.transform_vector3(Vec3::from(offset)).length();
                self.reach = Some(self.reach.map_or(length, |r| r.max(length)));
            }
        }
    }

    /// The one note about them, if the file has any; `size` is the model's size.
    pub fn note(&self, size: f32) -> Option<String> {
        let primitives = counted(self.primitives, "primitive", "primitives");
        let channels = match self.channels {
            1 => "1 channel that animates".to_string(),
            n => format!("{n} channels that animate"),
        };
        let what = match (self.primitives, self.channels) {
            (0, 0) => return None,
            (_, 0) => format!("the morph targets of {primitives}"),
            (0, _) => format!("the {channels} morph target weights"),
            _ => format!("the morph targets of {primitives} and the {channels} their weights"),
        };
        let reach = match self.reach {
            Some(reach) if size > 0.0 => format!(
                "; fully on, a target would move a vertex up to {reach:.3} ({:.1}% of the model's size) \
                 from where it is drawn",
                100.0 * reach / size
            ),
            _ => String::new(),
        };
        Some(format!("ignored {what}: only joints move the mesh here{reach}"))
    }
}
