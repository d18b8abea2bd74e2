//! Which way a model's numbers stand: the axis they call up and the axis the character faces
//! ([`Axes`]), and the turn that brings them to glTF's.
//!
//! The numbers of a model are its file's, kept as they are; only the view and the exports turn
//! them. glTF's character stands along +y and faces +z (its spec, "Coordinate System and Units"),
//! so its left is +x. id's tools stand a character along +z facing +x (Doom 3's
//! `idAngles::ToForward` turns yaw 0 into +x), its left +y. Blender stands it along +z too, but its
//! characters face -y, and an MD5 file written from Blender keeps Blender's numbers. Up and front
//! fix the third axis, the character's left: `left = up × front` in a right-handed space. The turn
//! to glTF's axes takes left to +x, up to +y and front to +z ([`Axes::to_gltf`]): six signed axes
//! moved onto three, so it only moves numbers and changes signs, exactly.

use glam::{Mat3, Quat, Vec3};
use std::fmt;

/// One of the six directions along a model's axes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    PosX,
    NegX,
    PosY,
    NegY,
    PosZ,
    NegZ,
}

impl Axis {
    /// Every axis, in the order `--front` lists them.
    pub const ALL: [Axis; 6] = [Axis::PosX, Axis::NegX, Axis::PosY, Axis::NegY, Axis::PosZ, Axis::NegZ];

    /// The unit vector it points along.
    pub fn vector(self) -> Vec3 {
        match self {
            Axis::PosX => Vec3::X,
            Axis::NegX => Vec3::NEG_X,
            Axis::PosY => Vec3::Y,
            Axis::NegY => Vec3::NEG_Y,
            Axis::PosZ => Vec3::Z,
            Axis::NegZ => Vec3::NEG_Z,
        }
    }

    /// How far `p` lies along it: one of `p`'s numbers, its sign changed for a negative axis
    /// (exactly: no multiplication).
    pub fn along(self, p: Vec3) -> f32 {
        match self {
            Axis::PosX => p.x,
            Axis::NegX => -p.x,
            Axis::PosY => p.y,
            Axis::NegY => -p.y,
            Axis::PosZ => p.z,
            Axis::NegZ => -p.z,
        }
    }

    /// The axis a unit vector along x, y or z points along (None for any other vector).
    pub fn of(v: Vec3) -> Option<Axis> {
        Axis::ALL.into_iter().find(|a| a.vector() == v)
    }

    /// Whether `other` lies along the same line, either way.
    pub fn parallel(self, other: Axis) -> bool {
        self.vector().abs() == other.vector().abs()
    }

    /// `x`, `+x`, `-x`, ... in any letter case.
    pub fn parse(text: &str) -> Option<Axis> {
        let text = text.trim().to_ascii_lowercase();
        let (sign, letter) = match text.strip_prefix('-') {
            Some(letter) => (-1.0, letter),
            None => (1.0, text.strip_prefix('+').unwrap_or(&text)),
        };
        let unit = match letter {
            "x" => Vec3::X,
            "y" => Vec3::Y,
            "z" => Vec3::Z,
            _ => return None,
        };
        Axis::of(sign * unit)
    }
}

impl fmt::Display for Axis {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let v = self.vector();
        let letter = if v.x != 0.0 {
            'x'
        } else if v.y != 0.0 {
            'y'
        } else {
            'z'
        };
        let sign = if v.min_element() < 0.0 { '-' } else { '+' };
        write!(f, "{sign}{letter}")
    }
}

/// The axis a model's numbers call up and the axis its character faces: always across each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Axes {
    up: Axis,
    front: Axis,
}

impl Default for Axes {
    fn default() -> Self {
        Axes::GLTF
    }
}

impl Axes {
    /// glTF's, and the article's: up +y, front +z.
    pub const GLTF: Axes = Axes { up: Axis::PosY, front: Axis::PosZ };
    /// id's (MD5, Doom 3): up +z, front +x.
    pub const ID: Axes = Axes { up: Axis::PosZ, front: Axis::PosX };

    /// Up and front, if they lie across each other (None if they are along one line).
    pub fn new(up: Axis, front: Axis) -> Option<Axes> {
        (!up.parallel(front)).then_some(Axes { up, front })
    }

    pub fn up(self) -> Axis {
        self.up
    }

    pub fn front(self) -> Axis {
        self.front
    }

    /// The character's left, `up × front`: +x for glTF's axes, +y for id's, +x for Blender's.
    pub fn left(self) -> Vec3 {
        self.up.vector().cross(self.front.vector())
    }

