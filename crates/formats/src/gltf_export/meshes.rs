//! The skin and the meshes: one glTF mesh per part of the model, on a node of its own.
//!
//! - **Skins** (`skins.rs`). Joint slot `j` is a node and its offset, glTF's inverse bind matrix.
//!   One glTF skin holds every slot when no two slots bind one bone differently; a glTF skin lists
//!   each node once (spec, "Skins"), so otherwise each part gets a skin of the slots its vertices use.
//! - **Meshes.** A part's vertices are its mesh's `POSITION` (bind positions), `NORMAL`,
//!   `TEXCOORD_0` and every influence ([`Skin::influences`](skinning_method::skin::Skin::influences)): four
//!   to a `JOINTS_n` / `WEIGHTS_n` pair, as many pairs as its most influenced vertex needs. Its
//!   triangles are one `TRIANGLES` primitive per material; an edge that is no triangle's side
//!   goes in a `LINES` primitive (or, the article's outline, one `LINE_LOOP`); a part with neither
//!   is one `POINTS` primitive, so every vertex the model has is in the file.
//! - **Morph targets.** A part's targets go with its primitives, its default weights and target
//!   names with its mesh (`morphs.rs`).
//! - **Nodes.** A skinned mesh's node is a scene root: the spec ignores its transform (only the
//!   joints place the skin), and the glTF-Validator warns when such a node is not a root. A part
//!   that came from such a node (a glTF file read before: the part's bone is a root, no joint, with
//!   no child and no key of its own) hangs on it again; any other gets a node of its own. So a file
//!   read and written again has as many nodes as before, not one more per mesh each time.

use super::buffer::{ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, File, LINE_LOOP, LINES, POINTS, TRIANGLES, push};
use super::error::ExportError;
use super::json::{Mesh, Primitive};
use super::morphs;
use super::nodes::{Nodes, Turn, free_roots, hang};
use super::skins::{SkinOf, skin_of, used_slots, write_skin};
use crate::material::Looks;
use skinning_method::model::{Model, Part};
use skinning_method::morph::MeshMorph;
use std::collections::{BTreeMap, HashSet};
use std::ops::Range;

/// How far from 1 the weights of a vertex may sum, per weight, before they are divided by their
/// sum: the glTF-Validator's own tolerance is about as tight (`gltf_import/weights.rs`).
const SUM_SLACK_PER_WEIGHT: f32 = 2e-7;

/// Every part as a mesh on a node, after the bones' nodes; returns each part's node (None for a
/// part without vertices).
pub fn meshes(
    file: &mut File,
    (model, morphs): (&Model, &[MeshMorph]),
    looks: &Looks,
    nodes: &Nodes,
    animated: &[bool],
    turn: Turn,
) -> Result<Vec<Option<usize>>, ExportError> {
    let all: Vec<usize> = (0..model.skin.joints().len()).collect();
    let one = skin_of(model, &all).ok();
    let shared = one.as_ref().map(|skin| write_skin(file, model, nodes, skin, turn));
    let material_of = material_of(model, looks);
    let mut mesh_nodes = vec![None; model.parts.len()];
    let mut free = free_roots(model, nodes, animated);
    for (p, part) in model.parts.iter().enumerate().filter(|(_, part)| !part.vertices.is_empty()) {
        let morph = morphs::of_part(morphs, &part.vertices);
        let own;
        let (skin_index, skin) = match (&one, shared) {
            (Some(one), Some(shared)) => (shared, one),
            _ => {
                own = skin_of(model, &used_slots(model, part))?;
                (write_skin(file, model, nodes, &own, turn), &own)
            }
        };
        let writing = Writing { model, looks, part, skin, morph, turn };
        let primitives = writing.primitives(file, &material_of);
        let (weights, extras) = morphs::mesh_fields(morph);
        let name = part.name.clone();
        let mesh = push(&mut file.root.meshes, Mesh { name, primitives, weights, extras });
        mesh_nodes[p] = Some(hang(file, part, mesh, skin_index, nodes, &mut free));
    }
    Ok(mesh_nodes)
}

/// Which material each of the model's triangles takes (None: plain).
fn material_of(model: &Model, looks: &Looks) -> Vec<Option<usize>> {
    let mut material_of = vec![None; model.triangles.len()];
    for run in &looks.materials.runs {
        let material = run.material.filter(|&m| m < looks.materials.list.len());
        let end = run.triangles.end.min(material_of.len());
        material_of[run.triangles.start.min(end)..end].fill(material);
    }
    material_of
}

/// A part's triangles that take one material, and the run of vertices their corners span.
struct Group {
    material: Option<usize>,
    /// Three of the model's vertex indices a triangle.
    indices: Vec<u32>,
    span: Range<usize>,
}

