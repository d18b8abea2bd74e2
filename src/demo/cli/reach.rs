//! The reaching flags (chapter 12): `--reach END=X,Y,Z` or `--reach START..END=X,Y,Z` (again for
//! each hand), `--pole X,Y,Z` or `--pole BONE` for the `--reach` before it, `--chain N` (CCD on N
//! bones instead of the two-bone solver), `--reach-weight W` and `--soften RATIO`. Read here into
//! [`ReachOptions`]; which bones the names mean is known only once the model is loaded
//! (`show/reach/flags.rs`).

use glam::Vec3;
use lexopt::Parser;

/// What the reaching flags ask for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReachOptions {
    /// Each `--reach`: the end bone (a name or an index, as written), its target, and the
    /// `--pole` given after it.
    pub goals: Vec<Goal>,
    /// `--chain N`: solve with CCD on N bones; None: the two-bone solver.
    pub chain: Option<usize>,
    /// `--reach-weight W`, 0 to 1; None: 1.
    pub weight: Option<f32>,
    /// `--soften RATIO`, 0 to 1; None: 1 (no softening).
    pub soften: Option<f32>,
}

/// One `--reach [START..]END=X,Y,Z`, with its `--pole`.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    /// Where the chain starts (`START..`): None for the end's parent and grandparent (or `--chain`'s
    /// bones).
    pub start: Option<String>,
    pub end: String,
    pub target: Vec3,
    pub pole: Option<Pole>,
}

/// What `--pole` names: a point, or a bone whose joint is the pole wherever the pose puts it.
#[derive(Clone, Debug, PartialEq)]
pub enum Pole {
    Point(Vec3),
    Bone(String),
}

/// The most `--reach` flags: hands, feet and a head, with room to spare.
pub const MAX_GOALS: usize = 8;

/// Whether `flag` (without its `--`) is one of the reaching flags.
pub fn is_reach_flag(flag: &str) -> bool {
    matches!(flag, "reach" | "pole" | "chain" | "reach-weight" | "soften")
}

/// Reads the value of the reaching flag `--flag` into `options`.
pub fn parse(flag: &str, parser: &mut Parser, options: &mut ReachOptions) -> Result<(), String> {
    let value = |parser: &mut Parser, what: &str| -> Result<String, String> {
        let v = parser.value().map_err(|_| format!("--{flag} needs a value: --{flag} {what}"))?;
        v.into_string().map_err(|v| format!("--{flag}'s value {v:?} is not valid UTF-8"))
    };
    match flag {
        "reach" => {
            let v = value(parser, "END=X,Y,Z")?;
            let goal = goal(&v).ok_or(format!(
                "--reach wants END=X,Y,Z or START..END=X,Y,Z: the bone that reaches (a name or an index; \
                 START, the bone the chain starts at) and a target of three finite numbers in the \
                 model's space, like bone31=0.3,0.3,0; not {v:?}"
            ))?;
            if options.goals.len() == MAX_GOALS {
                return Err(format!("--reach is given more than {MAX_GOALS} times"));
            }
            if options.goals.iter().any(|g| g.end == goal.end) {
                return Err(format!("--reach names {:?} twice: one target per bone", goal.end));
            }
            options.goals.push(goal);
        }
        "pole" => {
            let v = value(parser, "X,Y,Z")?;
            let pole = pole(&v).ok_or(format!(
                "--pole wants X,Y,Z, three finite numbers in the model's space, or a BONE whose joint is \
                 the pole: where the elbow or knee of the --reach before it points; not {v:?}"
            ))?;
            let goal = options
                .goals
                .last_mut()
                .ok_or("--pole steers the --reach before it: give --reach END=X,Y,Z first")?;
            if goal.pole.replace(pole).is_some() {
                return Err(format!("--pole is given twice for --reach {}: one pole per chain", goal.end));
            }
        }
        "chain" => {
            let v = value(parser, "N")?;
            let n = v.parse::<usize>().ok().filter(|&n| n >= 1);
            options.chain = Some(
                n.ok_or(format!("--chain wants how many bones above the end turn, 1 or more, not {v:?}"))?,
            );
        }
        "reach-weight" | "soften" => {
            let v = value(parser, "W")?;
            let w = v.parse::<f32>().ok().filter(|w| (0.0..=1.0).contains(w));
            let what = if flag == "soften" { "the fraction of the chain's length" } else { "a weight" };
            let w = w.ok_or(format!("--{flag} wants {what} from 0 to 1, not {v:?}"))?;
            *(if flag == "soften" { &mut options.soften } else { &mut options.weight }) = Some(w);
        }
        _ => unreachable!("is_reach_flag lists the flags parsed here"),
    }
    Ok(())
}

