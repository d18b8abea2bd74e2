//! A model out to a glTF 2.0 file, for Blender or any glTF viewer: the article's scene, or any model
//! this program loaded (glTF or MD5). The mirror of [`gltf_import`](crate::gltf_import), which reads
//! such a file back into the same model and clips.
//!
//! The article's names become glTF's (spec, "glTF 2.0 Specification", cited by section title):
//!
//! | the article, here | glTF | where (in `gltf_export/`) |
//! |---|---|---|
//! | bone, its `first_child` + `sibling` links | node, named after the bone; its `children` array (the first child, then each next sibling) | `nodes.rs` |
//! | the bone's rest transform ([`Trs`](skinning_method::transform::Trs)) | node `translation` / `rotation` / `scale` (left out where they are the default) | `nodes.rs` |
//! | a Z-up model (MD5) | turned to glTF's Y-up as it is written | `nodes.rs` |
//! | the skin's joints and their offsets | a skin: `joints` and `inverseBindMatrices` | `skins.rs` |
//! | a part: bind positions, normals, texture coordinates, every influence | a mesh on a node of its own: `POSITION`, `NORMAL`, `TEXCOORD_0`, `JOINTS_n` / `WEIGHTS_n` | `meshes.rs` |
//! | its morph targets, their default weights and names | the primitives' `targets`, the mesh's `weights` and `extras.targetNames` | `morphs.rs` |
//! | its triangles; the edges that are no triangle's side | a `TRIANGLES` primitive per material; `LINES` (the article's closed loop: `LINE_LOOP`) | `meshes.rs` |
//! | a material's base colour and texture | `baseColorFactor`, `baseColorTexture`, the image file inside | `looks.rs` |
//! | a keyframed clip's tracks | animation channels and samplers, key for key (STEP, LINEAR, CUBICSPLINE) | `animations.rs` |
//! | a track's weight channels, one per target | one `weights` channel on the mesh's node, every target keyed together | `morphs.rs` |
//! | a procedural clip (`seed`) | sampled keys, [`SAMPLES_PER_SECOND`], LINEAR | `animations.rs` |
//!
//! Each mesh hangs on a node that is a scene root: the spec ignores a skinned mesh node's transform
//! and its parents' (only the joints place the skin), and the Khronos glTF-Validator warns when
//! such a node is not a root. A mesh read from such a node hangs on it again; any other gets one
//! more node of its own, beside the bones. Reading the article's file back therefore gives two more
//! bones than the article has: the mesh's node and the synthetic root above the two; writing that
//! again adds none.
//!
//! Where the numbers go (one buffer, a view per accessor, the spec's alignment rules) is
//! `gltf_export/buffer.rs`; the JSON's objects are the structs of `gltf_export/json.rs`, whose `f32`
//! fields serde_json prints in their shortest form that reads back as the same `f32` (0.2, not
//! 0.20000000298023224), so a node's translation comes back bit for bit.
//!
//! A `.gltf` file is the JSON with the buffer inside it as a base64 `data:` URI; a `.glb` is a
//! 12-byte header, the JSON chunk and the buffer as the BIN chunk (spec, "GLB File Format").

mod animations;
mod buffer;
mod error;
mod json;
mod looks;
mod meshes;
mod morphs;
mod nodes;
mod skins;

pub use animations::SAMPLES_PER_SECOND;
pub use error::{Container, ExportError, GENERATOR};

use crate::material::Looks;
use buffer::File;
use json::Scene;
use nodes::Turn;
use skinning_method::clip::Clip;
use skinning_method::model::Model;

/// The whole file, in the container asked for: the bones, the skin and meshes, the materials,
/// and every clip that moves something (the spec wants at least one channel per animation).
pub fn export(
    model: &Model,
    looks: &Looks,
    clips: &[Clip],
    container: Container,
) -> Result<Vec<u8>, ExportError> {
    let mut file = File::default();
    let tracks = animations::tracks(&model.skeleton, clips)?;
    let mut animated = vec![false; model.skeleton.len()];
    for track in tracks.iter().flatten() {
        animated[track.bone] = true;
    }
    let turn = Turn::of(model);
    let nodes = nodes::nodes(&mut file, model, &animated, turn);
    looks::materials(&mut file, looks);
    let mesh_nodes = meshes::meshes(&mut file, model, looks, &nodes, &animated, turn)?;
    // The bones' roots, then the meshes' own nodes (a mesh on a root bone's node is there already).
    let own = mesh_nodes.iter().flatten().filter(|n| !nodes.roots.contains(n));
    let roots = nodes.roots.iter().chain(own).copied().collect();
    file.root.scenes.push(Scene { nodes: roots });
    // Where each morphed mesh went: its bone (whose weight channels move it), node and targets.
    let morphed: Vec<morphs::MorphedMesh> = (model.parts.iter().zip(&mesh_nodes))
        .filter_map(|(part, node)| {
            let morph = morphs::of_part(model, &part.vertices)?;
            Some(morphs::MorphedMesh { bone: morph.bone, node: (*node)?, targets: morph.target_count() })
        })
        .collect();
    animations::animations(&mut file, clips, &tracks, &nodes, &morphed, turn)?;
    file.finish(container)
}
