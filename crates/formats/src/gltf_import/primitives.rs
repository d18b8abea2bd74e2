//! A mesh's primitives, read one after another into the one skin (spec, "Meshes"): each vertex's
//! bind position (`POSITION`), and its influences (`JOINTS_n` and `WEIGHTS_n`, `weights.rs`) or,
//! on a rigid mesh, its node's one joint at weight 1, placed by the node's rest world transform.
//! Beside them, each primitive's `NORMAL`s, if every primitive has them, become the skin's bind
//! normals (`normals.rs`); its morph targets, the mesh's [`MeshMorph`] (`morphs.rs`); its
//! `TEXCOORD_0` and material, the model's looks (`materials.rs`). Its triangles (or lines) become
//! edges, shared edges drawn once; its triangles are also kept as faces, each turned
//! counter-clockwise as the spec orders strips and fans (`edges.rs`).
//!
//! Every vertex is checked as it is added: it must stay within 32-bit floats, where the file puts
//! it and where the rest pose's palette blends it (`add`).

use super::accessors::read_floats;
use super::edges::edges;
use super::error::{ImportError, counted, label};
use super::materials::GatheredLooks;
use super::morphs::Morphs;
use super::normals::Normals;
use super::weights::{Mended, has_skin_data, influences, weight_sets};
use glam::{Mat4, Vec3};
use gltf::mesh::Semantic;
use skinning_method::blend::{Linear, blend_vertex};
use skinning_method::model::Part;
use skinning_method::morph::MeshMorph;
use skinning_method::skin::Skin;
use std::ops::Range;

/// The vertices of every mesh as one skin, with their edges and parts.
pub struct Meshes {
    pub skin: Skin,
    pub edges: Vec<[u32; 2]>,
    pub triangles: Vec<[u32; 3]>,
    pub parts: Vec<Part>,
    /// The morph targets of the meshes that have them, each over its part's vertices.
    pub morphs: Vec<MeshMorph>,
    /// Their texture coordinates and which triangles take which material (`materials.rs`).
    pub looks: GatheredLooks,
}

/// The meshes read so far, and what their primitives gather until the last one is read.
pub struct Reading<'a> {
    buffers: &'a [Vec<u8>],
    /// The rest pose's palette, which each vertex is blended by as it is added (see `add`).
    palette: Vec<Mat4>,
    out: Meshes,
    mended: Mended,
    normals: Normals,
    morphs: Morphs,
    /// Primitives without skin data on nodes with a skin, drawn rigidly.
    unskinned: usize,
}