/// The part's triangles by material, in the order the materials first come.
fn groups(model: &Model, part: &Part, material_of: &[Option<usize>]) -> Vec<Group> {
    let inside = |v: u32| part.vertices.contains(&(v as usize));
    let mut groups: Vec<Group> = Vec::new();
    for (t, corners) in model.triangles.iter().enumerate().filter(|(_, c)| c.iter().all(|&v| inside(v))) {
        let material = material_of[t];
        let i = match groups.iter().position(|g| g.material == material) {
            Some(i) => i,
            // The span starts empty (`start` past `end`) and grows with each triangle.
            None => {
                let span = Range { start: usize::MAX, end: 0 };
                push(&mut groups, Group { material, indices: Vec::new(), span })
            }
        };
        let group = &mut groups[i];
        group.indices.extend(corners);
        let lo = corners.iter().min().copied().unwrap_or(0) as usize;
        let hi = corners.iter().max().copied().unwrap_or(0) as usize;
        group.span = group.span.start.min(lo)..group.span.end.max(hi + 1);
    }
    groups
}

/// The part's edges that no triangle has as a side, two vertex indices each.
fn lone_lines(model: &Model, part: &Part) -> Vec<u32> {
    let inside = |v: u32| part.vertices.contains(&(v as usize));
    let sides: HashSet<[u32; 2]> = (model.triangles.iter())
        .flat_map(|&[a, b, c]| [[a, b], [b, c], [c, a]])
        .map(|[a, b]| [a.min(b), a.max(b)])
        .collect();
    (model.edges.iter())
        .filter(|e| inside(e[0]) && inside(e[1]) && !sides.contains(&[e[0].min(e[1]), e[0].max(e[1])]))
        .flat_map(|&[a, b]| [a, b])
        .collect()
}

/// Readers take each primitive's vertices apart, so where each material's triangles have a run of
/// vertices to themselves (as a glTF file's primitives do) each primitive gets its own run,
/// stretched to the next so every vertex is written once and in order. An edge that is no
/// triangle's side goes in with the run that holds it, as a triangle with no area (a reader draws
/// nothing there; this program's loader makes it the edge again). Returns each group's run, in
/// the runs' order; None when the primitives share the part's vertices.
fn own_runs(groups: &mut [Group], lines: &[u32], part: &Part) -> Option<Vec<OwnRun>> {
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_by_key(|&i| groups[i].span.start);
    let runs: Vec<Range<usize>> = (order.iter().enumerate())
        .map(|(k, &i)| {
            let start = if k == 0 { part.vertices.start } else { groups[i].span.start };
            start..order.get(k + 1).map_or(part.vertices.end, |&next| groups[next].span.start)
        })
        .collect();
    let mut apart = order.windows(2).all(|w| groups[w[0]].span.end <= groups[w[1]].span.start);
    for edge in lines.chunks(2) {
        let holds = |run: &Range<usize>| edge.iter().all(|&v| run.contains(&(v as usize)));
        match runs.iter().position(holds) {
            Some(k) if apart => groups[order[k]].indices.extend([edge[0], edge[1], edge[1]]),
            _ => apart = false,
        }
    }
    let own = order.into_iter().zip(runs).map(|(group, vertices)| OwnRun { group, vertices });
    (!groups.is_empty() && apart).then(|| own.collect())
}

/// The run of vertices a group's primitive has to itself.
struct OwnRun {
    /// The group's index.
    group: usize,
    vertices: Range<usize>,
}

/// The vertex indices `indices` counted from the vertex `start`, as an accessor wants them.
fn relative(indices: &[u32], start: usize) -> Vec<[u32; 1]> {
    indices.iter().map(|&v| [v - start as u32]).collect()
}

/// One part on its way into the file: what its primitives are written from.
struct Writing<'a> {
    model: &'a Model,
    looks: &'a Looks,
    part: &'a Part,
    /// The glTF skin whose joints its influences name.
    skin: &'a SkinOf,
    morph: Option<&'a MeshMorph>,
    turn: Turn,
}

