//! The chains the reaching flags ask for, on the model loaded: each `--reach [START..]END=X,Y,Z`
//! with its `--pole` (a point, or a bone), solved two-bone or by CCD (`--chain`, or a START..END
//! path of more than two bones), at `--reach-weight`. Which bones the names mean (`cli/names.rs`),
//! and whether END has the bones above it that its solver turns, is known only once the model is,
//! so those mistakes are told here, one line each; what a chain turns on a rig is noted
//! (`rig.rs`).

use super::rig::Rig;
use crate::demo::cli::names;
use crate::demo::cli::reach::{Goal, MAX_GOALS, Pole, ReachOptions};
use crate::demo::output::console;
use skinning_formats::dump::Played;
use skinning_method::frame::{Frame, Pose};
use skinning_method::model::Model;
use skinning_method::printable::{printable, quoted};
use skinning_method::reach::bend_rule::Facing;
use skinning_method::reach::{Reach, Solver};
use skinning_method::skeleton::{BoneId, Skeleton};

/// The chains `options` asks for on `model` (`--reach`, `--pole`, `--chain`, `--reach-weight`,
/// `--soften`), or the one line that says what is wrong. What a chain would turn on a rig (the
/// whole character, bones that move no vertex) is said in a note.
pub fn chains(model: &Model, options: &ReachOptions) -> Result<Vec<Reach>, String> {
    let skeleton = &model.skeleton;
    let rig = (!options.goals.is_empty()).then(|| Rig::new(model));
    let mut chains = Vec::with_capacity(MAX_GOALS);
    for goal in &options.goals {
        let end = find_bone(skeleton, "--reach", &goal.end)?;
        let mut chain = match &goal.start {
            None => Reach::new(skeleton, end, solver(options), goal.target)
                .map_err(|e| too_short(&goal.end, e, options.chain))?,
            Some(start) => between(skeleton, goal, find_bone(skeleton, "--reach", start)?, end, options)?,
        };
        chain.set_facing(skeleton, facing(model));
        match &goal.pole {
            Some(_) if chain.solver.turning() != 2 => {
                return Err(format!(
                    "--pole (given for --reach {}) steers the two-bone solver; its chain turns {} bones \
                     (CCD), which has no pole: leave one out",
                    quoted(&goal.end),
                    chain.solver.turning()
                ));
            }
            Some(Pole::Point(point)) => chain.pole = Some(*point),
            Some(Pole::Bone(name)) => chain.set_pole_bone(skeleton, find_bone(skeleton, "--pole", name)?),
            None => {}
        }
        chain.weight = options.weight.unwrap_or(1.0);
        if let Some(note) = rig.as_ref().and_then(|rig| rig.note(skeleton, &chain, &goal.end)) {
            console::note_once(&note);
        }
        chains.push(chain);
    }
    Ok(chains)
}

/// The solver the flags ask for: CCD on `--chain N` bones, else two-bone, softened by `--soften`.
pub fn solver(options: &ReachOptions) -> Solver {
    match options.chain {
        Some(bones) => Solver::Ccd { bones },
        None => Solver::TwoBone { soften: options.soften.unwrap_or(1.0) },
    }
}

/// The model's up and front in its own numbers (`model/axes.rs`), as the camera stands it up: what
/// the default bend of a straight limb reads (`bend_rule.rs`).
pub fn facing(model: &Model) -> Facing {
    Facing { up: model.axes.up().vector(), front: model.axes.front().vector() }
}

/// The bone `name` means, for `flag`, by the rules every flag that names a bone follows.
fn find_bone(skeleton: &Skeleton, flag: &str, name: &str) -> Result<BoneId, String> {
    let names: Vec<&str> = skeleton.bones().iter().map(|b| b.name.as_str()).collect();
    names::find(flag, "bone", name, &names)
}

