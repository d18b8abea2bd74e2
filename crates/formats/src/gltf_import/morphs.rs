//! Morph targets become the model's [`MeshMorph`]s (spec, "Morph Targets"; the method is `morph.rs`).
//!
//! A primitive's `targets` list its shapes: for each target, accessors of displacements, one per
//! vertex, for `POSITION` and maybe `NORMAL` (and `TANGENT`, which this program, drawing no
//! tangents, leaves out with a note). Every primitive of a mesh has the same targets in the same
//! order, so one mesh on one node is one [`MeshMorph`] over its part's run of vertices. Its weights
//! when nothing animates them are the node's `weights`, else the mesh's, else 0; its targets'
//! names, where a tool wrote them, are in the mesh's `extras.targetNames` (Blender and three.js
//! write them there; the spec names no place).
//!
//! Displacements live where their vertices do. A skinned mesh's are taken as they are. A rigid
//! mesh's positions are placed by its node's rest world transform (`primitives.rs`), so its position
//! displacements are turned and scaled by the same transform (no translation: an arrow has no
//! place), and its normal displacements by its inverse transpose, as the normals are
//! (`normals.rs`). Each normal displacement is divided by the length of its vertex's normal so
//! moved, the length the skin's unit normal was divided by: `normalize(n + Σ w Δn)` is then the same
//! direction as the file's.
//!
//! Damaged morph data (an accessor that cannot be read, a count that is not the vertices', mesh
//! weights that are not one per target, primitives with different targets) leaves that mesh's
//! targets out, drawn in its modelled shape, with a note naming what is wrong. So does a mesh
//! whose displacements (its vertices x its targets) would pass the model's budget
//! (`budget::DISPLACEMENTS`), spent before any is read: many targets may name one sparse accessor
//! of a few bytes.

use super::accessors::read_floats;
use super::error::{counted, label};
use crate::budget::{self, Budget};
use glam::{Mat3A, Mat4, Vec3, Vec3A};
use gltf::mesh::Semantic;
use skinning_method::morph::MeshMorph;
use skinning_method::normals::inverse_transpose;
use skinning_method::printable::quoted;
use std::collections::HashMap;
use std::rc::Rc;

/// The morph targets read so far, one [`MeshMorph`] per part that has them, and what to say.
pub struct Morphs {
    pub meshes: Vec<MeshMorph>,
    /// The part being read: its mesh's targets so far, or why they are left out.
    part: Option<Result<MeshMorph, String>>,
    /// Targets whose TANGENT displacements were left out.
    tangents: usize,
    /// One line per mesh whose targets were left out.
    notes: Vec<String>,
    /// The model's budget of displacements, vertices x targets (`budget.rs`).
    displacements: Budget,
}

impl Default for Morphs {
    fn default() -> Morphs {
        Morphs {
            meshes: Vec::new(),
            part: None,
            tangents: 0,
            notes: Vec::new(),
            displacements: Budget::new("morph displacements (vertices x targets)", budget::DISPLACEMENTS),
        }
    }
}

impl Morphs {
    /// Starts a part: `mesh` on `node`, its vertices from `first` on.
    pub fn begin(&mut self, mesh: &gltf::Mesh, node: &gltf::Node, first: usize) {
        let targets = mesh.primitives().map(|p| p.morph_targets().len()).max().unwrap_or(0);
        if targets == 0 {
            self.part = None;
            return;
        }
        let name = label(mesh.index(), mesh.name());
        let part = defaults(mesh, node, targets).map(|defaults| MeshMorph {
            name: mesh.name().or(node.name()).map_or_else(|| format!("mesh{}", mesh.index()), str::to_string),
            bone: node.index(),
            vertices: first..first,
            targets: target_names(mesh, targets),
            defaults,
            weights: 0..0,
            positions: Vec::new(),
            normals: Vec::new(),
        });
        self.part = Some(part.map_err(|problem| format!("mesh {name}: {problem}")));
    }

