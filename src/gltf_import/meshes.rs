//! Meshes become the skin's vertices and the picture's edges (spec, "Geometry").
//!
//! A node with a `mesh` and a `skin` is a **skinned mesh**: each vertex has a bind position
//! (`POSITION`, in the space the inverse bind matrices expect) and its influences (`JOINTS_n`,
//! `WEIGHTS_n`, see `weights.rs`). The spec says to ignore that node's own transform: the joints
//! alone place the skin. A mesh is a list of **primitives**; we take the vertices of every one.
//!
//! A node with a mesh and no skin is a **rigid** mesh: it moves with its node, as a whole. That is
//! article 000's first method, "joint animation", and it fits the skin as it is: the node is a
//! joint whose offset undoes its rest world transform, and each vertex, placed by that transform,
//! has one influence, weight 1. Rigid vertices come after all the skinned ones.
//!
//! Vertices are taken in file order: skinned mesh nodes by node index, then their primitives in
//! order, then the vertices; then the rigid meshes the same way. Only nodes in the shown scene count.
//! Each primitive's triangles (or lines) become edges, shared edges drawn once; its triangles are
//! also kept as faces, each turned counter-clockwise as the spec orders strips and fans. Its
//! `NORMAL`s, if every primitive has them, become the skin's bind normals (`normals.rs`).

use super::accessors::{read_floats, read_indices};
use super::error::{ImportError, counted, label};
use super::nodes::Nodes;
use super::normals::Normals;
use super::skins::{SkinSlots, rest_palette};
use super::weights::{Mended, WeightSet, influences};
use crate::model::Part;
use crate::skin::{Joint, Skin, blend_vertices};
use glam::{Mat4, Vec3, Vec3A};
use gltf::mesh::{Mode, Semantic};

/// The vertices of every mesh as one skin, with their edges and parts.
pub struct Meshes {
    pub skin: Skin,
    pub edges: Vec<[u32; 2]>,
    pub triangles: Vec<[u32; 3]>,
    pub parts: Vec<Part>,
}

/// Reads every mesh on a node in the scene. `joints` are the skins' joint slots; one more is added
/// per rigid mesh.
pub fn meshes(
    document: &gltf::Document,
    buffers: &[Vec<u8>],
    nodes: &Nodes,
    mut joints: Vec<Joint>,
    skins: &[SkinSlots],
    notes: &mut Vec<String>,
) -> Result<Meshes, ImportError> {
    let shown = |n: &gltf::Node| nodes.in_scene[n.index()] && n.mesh().is_some();
    let skinned: Vec<gltf::Node> = document.nodes().filter(|n| shown(n) && n.skin().is_some()).collect();
    let rigid: Vec<gltf::Node> = document.nodes().filter(|n| shown(n) && n.skin().is_none()).collect();
    if skinned.is_empty() {
        // A skinned mesh the shown scene leaves out is not "no skinned mesh": say where it is.
        let mut outside = document.nodes().filter(|n| n.mesh().is_some() && n.skin().is_some());
        if let (Some(node), Some(scene)) = (outside.next(), &nodes.scene) {
            let more = outside.count();
            return Err(ImportError::SkinnedMeshOutsideScene {
                node: label(node.index(), node.name()),
                more,
                scene: scene.clone(),
            });
        }
        return Err(ImportError::NoSkinnedMesh(what_it_has(document)));
    }

    // A rigid mesh's joint: its node, with the offset that undoes the node's rest world transform.
    let rest_world = nodes.skeleton.rest_world();
    let mut rigid_joint = Vec::new();
    for node in &rigid {
        let offset = rest_world[node.index()].inverse();
        if offset.is_finite() {
            rigid_joint.push(Some(joints.len()));
            joints.push(Joint { bone: node.index(), offset });
        } else {
            let name = label(node.index(), node.name());
            notes.push(format!("left out the mesh on node {name}: its rest transform has a scale of 0"));
            rigid_joint.push(None);
        }
    }

    // Where each vertex lands in the rest pose must fit in 32-bit floats too (see `add`).
    let palette = rest_palette(document, &rest_world, &joints, skins)?;
    let mut out =
        Meshes { skin: Skin::new(joints), edges: Vec::new(), triangles: Vec::new(), parts: Vec::new() };
    let mut mended = Mended::default();
    let mut normals = Normals::default();
    let mut morphs = 0;
    for node in &skinned {
        let (mesh, skin) = (node.mesh(), node.skin());
        let (Some(mesh), Some(skin)) = (mesh, skin) else { continue };
        let slots = &skins[skin.index()].joints;
        let first = out.skin.len();
        for primitive in mesh.primitives() {
            let place = Place::new(&mesh, &primitive);
            morphs += primitive.morph_targets().count().min(1);
            let positions = read_positions(&primitive, buffers, &place)?;
            normals.read(&primitive, buffers, &place.name, positions.len(), None)?;
            let sets = weight_sets(&primitive, buffers, &place, positions.len())?;
            let base = out.skin.len();
            for (v, p) in positions.iter().enumerate() {
                let (mut slots_of_v, n) =
                    influences(&sets, v, slots.len(), &mut mended).map_err(|problem| {
                        ImportError::Vertex { mesh: place.name.clone(), vertex: v, problem }
                    })?;
                for influence in &mut slots_of_v[..n] {
                    influence.joint += slots.start;
                }
                add(&mut out.skin, Vec3::from(*p), &slots_of_v[..n], &palette, &place, v)?;
            }
            edges(&primitive, buffers, &place, base, positions.len(), &mut out)?;
        }
        out.parts.push(part(&mesh, node, first..out.skin.len(), true));
    }
    for (node, joint) in rigid.iter().zip(rigid_joint) {
        let (Some(mesh), Some(joint)) = (node.mesh(), joint) else { continue };
        let first = out.skin.len();
        let to_world: Mat4 = rest_world[node.index()];
        for primitive in mesh.primitives() {
            let place = Place::new(&mesh, &primitive);
            morphs += primitive.morph_targets().count().min(1);
            let positions = read_positions(&primitive, buffers, &place)?;
            normals.read(&primitive, buffers, &place.name, positions.len(), Some(&to_world))?;
            let base = out.skin.len();
            let whole = [crate::skin::Influence { joint, weight: 1.0 }];
            for (v, p) in positions.iter().enumerate() {
                let bind = to_world.transform_point3(Vec3::from(*p));
                add(&mut out.skin, bind, &whole, &palette, &place, v)?;
            }
            edges(&primitive, buffers, &place, base, positions.len(), &mut out)?;
        }
        out.parts.push(part(&mesh, node, first..out.skin.len(), false));
    }

    out.skin = normals.attach(out.skin, notes);
    if mended.renormalised > 0 {
        let (n, worst) = (mended.renormalised, mended.worst_sum);
        let vertices = counted(n, "vertex", "vertices");
        notes.push(format!(
            "renormalised the weights of {vertices} that did not sum to 1 (worst sum {worst})"
        ));
    }
    if mended.trimmed > 0 {
        let vertices = counted(mended.trimmed, "vertex", "vertices");
        notes
            .push(format!("{vertices} had more than 4 influences (JOINTS_1...); kept the 4 largest of each"));
    }
    if morphs > 0 {
        let primitives = counted(morphs, "primitive", "primitives");
        notes.push(format!("ignored the morph targets of {primitives}: only joints move the mesh here"));
    }
    // Two triangles that share an edge list it twice; draw it once.
    out.edges.sort_unstable();
    out.edges.dedup();
    Ok(out)
}

