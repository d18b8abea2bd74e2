//! A bone's local transform as glTF and animation tools store it: translation, rotation, scale.
//!
//! A matrix can do all three at once, but it cannot be interpolated: halfway between two rotation
//! matrices, element by element, is not a rotation. Kept apart, each part has its own natural
//! interpolation (see `clip.rs`), and the matrix is made from them when it is needed: `T * R * S`,
//! which scales a point first, then turns it, then moves it.

use glam::{Mat4, Quat, Vec3};

/// A placement as translation, rotation and scale, the way glTF and animation tools store a bone's
/// local transform. As a matrix it is `T * R * S`: scale the space, turn it, then place it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trs {
    pub translation: Vec3,
    pub rotation: Quat,
    pub scale: Vec3,
}

impl Trs {
    pub const IDENTITY: Trs = Trs { translation: Vec3::ZERO, rotation: Quat::IDENTITY, scale: Vec3::ONE };

    /// Only a translation: the article's bones.
    pub fn from_translation(translation: Vec3) -> Trs {
        Trs { translation, ..Trs::IDENTITY }
    }

    /// Splits a matrix into translation, rotation and scale. Exact for any `T * R * S` with a positive
    /// scale; a matrix with shear has no such split (glTF forbids those for nodes).
    pub fn from_mat4(m: Mat4) -> Trs {
        let (scale, rotation, translation) = m.to_scale_rotation_translation();
        Trs { translation, rotation, scale }
    }

    pub fn to_mat4(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }
}