/// The chain of `--reach START..END`: every bone from START down to END's parent turns; two of
/// them: the two-bone solver (softened by `--soften`), more or one: CCD on them.
fn between(
    skeleton: &Skeleton,
    goal: &Goal,
    start: BoneId,
    end: BoneId,
    options: &ReachOptions,
) -> Result<Reach, String> {
    let mut above = std::iter::successors(skeleton.bone(end).parent, |&b| skeleton.bone(b).parent);
    let Some(turning) = above.position(|b| b == start).map(|i| i + 1) else {
        return Err(format!(
            "--reach {}..{}: {} is not above {} in the bone tree, so no path leads down from one to the \
             other (--info shows the tree)",
            quoted(goal.start.as_deref().unwrap_or_default()),
            quoted(&goal.end),
            quoted(&skeleton.bone(start).name),
            quoted(&skeleton.bone(end).name)
        ));
    };
    let solver = match turning {
        2 => Solver::TwoBone { soften: options.soften.unwrap_or(1.0) },
        bones => Solver::Ccd { bones },
    };
    Reach::new(skeleton, end, solver, goal.target).map_err(|e| e.to_string())
}

/// The line for an END without the bones above it that its solver turns.
fn too_short(end: &str, e: skinning_method::reach::chain::TooShort, chain: Option<usize>) -> String {
    let name = quoted(end);
    match (e.above.len(), chain) {
        (0, _) => format!("--reach {name}: {e}"),
        (n, None) => format!(
            "--reach {name}: the two-bone solver turns the end's parent and grandparent, and it has {} \
             above it {}: pick a bone further down the tree, or --chain 1",
            if n == 1 { "one bone" } else { "no bones" },
            e.names_above()
        ),
        (n, Some(wanted)) => format!(
            "--reach {name} with --chain {wanted}: it has {n} bones above it {}, so --chain may be 1 to {n}",
            e.names_above()
        ),
    }
}

/// The same chain with `solver` (CCD on as many bones as it may have), keeping its target, pole
/// and weight.
pub fn remade(skeleton: &Skeleton, chain: &Reach, solver: Solver, facing: Facing) -> Result<Reach, String> {
    let end = chain.end();
    let solver = match solver {
        Solver::Ccd { bones } => Solver::Ccd { bones: bones.min(above(skeleton, end)) },
        two_bone => two_bone,
    };
    let mut next = Reach::new(skeleton, end, solver, chain.target)
        .map_err(|e| format!("cannot switch to the {} solver: {e}", solver.name()))?;
    (next.pole, next.weight) = (chain.pole, chain.weight);
    next.set_facing(skeleton, facing);
    if let Some(bone) = chain.pole_bone() {
        next.set_pole_bone(skeleton, bone);
    }
    Ok(next)
}

/// The note for a chain `name` whose straight limb the default bend took for `limb`.
pub fn rule_note(name: &str, limb: skinning_method::reach::bend_rule::Limb) -> String {
    format!(
        "reach {name}: the limb is straight and has no --pole, so the default bend takes it for {} \
         (chapter 12; --pole X,Y,Z or --pole BONE chooses)",
        limb.says()
    )
}

/// How many bones are above `bone`.
pub fn above(skeleton: &Skeleton, bone: BoneId) -> usize {
    std::iter::successors(skeleton.bone(bone).parent, |&b| skeleton.bone(b).parent).count()
}

/// A chain as the corner line names it: its start and its end, `bone1-bone31`.
pub fn chain_name(skeleton: &Skeleton, chain: &Reach) -> String {
    let name = |b: BoneId| printable(&skeleton.bone(b).name).into_owned();
    format!("{}-{}", name(chain.bones()[0]), name(chain.end()))
}

/// Says the default bend's note for each of `reaches` whose limb is straight in the first frame,
/// at `time` (the dump's: the window says it after its own first frame, `Reaching::rule_notes`).
pub fn say_rule_notes(model: &Model, mut played: Played, time: f64, reaches: &[Reach]) {
    // Only a two-bone chain without a pole can take the default bend.
    if !reaches.iter().any(|r| r.pole.is_none() && r.pole_bone().is_none() && r.solver.turning() == 2) {
        return;
    }
    let mut probe = reaches.to_vec();
    played.advance_to(time);
    let mut frame = Frame::new(played.source(), time).palette_only();
    frame.adjust = Some(&mut probe);
    // Only the bones matter here, and a palette that dual quaternions could not hold is the dump's
    // to refuse, later.
    let _bones_only = Pose::new(model).run(model, frame);
    for chain in &probe {
        if let Some(limb) = chain.reached.rule {
            console::note_once(&rule_note(&chain_name(&model.skeleton, chain), limb));
        }
    }
}
