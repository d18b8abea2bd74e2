//! A model and its clips out to MD5 (Doom 3): one `.md5mesh` and one `.md5anim` per clip. The
//! mirror of [`md5_import`](crate::md5_import), which reads them back into the same model and
//! clips, and the other way round from [`gltf_export`](crate::gltf_export): there the file keeps
//! the article's bind positions and offsets, here it keeps neither.
//!
//! | the article, here | MD5 |
//! |---|---|
//! | the skin's joints and the bones between them, each one's parent | joint `i`, its parent an earlier joint (the tree walk's order; `joints.rs`) |
//! | bind pose: `offset⁻¹` per joint | md5mesh joint: position and orientation in object space |
//! | bind position and influences | a run of weights per vertex: joint, bias, **`offset · bind`** |
//! | texture coordinates | `vert`'s `( s t )`, as they are (`( 0 0 )` for a model without) |
//! | triangles (counter-clockwise) | `tri`, clockwise; an edge that is no triangle's side: a flat `tri` |
//! | the model's parts, their materials | one `mesh` each, or one per material where a part has several (`pieces.rs`); its shader a texture's file name, written beside, or a colour (`shaders.rs`) |
//! | a clip (keyframed or procedural) | `NAME.md5anim`, each joint relative to its parent: [`frame_rate`] |
//! | the clip's name | the file's name, made safe; the name itself in its `commandline` (`names.rs`) |
//! | a name's control characters and `"` | `_`, with a note: MD5's quoted names have no escapes (`names.rs`) |
//! | scale | none: a constant scale is baked into the positions, even, or uneven on a bone with no joint below (`scale.rs`); any other refused |
//! | the model's axes (the article, glTF: Y-up, front +z) | id's Z-up, front +x: object space turned (glTF's: `(x, y, z) → (z, x, y)`) |
//!
//! The weight position is article 002's equation read backwards: the article stores the bind vertex
//! and one offset per joint; MD5 stores, per weight, the offset already applied to the bind
//! vertex. Written from one bind pose, every weight of a vertex agrees about where it is, so the
//! two formulas give the same mesh in every frame (`md5_import/agreement.rs` measures that).
//!
//! MD5 draws triangles only. The article's mesh is an outline, lines with no faces, so an edge
//! that is no triangle's side is written as a triangle with two corners on one vertex: it has no
//! area, and other MD5 viewers draw nothing there; this program draws its one edge, so the outline
//! comes back (`md5_import/vertices.rs`).
//!
//! An `.md5anim` holds a pose for every joint in every frame: a long clip is hundreds of MB of
//! text. So [`Md5Export`] checks everything first and holds one frame at a time: each `.md5anim`
//! is written as its clip is sampled (`anim.rs`), and an export past [`POSE_BUDGET`] joint poses is
//! refused before any frame is sampled (`frames.rs`).

mod anim;
mod error;
mod frames;
mod joints;
mod names;
mod pieces;
mod scale;
mod shaders;
mod text;

pub use error::ExportError;
pub use frames::{FRAME_RATE, MAX_FRAMES, POSE_BUDGET, POSE_RATE, frame_rate};
pub use names::{COMMAND_LINE, clip_name_in, file_stem};
use names::{md5_name, md5_names};

use crate::material::Looks;
use skinning_method::clip::Clip;
use skinning_method::frame::Pose;
use skinning_method::model::Model;
use std::collections::HashSet;
use std::io::{self, Write};

/// The files: the mesh's text, each clip's file stem and `.md5anim` text, and each picture's file
/// name and bytes. A clip's file is `STEM.md5anim` beside the mesh, its name made safe for a file
/// name; the name itself is inside (`names.rs`). A picture goes beside the mesh too, named in the
/// shaders (`shaders.rs`).
pub struct Md5Files {
    pub mesh: String,
    pub animations: Vec<(String, String)>,
    pub pictures: Vec<(String, Vec<u8>)>,
}

/// The model as an `.md5mesh` and each of `clips` as an `.md5anim`, all in memory: for a model
/// whose clips are short. The program writes each `.md5anim` as it is sampled ([`Md5Export`]).
pub fn export(model: &Model, looks: &Looks, clips: &[Clip]) -> Result<Md5Files, ExportError> {
    let export = Md5Export::new(model, looks, clips)?;
    let mut animations = Vec::with_capacity(clips.len());
    for (i, stem) in export.stems.iter().enumerate() {
        let mut text = Vec::new();
        // Writing into memory fails only where a number cannot be written: `new` checked them all.
        let stopped =
            |e: io::Error| ExportError::inside(&e).cloned().unwrap_or(ExportError::NotFinite(e.to_string()));
        export.write_animation(i, &mut text).map_err(stopped)?;
        animations.push((stem.clone(), String::from_utf8_lossy(&text).into_owned()));
    }
    let pictures = (export.pictures.iter())
        .map(|(file, i)| (file.clone(), looks.materials.images[*i].bytes.clone()))
        .collect();
    Ok(Md5Files { mesh: export.mesh, animations, pictures })
}

