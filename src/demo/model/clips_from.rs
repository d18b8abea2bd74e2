//! `--clips-from FILE` (chapter 18; the method is `crates/method/src/retarget.rs`): another
//! model's clips, made this model's own at load time (`load.rs` reads the file, [`carry`] carries
//! its clips over), so that everything after (the window, the
//! dump, root motion, the exports) plays them as any of its clips. Each bone of this model is
//! matched to the other's by its name, through the program's one name lookup (`cli/names.rs`:
//! `same_bone`: as written, in any letter case, after a `mixamorig:` or any other prefix); the
//! hips' travel is scaled by the legs' ratio. A bone with no match keeps its rest pose, and one
//! note lists them. Two models whose numbers stand along different axes (MD5's Z up, glTF's Y up)
//! are turned into each other's by their axes. A file without clips, or two skeletons that share
//! no name, get one line each.

use crate::demo::cli::names::same_bone;
use crate::demo::output::console;
use crate::demo::output::failure::Failure;
use skinning_formats::{gltf_import, md5_import};
use skinning_method::clip::Clip;
use skinning_method::model::Model;
use skinning_method::printable::printable;
use skinning_method::retarget::{Matching, leg_length, retarget_clip};
use skinning_method::root_motion::hips;

/// How many unmatched bones the note names before it counts the rest.
const NAMED: usize = 12;

/// The clips of `other` (the model `shown` names, whose own clips are the first `own_clips` of
/// `clips`), carried over onto `model`'s skeleton.
pub fn carry(
    model: &Model,
    other: &Model,
    clips: &[Clip],
    own_clips: usize,
    shown: &str,
) -> Result<Vec<Clip>, Failure> {
    let (source, target) = (&other.skeleton, &model.skeleton);
    if own_clips == 0 {
        return Err(Failure::new(1, format!("--clips-from {shown}: it has no animations to carry over")));
    }
    let source_names: Vec<&str> = source.bones().iter().map(|b| b.name.as_str()).collect();
    // The loaders' own bone above a file's several roots is in every such file: no match.
    let made = |name: &str| [gltf_import::SYNTHETIC_ROOT, md5_import::SYNTHETIC_ROOT].contains(&name);
    let source_of: Vec<Option<usize>> = (target.bones().iter())
        .map(|b| same_bone(&b.name, &source_names).filter(|_| !made(&b.name)))
        .collect();
    if source_of.iter().all(Option::is_none) {
        return Err(Failure::new(
            1,
            format!(
                "--clips-from {shown}: none of its {} bones shares a name with this model's",
                source.len()
            ),
        ));
    }
    let unmatched: Vec<String> = (target.bones().iter().zip(&source_of))
        .filter(|(b, s)| s.is_none() && !made(&b.name))
        .map(|(b, _)| printable(&b.name).into_owned())
        .collect();
    if !unmatched.is_empty() {
        let (named, more) = unmatched.split_at(unmatched.len().min(NAMED));
        let more = if more.is_empty() { String::new() } else { format!(" and {} more", more.len()) };
        console::note_once(&format!(
            "--clips-from {shown}: {} of this model's bones match none of its and keep their rest pose: {}{more}",
            unmatched.len(),
            named.join(", ")
        ));
    }
    let (up, source_up) = (model.axes.up().vector(), other.axes.up().vector());
    let pair = hips(target).and_then(|t| source_of[t].map(|s| (t, s)));
    let ratio = pair
        .map(|(t, s)| leg_length(target, t, up) / leg_length(source, s, source_up))
        .filter(|r| r.is_finite() && *r > 0.0);
    // From the other model's axes to glTF's, and on to this model's.
    let turn = model.axes.turn_to_gltf().inverse() * other.axes.turn_to_gltf();
    let matching = Matching { source_of, hips: pair, ratio: ratio.unwrap_or(1.0), turn };
    Ok(clips[..own_clips].iter().map(|clip| retarget_clip(source, clip, target, &matching)).collect())
}
