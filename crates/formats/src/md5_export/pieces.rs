//! The model's parts become MD5 meshes: one per part, or, where a part's triangles take several
//! materials, one per material. MD5 gives a mesh one shader, and a shader is one material
//! (`shaders.rs`), but a file may hold any number of meshes: so a part of several materials (glTF
//! primitives of one mesh, BrainStem's 59) is cut along them instead of losing all but its first.
//!
//! Each piece is the triangles of one material, and the part's vertices they use, each written
//! again in every piece that uses it (a vertex on the seam between two materials is two MD5
//! vertices, as an engine splits it too). The part's triangles without a material, its edges that
//! no triangle has as a side (written as flat triangles: `md5_export.rs`), and the vertices no
//! triangle uses go with the first piece, so every vertex is written at least once.

use super::error::ExportError;
use crate::material::Looks;
use skinning_method::model::Model;
use std::collections::BTreeSet;

/// One MD5 mesh to write.
pub struct Piece {
    /// The part it comes from, by index into `model.parts`.
    pub part: usize,
    /// Its material, if it has one.
    pub material: Option<usize>,
    /// The skin's vertices it writes, in order: its vertex `i` is the skin's `vertices[i]`.
    pub vertices: Vec<usize>,
    /// Its triangles, the skin's vertex numbers, counter-clockwise as the model has them.
    pub triangles: Vec<[u32; 3]>,
}

/// Every part's pieces, in the parts' order; `extra` are the flat triangles of lone edges.
pub fn pieces(model: &Model, looks: &Looks, extra: &[[u32; 3]]) -> Result<Vec<Piece>, ExportError> {
    let materials = &looks.materials;
    // Each of the model's triangles' material, from the runs.
    let mut material_of = vec![None; model.triangles.len()];
    for run in &materials.runs {
        let Some(m) = run.material.filter(|&m| m < materials.list.len()) else { continue };
        let end = run.triangles.end.min(material_of.len());
        material_of[run.triangles.start.min(end)..end].iter_mut().for_each(|slot| *slot = Some(m));
    }
    let mut out = Vec::with_capacity(model.parts.len());
    for (p, part) in model.parts.iter().enumerate() {
        let inside = |v: u32| part.vertices.contains(&(v as usize));
        let tagged = (model.triangles.iter().zip(&material_of))
            .map(|(t, &m)| (t, m))
            .chain(extra.iter().map(|t| (t, None)))
            .filter(|(t, _)| inside(t[0]));
        // The materials in the order they first come; the triangles of each.
        let mut used: Vec<Option<usize>> = Vec::new();
        let mut triangles: Vec<Vec<[u32; 3]>> = Vec::new();
        let mut plain = Vec::new();
        for (t, m) in tagged {
            if t.iter().any(|&v| !inside(v)) {
                return Err(ExportError::TriangleAcrossMeshes { mesh: part.name.clone(), corners: *t });
            }
            match m {
                None => plain.push(*t),
                Some(_) => match used.iter().position(|&u| u == m) {
                    Some(i) => triangles[i].push(*t),
                    None => {
                        used.push(m);
                        triangles.push(vec![*t]);
                    }
                },
            }
        }
        if used.len() <= 1 {
            let material = used.first().copied().flatten();
            let mut all = triangles.pop().unwrap_or_default();
            all.extend(plain);
            out.push(Piece { part: p, material, vertices: part.vertices.clone().collect(), triangles: all });
            continue;
        }
        triangles[0].extend(plain);
        let mut written = vec![false; part.vertices.len()];
        let first = out.len();
        for (material, triangles) in used.into_iter().zip(triangles) {
            let vertices: BTreeSet<usize> = triangles.iter().flatten().map(|&v| v as usize).collect();
            vertices.iter().for_each(|&v| written[v - part.vertices.start] = true);
            out.push(Piece { part: p, material, vertices: vertices.into_iter().collect(), triangles });
        }
        let lone = (part.vertices.clone()).filter(|&v| !written[v - part.vertices.start]);
        let mut vertices: BTreeSet<usize> = out[first].vertices.iter().copied().collect();
        vertices.extend(lone);
        out[first].vertices = vertices.into_iter().collect();
    }
    Ok(out)
}
