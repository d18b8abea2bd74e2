//! The skin and the meshes: one glTF mesh per part of the model, on a node of its own.
//!
//! - **Skins.** Joint slot `j` is a node and its offset, glTF's inverse bind matrix. One glTF skin
//!   holds every slot when no two slots bind one bone differently; a glTF skin lists each node
//!   once (spec, "Skins"), so otherwise each part gets a skin of the slots its vertices use.
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
use super::json::{Mesh, Primitive, Skin};
use super::morphs;
use super::nodes::{Nodes, Turn, free_roots, hang};
use crate::material::Looks;
use skinning_method::model::{Model, Part};
use skinning_method::printable::printable;
use std::collections::{BTreeMap, HashSet};
use std::ops::Range;

/// How far from 1 the weights of a vertex may sum, per weight, before they are divided by their
/// sum: the glTF-Validator's own tolerance is about as tight (`gltf_import/weights.rs`).
const SUM_SLACK_PER_WEIGHT: f32 = 2e-7;

/// A glTF skin: the slots it holds, and where each slot of the model's skin is in it.
struct SkinOf {
    slots: Vec<usize>,
    index: BTreeMap<usize, usize>,
}

/// Every part as a mesh on a node, after the bones' nodes; returns each part's node (None for a
/// part without vertices).
pub fn meshes(
    file: &mut File,
    model: &Model,
    looks: &Looks,
    nodes: &Nodes,
    animated: &[bool],
    turn: Turn,
) -> Result<Vec<Option<usize>>, ExportError> {
    let all: Vec<usize> = (0..model.skin.joints().len()).collect();
    let one = skin_of(model, &all).ok();
    let shared = one.as_ref().map(|skin| write_skin(file, model, nodes, skin, turn));
    // Which material each triangle takes.
    let mut material_of = vec![None; model.triangles.len()];
    for run in &looks.materials.runs {
        let material = run.material.filter(|&m| m < looks.materials.list.len());
        let end = run.triangles.end.min(material_of.len());
        material_of[run.triangles.start.min(end)..end].fill(material);
    }
    let mut mesh_nodes = vec![None; model.parts.len()];
    let mut free = free_roots(model, nodes, animated);
    for (p, part) in model.parts.iter().enumerate().filter(|(_, part)| !part.vertices.is_empty()) {
        let morph = morphs::of_part(model, &part.vertices);
        let targets_of =
            |file: &mut File, run: &Range<usize>| morph.map(|m| morphs::targets(file, m, run.clone(), turn));
        let own;
        let (skin, slots) = match (&one, shared) {
            (Some(one), Some(shared)) => (shared, one),
            _ => {
                own = skin_of(model, &used_slots(model, part))?;
                (write_skin(file, model, nodes, &own, turn), &own)
            }
        };
        let first = part.vertices.start;
        let inside = |v: u32| part.vertices.contains(&(v as usize));
        // The triangles by material, in the order the materials first come, each group with the
        // run of vertices its corners span.
        let mut groups: Vec<(Option<usize>, Vec<u32>, Range<usize>)> = Vec::new();
        for (t, corners) in model.triangles.iter().enumerate().filter(|(_, c)| c.iter().all(|&v| inside(v))) {
            let i = match groups.iter().position(|g| g.0 == material_of[t]) {
                Some(i) => i,
                // The span starts empty (`start` past `end`) and grows with each triangle.
                None => push(&mut groups, (material_of[t], Vec::new(), Range { start: usize::MAX, end: 0 })),
            };
            let (_, indices, span) = &mut groups[i];
            indices.extend(corners);
            let (lo, hi) =
                (corners.iter().min().copied().unwrap_or(0), corners.iter().max().copied().unwrap_or(0));
            *span = span.start.min(lo as usize)..span.end.max(hi as usize + 1);
        }
        // The edges no triangle has as a side.
        let sides: HashSet<[u32; 2]> = (model.triangles.iter())
            .flat_map(|&[a, b, c]| [[a, b], [b, c], [c, a]])
            .map(|[a, b]| [a.min(b), a.max(b)])
            .collect();
        let lines: Vec<u32> = (model.edges.iter())
            .filter(|e| inside(e[0]) && inside(e[1]) && !sides.contains(&[e[0].min(e[1]), e[0].max(e[1])]))
            .flat_map(|&[a, b]| [a, b])
            .collect();
        let mut primitives = Vec::new();
        let relative = |indices: &[u32], start: usize| -> Vec<[u32; 1]> {
            indices.iter().map(|&v| [v - start as u32]).collect()
        };
        // Readers take each primitive's vertices apart, so where each material's triangles have a
        // run of vertices to themselves (as a glTF file's primitives do) each primitive gets its own
        // run, stretched to the next so every vertex is written once and in order. An edge that is
        // no triangle's side goes in with the run that holds it, as a triangle with no area (a
        // reader draws nothing there; this program's loader makes it the edge again). Otherwise the
        // primitives share the part's vertices.
        let mut order: Vec<usize> = (0..groups.len()).collect();
        order.sort_by_key(|&i| groups[i].2.start);
        let runs: Vec<Range<usize>> = (order.iter().enumerate())
            .map(|(k, &i)| {
                let start = if k == 0 { first } else { groups[i].2.start };
                start..order.get(k + 1).map_or(part.vertices.end, |&next| groups[next].2.start)
            })
            .collect();
        let mut apart = order.windows(2).all(|w| groups[w[0]].2.end <= groups[w[1]].2.start);
        for edge in lines.chunks(2) {
            let holds = |run: &Range<usize>| edge.iter().all(|&v| run.contains(&(v as usize)));
            match runs.iter().position(holds) {
                Some(k) if apart => groups[order[k]].1.extend([edge[0], edge[1], edge[1]]),
                _ => apart = false,
            }
        }
        if !groups.is_empty() && apart {
            for (&i, run) in order.iter().zip(runs) {
                let attributes = attributes(file, model, looks, run.clone(), slots, turn);
                let targets = targets_of(file, &run).unwrap_or_default();
                let indices = relative(&groups[i].1, run.start);
                let indices = Some(file.accessor(&indices, Some(ELEMENT_ARRAY_BUFFER), false));
                let material = groups[i].0;
                primitives.push(Primitive { attributes, indices, material, mode: TRIANGLES, targets });
            }
        } else {
            let attributes = attributes(file, model, looks, part.vertices.clone(), slots, turn);
            let targets = targets_of(file, &part.vertices).unwrap_or_default();
            for (material, indices, _) in &groups {
                let indices =
                    Some(file.accessor(&relative(indices, first), Some(ELEMENT_ARRAY_BUFFER), false));
                let material = *material;
                primitives.push(Primitive {
                    attributes: attributes.clone(),
                    indices,
                    material,
                    mode: TRIANGLES,
                    targets: targets.clone(),
                });
            }
            let local = relative(&lines, first);
            let loop_ = Model::line_loop(part.vertices.len());
            if groups.is_empty() && local.chunks(2).map(|e| [e[0][0], e[1][0]]).eq(loop_) {
                let mode = LINE_LOOP;
                primitives.push(Primitive { attributes, indices: None, material: None, mode, targets });
            } else if !lines.is_empty() {
                let indices = Some(file.accessor(&local, Some(ELEMENT_ARRAY_BUFFER), false));
                primitives.push(Primitive { attributes, indices, material: None, mode: LINES, targets });
            } else if groups.is_empty() {
                // Neither faces nor lines (a mesh of points, or whose triangles all have two
                // corners on one vertex): points, so that its vertices are in the file all the same.
                primitives.push(Primitive {
                    attributes,
                    indices: None,
                    material: None,
                    mode: POINTS,
                    targets,
                });
            }
        }
        let (weights, extras) = morphs::mesh_fields(morph);
        let name = part.name.clone();
        let mesh = push(&mut file.root.meshes, Mesh { name, primitives, weights, extras });
        mesh_nodes[p] = Some(hang(file, part, (mesh, skin), nodes, &mut free));
    }
    Ok(mesh_nodes)
}

