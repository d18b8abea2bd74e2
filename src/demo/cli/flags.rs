//! Each flag's value, read into [`Options`], family by family: the model and the clip that plays,
//! the files a run writes, the clock and the frames, how the skin is blended, and what the picture
//! shows. Several clips at once, reaching and looking read their own flags (`layers.rs`,
//! `reach.rs`, `look.rs`). What a value must look like is `values.rs`; the rules between flags,
//! once all are read, `rules.rs`.

use super::model_file::{self, Given};
use super::options::{MAX_CROWD, MAX_SECONDS, MAX_THREADS, Options, front};
use super::values::{is_md5mesh, names_a_folder, once, parse_camera, parse_size, path, png, text};
use super::{hide, layers, look, morph, motion, reach};
use crate::demo::cli::choices::{Methods, Skinning};
use lexopt::Parser;
use skinning_formats::gltf_export::Container;
use std::ffi::OsString;

/// What the command line has said so far: the options, and what their values alone cannot tell.
#[derive(Default)]
pub struct CommandLine {
    pub options: Options,
    /// Whether `--clip` was given, since its default is a clip too.
    pub clip_given: bool,
    /// How the model's file was given, if it was: `--model FILE` or `FILE` alone.
    pub model_given: Option<Given>,
}

/// Reads the long flag `--flag`, and its value, into `command_line`; false if the program has no such flag.
pub fn read(flag: &str, parser: &mut Parser, command_line: &mut CommandLine) -> Result<bool, String> {
    Ok(model_and_clip(flag, parser, command_line)?
        || files(flag, parser, &mut command_line.options)?
        || clock(flag, parser, &mut command_line.options)?
        || blending(flag, parser, &mut command_line.options)?
        || picture(flag, parser, &mut command_line.options)?
        || several_clips(flag, parser, &mut command_line.options.layers)?
        || reaching(flag, parser, &mut command_line.options.reach)?
        || motion(flag, parser, &mut command_line.options.motion)?
        || looking(flag, parser, &mut command_line.options.look)?
        || standing(flag, parser, &mut command_line.options)?)
}

/// `skinning FILE`: the model, named without a flag.
pub fn model_alone(value: OsString, command_line: &mut CommandLine) -> Result<(), String> {
    if names_a_folder(&value) {
        return Err(format!("a model FILE is a file name, not {value:?}, which can only be a folder"));
    }
    model_file::take(&mut command_line.options, &mut command_line.model_given, Given::Alone, value.into())
}

/// The model shown and what plays on it: the article's arm and its clip, or a model file, its
/// animation, its front, its morph weights held; or `--info` about the file.
fn model_and_clip(flag: &str, parser: &mut Parser, command_line: &mut CommandLine) -> Result<bool, String> {
    let options = &mut command_line.options;
    match flag {
        "clip" => {
            options.clip = text(parser, "--clip", "NAME")?;
            command_line.clip_given = true;
        }
        "model" => {
            let file = path(parser, "--model", "FILE")?;
            model_file::take(options, &mut command_line.model_given, Given::Flag, file)?
        }
        "animation" => options.animation = Some(text(parser, "--animation", "NAME|INDEX")?),
        "info" => options.info = true,
        "front" => options.front = Some(front(&text(parser, "--front", "AXIS")?)?),
        "morph" => options.morphs.push(morph::parse_morph(&text(parser, "--morph", "NODE:TARGET=W")?)?),
        _ => return Ok(false),
    }
    Ok(true)
}

