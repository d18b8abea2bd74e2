//! A skinned model: what a file would load.
//!
//! A [`Model`] is a skeleton, a skin whose joints carry their offsets, the lines that draw the mesh
//! (and its triangles, where it has faces), and which vertices form which mesh ([`Part`]). It is
//! made piece by piece, each piece checked (`model/build.rs`). What the surface looks like (texture
//! coordinates, materials) is not part of it: skinning never changes it, and a loader keeps it
//! beside the model. A later lesson's extras are kept beside it too, as the morph targets of the
//! meshes that have them (chapter 13). What changes per frame is a [`Pose`](crate::frame::Pose),
//! and `frame.rs` runs the method on it.

mod axes;
mod build;
mod error;
mod part;

pub use axes::{Axes, Axis};
pub use error::ModelError;
pub use part::Part;

use crate::skeleton::Skeleton;
use crate::skin::Skin;

/// A skeleton, the skin bound to it, and how to draw the mesh.
#[derive(Clone, Debug)]
pub struct Model {
    pub skeleton: Skeleton,
    pub skin: Skin,
    /// The mesh's outline as pairs of vertex indices: what the picture connects with lines.
    pub edges: Vec<[u32; 2]>,
    /// The mesh's faces as triples of vertex indices, counter-clockwise seen from the front (glTF's
    /// rule). Empty for a mesh that is only an outline, as the article's is.
    pub triangles: Vec<[u32; 3]>,
    /// The meshes, as runs of the skin's vertices in order: first every skinned one, then every
    /// rigid one. The article's scene is one skinned part; a glTF file has one per mesh and node.
    pub parts: Vec<Part>,
    /// The axes its numbers call up and front: the picture stands it up and looks at its front
    /// (`camera.rs`), and the exports turn it into their formats' axes.
    pub axes: Axes,
}

impl Model {
    /// How many vertices belong to skinned parts: they come first, the rigid ones after.
    pub fn skinned_len(&self) -> usize {
        self.parts.iter().filter(|p| p.skinned).map(|p| p.vertices.len()).sum()
    }

    /// For every bone, whether it is a joint of the skin: the bones the picture draws. (In the
    /// article every bone is; a glTF file also has nodes that only place others.)
    pub fn joint_bones(&self) -> Vec<bool> {
        let mut is_joint = vec![false; self.skeleton.len()];
        for joint in self.skin.joints() {
            is_joint[joint.bone] = true;
        }
        is_joint
    }

    /// The mesh drawn as one closed loop, as the article draws it: vertex i to i + 1, the last to the first.
    pub fn line_loop(vertices: usize) -> Vec<[u32; 2]> {
        (0..vertices).map(|i| [i as u32, ((i + 1) % vertices) as u32]).collect()
    }
}
