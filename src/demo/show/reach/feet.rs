//! The legs `--ground` stands on the model loaded (chapter 20): found by their feet's names, through
//! the one lookup every flag that names a bone uses (`cli/names.rs`), so `LeftFoot` finds Mixamo's
//! `mixamorig:LeftFoot`. Each foot is an ankle with a lower and an upper leg above it, and the hips
//! are the bone both legs hang from; the two legs stand as one kind of reach (`Reach::feet`,
//! `ground.rs`). The article's scene has no legs: its claw, `bone31`, stands alone, the bones above
//! it its leg. A model where no pair of feet makes two legs is told so in one line.

use super::flags::{above, facing};
use crate::demo::cli::names;
use skinning_method::ground::{Ground, Shape};
use skinning_method::model::Model;
use skinning_method::printable::printable;
use skinning_method::reach::{Reach, Solver};
use skinning_method::skeleton::{BoneId, Skeleton};

/// The feet's names tried, pair by pair, in this order: Mixamo's (after its prefix), Blender's
/// and the robot's short ones, and the Fox's (its hind legs).
pub const FEET: [(&str, &str); 3] =
    [("LeftFoot", "RightFoot"), ("FootL", "FootR"), ("b_LeftFoot01_017", "b_RightFoot01_021")];

/// The article's claw, which stands alone on the scene's ground.
pub const CLAW: &str = "bone31";

/// The legs `shape` asks to stand on `model`, if it asks, or the one line that says why not.
pub fn chain(model: &Model, shape: Option<Shape>, article: bool) -> Result<Option<Reach>, String> {
    let Some(shape) = shape else { return Ok(None) };
    let skeleton = &model.skeleton;
    let names: Vec<&str> = skeleton.bones().iter().map(|b| b.name.as_str()).collect();
    let mut why = Vec::new();
    if article {
        let claw = names::find("--ground", "bone", CLAW, &names)?;
        let ground = Ground { shape: deep(shape, skeleton, claw), facing: facing(model) };
        return Reach::new(skeleton, claw, Solver::Ground(ground), glam::Vec3::ZERO)
            .map(Some)
            .map_err(|e| format!("--ground: {e}"));
    }
    for (left, right) in FEET {
        let (Ok(l), Ok(r)) =
            (names::find("--ground", "bone", left, &names), names::find("--ground", "bone", right, &names))
        else {
            continue;
        };
        match legs(skeleton, l, r) {
            Ok(hips) => {
                let ground = Ground { shape: deep(shape, skeleton, l), facing: facing(model) };
                return Reach::feet(skeleton, hips, [l, r], ground)
                    .map(Some)
                    .map_err(|e| format!("--ground: {e}"));
            }
            Err(e) => why.push(e),
        }
    }
    let tried: Vec<String> = FEET.iter().map(|(l, r)| format!("{l} and {r}")).collect();
    let why = if why.is_empty() { "none of them are its bones".to_string() } else { why.join("; ") };
    Err(format!(
        "--ground: no legs found on this model: it tried the feet {} ({why}); a leg is a foot with a \
         lower and an upper leg above it, both legs hanging from the hips",
        tried.join(", ")
    ))
}

/// The hips both legs (ankles `l` and `r`, each two bones below its hip joint) hang from: the
/// nearest bone above both hip joints. Or why these feet make no two legs.
fn legs(skeleton: &Skeleton, l: BoneId, r: BoneId) -> Result<BoneId, String> {
    let name = |b: BoneId| printable(&skeleton.bone(b).name).into_owned();
    let up = |b: BoneId| skeleton.bone(b).parent;
    let hip = |ankle: BoneId| up(ankle).and_then(up).filter(|_| above(skeleton, ankle) >= 3);
    let (Some(hl), Some(hr)) = (hip(l), hip(r)) else {
        return Err(format!("{} and {} have no leg of two bones below hips", name(l), name(r)));
    };
    let path = |b: BoneId| -> Vec<BoneId> { std::iter::successors(Some(b), |&b| up(b)).collect() };
    let (pl, pr) = (path(l), path(r));
    let shared = |p: &[BoneId], q: &[BoneId]| p[..3].iter().any(|b| q[..3].contains(b));
    if shared(&pl, &pr) {
        return Err(format!("{} and {} hang from the same bones, not from two legs", name(l), name(r)));
    }
    let hips = pl.iter().skip(3).find(|b| pr.contains(b));
    hips.copied().ok_or(format!("{} and {} hang from no bone in common", name(hl), name(hr)))
}

/// `shape` with a step's depth: as deep as the leg ending at `ankle` is long at rest.
fn deep(shape: Shape, skeleton: &Skeleton, ankle: BoneId) -> Shape {
    match shape {
        Shape::Steps { height, .. } => {
            let rest = skeleton.rest_world();
            let at = |b: BoneId| rest[b].w_axis.truncate();
            let (knee, hip) = (
                skeleton.bone(ankle).parent,
                skeleton.bone(ankle).parent.and_then(|k| skeleton.bone(k).parent),
            );
            let depth = match (knee, hip) {
                (Some(k), Some(h)) => at(h).distance(at(k)) + at(k).distance(at(ankle)),
                _ => 1.0,
            };
            Shape::Steps { height, depth: if depth > 0.0 { depth } else { 1.0 } }
        }
        other => other,
    }
}