/// `[START..]END=X,Y,Z` (the last `=` splits, so a bone's name may hold one).
fn goal(text: &str) -> Option<Goal> {
    let (bones, xyz) = text.rsplit_once('=')?;
    let target = point(xyz)?;
    let (start, end) = match bones.split_once("..") {
        Some((start, end)) => (Some(Some(start.trim()).filter(|s| !s.is_empty())?.to_string()), end.trim()),
        None => (None, bones.trim()),
    };
    (!end.is_empty()).then(|| Goal { start, end: end.to_string(), target, pole: None })
}

/// `X,Y,Z` as a point, or a bone's name (one without commas); None for numbers that are not three
/// finite ones (`1,2`, `1,2,inf`), or nothing at all.
fn pole(text: &str) -> Option<Pole> {
    if text.contains(',') {
        return point(text).map(Pole::Point);
    }
    let name = text.trim();
    (!name.is_empty()).then(|| Pole::Bone(name.to_string()))
}

/// `X,Y,Z` as three finite numbers.
pub fn point(text: &str) -> Option<Vec3> {
    let numbers: Vec<f32> = text.split(',').map(|n| n.trim().parse::<f32>().ok()).collect::<Option<_>>()?;
    match numbers[..] {
        [x, y, z] if [x, y, z].iter().all(|n| n.is_finite()) => Some(Vec3::new(x, y, z)),
        _ => None,
    }
}

