//! The flags of a character that goes somewhere (chapters 17 and 18): `--root-motion on|in-place|off`
//! and `--root-bone BONE` (the clip's travel, `root_motion.rs`), `--clips-from FILE` (another
//! body's clips, `retarget.rs`), and their rules. Read here into [`MotionOptions`]; which bone a
//! name means is known only once the model is loaded (`show/root_motion.rs`,
//! `model/clips_from.rs`).

use super::values::{once, path, text};
use lexopt::Parser;
use skinning_method::root_motion::Mode;
use std::path::PathBuf;

/// What the motion flags ask for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MotionOptions {
    /// `--root-motion`: how the clip's travel plays; `Off` (the clip as stored) by default.
    pub root_motion: Mode,
    /// `--root-bone BONE`: the bone that carries the body; None: the hips, found by name, or the
    /// root where the clip moves it (`root_motion::carrier`).
    pub root_bone: Option<String>,
    /// `--clips-from FILE`: the model whose clips play on this one, carried over (chapter 18).
    pub clips_from: Option<PathBuf>,
}

/// Whether `flag` (without its `--`) is one of the motion flags.
pub fn is_motion_flag(flag: &str) -> bool {
    matches!(flag, "root-motion" | "root-bone" | "clips-from")
}

/// Reads the value of the motion flag `--flag` into `options`.
pub fn parse(flag: &str, parser: &mut Parser, options: &mut MotionOptions) -> Result<(), String> {
    match flag {
        "root-motion" => {
            let v = text(parser, "--root-motion", "on|in-place|off")?;
            options.root_motion = [Mode::On, Mode::InPlace, Mode::Off]
                .into_iter()
                .find(|mode| mode.name() == v)
                .ok_or(format!("--root-motion wants on, in-place or off, not {v:?}"))?;
        }
        "clips-from" => {
            once(&options.clips_from, "--clips-from")?;
            options.clips_from = Some(path(parser, "--clips-from", "FILE")?);
        }
        _ => options.root_bone = Some(text(parser, "--root-bone", "BONE")?),
    }
    Ok(())
}

/// The rules between the motion flags and the others: a bone named for a travel nobody takes is
/// a slip; the travel is one clip's, so it plays without layers of clips (`any_layer`); `--info`
/// describes a file, and neither plays anything.
pub fn check(options: &MotionOptions, any_layer: bool, info: bool) -> Result<(), String> {
    let on = options.root_motion != Mode::Off;
    if options.root_bone.is_some() && !on {
        return Err("--root-bone names the bone whose travel --root-motion takes: add --root-motion on \
                    or in-place"
            .into());
    }
    if on && any_layer {
        return Err("--root-motion takes one clip's travel: play it without --blend, --mask, --additive \
                    and --fade-to"
            .into());
    }
    let flag = if on { "--root-motion" } else { "--clips-from" };
    if info && (on || options.clips_from.is_some()) {
        return Err(format!("--info only prints what the file holds; run {flag} without it"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    fn read(args: &[&str]) -> Result<MotionOptions, String> {
        let mut parser =
            Parser::from_iter(std::iter::once("x").chain(args.iter().copied()).map(OsString::from));
        let mut options = MotionOptions::default();
        while let Some(lexopt::Arg::Long(flag)) = parser.next().map_err(|e| e.to_string())? {
            let flag = flag.to_string();
            parse(&flag, &mut parser, &mut options)?;
        }
        Ok(options)
    }

    #[test]
    fn each_mode_by_its_word_and_a_wrong_one_in_one_line() {
        assert_eq!(read(&["--root-motion", "in-place"]).map(|o| o.root_motion), Ok(Mode::InPlace));
        assert_eq!(read(&["--root-motion=on"]).map(|o| o.root_motion), Ok(Mode::On));
        assert_eq!(read(&[]).map(|o| o.root_motion), Ok(Mode::Off));
        let e = read(&["--root-motion", "yes"]).expect_err("no such mode");
        assert_eq!(e, "--root-motion wants on, in-place or off, not \"yes\"");
    }

    #[test]
    fn a_root_bone_needs_a_travel_to_take_and_the_travel_one_clip() {
        let bone = MotionOptions { root_bone: Some("Hips".into()), ..Default::default() };
        assert!(check(&bone, false, false).expect_err("no travel").contains("add --root-motion on"));
        let on = MotionOptions { root_motion: Mode::On, ..bone };
        assert_eq!(check(&on, false, false), Ok(()));
        assert!(check(&on, true, false).expect_err("layers").starts_with("--root-motion takes one clip"));
    }
}
