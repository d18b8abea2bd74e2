//! The command line: flags, their values, and the rules between them. `lexopt` splits the
//! arguments (it handles `--flag value`, `--flag=value` and values that are not UTF-8); what they
//! fill in is [`Options`] (`options.rs`), the rules between them are `rules.rs`, and what `--help`
//! prints is in `help.rs`; `--info` is `info.rs` for glTF, `md5_info.rs` for MD5; `skinning FILE`
//! is `model_file.rs`, `--hide` is `hide.rs`.

pub mod help;
pub mod hide;
pub mod info;
pub mod layers;
pub mod looks_info;
pub mod md5_info;
mod mistakes;
mod model_file;
pub mod morph;
mod morph_info;
pub mod names;
pub mod options;
pub mod reach;
mod rules;

use crate::demo::show::skinned::{Blend, Skinning};
use lexopt::{Arg, Parser};
use mistakes::{lexopt_error, takes_no_value, unexpected};
use model_file::Given;
use options::{MAX_SECONDS, MAX_THREADS, Options, front};
use skinning_formats::gltf_export::Container;
use std::ffi::OsString;
use std::path::PathBuf;

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub enum Command {
    Help,
    /// Boxed: the options are large, and `Help` carries nothing.
    Run(Box<Options>),
}

/// Reads the arguments (without the program name). Errors are one line, ready to print.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, String> {
    let mut options = Options::default();
    let mut clip_given = false;
    let mut model_given = None;
    let mut parser = Parser::from_iter(std::iter::once(OsString::from("skinning")).chain(args));
    while let Some(arg) = parser.next().map_err(lexopt_error)? {
        match arg {
            Arg::Short('h') | Arg::Long("help") => {
                let flag = if arg == Arg::Short('h') { "-h" } else { "--help" };
                // `--help=foo` is a mistake like `--headless=1`, not a request for the help.
                if let Some(value) = parser.optional_value() {
                    return Err(takes_no_value(flag, &value));
                }
                return Ok(Command::Help);
            }
            Arg::Long("frames") => {
                let v = text(&mut parser, "--frames", "N")?;
                let n = v.parse::<u64>().ok().filter(|&n| n > 0);
                options.frames = Some(n.ok_or(format!("--frames wants a whole number above 0, not {v:?}"))?);
            }
            Arg::Long("fixed-dt") => {
                let v = text(&mut parser, "--fixed-dt", "SECONDS")?;
                let dt = v.parse::<f64>().ok().filter(|dt| (0.0..=MAX_SECONDS).contains(dt));
                options.fixed_dt =
                    Some(dt.ok_or(format!("--fixed-dt wants seconds from 0 to {MAX_SECONDS:e}, not {v:?}"))?);
            }
            Arg::Long("time") => {
                let v = text(&mut parser, "--time", "SECONDS")?;
                let t = v.parse::<f64>().ok().filter(|t| t.abs() <= MAX_SECONDS);
                options.time = t.ok_or(format!(
                    "--time wants seconds from -{MAX_SECONDS:e} to {MAX_SECONDS:e}, not {v:?}"
                ))?;
            }
            Arg::Long("screenshot") => {
                once(&options.screenshot, "--screenshot")?;
                options.screenshot = Some(png(path(&mut parser, "--screenshot", "FILE.png")?)?)
            }
            Arg::Long("dump") => {
                once(&options.dump, "--dump")?;
                options.dump = Some(path(&mut parser, "--dump", "FILE.json")?)
            }
            Arg::Long("headless") => options.headless = true,
            Arg::Long("stats") => options.stats = true,
            Arg::Long("no-text") => options.text = false,
            Arg::Long("inspect") => {
                let v = text(&mut parser, "--inspect", "VERTEX")?;
                let index = v.parse::<usize>().ok();
                options.inspect =
                    Some(index.ok_or(format!("--inspect wants a vertex index (0, 1, 2...), not {v:?}"))?);
            }
            Arg::Long("size") => {
                let v = text(&mut parser, "--size", "WxH")?;
                options.size = Some(parse_size(&v).ok_or(format!(
                    "--size wants WIDTHxHEIGHT in pixels, each 1 to 16384, like 800x600, not {v:?}"
                ))?);
            }
            Arg::Long("clip") => {
                options.clip = text(&mut parser, "--clip", "NAME")?;
                clip_given = true;
            }
            Arg::Long("model") => {
                let file = path(&mut parser, "--model", "FILE")?;
                model_file::take(&mut options, &mut model_given, Given::Flag, file)?
            }
            Arg::Long("animation") => {
                options.animation = Some(text(&mut parser, "--animation", "NAME|INDEX")?)
            }
            Arg::Long("info") => options.info = true,
            Arg::Long("front") => options.front = Some(front(&text(&mut parser, "--front", "AXIS")?)?),
            Arg::Long("export-gltf") => {
                once(&options.export_gltf, "--export-gltf")?;
                let file = path(&mut parser, "--export-gltf", "FILE.gltf|FILE.glb")?;
                // `-`, standard output, gets the JSON form: text, like the dump.
                let container = match file.as_os_str() == "-" {
                    true => Some(Container::Gltf),
                    false => Container::for_path(&file),
                };
                let container = container.ok_or(format!(
                    "--export-gltf writes .gltf (JSON) or .glb (binary) files: name it FILE.gltf or \
                     FILE.glb (or - for the JSON on standard output), not {file:?}"
                ))?;
                options.export_gltf = Some((file, container));
            }
            Arg::Long("export-md5") => {
                once(&options.export_md5, "--export-md5")?;
                let file = path(&mut parser, "--export-md5", "FILE.md5mesh")?;
                if !is_md5mesh(&file) {
                    return Err(format!(
                        "--export-md5 writes FILE.md5mesh and an .md5anim per clip beside it (two or more \
                         files, so not -): name it FILE.md5mesh, not {file:?}"
                    ));
                }
                options.export_md5 = Some(file);
            }
            Arg::Long("force") => options.force = true,
            Arg::Long("weights") => options.weights = Some(text(&mut parser, "--weights", "BONE")?),
            Arg::Long("trail") => options.trail = Some(text(&mut parser, "--trail", "BONE")?),
            Arg::Long("skinning") => {
                let v = text(&mut parser, "--skinning", "cpu|gpu|both")?;
                options.skinning = match v.as_str() {
                    "cpu" => Skinning::Cpu,
                    "gpu" => Skinning::Gpu,
                    "both" => Skinning::Both,
                    _ => return Err(format!("--skinning wants cpu, gpu or both, not {v:?}")),
                };
            }
            Arg::Long("method") => {
                let v = text(&mut parser, "--method", "lbs|dqs|both")?;
                options.method = match v.as_str() {
                    "lbs" => Blend::Lbs,
                    "dqs" => Blend::Dqs,
                    "both" => Blend::Both,
                    _ => return Err(format!("--method wants lbs, dqs or both, not {v:?}")),
                };
            }
            Arg::Long("surface") => {
                let v = text(&mut parser, "--surface", "on|off")?;
                options.surface = Some(match v.as_str() {
                    "on" => true,
                    "off" => false,
                    _ => return Err(format!("--surface wants on or off, not {v:?}")),
                });
            }
            Arg::Long("normals") => options.normals = true,
            Arg::Long("hide") => hide::add(&mut options.hide, &text(&mut parser, "--hide", "LAYER,...")?)?,
            Arg::Long("morph") => {
                options.morphs.push(morph::parse_morph(&text(&mut parser, "--morph", "NODE:TARGET=W")?)?)
            }
            Arg::Long("threads") => {
                let v = text(&mut parser, "--threads", "N")?;
                let n = v.parse::<usize>().ok().filter(|n| (1..=MAX_THREADS).contains(n));
                options.threads = Some(
                    n.ok_or(format!("--threads wants a whole number from 1 to {MAX_THREADS}, not {v:?}"))?,
                );
            }
            Arg::Long("parallel-from") => {
                let v = text(&mut parser, "--parallel-from", "VERTICES")?;
                let n = v.parse::<usize>().ok();
                options.parallel_from = Some(
                    n.ok_or(format!("--parallel-from wants a number of vertices, 0 or more, not {v:?}"))?,
                );
            }
            Arg::Long("camera") => {
                let v = text(&mut parser, "--camera", "YAW,PITCH[,ZOOM]")?;
                options.camera = Some(parse_camera(&v).ok_or(format!(
                    "--camera wants YAW,PITCH in degrees (-360 to 360) and maybe a ZOOM (0.2 to 20), \
                     like 60,25,2, not {v:?}"
                ))?);
            }
            Arg::Long(flag) if reach::is_reach_flag(flag) => {
                let flag = flag.to_string();
                reach::parse(&flag, &mut parser, &mut options.reach)?
            }
            Arg::Long(name) if layers::FLAGS.iter().any(|(flag, _)| *flag == name) => {
                let (flag, what) =
                    layers::FLAGS.into_iter().find(|(flag, _)| *flag == name).unwrap_or_default();
                let value = match what {
                    "" => None,
                    _ => Some(text(&mut parser, &format!("--{flag}"), what)?),
                };
                layers::read(flag, value.as_deref(), &mut options.layers)?;
            }
            Arg::Value(value) if names_a_folder(&value) => {
                return Err(format!(
                    "a model FILE is a file name, not {value:?}, which can only be a folder"
                ));
            }
            Arg::Value(value) => {
                model_file::take(&mut options, &mut model_given, Given::Alone, value.into())?
            }
            other => return Err(unexpected(other.into(), &mut parser)),
        }
    }
    rules::fill_in(&mut options);
    rules::check(&options, clip_given)?;
    Ok(Command::Run(Box::new(options)))
}

