//! Weights become the skin: article 002's first formula gives each vertex its bind position once,
//! and the weights become the article's influences, which its second formula blends every frame.
//!
//! An MD5 vertex has no position of its own. It names a run of weights, each a joint, a **bias**
//! and a position in that joint's space. Carried out of the joint's space by the joint's bind-pose
//! transform (rotate, then add), each weight says where the vertex is; the bias-weighted sum is
//! the vertex (article 002's first formula):
//!
//! ```text
//! bind = Σ bias_i · (joint_i.position + joint_i.orientation ⊗ weight_i.position)
//! ```
//!
//! Computed here, once, with the md5mesh's joints, that is the article's **bind position**; the
//! influences are `(joint_i, bias_i)`. Every frame then moves the vertex the article's way (seed
//! 002, line 219): `Σ bias_i · (world_i · offset_i) · bind`. `agreement.rs` measures how well the
//! two agree for a given file.
//!
//! Every weight of bias above 0 becomes an influence, however many a vertex has (the skin keeps the
//! fifth and later beside its four slots, `skin/extras.rs`): the second formula then sums the same
//! weights as the first, which is what makes them agree (`agreement.rs`). The skin is stricter than
//! files: a weight of bias 0 moves nothing and is dropped; biases are divided by their sum, which
//! exporters round, and how many vertices needed it is said once. The bind position uses every
//! weight as it is, as Doom 3 does. Doom 3 winds triangles clockwise seen from the front; the model's are
//! counter-clockwise (glTF's rule), so each triangle's last two corners swap.

use super::error::Md5Error;
use super::mesh_file::{FileWeight, MeshFile};
use crate::gltf_import::counted;
use glam::Vec3;
use skinning_method::model::Part;
use skinning_method::skin::{Influence, Joint, Skin, WEIGHT_SUM_TOLERANCE};
use std::ops::Range;

/// Every mesh's vertices as one skin, with their triangles, edges and parts.
pub struct Vertices {
    pub skin: Skin,
    /// Each vertex's `( s t )`, as the file has it.
    pub texcoords: Vec<glam::Vec2>,
    pub triangles: Vec<[u32; 3]>,
    pub edges: Vec<[u32; 2]>,
    pub parts: Vec<Part>,
    /// Each mesh's run of `triangles`.
    pub triangle_runs: Vec<Range<usize>>,
    pub stored: StoredWeights,
}

/// The weights as the file stores them, vertex by vertex: what the article replaces with one bind
/// position per vertex and one offset per joint.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StoredWeights {
    /// Every mesh's weights, one mesh after the other, in file order.
    pub weights: Vec<FileWeight>,
    /// Vertex `v` of the model (mesh after mesh) has `weights[runs[v].clone()]`.
    pub runs: Vec<Range<usize>>,
}

impl StoredWeights {
    /// The weights of the model's vertex `v`, as stored.
    pub fn of(&self, v: usize) -> &[FileWeight] {
        &self.weights[self.runs[v].clone()]
    }
}

/// What the file's weights needed to become the skin's influences, said once.
#[derive(Default)]
struct Mended {
    renormalised: usize,
    worst_sum: f64,
}

