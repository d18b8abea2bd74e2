//! `--model FILE.md5mesh --info`: what an MD5 model holds, said in the article's terms.
//!
//! The joint tree (each joint at its bind-pose position, in the file's own Z-up numbers), each
//! mesh (vertices, triangles, weights, the most weights on one vertex), each animation that fits
//! (frames, frame rate, duration, animated components), what is ignored, and the number this
//! format alone can tell: **how far each vertex's weights disagree** about where that vertex is in
//! the bind pose, the largest such spread relative to the model's size. Near float rounding,
//! article 002's two formulas agree for this file; far above it, they do not
//! (`md5_import/agreement.rs`).

use skinning_formats::gltf_import::counted;
use skinning_formats::md5_import::{Imported, MeshSummary, REST, SYNTHETIC_ROOT, spread};
use skinning_method::printable::printable;
use skinning_method::skeleton::Skeleton;
use std::path::Path;

/// A spread below this, relative to the model's size, is float rounding: the formulas agree.
const AGREE: f32 = 1e-5;

/// What every file has that this program reads past.
const IGNORED: &str = "the animations' bounds (boxes for culling; the camera frames the model itself), \
                       the command lines but this program's clip names";

/// What this file has that this program reads past: the shaders that gave their mesh nothing to
/// draw (no picture found, no colour: a Doom 3 material's name only names its mesh here), then
/// what every file has.
fn ignored(imported: &Imported) -> String {
    let plain: Vec<String> = (imported.meshes.iter().enumerate())
        .filter(|(_, mesh)| !mesh.drawn)
        .map(|(m, mesh)| format!("mesh {m}'s shader \"{}\"", printable(&mesh.name)))
        .collect();
    match plain.is_empty() {
        true => format!("ignored: {IGNORED}"),
        false => format!(
            "ignored: {} (no picture file beside the model by that name, nor a colour, rgba R G B A), {IGNORED}",
            plain.join(", ")
        ),
    }
}

/// Which way the model stands and faces: up +z, and the front its feet show, unless `--front`
/// said otherwise.
fn axes(imported: &Imported) -> String {
    let axes = imported.model.axes;
    let found = &imported.front;
    let why = match axes.front() == found.axis {
        true => format!("{}; --front AXIS says otherwise", found.why()),
        false => "given by --front".to_string(),
    };
    format!("axes: up {}, front {} ({why})", axes.up(), axes.front())
}

/// The whole description, ready to print: what the file holds, section by section.
pub fn describe(path: &Path, imported: &Imported) -> String {
    let mut out = String::new();
    let mut line = |text: String| {
        out.push_str(&text);
        out.push('\n');
    };
    line(summary(path, imported));
    line(axes(imported));
    tree(imported, &mut line);
    meshes(imported, &mut line);
    line("normals: none in the file; smooth ones from the triangles, as id Tech 4 makes them".into());
    line(super::looks_info::looks(&imported.looks));
    animations(imported, &mut line);
    line(super::info::influences(&imported.model.skin));
    weights(imported, &mut line);
    line(ignored(imported));
    for note in &imported.notes {
        line(format!("note: {note}"));
    }
    out
}

/// The first line: the file, and how many joints, meshes, vertices, triangles and weights it has.
fn summary(path: &Path, imported: &Imported) -> String {
    let skeleton = &imported.model.skeleton;
    let synthetic = has_synthetic_root(skeleton);
    let joints = skeleton.len() - usize::from(synthetic);
    let above = if synthetic { ", plus a synthetic root bone above the file's several roots" } else { "" };
    let meshes = &imported.meshes;
    let sum = |f: fn(&MeshSummary) -> usize| meshes.iter().map(f).sum::<usize>();
    format!(
        "{}: an MD5 model (MD5Version 10, Doom 3's; Z-up): {}{above}; {}; {}, {}, {}",
        path.display(),
        counted(joints, "joint", "joints"),
        counted(meshes.len(), "mesh", "meshes"),
        counted(sum(|m| m.vertices), "vertex", "vertices"),
        counted(sum(|m| m.triangles), "triangle", "triangles"),
        counted(sum(|m| m.weights), "weight", "weights"),
    )
}

