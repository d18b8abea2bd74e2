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
//! Either way the JSON comes first and must say how long the buffer is, yet the buffer is not held:
//! [`Export::plan`] goes through the model once, counting the buffer's bytes, and makes the JSON;
//! [`Export::write_to`] goes through it again, writing the JSON and then each view's bytes as
//! they are made (a `.gltf`'s through a base64 encoder). So what an export holds is the model and
//! the JSON, not a copy of the file.

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
use base64::write::EncoderWriter;
use buffer::{CHUNK_BIN, CHUNK_JSON, File, GLB_MAGIC, Sink};
use json::Scene;
use nodes::Turn;
use skinning_method::clip::{Clip, Track};
use skinning_method::model::Model;
use skinning_method::morph::MeshMorph;
use std::io::{self, Write};

/// A model's glTF file, laid out and ready to write: the JSON before the buffer's bytes and
/// after them (a `.gltf`'s buffer sits inside its JSON), and the buffer's length.
pub struct Export<'a> {
    model: &'a Model,
    looks: &'a Looks,
    /// The morph targets kept beside the model (`morph.rs`: `MorphTargets`; none for most).
    morphs: &'a [MeshMorph],
    clips: &'a [Clip],
    /// Every clip's tracks as they are written (`animations.rs`: `tracks`).
    tracks: Vec<Vec<Track>>,
    container: Container,
    head: Vec<u8>,
    tail: Vec<u8>,
    /// The buffer's bytes, a multiple of 4.
    bin: usize,
}

impl<'a> Export<'a> {
    /// The file laid out: the bones, the skin and meshes, the materials, and every clip that
    /// moves something (the spec wants at least one channel per animation), counted, not written.
    /// An error if the model cannot be written as it plays, or a `.glb` would pass 4 GiB.
    pub fn plan(
        model: &'a Model,
        looks: &'a Looks,
        morphs: &'a [MeshMorph],
        clips: &'a [Clip],
        container: Container,
    ) -> Result<Export<'a>, ExportError> {
        let tracks = animations::tracks(&model.skeleton, clips)?;
        let mut file = File::new(Sink::Count);
        build(&mut file, model, looks, morphs, clips, &tracks)?;
        let (mut root, bin) = file.finish().map_err(|e| ExportError::Write(e.to_string()))?;
        let json =
            |root: &json::Root| serde_json::to_vec_pretty(root).map_err(|e| ExportError::Json(e.to_string()));
        let (head, tail) = match container {
            Container::Gltf => {
                // The buffers come last in the JSON, and the URI is their only text: the base64
                // goes after the last `;base64,`.
                let uri = Some("data:application/octet-stream;base64,".to_string());
                root.buffers.push(json::Buffer { byte_length: bin, uri });
                let mut text = json(&root)?;
                let at = text
                    .windows(8)
                    .rposition(|w| w == b";base64,")
                    .ok_or(ExportError::Json("no buffer".into()))?;
                let mut tail = text.split_off(at + 8);
                // A text file ends its last line: a terminal's prompt after it starts on its own.
                tail.push(b'\n');
                (text, tail)
            }
            Container::Glb => {
                // Buffer 0 without a uri is the BIN chunk. Chunks are 4-byte aligned: the JSON
                // padded with spaces, the buffer (already) with zeros. The header (magic, version
                // 2, the whole file's length), then each chunk: its length, its type, its bytes.
                root.buffers.push(json::Buffer { byte_length: bin, uri: None });
                let mut text = json(&root)?;
                text.resize(text.len().next_multiple_of(4), b' ');
                let total = 12 + 8 + text.len() + 8 + bin;
                if total > u32::MAX as usize {
                    return Err(ExportError::TooBig(total));
                }
                let mut head = Vec::with_capacity(28 + text.len());
                for word in [GLB_MAGIC, 2, total as u32, text.len() as u32, CHUNK_JSON] {
                    head.extend_from_slice(&word.to_le_bytes());
                }
                head.extend_from_slice(&text);
                for word in [bin as u32, CHUNK_BIN] {
                    head.extend_from_slice(&word.to_le_bytes());
                }
                (head, Vec::new())
            }
        };
        Ok(Export { model, looks, morphs, clips, tracks, container, head, tail, bin })
    }

    /// The whole file's length, in bytes.
    pub fn bytes(&self) -> usize {
        let buffer = match self.container {
            Container::Gltf => self.bin.div_ceil(3) * 4,
            Container::Glb => self.bin,
        };
        self.head.len() + buffer + self.tail.len()
    }

    /// Writes the file to `out`: the JSON, then the buffer as the model is gone through again.
    pub fn write_to(&self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(&self.head)?;
        let written = match self.container {
            Container::Glb => self.buffer(out)?,
            Container::Gltf => {
                let mut base64 = EncoderWriter::new(&mut *out, &base64::engine::general_purpose::STANDARD);
                let written = self.buffer(&mut base64)?;
                base64.finish()?;
                written
            }
        };
        // The same model gone through the same way: the same bytes. Said, were it ever not so.
        if written != self.bin {
            return Err(io::Error::other("the glTF buffer came out a different length when written"));
        }
        out.write_all(&self.tail)
    }

    /// The buffer's bytes to `out`, and how many.
    fn buffer(&self, out: &mut dyn Write) -> io::Result<usize> {
        let mut file = File::new(Sink::Write(out));
        let (model, looks, morphs) = (self.model, self.looks, self.morphs);
        build(&mut file, model, looks, morphs, self.clips, &self.tracks).map_err(io::Error::other)?;
        file.finish().map(|(_, bin)| bin)
    }
}