/// A primitive named in messages: its mesh and its index in the mesh.
struct Place {
    name: String,
}

impl Place {
    fn new(mesh: &gltf::Mesh, primitive: &gltf::Primitive) -> Place {
        Place { name: format!("{} primitive {}", label(mesh.index(), mesh.name()), primitive.index()) }
    }
}

fn part(mesh: &gltf::Mesh, node: &gltf::Node, vertices: std::ops::Range<usize>, skinned: bool) -> Part {
    let name = mesh.name().or(node.name()).map_or_else(|| format!("mesh{}", mesh.index()), str::to_string);
    Part { name, vertices, bone: Some(node.index()), skinned }
}

/// Adds vertex `v` of `place` to the skin, after checking that it stays within 32-bit floats in
/// the rest pose: its bind position (a rigid mesh's is moved by its node's world transform) and
/// where the rest `palette` blends it, which every frame of a still model repeats.
fn add(
    skin: &mut Skin,
    bind: Vec3,
    influences: &[crate::skin::Influence],
    palette: &[Mat4],
    place: &Place,
    v: usize,
) -> Result<(), ImportError> {
    skin.add_vertex(bind, influences).map_err(|e| ImportError::Vertex {
        mesh: place.name.clone(),
        vertex: v,
        problem: e.problem.to_string(),
    })?;
    let mut rest = [Vec3A::ZERO];
    blend_vertices(&skin.vertices()[skin.len() - 1..], palette, &mut rest);
    if bind.is_finite() && rest[0].is_finite() {
        return Ok(());
    }
    let problem = format!(
        "vertex {v}'s position in the rest pose overflows 32-bit floats; the file's numbers are too \
         large, scale the model down"
    );
    Err(ImportError::Mesh { mesh: place.name.clone(), problem })
}

fn read_positions(
    primitive: &gltf::Primitive,
    buffers: &[Vec<u8>],
    place: &Place,
) -> Result<Vec<[f32; 3]>, ImportError> {
    let Some(accessor) = primitive.get(&Semantic::Positions) else {
        return Err(ImportError::Mesh { mesh: place.name.clone(), problem: "it has no POSITION".into() });
    };
    read_floats::<3>(&accessor, buffers, &format!("POSITION of mesh {}", place.name))
}