/// Every vertex of every mesh, in file order; `joints` are the skin's (joint `i` on bone `i`).
pub fn vertices(file: &MeshFile, joints: Vec<Joint>, notes: &mut Vec<String>) -> Result<Vertices, Md5Error> {
    let bind_world: Vec<(Vec3, glam::Quat)> =
        file.joints.iter().map(|j| (j.position, j.orientation)).collect();
    let mut out = Vertices {
        skin: Skin::new(joints),
        texcoords: Vec::new(),
        triangles: Vec::new(),
        edges: Vec::new(),
        parts: Vec::with_capacity(file.meshes.len()),
        triangle_runs: Vec::with_capacity(file.meshes.len()),
        stored: StoredWeights::default(),
    };
    let mut mended = Mended::default();
    let mut found: Vec<Influence> = Vec::new();
    for (m, mesh) in file.meshes.iter().enumerate() {
        let first_vertex = out.skin.len();
        let first_weight = out.stored.weights.len();
        for (v, run) in mesh.verts.iter().enumerate() {
            let weights = &mesh.weights[run.clone()];
            let fail = |problem: String| Md5Error::File(format!("mesh {m}, vertex {v}: {problem}"));
            // Article 002's first formula, with the bind-pose joints: the vertex as the file means it.
            let bind: Vec3 = weights
                .iter()
                .map(|w| {
                    let (position, orientation) = bind_world[w.joint];
                    w.bias * (position + orientation * w.position)
                })
                .sum();
            if !bind.is_finite() {
                return Err(fail("its position overflows 32-bit floats; scale the model down".into()));
            }
            found.clear();
            found.extend(
                weights.iter().filter(|w| w.bias > 0.0).map(|w| Influence { joint: w.joint, weight: w.bias }),
            );
            influences(&mut found, &mut mended).map_err(fail)?;
            out.skin.add_vertex(bind, &found).map_err(|e| fail(e.problem.to_string()))?;
            out.stored.runs.push(first_weight + run.start..first_weight + run.end);
        }
        out.stored.weights.extend_from_slice(&mesh.weights);
        out.texcoords.extend(mesh.texcoords.iter().map(|&st| glam::Vec2::from(st)));

        // Triangles counter-clockwise, in the model's vertex numbers; their sides are the edges.
        let base = first_vertex as u32;
        let first_triangle = out.triangles.len();
        for &[a, b, c] in &mesh.tris {
            let (a, b, c) = (base + a, base + c, base + b);
            for (from, to) in [(a, b), (b, c), (c, a)] {
                if from != to {
                    out.edges.push([from.min(to), from.max(to)]);
                }
            }
            if a != b && b != c && c != a {
                out.triangles.push([a, b, c]);
            }
        }
        out.triangle_runs.push(first_triangle..out.triangles.len());
        let name = if mesh.shader.is_empty() { format!("mesh{m}") } else { mesh.shader.to_string() };
        out.parts.push(Part { name, vertices: first_vertex..out.skin.len(), bone: None, skinned: true });
    }
    // Two triangles that share a side list it twice; draw it once.
    out.edges.sort_unstable();
    out.edges.dedup();

    if mended.renormalised > 0 {
        let vertices = counted(mended.renormalised, "vertex", "vertices");
        // Shown as the 32-bit number it is near, unless it is past them.
        let worst = match mended.worst_sum as f32 {
            w if w.is_finite() => w.to_string(),
            _ => format!("{:.3e}", mended.worst_sum),
        };
        notes.push(format!(
            "divided the biases of {vertices} by their sum, which was not 1 (worst sum {worst})"
        ));
    }
    Ok(out)
}

/// Makes a vertex's (joint, bias) pairs into the skin's influences, every one of them, summing to 1.
/// An error if no bias is above 0.
fn influences(found: &mut [Influence], mended: &mut Mended) -> Result<(), String> {
    if found.is_empty() {
        return Err("all its biases are 0, so no joint moves it".into());
    }
    // In 64-bit floats: biases of 3e38 are finite, and their 32-bit sum is not (dividing by it
    // would make every weight 0).
    let sum: f64 = found.iter().map(|i| f64::from(i.weight)).sum();
    if (sum - 1.0).abs() > f64::from(WEIGHT_SUM_TOLERANCE) {
        if mended.renormalised == 0 || (sum - 1.0).abs() > (mended.worst_sum - 1.0).abs() {
            mended.worst_sum = sum;
        }
        mended.renormalised += 1;
    }
    for influence in found.iter_mut() {
        influence.weight = (f64::from(influence.weight) / sum) as f32;
    }
    Ok(())
}