/// The whole file in memory, in the container asked for: for the web page, which hands the bytes
/// to the browser, and the tests. The program writes a file with [`Export::write_to`].
pub fn export(
    model: &Model,
    looks: &Looks,
    morphs: &[MeshMorph],
    clips: &[Clip],
    container: Container,
) -> Result<Vec<u8>, ExportError> {
    let export = Export::plan(model, looks, morphs, clips, container)?;
    let mut bytes = Vec::with_capacity(export.bytes());
    export.write_to(&mut bytes).map_err(|e| ExportError::Write(e.to_string()))?;
    Ok(bytes)
}

/// Everything the file holds, into `file`: the nodes, materials, meshes and animations.
fn build<'a>(
    file: &mut File<'a, '_>,
    model: &Model,
    looks: &Looks,
    morphs: &[MeshMorph],
    clips: &[Clip],
    tracks: &'a [Vec<Track>],
) -> Result<(), ExportError> {
    let mut animated = vec![false; model.skeleton.len()];
    for track in tracks.iter().flatten() {
        animated[track.bone] = true;
    }
    let turn = Turn::of(model);
    let nodes = nodes::nodes(file, model, &animated, turn);
    looks::materials(file, looks);
    let mesh_nodes = meshes::meshes(file, (model, morphs), looks, &nodes, &animated, turn)?;
    // The bones' roots, then the meshes' own nodes (a mesh on a root bone's node is there already).
    let own = mesh_nodes.iter().flatten().filter(|n| !nodes.roots.contains(n));
    let roots = nodes.roots.iter().chain(own).copied().collect();
    file.root.scenes.push(Scene { nodes: roots });
    // Where each morphed mesh went: its bone (whose weight channels move it), node and targets.
    let morphed: Vec<morphs::MorphedMesh> = (model.parts.iter().zip(&mesh_nodes))
        .filter_map(|(part, node)| {
            let morph = morphs::of_part(morphs, &part.vertices)?;
            Some(morphs::MorphedMesh { bone: morph.bone, node: (*node)?, targets: morph.target_count() })
        })
        .collect();
    animations::animations(file, clips, tracks, &nodes, &morphed, turn)
}