/// Every JOINTS_n / WEIGHTS_n pair, n = 0, 1, ... while both are there, each one entry per vertex.
fn weight_sets(
    primitive: &gltf::Primitive,
    buffers: &[Vec<u8>],
    place: &Place,
    vertices: usize,
) -> Result<Vec<WeightSet>, ImportError> {
    let mut sets = Vec::new();
    for n in 0.. {
        let (Some(j), Some(w)) = (primitive.get(&Semantic::Joints(n)), primitive.get(&Semantic::Weights(n)))
        else {
            break;
        };
        let joints = read_indices::<4>(&j, buffers, &format!("JOINTS_{n} of mesh {}", place.name))?;
        let weights = read_floats::<4>(&w, buffers, &format!("WEIGHTS_{n} of mesh {}", place.name))?;
        if joints.len() != vertices || weights.len() != vertices {
            let problem = format!(
                "JOINTS_{n} has {}, WEIGHTS_{n} {} entries for {vertices} vertices; they must match",
                joints.len(),
                weights.len()
            );
            return Err(ImportError::Mesh { mesh: place.name.clone(), problem });
        }
        sets.push(WeightSet { joints, weights });
    }
    if sets.is_empty() {
        let problem = "its node has a skin, but it has no JOINTS_0 and WEIGHTS_0".into();
        return Err(ImportError::Mesh { mesh: place.name.clone(), problem });
    }
    Ok(sets)
}

/// The primitive's lines, as pairs of the skin's vertex indices (its own plus `base`), and its
/// triangles as faces.
fn edges(
    primitive: &gltf::Primitive,
    buffers: &[Vec<u8>],
    place: &Place,
    base: usize,
    vertices: usize,
    out: &mut Meshes,
) -> Result<(), ImportError> {
    // Without indices, the vertices are used in order (spec, "Meshes").
    let indices: Vec<u32> = match primitive.indices() {
        Some(accessor) => {
            let usage = format!("indices of mesh {}", place.name);
            read_indices::<1>(&accessor, buffers, &usage)?.into_iter().map(|[i]| i).collect()
        }
        None => (0..vertices as u32).collect(),
    };
    if let Some(i) = indices.iter().find(|&&i| i as usize >= vertices) {
        let problem = format!("index {i} is past its last vertex ({})", vertices - 1);
        return Err(ImportError::Mesh { mesh: place.name.clone(), problem });
    }
    let too_many =
        || ImportError::Mesh { mesh: place.name.clone(), problem: "more than 2^32 vertices".into() };
    let base = u32::try_from(base + vertices).map_err(|_| too_many())? - vertices as u32;
    let (edges, faces) = (&mut out.edges, &mut out.triangles);
    let mut line = |a: u32, b: u32| {
        if a != b {
            edges.push([base + a.min(b), base + a.max(b)]);
        }
    };
    // A triangle's three edges, and the triangle itself unless two corners are one vertex.
    let mut triangle = |a: u32, b: u32, c: u32| {
        line(a, b);
        line(b, c);
        line(c, a);
        if a != b && b != c && c != a {
            faces.push([base + a, base + b, base + c]);
        }
    };
    let n = indices.len();
    match primitive.mode() {
        Mode::Points => {}
        Mode::Lines => indices.chunks_exact(2).for_each(|l| line(l[0], l[1])),
        Mode::LineStrip => indices.windows(2).for_each(|l| line(l[0], l[1])),
        Mode::LineLoop => {
            indices.windows(2).for_each(|l| line(l[0], l[1]));
            if n > 2 {
                line(indices[n - 1], indices[0]);
            }
        }
        Mode::Triangles => indices.chunks_exact(3).for_each(|t| triangle(t[0], t[1], t[2])),
        // Every other triangle of a strip is turned the other way round; swap two corners back.
        Mode::TriangleStrip => indices.windows(3).enumerate().for_each(|(i, t)| match i % 2 {
            0 => triangle(t[0], t[1], t[2]),
            _ => triangle(t[1], t[0], t[2]),
        }),
        Mode::TriangleFan => indices[1.min(n)..].windows(2).for_each(|t| triangle(indices[0], t[0], t[1])),
    }
    Ok(())
}

/// What a file without a skinned mesh has instead, for the message.
fn what_it_has(document: &gltf::Document) -> String {
    format!(
        "it has {}, {}, {} and {}",
        counted(document.nodes().count(), "node", "nodes"),
        counted(document.meshes().count(), "mesh", "meshes"),
        counted(document.skins().count(), "skin", "skins"),
        counted(document.animations().count(), "animation", "animations")
    )
}
