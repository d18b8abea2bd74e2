//! Start-up, written once for the window, the headless run and the web page: the demo of the loaded
//! model and the session that runs it ([`session`]), then, once an OpenGL context is current, the
//! renderer on it ([`renderer`]). Only getting the context differs, and that is each platform's.

use super::session::Session;
use crate::demo::cli::options::Options;
use crate::demo::draw::gl;
use crate::demo::draw::render::Renderer;
use crate::demo::model::load::Loaded;
use crate::demo::output::console;
use crate::demo::output::failure::Failure;
use crate::demo::show::state::Demo;

/// The demo of `loaded` as `options` ask, and the session that will run it frame after frame. What
/// the loader mended or left out is said now, once; a first frame the dump would refuse is refused
/// before any window opens (`show/finite.rs`).
pub fn session(options: Options, loaded: Loaded) -> Result<Session, Failure> {
    let Loaded { model, looks, morphs, clips, notes, stored, .. } = loaded;
    let mut demo = Demo::with_morphs(model, morphs, clips, &options).map_err(|e| Failure::new(2, e))?;
    demo.stored = stored;
    demo.looks = looks;
    notes.iter().for_each(|note| console::say(&format!("note: {note}")));
    let mut session = Session::new(options, demo);
    session.check_numbers()?;
    Ok(session)
}

/// The renderer on `gl`, whose context is current on this thread: the blend's threads picked
/// beside the renderer the driver names (`Session::pick_threads`), and GPU skinning refused where
/// this driver cannot do it (`Session::refuse_gpu`).
pub fn renderer(session: &mut Session, gl: glow::Context) -> Result<Renderer, Failure> {
    session.pick_threads(&gl::version_string(&gl))?;
    let demo = &session.demo;
    let renderer = Renderer::new(gl, &demo.model, &demo.morph.targets, &demo.looks, session.options.crowd)?;
    session.refuse_gpu(renderer.gpu_refusal.as_deref())?;
    Ok(renderer)
}
