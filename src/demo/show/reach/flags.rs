//! The chains the reaching flags ask for, on the model loaded: each `--reach END=X,Y,Z` with its
//! `--pole`, solved two-bone or by CCD (`--chain`), at `--reach-weight`. Which bone END names, and
//! whether it has the bones above it that its solver turns, is known only once the model is, so
//! those mistakes are told here, one line each.

use crate::demo::cli::reach::{MAX_GOALS, ReachOptions};
use skinning_method::model::Model;
use skinning_method::printable::{printable, quoted};
use skinning_method::reach::{Reach, Solver};
use skinning_method::skeleton::BoneId;

/// The chains `options` asks for on `model` (`--reach`, `--pole`, `--chain`, `--reach-weight`,
/// `--soften`), or the one line that says what is wrong.
pub fn chains(model: &Model, options: &ReachOptions) -> Result<Vec<Reach>, String> {
    let solver = solver(options);
    let skeleton = &model.skeleton;
    let mut chains = Vec::with_capacity(MAX_GOALS);
    for goal in &options.goals {
        let end = find_end(model, &goal.end)?;
        let mut chain = Reach::new(skeleton, end, solver, goal.target).map_err(|e| {
            let name = quoted(&goal.end);
            match (e.above.len(), options.chain) {
                (0, _) => format!("--reach {name}: {e}"),
                (n, None) => format!(
                    "--reach {name}: the two-bone solver turns the end's parent and grandparent, and it \
                     has {} above it {}: pick a bone further down the tree, or --chain 1",
                    if n == 1 { "one bone" } else { "no bones" },
                    e.names_above()
                ),
                (n, Some(wanted)) => format!(
                    "--reach {name} with --chain {wanted}: it has {n} bones above it {}, so --chain may \
                     be 1 to {n}",
                    e.names_above()
                ),
            }
        })?;
        chain.pole = goal.pole;
        chain.weight = options.weight.unwrap_or(1.0);
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

/// The bone `--reach` names, by name, else by index (as `--weights` and `--mask` look).
fn find_end(model: &Model, name: &str) -> Result<BoneId, String> {
    let bones = model.skeleton.bones();
    let by_index = || name.parse::<usize>().ok().filter(|&i| i < bones.len());
    model.skeleton.find(name).or_else(by_index).ok_or_else(|| {
        let list: Vec<_> = bones.iter().map(|b| printable(&b.name)).collect();
        let (name, last) = (quoted(name), bones.len() - 1);
        match list.len() {
            1 => format!("unknown bone {name} for --reach: the only one is {} (or 0)", list[0]),
            // A real skeleton's names do not fit on a line: --info lists them, with their indices.
            n if n > 12 => format!(
                "unknown bone {name} for --reach: this model has {n} bones, 0 to {last} (--info lists them)"
            ),
            _ => {
                let list = list.join(", ");
                format!("unknown bone {name} for --reach: choose one of {list} (or 0 to {last})")
            }
        }
    })
}