/// A glTF skin's joints and inverse bind matrices; returns the skin's index.
fn write_skin(file: &mut File, model: &Model, nodes: &Nodes, skin: &SkinOf, turn: Turn) -> usize {
    let joints = model.skin.joints();
    // An inverse bind matrix's last row must be exactly 0 0 0 1 (spec, "Skins"); an offset worked
    // out as an inverse may miss it by a rounding.
    let affine = |m: glam::Mat4| glam::Mat4::from(glam::Affine3A::from_mat4(m));
    let offsets: Vec<[f32; 16]> =
        skin.slots.iter().map(|&j| affine(turn.offset(joints[j].offset)).to_cols_array()).collect();
    let inverse_bind_matrices = file.accessor(&offsets, None, false);
    // A joint's node: a bone left out (a synthetic root) is never a joint (`nodes.rs`).
    let joints = skin.slots.iter().filter_map(|&j| nodes.node_of[joints[j].bone]).collect();
    push(&mut file.root.skins, Skin { name: "skin".into(), joints, inverse_bind_matrices })
}

/// The slots the vertices of `part` use, in order.
fn used_slots(model: &Model, part: &Part) -> Vec<usize> {
    let mut used = vec![false; model.skin.joints().len()];
    for v in part.vertices.clone() {
        for influence in model.skin.influences(v) {
            used[influence.joint] = true;
        }
    }
    (0..used.len()).filter(|&j| used[j]).collect()
}

/// A glTF skin of `slots`: two slots on one bone with the same offset become one joint; with
/// different offsets they cannot be one skin, and the error names the bone.
fn skin_of(model: &Model, slots: &[usize]) -> Result<SkinOf, ExportError> {
    let joints = model.skin.joints();
    let mut skin = SkinOf { slots: Vec::new(), index: BTreeMap::new() };
    for &j in slots {
        let same_bone = skin.slots.iter().position(|&k| joints[k].bone == joints[j].bone);
        let at = match same_bone {
            Some(i) if joints[skin.slots[i]].offset.abs_diff_eq(joints[j].offset, 1e-6) => i,
            Some(_) => {
                let bone = printable(&model.skeleton.bone(joints[j].bone).name).into_owned();
                return Err(ExportError::BoundTwice { bone });
            }
            None => push(&mut skin.slots, j),
        };
        skin.index.insert(j, at);
    }
    Ok(skin)
}

/// The vertex attributes of the vertices `range`, each an accessor, by glTF name.
fn attributes(
    file: &mut File,
    model: &Model,
    looks: &Looks,
    range: Range<usize>,
    skin: &SkinOf,
    turn: Turn,
) -> BTreeMap<String, usize> {
    let mut attributes = BTreeMap::new();
    let positions: Vec<[f32; 3]> =
        model.skin.vertices()[range.clone()].iter().map(|v| turn.point(v.bind.into()).to_array()).collect();
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
        let joints: Vec<[u16; 4]> = influences.iter().map(|l| [0, 1, 2, 3].map(|i| slot(l, i).0)).collect();
        let weights: Vec<[f32; 4]> = influences.iter().map(|l| [0, 1, 2, 3].map(|i| slot(l, i).1)).collect();
        attributes.insert(format!("JOINTS_{set}"), file.accessor(&joints, Some(ARRAY_BUFFER), false));
        attributes.insert(format!("WEIGHTS_{set}"), file.accessor(&weights, Some(ARRAY_BUFFER), false));
    }
    attributes
}
