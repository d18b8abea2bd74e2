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
//! has one influence, weight 1. Rigid vertices come after all the skinned ones. A file may have
//! no skin at all (a mesh animated by its morph targets alone, a static prop): every mesh is then
//! rigid, and the model is shown all the same. One whose shown scene holds no mesh loads with
//! nothing to draw ([`nothing_to_draw`] says why, for `--info`).
//!
//! Vertices are taken in file order: skinned mesh nodes by node index, then their primitives in
//! order, then the vertices; then the rigid meshes the same way. Only nodes in the shown scene count.
//! Each primitive's triangles (or lines) become edges, shared edges drawn once; its triangles are
//! also kept as faces, each turned counter-clockwise as the spec orders strips and fans
//! (`edges.rs`). A primitive without JOINTS_0 and WEIGHTS_0 on a node with a skin is drawn rigidly
//! with its node, as three.js draws it, and said once. Its
//! `NORMAL`s, if every primitive has them, become the skin's bind normals (`normals.rs`); its
//! morph targets, the mesh's [`MeshMorph`] (`morphs.rs`).

use super::accessors::read_floats;
use super::edges::edges;
use super::error::{ImportError, counted, label};
use super::materials::Looks;
use super::morphs::Morphs;
use super::nodes::Nodes;
use super::normals::Normals;
use super::skins::{SkinSlots, rest_palette};
use super::weights::{Mended, has_skin_data, influences, weight_sets};
use glam::{Mat4, Vec3};
use gltf::mesh::Semantic;
use skinning_method::blend::{Linear, blend_vertex};
use skinning_method::model::Part;
use skinning_method::morph::MeshMorph;
use skinning_method::skin::{Joint, Skin};

/// The vertices of every mesh as one skin, with their edges and parts.
pub struct Meshes {
    pub skin: Skin,
    pub edges: Vec<[u32; 2]>,
    pub triangles: Vec<[u32; 3]>,
    pub parts: Vec<Part>,
    /// The morph targets of the meshes that have them, each over its part's vertices.
    pub morphs: Vec<MeshMorph>,
    /// Their texture coordinates and which triangles take which material (`materials.rs`).
    pub looks: Looks,
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
    // A node with a skin whose mesh has a primitive with skin data; the primitives without it are
    // drawn rigidly with their node, as if it had no skin (as three.js draws them).
    let any = |n: &gltf::Node, skin_data: bool| {
        n.mesh().is_some_and(|m| m.primitives().any(|p| has_skin_data(&p) == skin_data))
    };
    let skinned_node = |n: &gltf::Node| n.skin().is_some() && any(n, true);
    let rigid_node = |n: &gltf::Node| n.skin().is_none() || any(n, false);
    let skinned: Vec<gltf::Node> = nodes.shown_meshes(document).filter(skinned_node).collect();
    let rigid: Vec<gltf::Node> = nodes.shown_meshes(document).filter(rigid_node).collect();