    /// Reads `primitive`'s targets for its `vertices` vertices, taken into the model's space by
    /// `to_model` (the node's rest world transform for a rigid mesh, the identity for a skinned one).
    pub fn add(&mut self, primitive: &gltf::Primitive, buffers: &[Vec<u8>], vertices: usize, to_model: Mat4) {
        let Some(Ok(part)) = &mut self.part else { return };
        let targets: Vec<gltf::mesh::MorphTarget> = primitive.morph_targets().collect();
        self.tangents += targets.iter().filter(|t| t.tangents().is_some()).count();
        // Spent before anything is read: many targets may name one small sparse accessor.
        let spent = self
            .displacements
            .spend(vertices as u64 * targets.len() as u64)
            .map_err(|why| format!("its {why}"));
        let read = spent.and_then(|()| {
            read_primitive(primitive, &targets, part.targets.len(), buffers, vertices, to_model)
        });
        match read {
            Ok((positions, normals)) => {
                // The normals of earlier primitives without any are zero displacements.
                let some_normals = normals.is_some() || !part.normals.is_empty();
                if normals.is_some() && part.normals.is_empty() {
                    part.normals = vec![Vec3A::ZERO; part.positions.len()];
                }
                part.positions.extend(positions);
                if some_normals {
                    part.normals
                        .extend(normals.unwrap_or_else(|| vec![Vec3A::ZERO; vertices * targets.len()]));
                }
                part.vertices.end += vertices;
            }
            Err(problem) => {
                let name = format!("{} primitive {}", quoted(&part.name), primitive.index());
                self.part = Some(Err(format!("mesh {name}: {problem}")));
            }
        }
    }

    /// Ends the part: its targets join the model's, or the note says why they do not.
    pub fn end(&mut self) {
        match self.part.take() {
            Some(Ok(part)) if !part.vertices.is_empty() => self.meshes.push(part),
            Some(Err(problem)) => self.notes.push(problem),
            _ => {}
        }
    }

    /// The model's morph targets, once the skin is whole: without normal displacements if the skin
    /// ended up with no normals (lit flat); the notes go to `notes`.
    pub fn finish(mut self, skin_has_normals: bool, notes: &mut Vec<String>) -> Vec<MeshMorph> {
        for problem in self.notes {
            notes.push(format!("left out the morph targets of {problem}; drawn in its modelled shape"));
        }
        if self.tangents > 0 {
            notes.push(format!(
                "left out the TANGENT displacements of {}: this program draws no tangents (it morphs \
                 positions and normals)",
                counted(self.tangents, "morph target", "morph targets")
            ));
        }
        if !skin_has_normals {
            self.meshes.iter_mut().for_each(|m| m.normals = Vec::new());
        }
        self.meshes
    }
}

/// The weights of `mesh`'s `targets` targets on `node` when nothing animates them: the node's
/// own, else the mesh's, else 0; an error if the one that applies has not one per target.
fn defaults(mesh: &gltf::Mesh, node: &gltf::Node, targets: usize) -> Result<Vec<f32>, String> {
    let (whose, weights) = match (node.weights(), mesh.weights()) {
        (Some(weights), _) => ("its node's", weights),
        (None, Some(weights)) => ("its", weights),
        (None, None) => return Ok(vec![0.0; targets]),
    };
    if weights.len() != targets {
        let numbers = counted(weights.len(), "number", "numbers");
        let targets = counted(targets, "target", "targets");
        return Err(format!("{whose} weights are {numbers} for {targets}"));
    }
    // JSON has no infinity or NaN: a number past 32-bit floats (1e39) is what reads as infinite.
    if let Some(w) = weights.iter().find(|w| !w.is_finite()) {
        return Err(format!(
            "{whose} weights hold a number beyond 32-bit floats (about 3.4e38), read as {w}"
        ));
    }
    Ok(weights.to_vec())
}

/// The names in the mesh's `extras.targetNames`, if it has one per target; else none (empty).
fn target_names(mesh: &gltf::Mesh, targets: usize) -> Vec<String> {
    let names = mesh.extras().as_ref().and_then(|raw| {
        let extras: serde_json::Value = serde_json::from_str(raw.get()).ok()?;
        let names = extras.get("targetNames")?.as_array()?;
        names.iter().map(|n| n.as_str().map(str::to_string)).collect::<Option<Vec<String>>>()
    });
    names.filter(|n| n.len() == targets).unwrap_or_else(|| vec![String::new(); targets])
}

/// Displacements per vertex and target.
type Displacements = Vec<Vec3A>;