/// The flags that name a file are given once: a second `--dump b.json` would otherwise silently
/// be the only file written. (The flags of layers and reaching add up; any other flag given twice
/// keeps its last value.)
fn once<T>(slot: &Option<T>, flag: &str) -> Result<(), String> {
    match slot {
        Some(_) => Err(format!("{flag} is given twice: one run takes one {flag} file")),
        None => Ok(()),
    }
}

/// The value after `flag`, as text; `what` names it in the message when it is missing.
fn text(parser: &mut Parser, flag: &str, what: &str) -> Result<String, String> {
    let value = parser.value().map_err(|_| format!("{flag} needs a value: {flag} {what}"))?;
    value.into_string().map_err(|v| format!("{flag}'s value {v:?} is not valid UTF-8"))
}

/// The value after `flag`, as a path: any bytes the system allows in a file name, or `-` for
/// standard output, but not a name that can only be a folder.
fn path(parser: &mut Parser, flag: &str, what: &str) -> Result<PathBuf, String> {
    let value = parser.value().map_err(|_| format!("{flag} needs a value: {flag} {what}"))?;
    if names_a_folder(&value) {
        return Err(format!(
            "{flag} wants a file name like {what}, not {value:?}, which can only be a folder"
        ));
    }
    Ok(PathBuf::from(value))
}