    // A rigid mesh's joint: its node, with the offset that undoes the node's rest world transform.
    let rest_world = &nodes.rest_world;
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
    let palette = rest_palette(document, rest_world, &joints, skins)?;
    let mut out = Meshes {
        skin: Skin::new(joints),
        edges: Vec::new(),
        triangles: Vec::new(),
        parts: Vec::new(),
        morphs: Vec::new(),
        looks: Looks::default(),
    };
    let mut mended = Mended::default();
    let mut normals = Normals::default();
    let mut morphs = Morphs::default();
    // Primitives without skin data on nodes with a skin, drawn rigidly.
    let mut unskinned = 0;
    for node in &skinned {
        let (mesh, skin) = (node.mesh(), node.skin());
        let (Some(mesh), Some(skin)) = (mesh, skin) else { continue };
        let slots = &skins[skin.index()].joints;
        let first = out.skin.len();
        morphs.begin(&mesh, node, first);
        for primitive in mesh.primitives().filter(has_skin_data) {
            let place = Place::new(&mesh, &primitive);
            let positions = read_positions(&primitive, buffers, &place)?;
            morphs.add(&primitive, buffers, positions.len(), Mat4::IDENTITY);
            normals.read(&primitive, buffers, &place.name, positions.len(), None)?;
            out.looks.read(&primitive, buffers, &place.name, positions.len())?;
            let sets = weight_sets(&primitive, buffers, &place.name, positions.len(), &mut mended)?;
            let base = out.skin.len();
            for (v, p) in positions.iter().enumerate() {
                let mut of_v = influences(&sets, v, slots.len(), &mut mended).map_err(|problem| {
                    ImportError::Vertex { mesh: place.name.clone(), vertex: v, problem }
                })?;
                for influence in &mut of_v {
                    influence.joint += slots.start;
                }
                add(&mut out.skin, Vec3::from(*p), &of_v, &palette, &place, v)?;
            }
            // The numbers are in the skin now: freed before the edges are made, not kept beside them.
            let vertices = positions.len();
            drop((positions, sets));
            let first_triangle = out.triangles.len();
            edges(&primitive, buffers, &place.name, base, vertices, (&mut out.edges, &mut out.triangles))?;
            out.looks.run(&primitive, first_triangle..out.triangles.len());
        }
        morphs.end();
        out.parts.push(part(&mesh, node, first..out.skin.len(), true));
    }
    for (node, joint) in rigid.iter().zip(rigid_joint) {
        let (Some(mesh), Some(joint)) = (node.mesh(), joint) else { continue };
        let first = out.skin.len();
        let to_world: Mat4 = rest_world[node.index()];
        let skin = node.skin().is_some();
        morphs.begin(&mesh, node, first);
        for primitive in mesh.primitives().filter(|p| !skin || !has_skin_data(p)) {
            unskinned += usize::from(skin);
            let place = Place::new(&mesh, &primitive);
            let positions = read_positions(&primitive, buffers, &place)?;
            morphs.add(&primitive, buffers, positions.len(), to_world);
            normals.read(&primitive, buffers, &place.name, positions.len(), Some(&to_world))?;
            out.looks.read(&primitive, buffers, &place.name, positions.len())?;
            let base = out.skin.len();
            let whole = [skinning_method::skin::Influence { joint, weight: 1.0 }];
            for (v, p) in positions.iter().enumerate() {
                let bind = to_world.transform_point3(Vec3::from(*p));
                add(&mut out.skin, bind, &whole, &palette, &place, v)?;
            }
            let vertices = positions.len();
            drop(positions);
            let first_triangle = out.triangles.len();
            edges(&primitive, buffers, &place.name, base, vertices, (&mut out.edges, &mut out.triangles))?;
            out.looks.run(&primitive, first_triangle..out.triangles.len());
        }
        morphs.end();
        out.parts.push(part(&mesh, node, first..out.skin.len(), false));
    }

    out.skin = normals.attach(out.skin, notes);
    out.morphs = morphs.finish(!out.skin.normals().is_empty(), notes);
    notes.extend(mended.notes());
    if unskinned > 0 {
        let primitives = counted(unskinned, "primitive", "primitives");
        notes.push(format!(
            "drew {primitives} without JOINTS_0 and WEIGHTS_0 on a node with a skin rigidly with that \
             node, as if it had no skin (glTF allows it; three.js does the same)"
        ));
    }
    // Two triangles that share an edge list it twice; draw it once.
    out.edges.sort_unstable();
    out.edges.dedup();
    // Kept as long as the model is shown: without the room the duplicates took.
    out.edges.shrink_to_fit();
    out.triangles.shrink_to_fit();
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
    influences: &[skinning_method::skin::Influence],
    palette: &[Mat4],
    place: &Place,
    v: usize,
) -> Result<(), ImportError> {
    skin.add_vertex(bind, influences).map_err(|e| ImportError::Vertex {
        mesh: place.name.clone(),
        vertex: v,
        problem: e.problem.to_string(),
    })?;
    let rest = blend_vertex(skin, &Linear(palette), skin.len() - 1);
    if bind.is_finite() && rest.is_finite() {
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

/// Why the shown scene has no vertex to draw, in one line that says what to do: its meshes are in
/// another scene (the first one's node named), or the file has none (what it has instead).
pub fn nothing_to_draw(document: &gltf::Document, nodes: &Nodes) -> String {
    let mut outside = nodes.with_mesh.iter().filter(|&&i| !nodes.in_scene[i]);
    if let (Some(&first), Some(scene)) = (outside.next(), &nodes.scene) {
        let node = label(first, document.nodes().nth(first).and_then(|n| n.name()));
        let others = match outside.count() {
            0 => String::new(),
            more => format!(" (and {more} more)"),
        };
        return format!(
            "the mesh on node {node}{others} is not in scene {scene}, the scene shown, which has no mesh \
             to draw; add its node to that scene"
        );
    }
    format!(
        "the file has no mesh to draw (it has {}, {}, {} and {}); give a file with a mesh",
        counted(document.nodes().count(), "node", "nodes"),
        counted(document.meshes().count(), "mesh", "meshes"),
        counted(document.skins().count(), "skin", "skins"),
        counted(document.animations().count(), "animation", "animations")
    )
}
