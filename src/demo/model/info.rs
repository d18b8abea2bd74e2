//! `--model FILE --info`: what a glTF file holds, said in the article's terms, for a learner who
//! wants to know what is being loaded before watching it move.
//!
//! The node tree (every node is a bone, indented by its level, up to 32 levels; joints are marked
//! with their skin slot), each skin (its joints, and whether the file's inverse bind matrices are
//! the inverses of the nodes' rest world transforms, i.e. whether the file binds its mesh in the
//! pose its nodes rest in), the meshes, the materials and texture coordinates, the most influences
//! on one vertex, the animations with their channels (or that there are none, and the rest pose is
//! shown), and what the loader mended or ignored, including what the file has that this program
//! does not draw. Each section is a function of its own, called in order by [`describe`]; the
//! morph targets' and the materials' are in `morph_info.rs` and `looks_info.rs`. Every name is the
//! file's, so it is made printable.

use crate::demo::model::gpu_fit::MAX_GPU_INFLUENCES;
use skinning_formats::gltf_import::{Imported, REST, SYNTHETIC_ROOT, counted};
use skinning_method::clip::{Channel, Clip, Motion, Track};
use skinning_method::model::{Axes, Model, Part};
use skinning_method::printable::{printable, quoted};
use skinning_method::skeleton::Skeleton;
use skinning_method::skin::{SLOTS, Skin};
use std::fmt::Write;
use std::path::Path;

/// How far apart (relative to the matrix's size) an offset and the inverse rest world may be and
/// still count as equal: float rounding in the exporter, not another pose.
const SAME_POSE: f32 = 1e-4;

/// The whole description, ready to print: what the file holds, section by section.
pub fn describe(path: &Path, imported: &Imported) -> String {
    let model = &imported.model;
    let mut out = String::new();
    let mut line = |text: String| {
        out.push_str(&text);
        out.push('\n');
    };
    line(summary(path, imported));
    line(axes(model.axes));
    tree(imported, &mut line);
    skins(imported, &mut line);
    line(meshes(model));
    super::morph_info::describe_morphs(model, &imported.morphs).into_iter().for_each(&mut line);
    line(super::looks_info::looks(&imported.looks));
    line(influences(&model.skin));
    animations(imported, &mut line);
    mended(imported, &mut line);
    out
}

/// The first line: the file, and how many nodes, bones, joint slots and vertices it makes.
fn summary(path: &Path, imported: &Imported) -> String {
    let model = &imported.model;
    let skeleton = &model.skeleton;
    let synthetic = skeleton.bone(skeleton.root()).name == SYNTHETIC_ROOT;
    let nodes = skeleton.len() - usize::from(synthetic);
    let above = if synthetic { ", plus a synthetic root above the file's several root nodes" } else { "" };
    format!(
        "{}: {}{above}: {}; {}; {}",
        printable(&path.display().to_string()),
        counted(nodes, "node", "nodes"),
        counted(skeleton.len(), "bone", "bones"),
        counted(model.skin.joints().len(), "joint slot", "joint slots"),
        counted(model.skin.len(), "vertex", "vertices")
    )
}

