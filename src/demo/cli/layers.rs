//! The flags of several clips at once (chapter 11): `--blend`, `--additive`, `--mask`, `--fade` and
//! `--sync`, read into [`LayerFlags`], and their rules. Clips and bones stay text here, as given (a
//! name or an index); `show/layers.rs` finds them in the model.

/// The crossfade's length in seconds when `--fade` is not given.
pub const DEFAULT_FADE: f64 = 0.5;
/// The longest `--fade`, an hour: far past any crossfade, short of any clock trouble.
pub const MAX_FADE: f64 = 3600.0;

/// A clip and its weight, as the command line names them.
#[derive(Clone, Debug, PartialEq)]
pub struct Weighted {
    pub clip: String,
    pub weight: f32,
}

/// `--mask CLIP@BONE=WEIGHT`: a clip over one bone and everything under it.
#[derive(Clone, Debug, PartialEq)]
pub struct Masked {
    pub clip: String,
    pub bone: String,
    pub weight: f32,
}

/// What the flags of several clips at once ask for.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerFlags {
    /// `--blend`: the clips played together, at these weights (empty: the one clip asked for).
    pub blend: Vec<Weighted>,
    /// `--additive`: clips added over whatever plays, each relative to its own first pose.
    pub additive: Vec<Weighted>,
    /// `--mask`: clips laid over a bone's subtree.
    pub mask: Vec<Masked>,
    /// `--fade`: how long the window's crossfade (`F`) takes.
    pub fade: f64,
    /// `--sync`: the `--blend` clips play in step.
    pub sync: bool,
}

impl Default for LayerFlags {
    fn default() -> Self {
        LayerFlags {
            blend: Vec::new(),
            additive: Vec::new(),
            mask: Vec::new(),
            fade: DEFAULT_FADE,
            sync: false,
        }
    }
}

impl LayerFlags {
    /// Whether any layer is asked for beyond the one clip that plays.
    pub fn any_layer(&self) -> bool {
        !(self.blend.is_empty() && self.additive.is_empty() && self.mask.is_empty())
    }
}

/// The flags this file reads, as `lexopt` names them, and what each one's value looks like (none
/// for `--sync`).
pub const FLAGS: [(&str, &str); 5] = [
    ("blend", "CLIP=WEIGHT,CLIP=WEIGHT..."),
    ("additive", "CLIP[=WEIGHT]"),
    ("mask", "CLIP@BONE[=WEIGHT]"),
    ("fade", "SECONDS"),
    ("sync", ""),
];

/// Reads flag `name` (one of [`FLAGS`]) with its `value` into `flags`.
pub fn read(name: &str, value: Option<&str>, flags: &mut LayerFlags) -> Result<(), String> {
    let value = value.unwrap_or_default();
    match name {
        "blend" => flags.blend.extend(weighted("--blend", value)?),
        "additive" => flags.additive.extend(weighted("--additive", value)?),
        "mask" => {
            for one in value.split(',') {
                flags.mask.push(masked(one)?);
            }
        }
        "fade" => {
            let seconds = value.trim().parse::<f64>().ok().filter(|s| (0.0..=MAX_FADE).contains(s));
            flags.fade = seconds
                .ok_or(format!("--fade wants seconds from 0 to {MAX_FADE} (like 0.5), not {value:?}"))?;
        }
        _ => flags.sync = true,
    }
    Ok(())
}

/// `CLIP=WEIGHT,CLIP=WEIGHT...`; a clip without `=WEIGHT` weighs 1.
fn weighted(flag: &str, value: &str) -> Result<Vec<Weighted>, String> {
    value
        .split(',')
        .map(|pair| {
            let (clip, weight) = match pair.rsplit_once('=') {
                Some((clip, weight)) => (clip, number(flag, pair, weight)?),
                None => (pair, 1.0),
            };
            if clip.trim().is_empty() {
                return Err(format!(
                    "{flag} wants CLIP=WEIGHT, clips by name or index, commas between them (like \
                     Walk=0.3,Run=0.7), not {value:?}"
                ));
            }
            Ok(Weighted { clip: clip.to_string(), weight })
        })
        .collect()
}

