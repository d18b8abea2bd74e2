//! The looking flags (chapter 19): `--look-at BONE=X,Y,Z` (a head, and the bones above it, turn to
//! face the point), `--look-forward AXIS` (the head's forward in its own space, over the model's
//! front carried into it) and `--look-limit DEG` (the most each joint turns). Read here into
//! [`LookOptions`]; which bone the name means, and whether it can look, is known only once the
//! model is loaded (`show/reach/look.rs`).

use super::reach::point;
use super::values::text;
use glam::Vec3;
use lexopt::Parser;
use skinning_method::model::Axis;

/// What the looking flags ask for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LookOptions {
    /// `--look-at BONE=X,Y,Z`: the bone that looks (a name or an index, as written) and the point.
    pub at: Option<(String, Vec3)>,
    /// `--look-forward AXIS`: the head's forward, an axis of its own space.
    pub forward: Option<Axis>,
    /// `--look-limit DEG`: the most each joint turns, in degrees; None: 60.
    pub limit: Option<f32>,
}

/// Whether `flag` (without its `--`) is one of the looking flags.
pub fn is_look_flag(flag: &str) -> bool {
    matches!(flag, "look-at" | "look-forward" | "look-limit")
}

/// Reads the value of the looking flag `--flag` into `options`.
pub fn parse(flag: &str, parser: &mut Parser, options: &mut LookOptions) -> Result<(), String> {
    match flag {
        "look-at" => {
            let v = text(parser, "--look-at", "BONE=X,Y,Z")?;
            let at = v.rsplit_once('=').and_then(|(bone, xyz)| {
                let bone = bone.trim();
                (!bone.is_empty()).then_some((bone.to_string(), point(xyz)?))
            });
            let at = at.ok_or(format!(
                "--look-at wants BONE=X,Y,Z: the bone that looks (a head: a name or an index) and the point \
                 it looks at, three finite numbers in the model's space, like Head=0,1.5,2; not {v:?}"
            ))?;
            if options.at.replace(at).is_some() {
                return Err("--look-at is given twice: one head looks at one point".into());
            }
        }
        "look-forward" => {
            let v = text(parser, "--look-forward", "AXIS")?;
            options.forward = Some(Axis::parse(&v).ok_or(format!(
                "--look-forward wants the axis of the head bone's own space its face points along: x, -x, \
                 y, -y, z or -z, not {v:?}"
            ))?);
        }
        "look-limit" => {
            let v = text(parser, "--look-limit", "DEG")?;
            let limit = v.parse::<f32>().ok().filter(|d| *d > 0.0 && *d <= 180.0);
            options.limit = Some(limit.ok_or(format!(
                "--look-limit wants the most each joint turns, in degrees above 0 and up to 180, not {v:?}"
            ))?);
        }
        _ => unreachable!("is_look_flag lists the flags parsed here"),
    }
    Ok(())
}

/// The rules between the looking flags: the other two go with a `--look-at`, and `--info` (which
/// shows no pose) takes none.
pub fn check(options: &LookOptions, info: bool) -> Result<(), String> {
    if info && options.at.is_some() {
        return Err(
            "--info only prints what the file holds; --look-at goes with a window, a picture or a dump"
                .into(),
        );
    }
    let flag = match options {
        o if o.at.is_none() && o.forward.is_some() => Some("--look-forward AXIS"),
        o if o.at.is_none() && o.limit.is_some() => Some("--look-limit DEG"),
        _ => None,
    };
    match flag {
        Some(flag) => Err(format!("{flag} says how a head looks: give a --look-at BONE=X,Y,Z too")),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use crate::demo::cli::{Command, parse};
    use glam::Vec3;
    use skinning_method::model::Axis;

    fn run(args: &[&str]) -> Result<super::LookOptions, String> {
        match parse(args.iter().map(std::ffi::OsString::from))? {
            Command::Run(options) => Ok(options.look),
            Command::Help => panic!("not help"),
        }
    }

    #[test]
    fn a_head_its_point_its_forward_and_its_limit() {
        let o = run(&["--look-at", "Head=0,1.5,2", "--look-forward", "-Y", "--look-limit", "45"])
            .expect("parses");
        assert_eq!(o.at, Some(("Head".to_string(), Vec3::new(0.0, 1.5, 2.0))));
        assert_eq!((o.forward, o.limit), (Some(Axis::NegY), Some(45.0)));
        // The last `=` splits, as --reach's does.
        let o = run(&["--look-at= a=b =1,2,3"]).expect("parses");
        assert_eq!(o.at, Some(("a=b".to_string(), Vec3::new(1.0, 2.0, 3.0))));
    }

    #[test]
    fn every_mistake_is_one_line() {
        let cases: [(&[&str], &str); 10] = [
            (&["--look-at", "Head"], "--look-at wants BONE=X,Y,Z"),
            (&["--look-at", "Head=1,2"], "--look-at wants BONE=X,Y,Z"),
            (&["--look-at", "=1,2,3"], "--look-at wants BONE=X,Y,Z"),
            (&["--look-at", "Head=1,inf,3"], "three finite numbers"),
            (&["--look-at", "a=1,2,3", "--look-at", "b=1,2,3"], "--look-at is given twice"),
            (&["--look-at", "a=1,2,3", "--look-forward", "w"], "--look-forward wants the axis"),
            (&["--look-at", "a=1,2,3", "--look-limit", "0"], "--look-limit wants the most"),
            (&["--look-at", "a=1,2,3", "--look-limit", "181"], "above 0 and up to 180"),
            (&["--look-limit", "30"], "give a --look-at BONE=X,Y,Z too"),
            (&["--model", "m.glb", "--info", "--look-at", "a=1,2,3"], "--look-at goes with a window"),
        ];
        for (args, expected) in cases {
            let e = run(args).expect_err(&format!("{args:?} should be refused"));
            assert!(e.contains(expected), "{args:?}: {e}");
            assert!(!e.contains('\n'), "{args:?}: more than one line: {e}");
        }
    }
}