impl Writing<'_> {
    /// The part's primitives: its triangles by material, then its lone lines, each primitive on a
    /// run of vertices of its own where it can be ([`own_runs`]), else all on the part's vertices.
    fn primitives(&self, file: &mut File, material_of: &[Option<usize>]) -> Vec<Primitive> {
        let mut groups = groups(self.model, self.part, material_of);
        let lines = lone_lines(self.model, self.part);
        match own_runs(&mut groups, &lines, self.part) {
            Some(runs) => self.on_own_runs(file, &groups, runs),
            None => self.on_shared(file, &groups, &lines),
        }
    }

    /// One `TRIANGLES` primitive per group, each with the attributes of its own run.
    fn on_own_runs(&self, file: &mut File, groups: &[Group], runs: Vec<OwnRun>) -> Vec<Primitive> {
        let mut primitives = Vec::new();
        for OwnRun { group, vertices } in runs {
            let attributes = self.attributes(file, vertices.clone());
            let targets = self.targets(file, &vertices);
            let indices = relative(&groups[group].indices, vertices.start);
            let indices = Some(file.accessor(&indices, Some(ELEMENT_ARRAY_BUFFER), false));
            let material = groups[group].material;
            primitives.push(Primitive { attributes, indices, material, mode: TRIANGLES, targets });
        }
        primitives
    }

    /// The part's vertices written once, shared by a `TRIANGLES` primitive per group and one for
    /// the lone lines (a `LINE_LOOP` for the article's outline); `POINTS` where it has neither.
    fn on_shared(&self, file: &mut File, groups: &[Group], lines: &[u32]) -> Vec<Primitive> {
        let mut primitives = Vec::new();
        let first = self.part.vertices.start;
        let attributes = self.attributes(file, self.part.vertices.clone());
        let targets = self.targets(file, &self.part.vertices);
        for group in groups {
            let indices =
                Some(file.accessor(&relative(&group.indices, first), Some(ELEMENT_ARRAY_BUFFER), false));
            let material = group.material;
            primitives.push(Primitive {
                attributes: attributes.clone(),
                indices,
                material,
                mode: TRIANGLES,
                targets: targets.clone(),
            });
        }
        let local = relative(lines, first);
        let loop_ = Model::line_loop(self.part.vertices.len());
        if groups.is_empty() && local.chunks(2).map(|e| [e[0][0], e[1][0]]).eq(loop_) {
            let mode = LINE_LOOP;
            primitives.push(Primitive { attributes, indices: None, material: None, mode, targets });
        } else if !lines.is_empty() {
            let indices = Some(file.accessor(&local, Some(ELEMENT_ARRAY_BUFFER), false));
            primitives.push(Primitive { attributes, indices, material: None, mode: LINES, targets });
        } else if groups.is_empty() {
            // Neither faces nor lines (a mesh of points, or whose triangles all have two corners
            // on one vertex): points, so that its vertices are in the file all the same.
            primitives.push(Primitive { attributes, indices: None, material: None, mode: POINTS, targets });
        }
        primitives
    }

    /// The morph targets of the vertices `run`, if the part has any.
    fn targets(&self, file: &mut File, run: &Range<usize>) -> Vec<BTreeMap<String, usize>> {
        self.morph.map(|m| morphs::targets(file, m, run.clone(), self.turn)).unwrap_or_default()
    }

    /// The vertex attributes of the vertices `range`, each an accessor, by glTF name.
    fn attributes(&self, file: &mut File, range: Range<usize>) -> BTreeMap<String, usize> {
        let Writing { model, looks, skin, turn, .. } = *self;
        let mut attributes = BTreeMap::new();
        let positions: Vec<[f32; 3]> =
            model.skin.bind()[range.clone()].iter().map(|&p| turn.point(p.into()).to_array()).collect();
        attributes.insert("POSITION".into(), file.accessor(&positions, Some(ARRAY_BUFFER), true));
        if let Some(normals) = model.skin.normals().get(range.clone()) {
            let normals: Vec<[f32; 3]> = normals.iter().map(|&n| turn.point(n.into()).to_array()).collect();
            attributes.insert("NORMAL".into(), file.accessor(&normals, Some(ARRAY_BUFFER), false));
        }
        if let Some(uv) = looks.texcoords.get(range.clone()) {
            let uv: Vec<[f32; 2]> = uv.iter().map(|t| t.to_array()).collect();
            attributes.insert("TEXCOORD_0".into(), file.accessor(&uv, Some(ARRAY_BUFFER), false));
        }
        // Every influence, two on one joint made one (the same matrix: their weights add).
        let influences: Vec<Vec<(u16, f32)>> = range
            .map(|v| {
                let mut merged: Vec<(u16, f32)> = Vec::new();
                for influence in model.skin.influences(v) {
                    let joint = skin.index[&influence.joint] as u16;
                    match merged.iter_mut().find(|(j, _)| *j == joint) {
                        Some((_, w)) => *w += influence.weight,
                        None => merged.push((joint, influence.weight)),
                    }
                }
                let sum: f32 = merged.iter().map(|(_, w)| w).sum();
                if (sum - 1.0).abs() > SUM_SLACK_PER_WEIGHT * merged.len() as f32 {
                    merged.iter_mut().for_each(|(_, w)| *w /= sum);
                }
                merged
            })
            .collect();
        let sets = influences.iter().map(Vec::len).max().unwrap_or(1).div_ceil(4).max(1);
        for set in 0..sets {
            let slot = |list: &Vec<(u16, f32)>, i: usize| list.get(4 * set + i).copied().unwrap_or((0, 0.0));
            let joints: Vec<[u16; 4]> =
                influences.iter().map(|l| [0, 1, 2, 3].map(|i| slot(l, i).0)).collect();
            let weights: Vec<[f32; 4]> =
                influences.iter().map(|l| [0, 1, 2, 3].map(|i| slot(l, i).1)).collect();
            attributes.insert(format!("JOINTS_{set}"), file.accessor(&joints, Some(ARRAY_BUFFER), false));
            attributes.insert(format!("WEIGHTS_{set}"), file.accessor(&weights, Some(ARRAY_BUFFER), false));
        }
        attributes
    }
}
