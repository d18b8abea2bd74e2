//! The `skinning` program around the library: command line, window or offscreen context, drawing.
//! **On a first read, skip this folder**: the method is all in the library (`src/lib.rs`). If you
//! open one file here, make it `draw/render.rs`, where the numbers the method computes become a
//! picture.
//!
//! `run` (below) reads the command line, then, in this order: `--help` prints the flags and exits;
//! the files it will write are checked; the scene or the `--model` file is loaded (`--info` prints
//! what the file holds and exits); `--export-gltf` and `--export-md5` write the scene and exit;
//! `--dump` writes the method's numbers and exits (`dump.rs`: no OpenGL, unless `--skinning gpu`
//! asks the vertex shader for them, through the offscreen context); otherwise it draws, `--headless`
//! offscreen through EGL or in a window. Windowed and headless share everything below the context:
//! the [`platform::session::Session`] that runs the [`show::state::Demo`] frame after frame and
//! the [`draw::render::Renderer`] that draws it. `docs/15-the-program-around-the-method.md` draws
//! both as diagrams. The same program compiled for a browser has a `main` of its own, below, which
//! hands over to the web page (`platform/web/`).
//!
//! The folders, each opening with what it holds:
//! - `cli/`: the command line: the flags, what they ask for (`options.rs`), `--help` and the
//!   keys (`--info`'s description of a model file is `model/`'s);
//! - `model/`: the model shown, loaded by one loader, `--info`'s descriptions, the exports, and
//!   what GPU skinning can take (no OpenGL);
//! - `show/`: what is shown and how the keys and the mouse change it (no OpenGL);
//! - `draw/`: OpenGL: the layers of lines and points, GPU skinning, the inspector's marks;
//! - `words/`: words on the picture: the font, the labels, the corner line;
//! - `platform/`: the window, the offscreen context, the display server and its libraries, the
//!   web page, and the session that runs frame after frame;
//! - `output/`: what the program writes: files, the terminal's lines, the one-line failure, and
//!   what Ctrl-C does while a file is written.

pub mod cli;
pub mod colors;
pub mod draw;
mod dump;
pub mod model;
pub mod output;
pub mod platform;
pub mod show;
pub mod time;
pub mod words;

use std::process::ExitCode;
#[cfg(not(target_arch = "wasm32"))]
use {
    cli::Command, model::load::Loading, output::failure::Failure, skinning_formats::gltf_export::Container,
};

/// The whole program; returns the process exit code.
#[cfg(not(target_arch = "wasm32"))]
pub fn main() -> ExitCode {
    // Every expected failure is a `Failure`. Should a bug panic anyway, say so in one line, with
    // where, instead of a backtrace.
    std::panic::set_hook(Box::new(|info| {
        if info.payload().is::<platform::context::NoConfig>() {
            return; // not a bug: `platform::context::window_and_config` catches it and says what to do
        }
        let line = output::failure::panic_line(info);
        // Inside the window's event loop the line waits: winit panics on X requests once the X
        // server is gone, and then `display` says that instead.
        if !platform::display::hold_panic(&line) {
            output::console::say(&line);
        }
    }));
    // A write past the file-size limit fails and is said, rather than killing the program.
    output::signals::report_file_size_limit();
    match run(std::env::args_os().skip(1)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            match failure.signal {
                // Stopped by a signal (after cleaning up): end as that signal would have, quietly.
                Some(signal) => output::signals::die_of(signal),
                None => output::console::say(&failure.message),
            }
            ExitCode::from(failure.code)
        }
    }
}

/// The program in a web page (`platform/web/`): it reads the page's address, starts the page and
/// returns; the page then runs on the browser's events, with the same panics said in one line.
#[cfg(target_arch = "wasm32")]
pub fn main() -> ExitCode {
    platform::web::start();
    ExitCode::SUCCESS
}

#[cfg(not(target_arch = "wasm32"))]
fn run(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<(), Failure> {
    let options = match cli::parse(args).map_err(|e| Failure::new(2, e))? {
        Command::Help => return output::console::show(cli::help::HELP),
        Command::Run(options) => *options,
    };
    // A file that cannot be written is reported now, not after every frame was drawn; and a file
    // that is standard output moves the text meant for it (`load: ...`) to standard error first.
    // (--export-md5 makes its folder if it is missing: `output::together::write` checks it when it writes.)
    let export = options.export_gltf.as_ref().map(|(path, container)| (path, *container == Container::Glb));
    let dump = options.dump.iter().map(|path| (path, false));
    for (path, binary) in dump.chain(options.screenshot.iter().map(|path| (path, true))).chain(export) {
        output::check(path, binary)?;
    }
    let Loading::Show(loaded) = model::load::load(&options)? else { return Ok(()) };
    // Nor may a dump or a screenshot be a file the model was read from (`output/inputs.rs`); the
    // exports check their own files as they plan them.
    let inputs = output::inputs::Inputs::of(&loaded.read);
    for path in options.dump.iter().chain(&options.screenshot) {
        inputs.refuse(path, "name another file")?;
    }
    // The model shown written as a glTF file or an MD5 model; nothing else runs (the command line
    // takes no other flag but --model with them). All of the files or none. What the loader mended
    // or left out is said first: it is left out of the files too (a texture past the budget).
    let exporting = options.export_gltf.is_some() || options.export_md5.is_some();
    if exporting {
        loaded.notes.iter().for_each(|note| output::console::say(&format!("note: {note}")));
    }
    if let Some((path, container)) = &options.export_gltf {
        return model::exports::gltf(path, *container, &loaded);
    }
    if let Some(path) = &options.export_md5 {
        return model::exports::md5(path, &loaded, options.force);
    }
    if let Some(path) = &options.dump {
        // Said once, when the flags are found good: what the loader mended or left out.
        let say_notes =
            || loaded.notes.iter().for_each(|note| output::console::say(&format!("note: {note}")));
        let to = match options.skinning {
            cli::choices::Skinning::Gpu => dump::To::Gpu(path, platform::headless::dump_gpu),
            _ => dump::To::File(path),
        };
        return dump::dump(&options, (&loaded.model, &loaded.morphs), &loaded.clips, say_notes, to);
    }
    // The demo and its session (start-up written once, `platform/start.rs`): the notes said, a
    // first frame the dump would refuse refused before any window opens.
    let session = platform::start::session(options, *loaded)?;
    // What the flags' names and values gave rise to, now that the run goes on (`console::note_once`).
    output::console::say_held_notes();
    if session.options.headless { platform::headless::run(session) } else { platform::window::run(session) }
}
