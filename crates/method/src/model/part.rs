//! Which vertices form which mesh of a model ([`Part`]), and which way is up ([`Up`]).

use crate::skeleton::BoneId;
use glam::Quat;
use std::ops::Range;

/// The axis a model's numbers call up: +y for the article and glTF, +z for MD5 (id's tools).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Up {
    #[default]
    Y,
    Z,
}

impl Up {
    /// The turn from a model's axes to glTF's: none for a Y-up model; for id's (+x front, +y the
    /// character's left, +z up) a third of a turn about (1, 1, 1), which takes x to z, y to x and
    /// z to y: the front to +z, the left to +x (a glTF character's left), up to +y. The camera
    /// looks through it (`camera.rs`); the glTF export writes an id model turned by it, and the
    /// MD5 export a Y-up model turned back by its inverse, so it comes back as it was.
    pub fn turn_to_gltf(self) -> Quat {
        match self {
            Up::Y => Quat::IDENTITY,
            // cos 60° = 1/2 and sin 60° / √3 = 1/2: the turn's four numbers are exact.
            Up::Z => Quat::from_xyzw(-0.5, -0.5, -0.5, 0.5),
        }
    }
}

/// One mesh of a model: a run of the skin's vertices, named for `--info` and the dump.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub name: String,
    /// Which of the skin's vertices are this mesh's.
    pub vertices: Range<usize>,
    /// The bone (a glTF node) the mesh hangs on, if it hangs on one.
    pub bone: Option<BoneId>,
    /// True for a skinned mesh. False for a mesh that moves rigidly with its bone, article 000's
    /// "joint animation": its vertices each have one influence, weight 1, on that bone's joint.
    pub skinned: bool,
}

#[cfg(test)]
mod tests {
    use super::Up;
    use glam::{Quat, Vec3};

    #[test]
    fn ids_axes_turn_into_gltfs() {
        // The same turn as a third of a turn about (1, 1, 1), backwards: x to z, y to x, z to y.
        let third = Quat::from_axis_angle(Vec3::ONE.normalize(), -std::f32::consts::TAU / 3.0);
        assert!(Up::Z.turn_to_gltf().abs_diff_eq(third, 1e-7));
        for (id, gltf) in [(Vec3::X, Vec3::Z), (Vec3::Y, Vec3::X), (Vec3::Z, Vec3::Y)] {
            assert_eq!(Up::Z.turn_to_gltf() * id, gltf);
        }
        assert_eq!(Up::Y.turn_to_gltf(), Quat::IDENTITY);
    }
}