fn parse_camera(v: &str) -> Option<(f32, f32, f32)> {
    let numbers: Vec<f32> = v.split(',').map(|n| n.trim().parse::<f32>().ok()).collect::<Option<_>>()?;
    let angle = |a: f32| (-360.0..=360.0).contains(&a);
    match numbers[..] {
        [yaw, pitch] if angle(yaw) && angle(pitch) => Some((yaw, pitch, 1.0)),
        [yaw, pitch, zoom] if angle(yaw) && angle(pitch) && (0.2..=20.0).contains(&zoom) => {
            Some((yaw, pitch, zoom))
        }
        _ => None,
    }
}

/// Whether `path` can never be a file: empty, or ending in `/`, `.` or `..` (`/`, `.`, `..`,
/// `folder/`, `folder/.`).
fn names_a_folder(path: &std::ffi::OsStr) -> bool {
    let last = path.as_encoded_bytes().rsplit(|&b| b == b'/').next().unwrap_or_default();
    matches!(last, b"" | b"." | b"..")
}

/// A screenshot's path, if the picture can go there: the program writes PNG, so a name that says
/// another format (`shot.jpg`) would be a PNG under a wrong name. A name without an extension
/// (`-`, `/dev/stdout`) takes the PNG as it is.
fn png(path: PathBuf) -> Result<PathBuf, String> {
    match path.extension() {
        Some(e) if !e.eq_ignore_ascii_case("png") => {
            Err(format!("--screenshot writes PNG pictures: name it FILE.png, not {path:?}"))
        }
        _ => Ok(path),
    }
}

/// Whether `path` ends in `.md5mesh`, in any letter case: an MD5 model.
pub fn is_md5mesh(path: &std::path::Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("md5mesh"))
}

fn parse_size(v: &str) -> Option<(u32, u32)> {
    let (w, h) = v.split_once(['x', 'X'])?;
    let (w, h) = (w.parse::<u32>().ok()?, h.parse::<u32>().ok()?);
    let ok = |n: u32| (1..=16384).contains(&n);
    (ok(w) && ok(h)).then_some((w, h))
}

#[cfg(test)]
mod tests;