/// The node tree, a bone a line, walked like compute_world: first child one level deeper, siblings
/// at the same level. Each bone says its joint slots (and their skin) and the meshes on it.
fn tree(imported: &Imported, line: &mut impl FnMut(String)) {
    let model = &imported.model;
    let skeleton = &model.skeleton;
    let joints = model.skin.joints();
    line("node tree: bone i is node i; a joint shows its skin and its place in the skin's joints;".into());
    line("(a skinned mesh ignores its own node's transform: only its joints place it)".into());
    // Each bone's joint slots and meshes, and each slot's skin, gathered in one pass each: looking
    // them up bone by bone was quadratic (a 65,536-joint skin took seconds to describe).
    let mut slots_of = vec![Vec::new(); skeleton.len()];
    for (slot, joint) in joints.iter().enumerate() {
        slots_of[joint.bone].push(slot);
    }
    let mut skin_of = vec![None; joints.len()];
    for (s, skin) in imported.skins.iter().enumerate() {
        skin_of[skin.joints.clone()].fill(Some(s));
    }
    let mut parts_of = vec![Vec::new(); skeleton.len()];
    for part in &model.parts {
        if let Some(bone) = part.bone {
            parts_of[bone].push(part);
        }
    }
    let mut stack = vec![(skeleton.root(), 1)];
    while let Some((bone, depth)) = stack.pop() {
        let mut text = indent(depth);
        write!(text, "{} (bone {bone})", printable(&skeleton.bone(bone).name)).ok();
        for &slot in &slots_of[bone] {
            match skin_of[slot] {
                Some(s) => write!(text, "  joint {} of skin {s}", slot - imported.skins[s].joints.start),
                None => write!(text, "  joint slot {slot}: moves its mesh rigidly"),
            }
            .ok();
        }
        for part in &parts_of[bone] {
            let how = if part.skinned { "skinned" } else { "rigid" };
            let vertices = counted(part.vertices.len(), "vertex", "vertices");
            write!(text, "  mesh {}: {vertices}, {how}", quoted(&part.name)).ok();
        }
        line(text);
        let b = skeleton.bone(bone);
        if let Some(sibling) = b.sibling {
            stack.push((sibling, depth));
        }
        if let Some(child) = b.first_child {
            stack.push((child, depth + 1));
        }
    }
}

/// The skins, a line each: do the file's offsets undo the rest pose, or another pose?
fn skins(imported: &Imported, line: &mut impl FnMut(String)) {
    line(
        "skins (offset = inverse bind matrix; in the article it is the inverse of the rest world transform):"
            .into(),
    );
    if imported.skins.is_empty() {
        line("  none: each mesh moves with its node, one joint at weight 1 (a rigid mesh)".into());
    }
    let model = &imported.model;
    let joints = model.skin.joints();
    let rest_world = model.skeleton.rest_world();
    for (s, skin) in imported.skins.iter().enumerate() {
        let name = if skin.name.is_empty() { String::new() } else { format!(" {}", quoted(&skin.name)) };
        if skin.joints.is_empty() {
            line(format!("  skin {s}{name}: not used in the shown scene, so it has no joint slots"));
            continue;
        }
        let mut largest = 0.0f32;
        for joint in &joints[skin.joints.clone()] {
            let inverse = rest_world[joint.bone].inverse();
            let size = inverse.to_cols_array().iter().fold(1.0f32, |a, x| a.max(x.abs()));
            let difference =
                (joint.offset - inverse).to_cols_array().iter().fold(0.0f32, |a, x| a.max(x.abs()));
            largest = largest.max(difference / size);
        }
        let verdict = if largest <= SAME_POSE {
            "the mesh is bound in the nodes' rest pose"
        } else {
            "the mesh is bound in another pose than the nodes' rest pose"
        };
        let slots = match skin.joints.len() {
            1 => format!("slot {}", skin.joints.start),
            _ => format!("slots {} to {}", skin.joints.start, skin.joints.end - 1),
        };
        line(format!(
            "  skin {s}{name}: {} ({slots}); inverse bind matrices vs inverse rest world: largest \
             difference {largest:.2e} (relative): {verdict}",
            counted(skin.joints.len(), "joint", "joints"),
        ));
    }
}

/// The meshes, skinned and rigid, with their vertices, and the edges drawn.
fn meshes(model: &Model) -> String {
    let (skinned, rigid): (Vec<&Part>, Vec<&Part>) = model.parts.iter().partition(|p| p.skinned);
    let vertices =
        |parts: &[&Part]| counted(parts.iter().map(|p| p.vertices.len()).sum(), "vertex", "vertices");
    format!(
        "meshes: {} skinned ({}), {} rigid ({}); {} drawn",
        skinned.len(),
        vertices(&skinned),
        rigid.len(),
        vertices(&rigid),
        counted(model.edges.len(), "edge", "edges")
    )
}

