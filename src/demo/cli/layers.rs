//! The flags of several clips at once (chapter 11): `--blend`, `--additive`, `--mask`, `--fade`,
//! `--fade-to` and `--sync`, read into [`LayerFlags`], and their rules. Clips and bones stay text
//! here, as given (a name or an index); `show/layers.rs` finds them in the model.

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

/// `--additive CLIP[=WEIGHT][@REF]`: a clip added over what plays, measured against a reference.
#[derive(Clone, Debug, PartialEq)]
pub struct Added {
    pub clip: String,
    pub weight: f32,
    pub reference: Reference,
}

/// What an additive clip is measured against, as `@REF` names it.
#[derive(Clone, Debug, PartialEq)]
pub enum Reference {
    /// `@rest`: the skeleton's rest pose.
    Rest,
    /// `@start`, the default: the clip's own first pose.
    Start,
    /// `@CLIP`: another clip's first pose (a name or an index, as given).
    Clip(String),
}

/// `--fade-to CLIP[@SECONDS]`: a crossfade from what plays to CLIP, starting at that animation time.
#[derive(Clone, Debug, PartialEq)]
pub struct FadeTo {
    pub clip: String,
    /// When it starts; None: at the first frame (`--time`).
    pub at: Option<f64>,
}

/// What the flags of several clips at once ask for.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerFlags {
    /// `--blend`: the clips played together, at these weights (empty: the one clip asked for).
    pub blend: Vec<Weighted>,
    /// `--additive`: clips added over whatever plays, each relative to its reference pose.
    pub additive: Vec<Added>,
    /// `--mask`: clips laid over a bone's subtree.
    pub mask: Vec<Masked>,
    /// `--fade`: how long a crossfade takes (`--fade-to`'s, and the window's `F`).
    pub fade: f64,
    /// `--fade-to`: a crossfade the command line asks for.
    pub fade_to: Option<FadeTo>,
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
            fade_to: None,
            sync: false,
        }
    }
}

impl LayerFlags {
    /// Whether any layer is asked for beyond the one clip that plays.
    pub fn any_layer(&self) -> bool {
        !(self.blend.is_empty() && self.additive.is_empty() && self.mask.is_empty() && self.fade_to.is_none())
    }
}

/// The flags this file reads, as `lexopt` names them, and what each one's value looks like (none
/// for `--sync`).
pub const FLAGS: [(&str, &str); 6] = [
    ("blend", "CLIP=WEIGHT,CLIP=WEIGHT..."),
    ("additive", "CLIP[=WEIGHT][@REF]"),
    ("mask", "CLIP@BONE[=WEIGHT]"),
    ("fade", "SECONDS"),
    ("fade-to", "CLIP[@SECONDS]"),
    ("sync", ""),
];

/// Reads flag `name` (one of [`FLAGS`]) with its `value` into `flags`.
pub fn read(name: &str, value: Option<&str>, flags: &mut LayerFlags) -> Result<(), String> {
    let value = value.unwrap_or_default();
    match name {
        "blend" => flags.blend.extend(weighted("--blend", value)?),
        "additive" => {
            for one in value.split(',') {
                flags.additive.push(added(one)?);
            }
        }
        "fade-to" => {
            once_only(flags.fade_to.is_some())?;
            flags.fade_to = Some(fade_to(value)?);
        }
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
            let clip = clip.trim();
            if clip.is_empty() {
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
    let (clip, bone) = (named.split_once('@').map(|(c, b)| (c.trim(), b.trim())))
        .filter(|(c, b)| !c.is_empty() && !b.is_empty())
        .ok_or(format!(
            "--mask wants CLIP@BONE or CLIP@BONE=WEIGHT (the clip drives that bone and every bone under \
         it), like Wave@Abdomen=0.8, not {value:?}"
        ))?;
    if weight > 1.0 {
        return Err(format!("--mask {value}: a mask's weight goes from 0 (the clip below) to 1 (all of it)"));
    }
    Ok(Masked { clip: clip.into(), bone: bone.into(), weight })
}

/// `CLIP[=WEIGHT][@REF]` (or `CLIP@REF=WEIGHT`, as `--mask` writes its weight), REF `rest`,
/// `start` or a clip.
fn added(value: &str) -> Result<Added, String> {
    let shape = || {
        format!(
            "--additive wants CLIP[=WEIGHT][@REF], REF rest, start (the default: the clip's first pose) \
             or another clip, like T-Pose=0.5@Idle, not {value:?}"
        )
    };
    let (left, reference) = match value.rsplit_once('@') {
        Some((left, reference)) => (left, Some(reference)),
        None => (value, None),
    };
    // A weight after REF, as --mask has it: CLIP@REF=WEIGHT.
    let (left, reference) = match reference.and_then(|r| r.split_once('=')) {
        Some((reference, weight)) => (format!("{left}={weight}"), Some(reference)),
        None => (left.to_string(), reference),
    };
    let [one] = &weighted("--additive", &left)?[..] else { return Err(shape()) };
    let reference = match reference.map(str::trim) {
        None | Some("start") => Reference::Start,
        Some("rest") => Reference::Rest,
        Some("") => return Err(shape()),
        Some(clip) => Reference::Clip(clip.to_string()),
    };
    Ok(Added { clip: one.clip.clone(), weight: one.weight, reference })
}

/// `CLIP` or `CLIP@SECONDS`, the seconds an animation time.
fn fade_to(value: &str) -> Result<FadeTo, String> {
    let shape = || {
        format!(
            "--fade-to wants CLIP or CLIP@SECONDS: the clip to crossfade to, and the animation time the \
             crossfade starts (default: the first frame's), like Run@1.5, not {value:?}"
        )
    };
    let (clip, at) = match value.rsplit_once('@') {
        Some((clip, at)) => {
            let at = at.trim().parse::<f64>().ok().filter(|t| t.is_finite());
            (clip.trim(), Some(at.ok_or_else(shape)?))
        }
        None => (value.trim(), None),
    };
    if clip.is_empty() {
        return Err(shape());
    }
    Ok(FadeTo { clip: clip.to_string(), at })
}

/// `--fade-to` is given once: one crossfade per run.
fn once_only(given: bool) -> Result<(), String> {
    match given {
        true => Err("--fade-to is given twice: one run takes one crossfade".into()),
        false => Ok(()),
    }
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
            "--info only prints what the file holds; --blend, --additive, --mask, --fade, --fade-to \
                    and --sync play clips: run them without it"
                .into(),
        );
    }
    if flags.fade != DEFAULT_FADE && others.dump && flags.fade_to.is_none() {
        return Err("--fade sets how long a crossfade takes; a dump has no F key: give --fade-to CLIP \
                    for its crossfade, or drop --fade"
            .into());
    }
    Ok(())
}

#[cfg(test)]
mod tests;