/// The rules between the reaching flags: each of the others goes with a `--reach`, a pole or
/// soften belongs to the two-bone solver, and `--info` (which shows no pose) takes none.
pub fn check(options: &ReachOptions, info: bool) -> Result<(), String> {
    if info && !options.goals.is_empty() {
        return Err(
            "--info only prints what the file holds; --reach goes with a window, a picture or a dump".into(),
        );
    }
    let flag = match options {
        o if o.goals.is_empty() && o.chain.is_some() => Some("--chain N"),
        o if o.goals.is_empty() && o.weight.is_some() => Some("--reach-weight W"),
        o if o.goals.is_empty() && o.soften.is_some() => Some("--soften RATIO"),
        _ => None,
    };
    if let Some(flag) = flag {
        return Err(format!("{flag} says how --reach's chains are solved: give a --reach END=X,Y,Z too"));
    }
    if options.chain.is_some() {
        if let Some(goal) = options.goals.iter().find(|g| g.pole.is_some() && g.start.is_none()) {
            return Err(format!(
                "--pole (given for --reach {}) steers the two-bone solver; CCD (--chain) has no pole: \
                 leave one out",
                goal.end
            ));
        }
        if options.soften.is_some() {
            return Err(
                "--soften belongs to the two-bone solver; CCD (--chain) has none: leave one out".into()
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Pole;
    use crate::demo::cli::{Command, parse};
    use glam::Vec3;

    fn run(args: &[&str]) -> Result<super::ReachOptions, String> {
        match parse(args.iter().map(std::ffi::OsString::from))? {
            Command::Run(options) => Ok(options.reach),
            Command::Help => panic!("not help"),
        }
    }

    #[test]
    fn each_reach_takes_the_pole_after_it() {
        let o = run(&["--reach", "bone31=0.3,0.3,0", "--pole", "0.3,0,1", "--reach=bone32=0.5,-0.2,0.1"])
            .expect("parses");
        assert_eq!(o.goals.len(), 2);
        assert_eq!((o.goals[0].end.as_str(), o.goals[0].target), ("bone31", Vec3::new(0.3, 0.3, 0.0)));
        assert_eq!(o.goals[0].pole, Some(Pole::Point(Vec3::new(0.3, 0.0, 1.0))));
        assert_eq!((o.goals[1].end.as_str(), &o.goals[1].pole), ("bone32", &None));
        let o = run(&["--reach", "3=1,2,3", "--chain", "3", "--reach-weight", "0.5"]).expect("parses");
        assert_eq!((o.chain, o.weight, o.soften), (Some(3), Some(0.5), None));
    }

    #[test]
    fn a_reach_may_name_its_start_and_a_pole_may_be_a_bone() {
        let o = run(&["--reach", "UpperLeg.R..Foot.R=0.1,0,0.2", "--pole", "IKLegPole.R", "--pole=1e20,0,0"]);
        let e = o.expect_err("two poles");
        assert!(e.contains("--pole is given twice"), "{e}");
        let o =
            run(&["--reach", " UpperLeg.R .. Foot.R =0.1,0,0.2", "--pole", "IKLegPole.R"]).expect("parses");
        let goal = &o.goals[0];
        assert_eq!((goal.start.as_deref(), goal.end.as_str()), (Some("UpperLeg.R"), "Foot.R"));
        assert_eq!(goal.pole, Some(Pole::Bone("IKLegPole.R".into())));
        let o = run(&["--reach", "a=1,2,3", "--pole", "1e20,0,0"]).expect("a far pole is a pole");
        assert_eq!(o.goals[0].pole, Some(Pole::Point(Vec3::new(1e20, 0.0, 0.0))));
        assert!(run(&["--reach", "..a=1,2,3"]).is_err() && run(&["--reach", "a..=1,2,3"]).is_err());
    }

    #[test]
    fn every_mistake_is_one_line() {
        let cases: [(&[&str], &str); 15] = [
            (&["--reach", "bone31"], "--reach wants END=X,Y,Z"),
            (&["--reach", "bone31=1,2"], "--reach wants END=X,Y,Z"),
            (&["--reach", "bone31=1,2,nan"], "three finite numbers"),
            (&["--reach", "=1,2,3"], "--reach wants END=X,Y,Z"),
            (&["--reach", "a=1,2,3", "--reach", "a=0,0,0"], "--reach names \"a\" twice"),
            (&["--pole", "1,2,3"], "give --reach END=X,Y,Z first"),
            (&["--reach", "a=1,2,3", "--pole", "1,2,inf"], "--pole wants X,Y,Z"),
            (&["--reach", "a=1,2,3", "--pole", "1,2"], "--pole wants X,Y,Z"),
            (&["--reach", "a=1,2,3", "--chain", "0"], "--chain wants how many bones"),
            (&["--reach", "a=1,2,3", "--reach-weight", "1.5"], "--reach-weight wants a weight from 0 to 1"),
            (&["--chain", "3"], "--chain N says how --reach's chains are solved"),
            (&["--reach-weight", "0.5"], "give a --reach END=X,Y,Z too"),
            (&["--reach", "a=1,2,3", "--pole", "0,1,0", "--chain", "3"], "CCD (--chain) has no pole"),
            (&["--reach", "a=1,2,3", "--soften", "2"], "--soften wants the fraction"),
            (&["--model", "m.glb", "--info", "--reach", "a=1,2,3"], "--reach goes with a window"),
        ];
        for (args, expected) in cases {
            let e = run(args).expect_err(&format!("{args:?} should be refused"));
            assert!(e.contains(expected), "{args:?}: {e}");
            assert!(!e.contains('\n'), "{args:?}: more than one line: {e}");
        }
    }
}