/// Whether the loader added a root bone above the file's several roots: the one bone that is no
/// joint of the file.
fn has_synthetic_root(skeleton: &Skeleton) -> bool {
    skeleton.bone(skeleton.root()).name == SYNTHETIC_ROOT
}

/// The joint tree, a joint a line at its bind-pose position, walked like compute_world: first
/// child one level deeper, siblings at the same level.
fn tree(imported: &Imported, line: &mut impl FnMut(String)) {
    let skeleton = &imported.model.skeleton;
    let joints = skeleton.len() - usize::from(has_synthetic_root(skeleton));
    line("joint tree (joint i is bone i and skin joint i; where each stands in the bind pose, the file's numbers):".into());
    let rest_world = skeleton.rest_world();
    let mut stack = vec![(skeleton.root(), 1)];
    while let Some((bone, depth)) = stack.pop() {
        let b = skeleton.bone(bone);
        let at = rest_world[bone].w_axis;
        let name = printable(&b.name);
        let joint = if bone < joints { format!("joint {bone}") } else { "added".into() };
        line(format!("{}{name} ({joint}) at ({:.4}, {:.4}, {:.4})", "  ".repeat(depth), at.x, at.y, at.z));
        if let Some(sibling) = b.sibling {
            stack.push((sibling, depth));
        }
        if let Some(child) = b.first_child {
            stack.push((child, depth + 1));
        }
    }
}

/// The meshes, a line each: vertices, triangles, weights, and the most weights on one vertex.
fn meshes(imported: &Imported, line: &mut impl FnMut(String)) {
    line("meshes (each a run of the model's vertices, in file order):".into());
    for (m, mesh) in imported.meshes.iter().enumerate() {
        line(format!(
            "  {m} \"{}\": {}, {}, {}; at most {} on one vertex",
            printable(&mesh.name),
            counted(mesh.vertices, "vertex", "vertices"),
            counted(mesh.triangles, "triangle", "triangles"),
            counted(mesh.weights, "weight", "weights"),
            counted(mesh.most_weights, "weight", "weights"),
        ));
    }
}

/// The animations, a line each (frames, frame rate, duration, animated components), then the
/// loader's bind pose, unless an animation has its name (one this program wrote for a model
/// without clips): then that is the clip, listed once, above.
fn animations(imported: &Imported, line: &mut impl FnMut(String)) {
    line("animations (the .md5anim files beside it whose joints are the mesh's, in name order):".into());
    for (i, (anim, clip)) in imported.animations.iter().zip(&imported.clips).enumerate() {
        line(format!(
            "  {i} \"{}\": {} at {} a second, {:.3} s, {} animated",
            printable(&anim.name),
            counted(anim.frames, "frame", "frames"),
            anim.frame_rate,
            clip.duration,
            counted(anim.components, "component", "components"),
        ));
    }
    if imported.clips.len() > imported.animations.len() {
        let last = imported.clips.len() - 1;
        line(format!("  {last} \"{REST}\": the bind pose, as the .md5mesh stores it"));
    }
}

/// The lesson of the format: do the weights of each vertex agree about where it is? The largest
/// spread, relative to the model's size, and where it is.
fn weights(imported: &Imported, line: &mut impl FnMut(String)) {
    let model = &imported.model;
    let spread = spread(model, &imported.stored);
    line("weights: MD5 stores each weight's position in its joint's space, the article one bind position and one offset per joint;".into());
    line(
        "  they agree when every weight of a vertex is offset · bind (its vertex in its joint's space)"
            .into(),
    );
    let weight = imported.stored.of(spread.vertex).get(spread.weight);
    let joint =
        weight.map_or(String::new(), |w| format!(" on {}", printable(&model.skeleton.bone(w.joint).name)));
    let verdict = if spread.relative() <= AGREE {
        "the two formulas agree for this file (to float rounding)".to_string()
    } else {
        format!(
            "the two formulas disagree: the article's moves that vertex up to {:.3e} from MD5's",
            spread.largest
        )
    };
    let relative = match spread.relative() {
        0.0 => "0".to_string(),
        x => format!("{x:.2e}"),
    };
    line(format!(
        "  largest spread: {relative} of the model's size ({:.4}), at vertex {}, weight slot {}{joint}: {verdict}",
        spread.size, spread.vertex, spread.weight,
    ));
}