/// The files a run writes: a screenshot, a dump, an export to glTF or MD5 (and whether that may
/// replace files already there).
fn files(flag: &str, parser: &mut Parser, options: &mut Options) -> Result<bool, String> {
    match flag {
        "screenshot" => {
            once(&options.screenshot, "--screenshot")?;
            options.screenshot = Some(png(path(parser, "--screenshot", "FILE.png")?)?)
        }
        "dump" => {
            once(&options.dump, "--dump")?;
            options.dump = Some(path(parser, "--dump", "FILE.json")?)
        }
        "export-gltf" => {
            once(&options.export_gltf, "--export-gltf")?;
            let file = path(parser, "--export-gltf", "FILE.gltf|FILE.glb")?;
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
        "export-md5" => {
            once(&options.export_md5, "--export-md5")?;
            let file = path(parser, "--export-md5", "FILE.md5mesh")?;
            if !is_md5mesh(&file) {
                return Err(format!(
                    "--export-md5 writes FILE.md5mesh and an .md5anim per clip beside it (two or more \
                     files, so not -): name it FILE.md5mesh, not {file:?}"
                ));
            }
            options.export_md5 = Some(file);
        }
        "force" => options.force = true,
        _ => return Ok(false),
    }
    Ok(true)
}

/// The clock and the frames: when the first frame is, how far apart they are, how many, and what
/// they cost (`--stats`).
fn clock(flag: &str, parser: &mut Parser, options: &mut Options) -> Result<bool, String> {
    match flag {
        "time" => {
            let v = text(parser, "--time", "SECONDS")?;
            let t = v.parse::<f64>().ok().filter(|t| t.abs() <= MAX_SECONDS);
            options.time =
                t.ok_or(format!("--time wants seconds from -{MAX_SECONDS:e} to {MAX_SECONDS:e}, not {v:?}"))?;
            // Taken, as chapter 3 teaches (a clip loops both ways), but said: it may be a slip.
            if options.time < 0.0 {
                crate::demo::output::console::note_once(&format!(
                    "--time {v} is before 0 s: each clip loops, so it plays from that far back from its end"
                ));
            }
        }
        "fixed-dt" => {
            let v = text(parser, "--fixed-dt", "SECONDS")?;
            let dt = v.parse::<f64>().ok().filter(|dt| (0.0..=MAX_SECONDS).contains(dt));
            options.fixed_dt =
                Some(dt.ok_or(format!("--fixed-dt wants seconds from 0 to {MAX_SECONDS:e}, not {v:?}"))?);
        }
        "frames" => {
            let v = text(parser, "--frames", "N")?;
            let n = v.parse::<u64>().ok().filter(|&n| n > 0);
            options.frames = Some(n.ok_or(format!("--frames wants a whole number above 0, not {v:?}"))?);
        }
        "stats" => options.stats = true,
        _ => return Ok(false),
    }
    Ok(true)
}

/// How the skinned layer is blended: where (`--skinning`), by which method (`--method`), on how
/// many threads (`--threads`, from `--parallel-from` vertices), and how many times (`--crowd`).
fn blending(flag: &str, parser: &mut Parser, options: &mut Options) -> Result<bool, String> {
    match flag {
        "skinning" => {
            let v = text(parser, "--skinning", "cpu|gpu|both")?;
            options.skinning = match v.as_str() {
                "cpu" => Skinning::Cpu,
                "gpu" => Skinning::Gpu,
                "both" => Skinning::Both,
                _ => return Err(format!("--skinning wants cpu, gpu or both, not {v:?}")),
            };
        }
        "method" => {
            let v = text(parser, "--method", "lbs|dqs|both")?;
            options.method = match v.as_str() {
                "lbs" => Methods::Lbs,
                "dqs" => Methods::Dqs,
                "both" => Methods::Both,
                _ => return Err(format!("--method wants lbs, dqs or both, not {v:?}")),
            };
        }
        "threads" => {
            let v = text(parser, "--threads", "N")?;
            let n = v.parse::<usize>().ok().filter(|n| (1..=MAX_THREADS).contains(n));
            options.threads =
                Some(n.ok_or(format!("--threads wants a whole number from 1 to {MAX_THREADS}, not {v:?}"))?);
        }
        "crowd" => {
            let v = text(parser, "--crowd", "N")?;
            let n = v.parse::<usize>().ok().filter(|n| (1..=MAX_CROWD).contains(n));
            options.crowd = n.ok_or(format!(
                "--crowd wants a whole number of characters from 1 to {MAX_CROWD}, not {v:?}"
            ))?;
        }
        "parallel-from" => {
            let v = text(parser, "--parallel-from", "VERTICES")?;
            let n = v.parse::<usize>().ok();
            options.parallel_from =
                Some(n.ok_or(format!("--parallel-from wants a number of vertices, 0 or more, not {v:?}"))?);
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// What the picture shows, and where: its size, a window or none, the camera, the surface, the
/// normals, the weight view, a trail, the layers hidden, the inspector, the words.
fn picture(flag: &str, parser: &mut Parser, options: &mut Options) -> Result<bool, String> {
    match flag {
        "size" => {
            let v = text(parser, "--size", "WxH")?;
            options.size = Some(parse_size(&v).ok_or(format!(
                "--size wants WIDTHxHEIGHT in pixels, each 1 to 16384, like 800x600, not {v:?}"
            ))?);
        }
        "headless" => options.headless = true,
        "camera" => {
            let v = text(parser, "--camera", "YAW,PITCH[,ZOOM]")?;
            options.camera = Some(parse_camera(&v).ok_or(format!(
                "--camera wants YAW,PITCH in degrees (-360 to 360) and maybe a ZOOM (0.2 to 20), \
                 like 60,25,2, not {v:?}"
            ))?);
        }
        "surface" => {
            let v = text(parser, "--surface", "on|off")?;
            options.surface = Some(match v.as_str() {
                "on" => true,
                "off" => false,
                _ => return Err(format!("--surface wants on or off, not {v:?}")),
            });
        }
        "normals" => options.normals = true,
        "weights" => options.weights = Some(text(parser, "--weights", "BONE")?),
        "trail" => options.trail = Some(text(parser, "--trail", "BONE")?),
        "hide" => hide::add(&mut options.hide, &text(parser, "--hide", "LAYER,...")?)?,
        "inspect" => {
            let v = text(parser, "--inspect", "VERTEX")?;
            let index = v.parse::<usize>().ok();
            options.inspect =
                Some(index.ok_or(format!("--inspect wants a vertex index (0, 1, 2...), not {v:?}"))?);
        }
        "no-text" => options.text = false,
        _ => return Ok(false),
    }
    Ok(true)
}

/// Several clips at once (chapter 11): `layers.rs` reads them.
fn several_clips(
    flag: &str,
    parser: &mut Parser,
    layer_flags: &mut layers::LayerFlags,
) -> Result<bool, String> {
    let Some((flag, what)) = layers::FLAGS.into_iter().find(|(name, _)| *name == flag) else {
        return Ok(false);
    };
    let value = match what {
        "" => None,
        _ => Some(text(parser, &format!("--{flag}"), what)?),
    };
    layers::read(flag, value.as_deref(), layer_flags)?;
    Ok(true)
}

/// Reaching (chapter 12): `reach.rs` reads its flags.
fn reaching(
    flag: &str,
    parser: &mut Parser,
    reach_options: &mut reach::ReachOptions,
) -> Result<bool, String> {
    if !reach::is_reach_flag(flag) {
        return Ok(false);
    }
    reach::parse(flag, parser, reach_options)?;
    Ok(true)
}

/// A character that goes somewhere (chapter 17): `motion.rs` reads its flags.
fn motion(flag: &str, parser: &mut Parser, options: &mut motion::MotionOptions) -> Result<bool, String> {
    if !motion::is_motion_flag(flag) {
        return Ok(false);
    }
    motion::parse(flag, parser, options)?;
    Ok(true)
}

/// Looking (chapter 19): `look.rs` reads its flags.
fn looking(flag: &str, parser: &mut Parser, look_options: &mut look::LookOptions) -> Result<bool, String> {
    if !look::is_look_flag(flag) {
        return Ok(false);
    }
    look::parse(flag, parser, look_options)?;
    Ok(true)
}

/// The ground the feet stand on (chapter 20): `ground.rs` reads its value.
fn standing(flag: &str, parser: &mut Parser, options: &mut Options) -> Result<bool, String> {
    match flag {
        "ground" => options.ground = Some(super::ground::parse(parser)?),
        _ => return Ok(false),
    }
    Ok(true)
}
