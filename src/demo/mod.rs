//! The `skinning` program around the library: command line, window or offscreen context, drawing.
//!
//! `run` reads the command line and picks one of three roads: `--dump` (numbers only, no OpenGL,
//! unless `--skinning gpu` asks the vertex shader for them), `--headless` (offscreen through EGL) or
//! a window. Windowed and headless share everything below the context: the [`session::Session`]
//! that runs the [`state::Demo`] frame after frame and the [`render::Renderer`] that draws it.
//!
//! The files, leaves first: `failure` (the one-line error), `options` (what the user asked for),
//! `cli` (the flags that fill it in), `help` (`--help` and the keys), `info` (`--info`: what a model
//! file holds), `clock`, `view`, `bend`, `skinned` (where and how the skin is blended), `threads`
//! (how many threads blend), `selection` (the inspected vertex), `pointer` (click or drag), `status`
//! (the corner line, the title's frame rate) and `state` (what is shown and how input changes it); `colors`, `font` and
//! `labels` (words as points, and where they go), `layer`, `gl`, `gpu_palette`, `gpu_skin`,
//! `inspector`, `text` and `render` (OpenGL); `session` (frame after frame), `output` (files),
//! `libraries` and `display` (what a window needs from the system), `window` and `headless` (the
//! two ways to get a context). Under them all: `console` (printing, and what to do when it fails)
//! and `signals` (Ctrl-C while a file is written).

pub mod bend;
pub mod cli;
pub mod clock;
pub mod colors;
pub mod console;
pub mod display;
pub mod failure;
pub mod font;
pub mod gl;
pub mod gpu_palette;
pub mod gpu_skin;
#[cfg(test)]
mod gpu_tests;
pub mod headless;
pub mod help;
pub mod info;
pub mod inspector;
pub mod labels;
pub mod layer;
pub mod libraries;
pub mod options;
pub mod output;
pub mod pointer;
pub mod render;
pub mod selection;
pub mod session;
pub mod signals;
pub mod skinned;
pub mod state;
pub mod status;
pub mod text;
pub mod threads;
pub mod view;
pub mod window;

use cli::Command;
use failure::Failure;
use session::Session;
use skinned::Skinning;
use skinning::dump::Frames;
use skinning::gltf_import::ImportError;
use std::process::ExitCode;

/// The whole program; returns the process exit code.
pub fn main() -> ExitCode {
    // Every expected failure is a `Failure`. Should a bug panic anyway, say so in one line, with
    // where, instead of a backtrace.
    std::panic::set_hook(Box::new(|info| {
        if info.payload().is::<gl::NoConfig>() {
            return; // not a bug: `gl::window_and_config` catches it and says what to do
        }
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let place = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        let line = format!("internal error{place}: {message}; please report it");
        // Inside the window's event loop the line waits: winit panics on X requests once the X
        // server is gone, and then `display` says that instead.
        if !display::hold_panic(&line) {
            console::say(&line);
        }
    }));
    match run(std::env::args_os().skip(1)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            match failure.signal {
                // Stopped by a signal (after cleaning up): end as that signal would have, quietly.
                Some(signal) => signals::die_of(signal),
                None => console::say(&failure.message),
            }
            ExitCode::from(failure.code)
        }
    }
}

fn run(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<(), Failure> {
    let options = match cli::parse(args).map_err(|e| Failure::new(2, e))? {
        Command::Help => return console::show(help::HELP),
        Command::Run(options) => *options,
    };
    // A file that cannot be written is reported now, not after every frame was drawn; and a file
    // that is standard output moves the text meant for it (`load: ...`) to standard error first.
    let export = options.export_gltf.as_ref().map(|(path, _)| path);
    for path in options.dump.iter().chain(&options.screenshot).chain(export) {
        output::check(path)?;
    }
    let (model, clips, notes) = match &options.model {
        // The article's scene. An edit to it that breaks it is reported, naming what is wrong.
        None => {
            let invalid = |e: skinning::scene::SceneError| {
                Failure::new(1, format!("the built-in scene is invalid: {e}"))
            };
            let model = skinning::scene::article().map_err(|e| invalid(e.into()))?;
            (model, skinning::scene::clips().map_err(invalid)?, Vec::new())
        }
        // A real model, through the same code. A bad file is one line and exit code 1.
        Some(path) => {
            let started = std::time::Instant::now();
            let imported = skinning::gltf_import::load(path).map_err(|e| match e {
                // That message names the file already.
                ImportError::Read { .. } => Failure::new(1, e.to_string()),
                _ => Failure::new(1, format!("{}: {e}", path.display())),
            })?;
            if options.stats {
                let (ms, vertices) = (started.elapsed().as_secs_f64() * 1e3, imported.model.skin.len());
                let path = skinning::printable::printable(&path.display().to_string()).into_owned();
                console::show(&format!("load: {path} in {ms:.1} ms ({vertices} vertices)"))?;
            }
            if options.info {
                return console::show(&info::describe(path, &imported));
            }
            (imported.model, imported.clips, imported.notes)
        }
    };
    // The article's scene written as a glTF file, for Blender or any glTF viewer; nothing else runs
    // (the command line refuses --model and every other flag with it). All of the file or none.
    if let Some((path, container)) = &options.export_gltf {
        let bytes = skinning::gltf_export::export(&model, &clips, *container)
            .map_err(|e| Failure::new(1, format!("cannot export the scene: {e}")))?;
        return output::write_file(path, |file| file.write_all(&bytes));
    }
    let say_notes = || {
        // Said once, when the model is up: what the loader mended or left out.
        for note in &notes {
            console::say(&format!("note: {note}"));
        }
    };

    if let Some(path) = &options.dump {
        // Numbers only: no camera, no window state; just the clip asked for.
        let clip = &clips[options.clip_index(&clips).map_err(|e| Failure::new(2, e))?];
        let frames = Frames {
            start: options.time,
            dt: options.fixed_dt.unwrap_or(options::DUMP_DT),
            count: options.frames.unwrap_or(1),
        };
        let model = &model;
        // The command line refuses `--method both`, as `--skinning both`: a dump holds one blend.
        let method = options.method.first();
        if method == skinning::model::Method::Dqs
            && let Some((time, e)) = skinning::dump::check_dqs(model, clip, frames)
        {
            return Err(Failure::new(1, skinned::refusal(model, &e, time)));
        }
        say_notes();
        let threads = threads::blend_threads(options.threads, options.parallel_from, model.skin.len(), false)
            .map_err(|e| Failure::new(1, e))?;
        return match options.skinning {
            // The GPU's skinned positions, read back from the vertex shader: for checking it.
            Skinning::Gpu => headless::dump_gpu(path, model, clip, frames, method),
            Skinning::Cpu | Skinning::Both => output::write_file(path, |mut file| {
                skinning::dump::write_dump_on(&mut file, model, clip, frames, method, &threads)
            }),
        };
    }
    let demo = state::Demo::new(model, clips, &options).map_err(|e| Failure::new(2, e))?;
    say_notes();
    let session = Session::new(options, demo);
    if session.options.headless { headless::run(session) } else { window::run(session) }
}