/// `CLIP@BONE` or `CLIP@BONE=WEIGHT`, the weight from 0 to 1 (default 1).
fn masked(value: &str) -> Result<Masked, String> {
    let (named, weight) = match value.rsplit_once('=') {
        Some((named, weight)) => (named, number("--mask", value, weight)?),
        None => (value, 1.0),
    };
    let (clip, bone) =
        named.split_once('@').filter(|(c, b)| !c.is_empty() && !b.is_empty()).ok_or(format!(
            "--mask wants CLIP@BONE or CLIP@BONE=WEIGHT (the clip drives that bone and every bone under \
         it), like Wave@Abdomen=0.8, not {value:?}"
        ))?;
    if weight > 1.0 {
        return Err(format!("--mask {value}: a mask's weight goes from 0 (the clip below) to 1 (all of it)"));
    }
    Ok(Masked { clip: clip.into(), bone: bone.into(), weight })
}

/// A weight: a finite number, 0 or more.
fn number(flag: &str, pair: &str, weight: &str) -> Result<f32, String> {
    let parsed = weight.trim().parse::<f32>().ok().filter(|w| w.is_finite() && *w >= 0.0);
    parsed.ok_or(format!("{flag} {pair}: a weight is a number, 0 or more (like 0.5), not {weight:?}"))
}

/// Which of the other flags were given, for [`check`].
pub struct Others {
    pub animation: bool,
    pub clip: bool,
    pub info: bool,
    pub dump: bool,
}

/// The rules between these flags and the others.
pub fn check(flags: &LayerFlags, others: Others) -> Result<(), String> {
    if !flags.blend.is_empty() && flags.blend.iter().all(|w| w.weight == 0.0) {
        return Err("--blend: every weight is 0; give at least one clip a weight above 0".into());
    }
    if !flags.blend.is_empty() && (others.animation || others.clip) {
        let flag = if others.clip { "--clip" } else { "--animation" };
        return Err(format!(
            "--blend names every clip it plays: drop {flag} (--additive and --mask play over the blend)"
        ));
    }
    if flags.sync && flags.blend.is_empty() {
        return Err("--sync plays the --blend clips in step: give --blend too (the window's own blends, \
                    F, J and K, are in step already)"
            .into());
    }
    let given = flags != &LayerFlags::default();
    if given && others.info {
        return Err(
            "--info only prints what the file holds; --blend, --additive, --mask, --fade and --sync \
                    play clips: run them without it"
                .into(),
        );
    }
    if flags.fade != DEFAULT_FADE && others.dump {
        return Err("--fade is the window's crossfade (F); a dump plays the clips it is given, with no \
                    crossfade: drop --fade"
            .into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::cli::{Command, parse};

    fn flags(args: &[&str]) -> Result<LayerFlags, String> {
        match parse(args.iter().map(Into::into))? {
            Command::Run(options) => Ok(options.layers),
            Command::Help => Err("help".into()),
        }
    }

    #[test]
    fn the_flags_read_clips_weights_and_bones() {
        let read = flags(&["--blend", "bend=0.3,twist=0.7", "--blend", "seed", "--additive", "twist=0.6"])
            .expect("valid");
        let named = |v: &[Weighted]| v.iter().map(|w| (w.clip.clone(), w.weight)).collect::<Vec<_>>();
        assert_eq!(named(&read.blend), [("bend".into(), 0.3), ("twist".into(), 0.7), ("seed".into(), 1.0)]);
        assert_eq!(named(&read.additive), [("twist".into(), 0.6)]);
        let read = flags(&["--mask", "twist@bone2=0.25", "--mask", "seed@0", "--fade", "2"]).expect("valid");
        let masks: Vec<_> = read.mask.iter().map(|m| (m.clip.as_str(), m.bone.as_str(), m.weight)).collect();
        assert_eq!(masks, [("twist", "bone2", 0.25), ("seed", "0", 1.0)]);
        assert_eq!((read.fade, read.sync), (2.0, false));
        assert!(flags(&["--blend", "bend,twist", "--sync"]).expect("valid").sync);
        assert_eq!(flags(&[]).expect("valid"), LayerFlags::default());
    }

    #[test]
    fn the_layer_flags_go_with_the_others_they_make_sense_with() {
        let err = |args: &[&str]| flags(args).expect_err("refused");
        assert!(
            err(&["--model", "m.glb", "--animation", "Walk", "--blend", "Run"]).contains("drop --animation")
        );
        assert!(err(&["--model", "m.glb", "--info", "--additive", "Run"]).starts_with("--info only prints"));
        assert!(err(&["--export-gltf", "a.gltf", "--blend", "bend"]).starts_with("--export-gltf"));
        assert!(err(&["--dump", "-", "--fade", "1"]).starts_with("--fade is the window's crossfade"));
        // A --fade of its default with a dump changes nothing, as no --fade at all.
        assert!(flags(&["--dump", "-", "--blend", "bend,twist", "--sync"]).is_ok());
    }
}
