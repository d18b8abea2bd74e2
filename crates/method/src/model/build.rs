//! A [`Model`] made piece by piece, each piece checked against the others: the skeleton and the
//! skin first ([`Model::new`]), then its faces and its meshes. A loader that
//! reads a file you did not write gets an error naming what does not fit, never a model whose
//! indices point past what it has.

use super::{Axes, Model, ModelError, Part};
use crate::skeleton::Skeleton;
use crate::skin::Skin;

impl Model {
    /// Binds `skin` to `skeleton`, after checking every joint is a bone and every edge a vertex.
    pub fn new(skeleton: Skeleton, skin: Skin, edges: Vec<[u32; 2]>) -> Result<Self, ModelError> {
        for (joint, j) in skin.joints().iter().enumerate() {
            if j.bone >= skeleton.len() {
                return Err(ModelError::NoSuchBone { joint, bone: j.bone });
            }
        }
        for (edge, pair) in edges.iter().enumerate() {
            if let Some(&vertex) = pair.iter().find(|&&v| v as usize >= skin.len()) {
                return Err(ModelError::NoSuchVertex { edge, vertex });
            }
        }
        let whole = Part { name: "mesh".into(), vertices: 0..skin.len(), bone: None, skinned: true };
        Ok(Model { skeleton, skin, edges, triangles: Vec::new(), parts: vec![whole], axes: Axes::GLTF })
    }

    /// The same model with faces: `triangles`, triples of vertex indices, each checked.
    pub fn with_triangles(mut self, triangles: Vec<[u32; 3]>) -> Result<Self, ModelError> {
        for (triangle, corners) in triangles.iter().enumerate() {
            if let Some(&vertex) = corners.iter().find(|&&v| v as usize >= self.skin.len()) {
                return Err(ModelError::NoSuchTriangleVertex { triangle, vertex });
            }
        }
        self.triangles = triangles;
        Ok(self)
    }

    /// The same model, its vertices split into `parts`: consecutive runs that cover every vertex,
    /// the skinned ones first (so the skinned vertices are `0..skinned_len()`).
    pub fn with_parts(mut self, parts: Vec<Part>) -> Result<Self, ModelError> {
        let mut next = 0;
        for (i, part) in parts.iter().enumerate() {
            if part.vertices.start != next || part.vertices.end < part.vertices.start {
                return Err(ModelError::BadParts(format!("part {i} does not start at vertex {next}")));
            }
            if part.skinned && parts[..i].iter().any(|p| !p.skinned) {
                return Err(ModelError::BadParts(format!("skinned part {i} comes after a rigid one")));
            }
            if part.bone.is_some_and(|b| b >= self.skeleton.len()) {
                return Err(ModelError::BadParts(format!("part {i} hangs on a bone that does not exist")));
            }
            next = part.vertices.end;
        }
        if next != self.skin.len() {
            return Err(ModelError::BadParts(format!("they cover {next} of {} vertices", self.skin.len())));
        }
        self.parts = parts;
        Ok(self)
    }
}