/// The file stem of each clip's `.md5anim`, in the order of `clips`: each name made safe, and
/// made unique among them (`names.rs`).
pub fn file_stems(clips: &[Clip]) -> Vec<String> {
    let mut taken = HashSet::new();
    clips.iter().map(|clip| file_stem(&clip.name, &mut taken)).collect()
}

/// An export ready to write: every number checked, the mesh's text made, and each clip's
/// `.md5anim` planned, to be written frame by frame as it is sampled (`anim.rs`).
pub struct Md5Export<'a> {
    model: &'a Model,
    clips: &'a [Clip],
    joints: joints::Md5Joints,
    animations: Vec<anim::Planned>,
    /// The `.md5mesh`'s text.
    pub mesh: String,
    /// Each clip's file stem ([`file_stems`]): its file is `STEM.md5anim` beside the mesh.
    pub stems: Vec<String>,
    /// Each picture the shaders name, to write beside the mesh: its file name, and its image in
    /// the looks' `materials.images`.
    pub pictures: Vec<(String, usize)>,
    /// What the files cannot keep, one line each, to be said.
    pub notes: Vec<String>,
}

impl<'a> Md5Export<'a> {
    /// Checks that `model` and `clips` can be written as MD5 and plans the files; refuses before
    /// any frame is sampled an export past [`POSE_BUDGET`].
    pub fn new(model: &'a Model, looks: &Looks, clips: &'a [Clip]) -> Result<Md5Export<'a>, ExportError> {
        let joints = joints::md5_joints(model)?;
        let samplings = frames::frame_counts(clips, joints.order.len())?;
        let pieces = pieces::pieces(model, looks, &text::lonely_edges(model))?;
        let mut shaders = shaders::shaders(model, looks, &pieces);
        // Names as MD5's quotes can hold them (`names.rs`); a part's own name may be its shader.
        for shader in &mut shaders.of_piece {
            *shader = md5_name(shader).into_owned();
        }
        let (clip_names, clips_renamed) = md5_names(clips.iter().map(|c| c.name.as_str()), "clip");
        let (_, meshes_renamed) = md5_names(model.parts.iter().map(|p| p.name.as_str()), "mesh");
        let notes = [joints.renamed.clone(), meshes_renamed, clips_renamed].into_iter().flatten().collect();
        let mesh = text::mesh(model, looks, &joints, &pieces, &shaders.of_piece)?;
        let mut pose = Pose::new(model);
        let mut animations = Vec::with_capacity(clips.len());
        for ((clip, name), sampling) in clips.iter().zip(clip_names).zip(samplings) {
            animations.push(finer_where_it_turns(model, &joints, (clip, name), sampling, &mut pose)?);
        }
        frames::check_budget(
            &animations.iter().map(anim::Planned::sampling).collect::<Vec<_>>(),
            joints.order.len(),
        )?;
        Ok(Md5Export {
            model,
            clips,
            joints,
            animations,
            mesh,
            stems: file_stems(clips),
            pictures: shaders.pictures,
            notes,
        })
    }

    /// Writes clip `i`'s `.md5anim` into `out`, frame by frame as each is sampled.
    pub fn write_animation(&self, i: usize, out: &mut dyn Write) -> io::Result<()> {
        anim::write(self.model, &self.joints, &self.clips[i], &self.animations[i], out)
    }
}

/// The frames of a clip may be set finer than its keys ask, up to this many times: a turn of a
/// third of a turn or more between two frames is halved at most three times (so 120 frames a
/// second become at most 960).
const FINER: u32 = 8;

/// `clip` planned at `sampling`, or, where a joint turns a third of a turn or more from one frame
/// to the next, at twice the rate, and again (up to [`FINER`] times the rate): the frames still
/// fall on every key, and a reader, which turns the shorter way from frame to frame, then turns
/// the way the model does (`anim.rs`: `Planned::turns_too_far`).
fn finer_where_it_turns(
    model: &Model,
    joints: &joints::Md5Joints,
    (clip, name): (&Clip, String),
    sampling: frames::Sampling,
    pose: &mut Pose,
) -> Result<anim::Planned, ExportError> {
    let mut planned = anim::plan(model, joints, (clip, name.clone()), sampling, pose)?;
    let mut rate = sampling.rate;
    while planned.turns_too_far() && rate < sampling.rate * FINER {
        rate *= 2;
        let Some(frames) = frames::frame_count(clip.duration, rate) else { break };
        // Never past the budget of poses, whose every frame the plan samples.
        if frames.saturating_mul(joints.order.len()) > POSE_BUDGET {
            break;
        }
        planned = anim::plan(model, joints, (clip, name.clone()), frames::Sampling { rate, frames }, pose)?;
    }
    Ok(planned)
}
