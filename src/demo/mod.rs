//! The `skinning` program around the library: command line, window or offscreen context, drawing.
//!
//! `run` reads the command line and picks one of three roads: `--dump` (numbers only, no OpenGL,
//! unless `--skinning gpu` asks the vertex shader for them), `--headless` (offscreen through EGL) or
//! a window. Windowed and headless share everything below the context: the [`session::Session`]
//! that runs the [`state::Demo`] frame after frame and the [`render::Renderer`] that draws it.
//!
//! The files, leaves first: `failure` (the one-line error), `cli` (flags), `clock`, `view`, `bend`,
//! `skinned` (where and how the skin is blended), `selection` (the inspected vertex), `pointer` (click
//! or drag), `status` (the corner line) and `state` (what is shown and how input changes it),
//! `colors`, `font` and `labels` (words as points, and where they go), `layer`, `gl`, `gpu_palette`,
//! `gpu_skin`, `inspector`, `text` and `render` (OpenGL), `session` (frame after frame), `output`
//! (files), `window` and `headless` (the two ways to get a context).

pub mod alloc;
pub mod bend;
pub mod cli;
pub mod clock;
pub mod colors;
pub mod failure;
pub mod font;
pub mod gl;
pub mod gpu_palette;
pub mod gpu_skin;
#[cfg(test)]
mod gpu_tests;
pub mod headless;
pub mod inspector;
pub mod labels;
pub mod layer;
pub mod output;
pub mod pointer;
pub mod render;
pub mod selection;
pub mod session;
pub mod skinned;
pub mod state;
pub mod status;
pub mod text;
pub mod view;
pub mod window;

use cli::{Command, Skinning};
use failure::Failure;
use session::Session;
use skinning::dump::Frames;
use std::process::ExitCode;

/// The whole program; returns the process exit code.
pub fn main() -> ExitCode {
    // Every expected failure is a `Failure`. Should a bug panic anyway, say so in one line, with
    // where, instead of a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let place = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        eprintln!("skinning: internal error{place}: {message}; please report it");
    }));
    match run(std::env::args_os().skip(1)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("skinning: {failure}");
            ExitCode::from(failure.code)
        }
    }
}

fn run(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<(), Failure> {
    let options = match cli::parse(args).map_err(|e| Failure::new(2, e))? {
        Command::Help => {
            print!("{}", cli::HELP);
            return Ok(());
        }
        Command::Run(options) => options,
    };
    // The article's scene. An edit to it that breaks it is reported, naming what is wrong.
    let invalid =
        |e: skinning::scene::SceneError| Failure::new(1, format!("the built-in scene is invalid: {e}"));
    let model = skinning::scene::article().map_err(|e| invalid(e.into()))?;
    let clips = skinning::scene::clips().map_err(invalid)?;
    let demo = state::Demo::new(model, clips, &options).map_err(|e| Failure::new(2, e))?;

    if let Some(path) = &options.dump {
        let frames = Frames {
            start: options.time,
            dt: options.fixed_dt.unwrap_or(cli::DUMP_DT),
            count: options.frames.unwrap_or(1),
        };
        let (model, clip) = (&demo.model, demo.clip());
        // The command line refuses `--method both`, as `--skinning both`: a dump holds one blend.
        let method = options.method.first();
        if method == skinning::model::Method::Dqs
            && let Some((time, e)) = skinning::dump::check_dqs(model, clip, frames)
        {
            return Err(Failure::new(1, skinned::refusal(model, &e, time)));
        }
        return match options.skinning {
            // The GPU's skinned positions, read back from the vertex shader: for checking it.
            Skinning::Gpu => headless::dump_gpu(path, model, clip, frames, method),
            Skinning::Cpu | Skinning::Both => output::write_atomically(path, |file| {
                skinning::dump::write_dump_with(file, model, clip, frames, method)
            }),
        };
    }
    let session = Session::new(options, demo);
    if session.options.headless { headless::run(session) } else { window::run(session) }
}
