//! The article's scene out to a glTF 2.0 file, for Blender or any glTF viewer: the mirror of
//! [`gltf_import`](crate::gltf_import), which reads such a file back into the same model and clips.
//!
//! The article's names become glTF's (spec, "glTF 2.0 Specification", cited by section title):
//!
//! | the article, here | glTF |
//! |---|---|
//! | bone, its `first_child` + `sibling` links | node `i`, named after bone `i`; its `children` array (the first child, then each next sibling) |
//! | the bone's rest transform ([`Trs`](crate::transform::Trs)) | node `translation` / `rotation` / `scale` (left out where they are the default) |
//! | the skin's joints and their offsets | one skin: `joints` and `inverseBindMatrices` |
//! | bind positions, influences | mesh `POSITION`, `JOINTS_0` (u16, as the skin stores them), `WEIGHTS_0` (float) |
//! | the edges: the article's closed loop | a `LINE_LOOP` primitive (mode 2), no indices; other edges as `LINES` |
//! | a keyframed clip's tracks | animation channels and samplers, key for key (STEP, LINEAR, CUBICSPLINE) |
//! | a procedural clip (`seed`) | sampled keys, [`SAMPLES_PER_SECOND`], LINEAR |
//!
//! The skinned mesh hangs on one more node of its own, a scene root beside the bones: the spec
//! ignores a skinned mesh node's transform and its parents' (only the joints place the skin), and
//! the Khronos glTF-Validator warns when such a node is not a root. Reading the file back therefore
//! gives two more bones than the article has: the mesh's node and the synthetic root above the two.
//!
//! Where the numbers go (one buffer, a view per accessor, the spec's alignment rules) is
//! `gltf_export/buffer.rs`; the JSON's objects are the structs of `gltf_export/json.rs`, whose `f32`
//! fields serde_json prints in their shortest form that reads back as the same `f32` (0.2, not
//! 0.20000000298023224), so a node's translation comes back bit for bit.
//!
//! A `.gltf` file is the JSON with the buffer inside it as a base64 `data:` URI; a `.glb` is a
//! 12-byte header, the JSON chunk and the buffer as the BIN chunk (spec, "GLB File Format").

mod buffer;
mod json;

use crate::clip::{Channel, Clip, Keyable, Motion, Track};
use crate::model::Model;
use crate::skeleton::{BoneId, Skeleton, Trs};
use buffer::{ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, File, LINE_LOOP, LINES};
use glam::{Quat, Vec3};
use json::{Animation, Attributes, Mesh, Node, Primitive, Scene, Skin};
use std::fmt;
use std::path::Path;

/// Who wrote the file (glTF's `asset.generator`).
pub const GENERATOR: &str = concat!("skinning ", env!("CARGO_PKG_VERSION"), " (article 000's scene)");

/// Keys per second for a procedural clip. Between two keys a viewer goes in a straight line, off
/// the curve by at most `a * w² * h² / 8` for a motion `a * sin(w t)` sampled every `h` seconds.
/// In `seed` bone1 slides by 0.2 at w = π/2 and bone32 by 0.1 at w = π; a vertex on bone32 gets
/// both, at most 0.185 h²: 2.1e-4 at 30 keys a second, five times inside the 1e-3 the round trip
/// promises (15 would leave 8.2e-4, too close). 121 keys for its 4 seconds.
pub const SAMPLES_PER_SECOND: f32 = 30.0;

/// The two ways to store a glTF file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    /// `.gltf`: JSON, the buffer embedded as base64: one file a person can read.
    Gltf,
    /// `.glb`: binary, the JSON and the buffer as two chunks.
    Glb,
}

impl Container {
    /// The container a file name asks for by its extension (`.gltf` or `.glb`, any case).
    pub fn for_path(path: &Path) -> Option<Container> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "gltf" => Some(Container::Gltf),
            "glb" => Some(Container::Glb),
            _ => None,
        }
    }
}