/// One primitive's position displacements, and its normal displacements if any target has them,
/// each vertex's targets together (`MeshMorph::positions`' order), in the model's space.
fn read_primitive(
    primitive: &gltf::Primitive,
    targets: &[gltf::mesh::MorphTarget],
    expected: usize,
    buffers: &[Vec<u8>],
    vertices: usize,
    to_model: Mat4,
) -> Result<(Displacements, Option<Displacements>), String> {
    if targets.len() != expected {
        return Err(format!(
            "it has {} where the mesh's first has {expected} (glTF: every primitive has the same)",
            counted(targets.len(), "target", "targets")
        ));
    }
    let n = targets.len();
    let read = |accessor: Option<gltf::Accessor>, what: &str| -> Result<Option<Vec<Vec3>>, String> {
        let Some(accessor) = accessor else { return Ok(None) };
        let values = read_floats::<3>(&accessor, buffers, what).map_err(|e| e.to_string())?;
        if values.len() != vertices {
            return Err(format!("{what} has {} entries for {vertices} vertices", values.len()));
        }
        Ok(Some(values.into_iter().map(Vec3::from).collect()))
    };
    let mut positions = vec![Vec3A::ZERO; vertices * n];
    let mut normals: Option<Displacements> = None;
    // The file's own normals, to scale the normal displacements by (see the module's comment).
    let turn = inverse_transpose(&Mat3A::from_mat4(to_model));
    let mut lengths: Option<Vec<f32>> = None;
    // Targets a block at a time, each block's displacements then put in place vertex by vertex:
    // a vertex's targets lie side by side, so one target at a time would write a whole primitive
    // with a stride of `n` displacements. An accessor that several targets name is read once.
    let read_all = |accessor, what: &str| read(Some(accessor), what).map(Option::unwrap_or_default);
    for (block, chunk) in targets.chunks(BLOCK).enumerate() {
        let first = block * BLOCK;
        let moved = |_: usize, d: Vec3| Vec3A::from(to_model.transform_vector3(d));
        let these = read_block(chunk, first, ("POSITION", |t| t.positions()), &read_all, &moved)?;
        fill(&mut positions, n, first, &these);
        if chunk.iter().all(|t| t.normals().is_none()) {
            continue;
        }
        if lengths.is_none() {
            let base = read(primitive.get(&Semantic::Normals), "NORMAL")?.unwrap_or_default();
            lengths = Some(base.iter().map(|&n| (turn * Vec3A::from(n)).length()).collect());
        }
        let lengths = lengths.as_deref().unwrap_or_default();
        let scaled = |i: usize, d: Vec3| {
            let length = lengths.get(i).copied().filter(|&l| l > 0.0 && l.is_finite());
            length.map_or(Vec3A::ZERO, |l| turn * Vec3A::from(d) / l)
        };
        let these = read_block(chunk, first, ("NORMAL", |t| t.normals()), &read_all, &scaled)?;
        fill(normals.get_or_insert_with(|| vec![Vec3A::ZERO; vertices * n]), n, first, &these);
    }
    let finite = |d: &Vec<Vec3A>| d.iter().all(|d| d.is_finite());
    if !finite(&positions) || !normals.as_ref().is_none_or(finite) {
        return Err("a displacement, placed in the model, overflows 32-bit floats".into());
    }
    Ok((positions, normals))
}

/// What reads an accessor's displacements (`what`: whose, for a message).
type Reader<'r, 'a> = dyn Fn(gltf::Accessor<'a>, &str) -> Result<Vec<Vec3>, String> + 'r;

/// A block of targets' displacements: one list each, or none (no such attribute: zeros).
type Block = Vec<Option<Rc<Vec<Vec3A>>>>;

/// The displacements of the targets `chunk` (target `first` on) in their accessor that `which`
/// names (`what`: its attribute), each mapped by `map` (a vertex's index, its displacement): one
/// list per target, shared by the targets that name one accessor, which is read once.
fn read_block<'a>(
    chunk: &[gltf::mesh::MorphTarget<'a>],
    first: usize,
    (what, which): (&str, fn(&gltf::mesh::MorphTarget<'a>) -> Option<gltf::Accessor<'a>>),
    read: &Reader<'_, 'a>,
    map: &dyn Fn(usize, Vec3) -> Vec3A,
) -> Result<Block, String> {
    let mut once: HashMap<usize, Rc<Vec<Vec3A>>> = HashMap::new();
    (chunk.iter().enumerate())
        .map(|(k, target)| {
            let Some(accessor) = which(target) else { return Ok(None) };
            if let Some(read) = once.get(&accessor.index()) {
                return Ok(Some(read.clone()));
            }
            let index = accessor.index();
            let values = read(accessor, &format!("target {}'s {what}", first + k))?;
            let mapped = Rc::new(values.into_iter().enumerate().map(|(i, d)| map(i, d)).collect::<Vec<_>>());
            once.insert(index, mapped.clone());
            Ok(Some(mapped))
        })
        .collect()
}

/// Targets read together before their displacements are put in place ([`fill`]).
const BLOCK: usize = 64;

/// Puts the displacements of targets `first..` (`block`, one list each, or none: zeros) into
/// `all`, where vertex `i`'s target `k` is at `i * n + k`: vertex by vertex, each vertex's run of
/// targets written together.
fn fill(all: &mut [Vec3A], n: usize, first: usize, block: &Block) {
    for (i, row) in all.chunks_exact_mut(n).enumerate() {
        for (slot, target) in row[first..first + block.len()].iter_mut().zip(block) {
            if let Some(d) = target.as_ref().and_then(|t| t.get(i)) {
                *slot = *d;
            }
        }
    }
}