impl<'a> Reading<'a> {
    /// Nothing read yet: `skin` has its joints and no vertex; `palette` is the rest pose's.
    pub fn new(buffers: &'a [Vec<u8>], skin: Skin, palette: Vec<Mat4>) -> Reading<'a> {
        let out = Meshes {
            skin,
            edges: Vec::new(),
            triangles: Vec::new(),
            parts: Vec::new(),
            morphs: Vec::new(),
            looks: GatheredLooks::default(),
        };
        Reading {
            buffers,
            palette,
            out,
            mended: Mended::default(),
            normals: Normals::default(),
            morphs: Morphs::default(),
            unskinned: 0,
        }
    }

    /// A skinned mesh's primitives with skin data: each vertex with its influences, whose JOINTS
    /// values are places in its skin's joint `slots`.
    pub fn skinned(
        &mut self,
        mesh: &gltf::Mesh,
        node: &gltf::Node,
        slots: &Range<usize>,
    ) -> Result<(), ImportError> {
        let first = self.out.skin.len();
        self.morphs.begin(mesh, node, first);
        for primitive in mesh.primitives().filter(has_skin_data) {
            let place = Place::new(mesh, &primitive);
            let positions = self.attributes(&primitive, &place, None)?;
            let sets = weight_sets(&primitive, self.buffers, &place.name, positions.len(), &mut self.mended)?;
            let base = self.out.skin.len();
            for (v, p) in positions.iter().enumerate() {
                let mut of_v = influences(&sets, v, slots.len(), &mut self.mended).map_err(|problem| {
                    ImportError::Vertex { mesh: place.name.clone(), vertex: v, problem }
                })?;
                for influence in &mut of_v {
                    influence.joint += slots.start;
                }
                add(&mut self.out.skin, Vec3::from(*p), &of_v, &self.palette, &place, v)?;
            }
            // The numbers are in the skin now: freed before the edges are made, not kept beside them.
            let vertices = positions.len();
            drop(positions);
            drop(sets);
            self.edges_and_faces(&primitive, &place, base, vertices)?;
        }
        self.morphs.end();
        self.out.parts.push(part(mesh, node, first..self.out.skin.len(), true));
        Ok(())
    }

    /// A rigid mesh's primitives (on a node with a skin, those without skin data): each vertex
    /// placed by its node's rest world transform `to_world`, with one influence, `joint`.
    pub fn rigid(
        &mut self,
        mesh: &gltf::Mesh,
        node: &gltf::Node,
        joint: usize,
        to_world: Mat4,
    ) -> Result<(), ImportError> {
        let first = self.out.skin.len();
        let skin = node.skin().is_some();
        self.morphs.begin(mesh, node, first);
        for primitive in mesh.primitives().filter(|p| !skin || !has_skin_data(p)) {
            self.unskinned += usize::from(skin);
            let place = Place::new(mesh, &primitive);
            let positions = self.attributes(&primitive, &place, Some(&to_world))?;
            let base = self.out.skin.len();
            let whole = [skinning_method::skin::Influence { joint, weight: 1.0 }];
            for (v, p) in positions.iter().enumerate() {
                let bind = to_world.transform_point3(Vec3::from(*p));
                add(&mut self.out.skin, bind, &whole, &self.palette, &place, v)?;
            }
            let vertices = positions.len();
            drop(positions);
            self.edges_and_faces(&primitive, &place, base, vertices)?;
        }
        self.morphs.end();
        self.out.parts.push(part(mesh, node, first..self.out.skin.len(), false));
        Ok(())
    }

    /// A primitive's positions, with its morph targets, normals and texture coordinates taken
    /// aside; a rigid mesh's moved into the model by its node's `to_world`.
    fn attributes(
        &mut self,
        primitive: &gltf::Primitive,
        place: &Place,
        to_world: Option<&Mat4>,
    ) -> Result<Vec<[f32; 3]>, ImportError> {
        let positions = read_positions(primitive, self.buffers, place)?;
        let to_model = to_world.copied().unwrap_or(Mat4::IDENTITY);
        self.morphs.add(primitive, self.buffers, positions.len(), to_model);
        self.normals.read(primitive, self.buffers, &place.name, positions.len(), to_world)?;
        self.out.looks.read(primitive, self.buffers, &place.name, positions.len())?;
        Ok(positions)
    }

    /// The primitive's lines and triangles (`edges.rs`), its `vertices` numbered from `base` in
    /// the skin, and which material its triangles take.
    fn edges_and_faces(
        &mut self,
        primitive: &gltf::Primitive,
        place: &Place,
        base: usize,
        vertices: usize,
    ) -> Result<(), ImportError> {
        let out = &mut self.out;
        let first_triangle = out.triangles.len();
        edges(primitive, self.buffers, &place.name, base, vertices, &mut out.edges, &mut out.triangles)?;
        out.looks.run(primitive, first_triangle..out.triangles.len());
        Ok(())
    }

    /// The skin with its normals, the morphs, the notes on what was mended, and each edge once.
    pub fn finish(self, notes: &mut Vec<String>) -> Meshes {
        let mut out = self.out;
        out.skin = self.normals.attach(out.skin, notes);
        out.morphs = self.morphs.finish(!out.skin.normals().is_empty(), notes);
        notes.extend(self.mended.notes());
        if self.unskinned > 0 {
            let primitives = counted(self.unskinned, "primitive", "primitives");
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
        out
    }
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
    let rest = blend_vertex(skin, skin.bind(), &Linear(palette), skin.len() - 1);
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
