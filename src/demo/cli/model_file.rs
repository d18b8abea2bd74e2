//! `skinning FILE`: a model named without a flag, as image and model viewers take one (`skinning
//! Fox.glb`). It is `--model FILE` spelled shorter, with the same rules: one model a run, so FILE
//! with `--model`, or a second FILE, is refused in one line.

use super::options::Options;
use std::path::PathBuf;

/// How the model's path was given, to say so when another comes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Given {
    /// `--model FILE`.
    Flag,
    /// `FILE` alone.
    Alone,
}

/// Takes `path`, given as `how`, as the run's model; `first` remembers how the first one came.
pub fn take(
    options: &mut Options,
    first: &mut Option<Given>,
    how: Given,
    path: PathBuf,
) -> Result<(), String> {
    match (*first, how) {
        (None, _) => {
            *first = Some(how);
            options.model = Some(path);
            Ok(())
        }
        (Some(Given::Flag), Given::Flag) => {
            Err("--model is given twice: one run takes one --model file".into())
        }
        (Some(Given::Alone), Given::Alone) => Err(format!(
            "unexpected argument {path:?}: a run shows one model FILE, and options start with -- (see --help)"
        )),
        _ => Err("FILE and --model FILE both name a model: give one (skinning FILE is --model FILE)".into()),
    }
}

#[cfg(test)]
mod tests {
    use crate::demo::cli::{Command, parse};
    use std::ffi::OsString;

    fn run(args: &[&str]) -> Result<Command, String> {
        parse(args.iter().map(OsString::from))
    }

    #[test]
    fn a_file_alone_is_the_model_as_with_model() {
        for args in [&["Fox.glb", "--animation", "Walk"][..], &["--animation", "Walk", "Fox.glb"]] {
            assert_eq!(run(args), run(&["--model", "Fox.glb", "--animation", "Walk"]), "{args:?}");
        }
        let Ok(Command::Run(o)) = run(&["hero.md5mesh", "--info"]) else { panic!("parses") };
        assert_eq!((o.model, o.info), (Some("hero.md5mesh".into()), true));
    }

    #[test]
    fn the_rules_of_model_hold_for_a_file_alone() {
        for (args, says) in [
            (&["Fox.glb", "--clip", "bend"][..], "--animation"),
            (&["Fox.glb", "--model", "Fox.glb"], "both name a model"),
            (&["--model", "Fox.glb", "Fox.glb"], "both name a model"),
            (&["Fox.glb", "Robot.glb"], "one model FILE"),
            (&["--model", "a.glb", "--model", "b.glb"], "--model is given twice"),
            (&["models/"], "can only be a folder"),
        ] {
            let err = run(args).expect_err("refused");
            assert!(err.contains(says) && !err.contains('\n'), "{args:?}: {err}");
        }
    }
}