/// The animations, each with its length and channels, and under it each node it moves with the
/// keys of each channel. A file without animations gets one clip from the loader, the rest pose:
/// not the file's, so not listed.
fn animations(imported: &Imported, line: &mut impl FnMut(String)) {
    let clips: &[Clip] = if imported.rest_only {
        line(format!(
            "animations: none in the file; the program shows the nodes' rest pose (a clip named {REST:?})"
        ));
        &[]
    } else {
        line("animations:".into());
        &imported.clips
    };
    for (i, clip) in clips.iter().enumerate() {
        let Motion::Keyframes(tracks) = &clip.motion else { continue };
        let channels: usize = tracks
            .iter()
            .map(|t| {
                t.translation.is_some() as usize
                    + t.rotation.is_some() as usize
                    + t.scale.is_some() as usize
                    + !t.weights.is_empty() as usize
            })
            .sum();
        line(format!(
            "  {i} {}: {:.3} s, {} on {}",
            quoted(&clip.name),
            clip.duration,
            counted(channels, "channel", "channels"),
            counted(tracks.len(), "node", "nodes")
        ));
        for track in tracks {
            line(track_keys(&imported.model.skeleton, track));
        }
    }
}

/// One node of a clip: the keys of each channel that moves it.
fn track_keys(skeleton: &Skeleton, track: &Track) -> String {
    let mut text = format!("    {}:", printable(&skeleton.bone(track.bone).name));
    channel_keys(&mut text, "translation", track.translation.as_ref());
    channel_keys(&mut text, "rotation", track.rotation.as_ref());
    channel_keys(&mut text, "scale", track.scale.as_ref());
    channel_keys(&mut text, "morph weights", track.weights.first());
    text.trim_end_matches(',').to_string()
}

/// ` rotation linear 3 keys,`: a channel, if the track has it, with how its keys are interpolated
/// and how many there are.
fn channel_keys<T>(text: &mut String, what: &str, channel: Option<&Channel<T>>) {
    if let Some(channel) = channel {
        let keys = counted(channel.times.len(), "key", "keys");
        write!(text, " {what} {} {keys},", channel.interpolation.name()).ok();
    }
}

/// What the loader mended or ignored, including what the file has that this program does not
/// draw; first, if there is nothing to draw, why.
fn mended(imported: &Imported, line: &mut impl FnMut(String)) {
    if let Some(why) = &imported.nothing_to_draw {
        line(format!("nothing to draw: {why}"));
    }
    if imported.notes.is_empty() && imported.unused.is_empty() {
        line("ignored or mended: nothing".into());
        return;
    }
    line("ignored or mended:".into());
    if !imported.unused.is_empty() {
        let unused = imported.unused.join(", ");
        line(format!("  unused here (this program draws a material's base colour only): {unused}"));
    }
    for note in &imported.notes {
        line(format!("  {note}"));
    }
}

/// Which way the model stands and faces: glTF's axes, unless `--front` said otherwise.
fn axes(axes: Axes) -> String {
    let why = if axes == Axes::GLTF { "glTF's own; --front AXIS says otherwise" } else { "given by --front" };
    format!("axes: up {}, front {} ({why})", axes.up(), axes.front())
}

/// The most influences on one vertex, how many vertices have more than four, and whether the GPU
/// can take them: every one blends, on the CPU always.
pub fn influences(skin: &Skin) -> String {
    let most = skin.most_influences();
    let mut text = format!("influences: at most {most} on one vertex");
    let more = skin.extras_by_vertex(0..skin.len()).count();
    if more > 0 {
        let vertices = counted(more, "vertex has", "vertices have");
        write!(text, "; {vertices} more than {SLOTS}, and every influence blends").ok();
    }
    if most > MAX_GPU_INFLUENCES {
        write!(text, "; GPU skinning takes {MAX_GPU_INFLUENCES}, so this model is skinned on the CPU").ok();
    }
    text
}

/// The most levels of the tree shown by indentation. Deeper bones are indented as far and say
/// their level instead: 1,000 levels of indentation would print half a million spaces for a
/// chain of 1,000 bones, and as many per bone below it.
const INDENTED_LEVELS: usize = 32;

/// The start of a tree line for a bone `depth` levels down (1 for the root).
fn indent(depth: usize) -> String {
    let mut text = "  ".repeat(depth.min(INDENTED_LEVELS));
    if depth > INDENTED_LEVELS {
        write!(text, "(level {depth}) ").ok();
    }
    text
}