    /// A point or a direction in these axes, in glTF's: `(left · p, up · p, front · p)`, exactly.
    pub fn to_gltf(self, p: Vec3) -> Vec3 {
        let left = Axis::of(self.left()).unwrap_or(Axis::PosX);
        Vec3::new(left.along(p), self.up.along(p), self.front.along(p))
    }

    /// A point or a direction in glTF's axes, in these: [`Axes::to_gltf`] undone, exactly.
    pub fn from_gltf(self, p: Vec3) -> Vec3 {
        let left = Axis::of(self.left()).unwrap_or(Axis::PosX);
        let mut out = Vec3::ZERO;
        for (axis, value) in [(left, p.x), (self.up, p.y), (self.front, p.z)] {
            let v = axis.vector();
            // One of v's numbers is ±1, the others 0: the value goes there, its sign changed or not.
            out += Vec3::select(v.cmpne(Vec3::ZERO), v * value, Vec3::ZERO);
        }
        out
    }

    /// The turn [`Axes::to_gltf`] makes, as a rotation: the view turns a model by it (`camera.rs`),
    /// the glTF export writes a model turned by it, the MD5 export turns by it and back by id's.
    pub fn turn_to_gltf(self) -> Quat {
        let columns = [Vec3::X, Vec3::Y, Vec3::Z].map(|e| self.to_gltf(e));
        let turn = Quat::from_mat3(&Mat3::from_cols(columns[0], columns[1], columns[2]));
        // q and -q are the same turn: the one with w ≥ 0, the shorter way round.
        if turn.w < 0.0 { -turn } else { turn }
    }
}

#[cfg(test)]
mod tests {
    use super::{Axes, Axis};
    use glam::{Quat, Vec3};

    #[test]
    fn ids_axes_turn_into_gltfs() {
        // A third of a turn about (1, 1, 1), backwards: x to z, y to x, z to y.
        let third = Quat::from_axis_angle(Vec3::ONE.normalize(), -std::f32::consts::TAU / 3.0);
        assert!(Axes::ID.turn_to_gltf().abs_diff_eq(third, 1e-7));
        assert_eq!(Axes::ID.turn_to_gltf(), Quat::from_xyzw(-0.5, -0.5, -0.5, 0.5), "exact numbers");
        for (id, gltf) in [(Vec3::X, Vec3::Z), (Vec3::Y, Vec3::X), (Vec3::Z, Vec3::Y)] {
            assert_eq!(Axes::ID.turn_to_gltf() * id, gltf);
            assert_eq!(Axes::ID.to_gltf(id), gltf);
        }
        assert_eq!(Axes::GLTF.turn_to_gltf(), Quat::IDENTITY);
    }

    #[test]
    fn blenders_axes_face_minus_y_and_every_pair_turns_and_back_exactly() {
        // Blender: up +z, front -y, so its left is +x; glTF's exporter writes (x, z, -y).
        let blender = Axes::new(Axis::PosZ, Axis::NegY).expect("across each other");
        assert_eq!(blender.left(), Vec3::X);
        assert_eq!(blender.to_gltf(Vec3::new(1.0, 2.0, 3.0)), Vec3::new(1.0, 3.0, -2.0));
        let p = Vec3::new(0.1, -2.5, 7.25);
        for up in Axis::ALL {
            for front in Axis::ALL {
                let Some(axes) = Axes::new(up, front) else {
                    assert!(up.parallel(front), "{up} {front}");
                    continue;
                };
                // Up goes to +y, front to +z; back again exactly; the rotation agrees.
                assert_eq!(axes.to_gltf(up.vector()), Vec3::Y, "{up} {front}");
                assert_eq!(axes.to_gltf(front.vector()), Vec3::Z, "{up} {front}");
                assert_eq!(axes.from_gltf(axes.to_gltf(p)), p, "{up} {front}");
                assert!((axes.turn_to_gltf() * p).abs_diff_eq(axes.to_gltf(p), 1e-5), "{up} {front}");
            }
        }
    }

    #[test]
    fn axes_are_read_and_written_as_a_user_types_them() {
        for (text, axis) in [("x", Axis::PosX), ("+Y", Axis::PosY), ("-y", Axis::NegY), (" -Z ", Axis::NegZ)]
        {
            assert_eq!(Axis::parse(text), Some(axis), "{text}");
        }
        for text in ["", "w", "--x", "+-x", "xy"] {
            assert_eq!(Axis::parse(text), None, "{text}");
        }
        assert_eq!(Axis::NegY.to_string(), "-y");
        assert_eq!(Axis::PosX.to_string(), "+x");
    }
}
