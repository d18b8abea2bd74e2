//! The command line: flags, their values, and the help text.

use std::ffi::OsString;
use std::path::PathBuf;

/// Where the red layer's skinning runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skinning {
    /// The tutorial's road: `skin::blend` on the CPU, positions uploaded every frame.
    Cpu,
    /// The next lesson: the same blend in the vertex shader (`shaders/skinning.vert`).
    Gpu,
    /// Both, the GPU result drawn in another colour over the CPU one.
    Both,
}

impl Skinning {
    pub fn name(self) -> &'static str {
        match self {
            Skinning::Cpu => "cpu",
            Skinning::Gpu => "gpu",
            Skinning::Both => "both",
        }
    }

    pub fn next(self) -> Skinning {
        match self {
            Skinning::Cpu => Skinning::Gpu,
            Skinning::Gpu => Skinning::Both,
            Skinning::Both => Skinning::Cpu,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub frames: Option<u64>,
    pub fixed_dt: Option<f64>,
    pub time: f64,
    pub screenshot: Option<PathBuf>,
    pub headless: bool,
    pub size: Option<(u32, u32)>,
    pub dump: Option<PathBuf>,
    pub clip: String,
    pub weights: Option<String>,
    pub skinning: Skinning,
    pub stats: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            frames: None,
            fixed_dt: None,
            time: 0.0,
            screenshot: None,
            headless: false,
            size: None,
            dump: None,
            clip: "bend".to_string(),
            weights: None,
            skinning: Skinning::Cpu,
            stats: false,
        }
    }
}

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub enum Command {
    Help,
    Run(Options),
}

pub const HELP: &str = "\
skinning: skeletal skinning, shown step by step (a bone tree moves, a mesh follows it)

USAGE:
    skinning [OPTIONS]

Without options it opens a window and animates the article's arm: bind-pose mesh in green,
skinned mesh in red, bones in blue. Press H in the window for the keys.

OPTIONS:
    --clip NAME             animation to play: seed, bend (default) or twist
    --time SECONDS          animation time of the first frame (default 0)
    --fixed-dt SECONDS      advance time by exactly this much per frame (reproducible runs)
    --frames N              draw N frames, then exit
    --screenshot FILE.png   after the last frame, save what was drawn (needs --frames)
    --size WxH              window or image size in pixels (default 640x480)
    --headless              no window, no display server: draw offscreen through EGL (needs --frames)
    --dump FILE.json        no drawing at all: write bones, skin and --frames poses as JSON (default 1 frame);
                            with --skinning gpu the skinned positions come from the vertex shader (needs EGL)
    --weights BONE          start in weight view on this bone (name or index, as W cycles)
    --skinning cpu|gpu|both where the red layer is skinned: cpu (default), gpu (shaders/skinning.vert),
                            or both, the GPU's result in magenta drawn over the CPU's
    --stats                 at exit, print pose + blend time per frame, frames per second, allocations,
                            resident memory
    -h, --help              print this help
";

