//! A primitive's `NORMAL` becomes the skin's bind normals (spec, "Meshes": unit XYZ vectors, one
//! per vertex, in the space of `POSITION`).
//!
//! A skinned mesh's normals are taken as they are, like its positions: the joints move both. A
//! rigid mesh's positions are placed by its node's rest world transform (`primitives.rs`), so its
//! normals are moved by that transform's inverse transpose (`normals.rs` says why). The skin holds
//! a normal for every vertex or none at all: if a primitive lacks `NORMAL` while others have it, or
//! one is not a direction, the whole model is lit with flat normals instead, as the spec asks of a
//! mesh without normals, and a note says so.

use super::accessors::read_floats;
use super::error::ImportError;
use glam::{Mat3A, Mat4, Vec3, Vec3A};
use gltf::mesh::Semantic;
use skinning_method::normals::inverse_transpose;
use skinning_method::skin::Skin;

/// The normals read so far, in the skin's vertex order, and the first primitive without any.
#[derive(Default)]
pub struct Normals {
    values: Vec<Vec3>,
    /// Some primitive's NORMAL was read.
    any: bool,
    /// The first primitive (named as in messages) that has no NORMAL.
    lacking: Option<String>,
}

impl Normals {
    /// Reads `primitive`'s NORMAL, one per vertex of its `vertices`; a rigid mesh's are moved by
    /// `to_world`'s inverse transpose.
    pub fn read(
        &mut self,
        primitive: &gltf::Primitive,
        buffers: &[Vec<u8>],
        place: &str,
        vertices: usize,
        to_world: Option<&Mat4>,
    ) -> Result<(), ImportError> {
        let Some(accessor) = primitive.get(&Semantic::Normals) else {
            self.lacking.get_or_insert_with(|| place.to_string());
            return Ok(());
        };
        let normals = read_floats::<3>(&accessor, buffers, &format!("NORMAL of mesh {place}"))?;
        if normals.len() != vertices {
            let problem =
                format!("NORMAL has {} entries for {vertices} vertices; they must match", normals.len());
            return Err(ImportError::Mesh { mesh: place.to_string(), problem });
        }
        let turn = to_world.map_or(Mat3A::IDENTITY, |m| inverse_transpose(&Mat3A::from_mat4(*m)));
        self.values.extend(normals.iter().map(|&n| Vec3::from(turn * Vec3A::from(n))));
        self.any = true;
        Ok(())
    }

    /// `skin` with these normals, if every primitive had them and each is a direction; else `skin`
    /// as it was, to be lit with flat normals, with a note saying why where the file had some.
    pub fn attach(self, skin: Skin, notes: &mut Vec<String>) -> Skin {
        if !self.any {
            return skin;
        }
        if let Some(place) = self.lacking {
            notes.push(format!(
                "mesh {place} has no NORMAL while others have: lit with flat normals throughout"
            ));
            return skin;
        }
        let mut skin = skin;
        if let Err(e) = skin.set_normals(&self.values) {
            notes.push(format!("vertex {}'s {}: lit with flat normals throughout", e.vertex, e.problem));
        }
        skin
    }
}