/// Why a model and its clips cannot be written as they would play.
#[derive(Clone, Debug, PartialEq)]
pub enum ExportError {
    /// A keyframed clip whose duration is not its last key: a glTF animation lasts until its last
    /// key, so it would loop at another time.
    Duration { clip: String, duration: f32, last_key: f32 },
    /// serde_json refused the JSON. It refuses nothing the structs in `json.rs` can hold (only maps
    /// with keys that are not strings); an error rather than a crash all the same.
    Json(String),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ExportError::Duration { clip, duration, last_key } => write!(
                f,
                "clip {clip:?} lasts {duration} s but its last key is at {last_key} s; a glTF animation \
                 ends on its last key, so make them the same"
            ),
            ExportError::Json(e) => write!(f, "cannot write the glTF JSON: {e}"),
        }
    }
}

impl std::error::Error for ExportError {}

/// The whole file, in the container asked for: the model, its skin, and every clip that moves
/// something (the spec wants at least one channel per animation).
pub fn export(model: &Model, clips: &[Clip], container: Container) -> Result<Vec<u8>, ExportError> {
    let mut file = File::default();
    let skeleton = &model.skeleton;

    // Bones are nodes 0..n, in the same order; the skinned mesh's node comes after them.
    for bone in skeleton.bones() {
        let Trs { translation, rotation, scale } = bone.rest;
        file.root.nodes.push(Node {
            name: bone.name.clone(),
            children: children(skeleton, bone.first_child),
            translation: (translation != Vec3::ZERO).then(|| translation.to_array()),
            rotation: (rotation != Quat::IDENTITY).then(|| rotation.to_array()),
            scale: (scale != Vec3::ONE).then(|| scale.to_array()),
            ..Node::default()
        });
    }
    let mesh_node = skeleton.len();
    file.root.scenes.push(Scene { nodes: vec![skeleton.root(), mesh_node] });

    // The skin: joint j is a bone and its offset, glTF's inverse bind matrix.
    let offsets: Vec<[f32; 16]> = model.skin.joints().iter().map(|j| j.offset.to_cols_array()).collect();
    let inverse_bind_matrices = file.accessor(&offsets, None, false);
    let joints = model.skin.joints().iter().map(|j| j.bone).collect();
    file.root.skins.push(Skin { name: "skin".into(), joints, inverse_bind_matrices });

    // The mesh: every vertex's bind position and its four (joint, weight) slots.
    let vertices = model.skin.vertices();
    let positions: Vec<[f32; 3]> = vertices.iter().map(|v| v.bind.to_array()).collect();
    let position = file.accessor(&positions, Some(ARRAY_BUFFER), true);
    let slots: Vec<[u16; 4]> = vertices.iter().map(|v| v.joints).collect();
    let joints = file.accessor(&slots, Some(ARRAY_BUFFER), false);
    let weights: Vec<[f32; 4]> = vertices.iter().map(|v| v.weights).collect();
    let weights = file.accessor(&weights, Some(ARRAY_BUFFER), false);
    let (mode, indices) = if model.edges == Model::line_loop(vertices.len()) {
        (LINE_LOOP, None)
    } else {
        // Any other lines: pairs of vertex indices.
        let ends: Vec<[u32; 1]> = model.edges.iter().flatten().map(|&v| [v]).collect();
        (LINES, Some(file.accessor(&ends, Some(ELEMENT_ARRAY_BUFFER), false)))
    };
    let attributes = Attributes { position, joints, weights };
    let primitive = Primitive { attributes, indices, mode };
    file.root.meshes.push(Mesh { name: "mesh".into(), primitives: vec![primitive] });
    file.root.nodes.push(Node { name: "mesh".into(), mesh: Some(0), skin: Some(0), ..Node::default() });

    for clip in clips {
        let tracks = match &clip.motion {
            Motion::Keyframes(tracks) => {
                let last_key = tracks.iter().map(Track::end).fold(0.0, f32::max);
                if !tracks.is_empty() && last_key != clip.duration {
                    let (clip, duration) = (clip.name.clone(), clip.duration);
                    return Err(ExportError::Duration { clip, duration, last_key });
                }
                tracks.clone()
            }
            Motion::Procedural(animate) => sampled(skeleton, clip.duration, *animate),
        };
        let mut animation = Animation { name: clip.name.clone(), ..Animation::default() };
        for track in &tracks {
            let node = track.bone;
            let vec3 = |v: &Vec3| v.to_array();
            file.channel(&mut animation, node, "translation", track.translation.as_ref(), vec3);
            file.channel(&mut animation, node, "rotation", track.rotation.as_ref(), |q| q.to_array());
            file.channel(&mut animation, node, "scale", track.scale.as_ref(), vec3);
        }
        if !animation.channels.is_empty() {
            file.root.animations.push(animation);
        }
    }
    file.finish(container)
}

