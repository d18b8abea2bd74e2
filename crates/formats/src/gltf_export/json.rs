//! The file's JSON, object by object, in glTF's own names (spec, "Properties Reference"). serde
//! writes each struct as a JSON object; an optional property that is `None`, a node without
//! `children` and a file without `animations` leave the property out, as the spec allows.
//! Objects point at each other by their index in these lists.

use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Root {
    pub asset: Asset,
    pub scene: usize,
    pub scenes: Vec<Scene>,
    pub nodes: Vec<Node>,
    pub meshes: Vec<Mesh>,
    pub skins: Vec<Skin>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub animations: Vec<Animation>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub materials: Vec<Material>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub textures: Vec<Texture>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<Image>,
    pub accessors: Vec<Accessor>,
    pub buffer_views: Vec<BufferView>,
    pub buffers: Vec<Buffer>,
}

#[derive(Serialize)]
pub struct Asset {
    pub version: &'static str,
    pub generator: &'static str,
}

impl Default for Asset {
    fn default() -> Self {
        Asset { version: "2.0", generator: super::error::GENERATOR }
    }
}

#[derive(Serialize)]
pub struct Scene {
    pub nodes: Vec<usize>,
}

#[derive(Serialize, Default)]
pub struct Node {
    pub name: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub translation: Option<[f32; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rotation: Option<[f32; 4]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale: Option<[f32; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mesh: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skin: Option<usize>,
}

#[derive(Serialize)]
pub struct Mesh {
    pub name: String,
    pub primitives: Vec<Primitive>,
    /// The morph targets' default weights, one per target (`morphs.rs`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub weights: Vec<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extras: Option<MeshExtras>,
}

/// What glTF leaves to the tools: the morph targets' names, where Blender and three.js put them.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MeshExtras {
    pub target_names: Vec<String>,
}

#[derive(Serialize)]
pub struct Primitive {
    /// `POSITION`, `NORMAL`, `TEXCOORD_0`, `JOINTS_n`, `WEIGHTS_n`: each an accessor.
    pub attributes: BTreeMap<String, usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub indices: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub material: Option<usize>,
    pub mode: u32,
    /// Each morph target's displacements, `POSITION` and maybe `NORMAL`: each an accessor.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<BTreeMap<String, usize>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Material {
    pub name: String,
    pub pbr_metallic_roughness: Pbr,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alpha_mode: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alpha_cutoff: Option<f32>,
}

/// Only the base colour is this program's; a plain surface, not metal, fully rough, for the rest.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pbr {
    pub base_color_factor: [f32; 4],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_color_texture: Option<TextureInfo>,
    pub metallic_factor: f32,
    pub roughness_factor: f32,
}

#[derive(Serialize)]
pub struct TextureInfo {
    pub index: usize,
}

#[derive(Serialize)]
pub struct Texture {
    pub source: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Image {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    pub buffer_view: usize,
    pub mime_type: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Skin {
    pub name: String,
    pub joints: Vec<usize>,
    pub inverse_bind_matrices: usize,
}

#[derive(Serialize, Default)]
pub struct Animation {
    pub name: String,
    pub channels: Vec<Channel>,
    pub samplers: Vec<Sampler>,
}

#[derive(Serialize)]
pub struct Channel {
    pub sampler: usize,
    pub target: Target,
}

#[derive(Serialize)]
pub struct Target {
    pub node: usize,
    pub path: &'static str,
}

#[derive(Serialize)]
pub struct Sampler {
    pub input: usize,
    pub output: usize,
    pub interpolation: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Accessor {
    pub buffer_view: usize,
    pub component_type: u32,
    pub count: usize,
    #[serde(rename = "type")]
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<Vec<f32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<Vec<f32>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BufferView {
    pub buffer: usize,
    pub byte_offset: usize,
    pub byte_length: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<u32>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Buffer {
    pub byte_length: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
}
