//! What a file holds that this program does not use, for `--info` to say.
//!
//! The program draws a mesh's edges and vertices, the joints, and a surface lit from its normals in
//! its materials' base colour, with their base colour textures through `TEXCOORD_0`. So a
//! material's other maps (normal, metal and roughness, occlusion, emission), the vertex attributes
//! that feed them or nothing here (tangents, other texture coordinates, colours), a file's cameras,
//! and what its extensions add (lights, for one) are loaded past. So are scenes other than the one
//! shown, meshes no node of it holds, and skins no mesh of it uses. None of that changes how the
//! skeleton moves the mesh; a learner may still wonder where it went.
//! (Morph targets are used: `morphs.rs` reads them, and `--info` lists them apart.)

use super::document::READ_HERE;
use super::error::counted;
use super::nodes::Nodes;
use gltf::Semantic;
use skinning_method::printable::printable;
use std::collections::BTreeMap;

/// One short phrase per kind of thing the file has and the program leaves unused, e.g.
/// `1 camera`, `TEXCOORD_1 (in 1 primitive)`, `the extension KHR_lights_punctual`.
/// `nodes` says which nodes the shown scene holds.
pub fn unused(document: &gltf::Document, nodes: &Nodes) -> Vec<String> {
    let mut out = Vec::new();
    let mut count = |n: usize, one: &str, many: &str| {
        if n > 0 {
            out.push(counted(n, one, many));
        }
    };
    let other_maps = document
        .materials()
        .filter(|m| {
            let pbr = m.pbr_metallic_roughness();
            let maps = [m.normal_texture().is_some(), m.occlusion_texture().is_some()];
            let more = [m.emissive_texture().is_some(), pbr.metallic_roughness_texture().is_some()];
            maps.into_iter().chain(more).any(|has| has)
        })
        .count();
    count(
        other_maps,
        "material with maps other than its base colour",
        "materials with maps other than their base colour",
    );
    count(document.cameras().count(), "camera", "cameras");
    count(document.scenes().count().saturating_sub(1), "other scene", "other scenes");
    // A mesh is drawn when a node of the shown scene holds it.
    let mut shown = vec![false; document.meshes().count()];
    for node in nodes.shown_meshes(document) {
        if let Some(mesh) = node.mesh() {
            shown[mesh.index()] = true;
        }
    }
    let hidden = shown.iter().filter(|&&s| !s).count();
    count(hidden, "mesh not in the shown scene", "meshes not in the shown scene");
    let unused_skins = super::skins::used(document, nodes).iter().filter(|&&u| !u).count();
    count(unused_skins, "skin not used in the shown scene", "skins not used in the shown scene");

    // Vertex attributes other than the five read here, by name, with how many primitives have each.
    let mut attributes: BTreeMap<String, usize> = BTreeMap::new();
    for primitive in document.meshes().flat_map(|m| m.primitives()) {
        for (semantic, _) in primitive.attributes() {
            if !matches!(
                semantic,
                Semantic::Positions
                    | Semantic::Normals
                    | Semantic::TexCoords(0)
                    | Semantic::Joints(_)
                    | Semantic::Weights(_)
            ) {
                *attributes.entry(semantic.to_string()).or_default() += 1;
            }
        }
    }
    for (name, n) in attributes {
        out.push(format!("{} (in {})", printable(&name), counted(n, "primitive", "primitives")));
    }
    for extension in document.extensions_used().filter(|e| !READ_HERE.contains(e)) {
        out.push(format!("the extension {}", printable(extension)));
    }
    out
}