/// Reads the arguments (without the program name). Errors are one line, ready to print.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, String> {
    let mut options = Options::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let arg = arg.into_string().map_err(|a| format!("argument {a:?} is not valid UTF-8"))?;
        // Accept both `--flag value` and `--flag=value`.
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag.to_string(), Some(value.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = |what: &str| -> Result<String, String> {
            match inline.clone() {
                Some(v) => Ok(v),
                None => args
                    .next()
                    .and_then(|v| v.into_string().ok())
                    .ok_or_else(|| format!("{flag} needs a value: {flag} {what}")),
            }
        };
        match flag.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--frames" => {
                let v = value("N")?;
                let n = v.parse::<u64>().ok().filter(|&n| n > 0);
                options.frames = Some(n.ok_or(format!("--frames wants a whole number above 0, not {v:?}"))?);
            }
            "--fixed-dt" => {
                let v = value("SECONDS")?;
                let dt = v.parse::<f64>().ok().filter(|dt| dt.is_finite() && *dt >= 0.0);
                options.fixed_dt = Some(dt.ok_or(format!("--fixed-dt wants seconds >= 0, not {v:?}"))?);
            }
            "--time" => {
                let v = value("SECONDS")?;
                let t = v.parse::<f64>().ok().filter(|t| t.is_finite());
                options.time = t.ok_or(format!("--time wants a number of seconds, not {v:?}"))?;
            }
            "--screenshot" => options.screenshot = Some(PathBuf::from(value("FILE.png")?)),
            "--dump" => options.dump = Some(PathBuf::from(value("FILE.json")?)),
            "--headless" if inline.is_none() => options.headless = true,
            "--stats" if inline.is_none() => options.stats = true,
            "--size" => {
                let v = value("WxH")?;
                options.size = Some(parse_size(&v).ok_or(format!(
                    "--size wants WIDTHxHEIGHT in pixels, each 1 to 16384, like 800x600, not {v:?}"
                ))?);
            }
            "--clip" => options.clip = value("NAME")?,
            "--weights" => options.weights = Some(value("BONE")?),
            "--skinning" => {
                let v = value("cpu|gpu|both")?;
                options.skinning = match v.as_str() {
                    "cpu" => Skinning::Cpu,
                    "gpu" => Skinning::Gpu,
                    "both" => Skinning::Both,
                    _ => return Err(format!("--skinning wants cpu, gpu or both, not {v:?}")),
                };
            }
            _ if flag.starts_with('-') => {
                return Err(format!("unknown option {arg:?} (see --help)"));
            }
            _ => return Err(format!("unexpected argument {arg:?}: options start with -- (see --help)")),
        }
    }
    if options.screenshot.is_some() && options.frames.is_none() {
        return Err("--screenshot needs --frames N: the picture is taken after the last frame".into());
    }
    if options.headless && options.frames.is_none() && options.dump.is_none() {
        return Err("--headless needs --frames N: with no window there is nothing to close".into());
    }
    if options.dump.is_some() && options.screenshot.is_some() {
        return Err("--dump draws nothing, so it cannot take a --screenshot; run them separately".into());
    }
    if options.dump.is_some() && options.skinning == Skinning::Both {
        return Err("--dump writes one set of skinned positions: choose --skinning cpu or gpu".into());
    }
    Ok(Command::Run(options))
}

fn parse_size(v: &str) -> Option<(u32, u32)> {
    let (w, h) = v.split_once(['x', 'X'])?;
    let (w, h) = (w.parse::<u32>().ok()?, h.parse::<u32>().ok()?);
    let ok = |n: u32| (1..=16384).contains(&n);
    (ok(w) && ok(h)).then_some((w, h))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Command, String> {
        parse(args.iter().map(OsString::from))
    }

    #[test]
    fn flags_and_values() {
        let Ok(Command::Run(o)) =
            run(&["--frames", "3", "--fixed-dt=0.5", "--size", "800x600", "--headless"])
        else {
            panic!("should parse")
        };
        assert_eq!((o.frames, o.fixed_dt, o.size, o.headless), (Some(3), Some(0.5), Some((800, 600)), true));
        assert_eq!(run(&["--help"]), Ok(Command::Help));
    }

    #[test]
    fn bad_input_is_one_line() {
        for args in [
            &["--frames", "0"][..],
            &["--frames"],
            &["--bogus"],
            &["--size", "0x10"],
            &["--fixed-dt", "-1"],
            &["--screenshot", "a.png"],
            &["--headless"],
            &["--skinning", "tpu"],
            &["--dump", "a.json", "--skinning", "both"],
            &["stray"],
        ] {
            let err = run(args).expect_err("should be refused");
            assert!(!err.contains('\n') && !err.is_empty(), "{args:?}: {err}");
        }
    }
}