/// A bone's children in the article's order: the first child, then its sibling, and so on.
fn children(skeleton: &Skeleton, first_child: Option<BoneId>) -> Vec<usize> {
    std::iter::successors(first_child, |&child| skeleton.bone(child).sibling).collect()
}

/// A procedural clip as LINEAR keys every 1 / [`SAMPLES_PER_SECOND`] s, from 0 to the clip's end,
/// both included. Each bone gets a channel for each part of its rest transform the motion changes.
fn sampled(skeleton: &Skeleton, duration: f32, animate: fn(f32, &mut [Trs])) -> Vec<Track> {
    let intervals = (duration * SAMPLES_PER_SECOND).ceil().max(0.0) as usize;
    let times: Vec<f32> = (0..=intervals).map(|k| duration * k as f32 / intervals.max(1) as f32).collect();
    // The pose at every key time, each bone's T, R and S. The last key is the motion at the clip's
    // very end (the function is continuous there); then the loop starts over.
    let poses: Vec<Vec<Trs>> = times
        .iter()
        .map(|&t| {
            let mut pose: Vec<Trs> = skeleton.bones().iter().map(|b| b.rest).collect();
            animate(t, &mut pose);
            pose
        })
        .collect();
    let mut tracks = Vec::new();
    for (bone, rest) in skeleton.bones().iter().map(|b| b.rest).enumerate() {
        let pose = |k: usize| poses[k][bone];
        let mut rotation = changing(&times, |k| pose(k).rotation, rest.rotation, Quat::abs_diff_eq);
        // q and -q are the same turn: keep each key on the side of the one before, so that a viewer
        // that blends the four numbers directly does not swing the long way round.
        for values in rotation.iter_mut().map(|c| &mut c.values) {
            for k in 1..values.len() {
                if values[k].dot(values[k - 1]) < 0.0 {
                    values[k] = -values[k];
                }
            }
        }
        let track = Track {
            translation: changing(&times, |k| pose(k).translation, rest.translation, Vec3::abs_diff_eq),
            rotation,
            scale: changing(&times, |k| pose(k).scale, rest.scale, Vec3::abs_diff_eq),
            ..Track::new(bone)
        };
        if track.translation.is_some() || track.rotation.is_some() || track.scale.is_some() {
            tracks.push(track);
        }
    }
    tracks
}

/// A LINEAR channel with `value(k)` at `times[k]`, or None when every value is `rest` (within 1e-6).
fn changing<T: Keyable>(
    times: &[f32],
    value: impl Fn(usize) -> T,
    rest: T,
    same: fn(T, T, f32) -> bool,
) -> Option<Channel<T>> {
    let keys: Vec<(f32, T)> = times.iter().enumerate().map(|(k, &t)| (t, value(k))).collect();
    keys.iter().any(|&(_, v)| !same(v, rest, 1e-6)).then(|| Channel::linear(&keys))
}
