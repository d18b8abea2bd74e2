//! The program on a web page: the same demo, compiled to WebAssembly (`wasm32-unknown-unknown`),
//! drawing with WebGL2 into a canvas, built by `web/build.sh` (docs/15's "The web page").
//!
//! [`start`] is the web's `run` (`demo/mod.rs`): the page's address carries the flags
//! (`index.html?args=--clip%20bend`, `folder.rs`), read by the same command line (`cli/`). Then:
//! `--help` shows the flags; `--info`, `--dump` and `--export-gltf` fetch the model, open it and
//! show what it holds or hand the file over as a download (`download.rs`); otherwise the canvas
//! draws (`app.rs`) the article's scene or the `--model` file fetched from beside the page
//! (`fetch.rs`), opened by the desktop's own loader (`model/load.rs`). A model dropped on the page or chosen with its file button opens the
//! same way ([`open_files`]), and the bar's buttons press keys ([`press`]): the page's JavaScript
//! calls both (`web/index.html`).
//!
//! What the web does not do, each refused in one line: more than one thread for the blend (a
//! page's threads need cross-origin isolation headers from its server), `--export-md5` (a folder
//! of files), the vertex shader's numbers read back for `--dump`.

mod app;
mod canvas;
mod download;
mod fetch;
pub mod folder;
pub mod gltf_files;

use crate::demo::cli::{self, Command, help::HELP, options::Options};
use crate::demo::model::load::{self, Loaded, Loading};
use crate::demo::output::failure::Failure;
use crate::demo::output::page;
use app::{Asked, Page};
use std::cell::RefCell;
use wasm_bindgen::prelude::wasm_bindgen;
use winit::event_loop::{EventLoop, EventLoopProxy};
use winit::platform::web::EventLoopExtWebSys;

thread_local! {
    /// Where the page's JavaScript hands things to the running page.
    static PROXY: RefCell<Option<EventLoopProxy<Asked>>> = const { RefCell::new(None) };
}

/// Reads the page's address and starts what it asks for.
pub fn start() {
    std::panic::set_hook(Box::new(|info| page::failed(&crate::demo::output::failure::panic_line(info))));
    let query = page::location().and_then(|l| l.search().ok()).unwrap_or_default();
    let options = match folder::args(&query).and_then(|words| cli::parse(words.into_iter().map(Into::into))) {
        Ok(Command::Help) => return page::show(HELP),
        Ok(Command::Run(options)) => *options,
        Err(line) => return page::failed(&line),
    };
    let named = match refused(&options).and_then(|()| named_files(&options)) {
        Ok(named) => named,
        Err(failure) => return page::failed(&failure.message),
    };
    if options.info || options.dump.is_some() || options.export_gltf.is_some() {
        return wasm_bindgen_futures::spawn_local(without_canvas(options, named));
    }
    let event_loop = match EventLoop::<Asked>::with_user_event().build() {
        Ok(event_loop) => event_loop,
        Err(e) => return page::failed(&format!("cannot start the page's event loop: {e}")),
    };
    let proxy = event_loop.create_proxy();
    PROXY.with(|slot| *slot.borrow_mut() = Some(proxy));
    if !named.is_empty() {
        let name = options.model.as_ref().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
        wasm_bindgen_futures::spawn_local(async move {
            let files = fetch::all(&named).await;
            send(Asked::Open { name, files, first: true });
        });
    }
    event_loop.spawn_app(Page::new(options));
}

/// What the flags ask that a page cannot do, in one line.
fn refused(options: &Options) -> Result<(), Failure> {
    if options.export_md5.is_some() {
        return Err(Failure::new(
            2,
            "--export-md5 writes a folder of files, which a page cannot; use --export-gltf here, or the \
             desktop program",
        ));
    }
    if options.threads.is_some_and(|n| n > 1) {
        return Err(Failure::new(
            2,
            "a web page blends on one thread (a page's threads need cross-origin isolation from its \
             server); leave --threads out, or run the desktop program",
        ));
    }
    Ok(())
}

/// The files the flags name (`--model`, `--clips-from`), each as a path from the page's folder, to
/// be fetched from beside it; refused if one leads elsewhere.
fn named_files(options: &Options) -> Result<Vec<String>, Failure> {
    let flags = [("--model", &options.model), ("--clips-from", &options.motion.clips_from)];
    let named = flags.into_iter().filter_map(|(flag, path)| Some((flag, path.as_ref()?.to_string_lossy())));
    (named.map(|(flag, name)| {
        crate::demo::model::files::inside("", &name).ok_or_else(|| {
            Failure::new(
                2,
                format!(
                    "{flag} {}: the page fetches a file from its own folder; name it by its path there",
                    skinning_method::printable::quoted(&name)
                ),
            )
        })
    }))
    .collect()
}

/// `--info`, `--dump` and `--export-gltf`: the model opened, then described or handed over.
async fn without_canvas(options: Options, named: Vec<String>) {
    let files = fetch::all(&named).await;
    let loaded = match load::handed(&options, &files) {
        Ok(Loading::Show(loaded)) => Ok(*loaded),
        Ok(Loading::Described) => return,
        Err(failure) => Err(failure),
    };
    if let Err(failure) = loaded.and_then(|loaded| hand_over(&options, loaded)) {
        page::failed(&failure.message);
    }
}

/// The file `--dump` or `--export-gltf` asks for, as a download.
fn hand_over(options: &Options, loaded: Loaded) -> Result<(), Failure> {
    let say_notes =
        || loaded.notes.iter().for_each(|n| crate::demo::output::console::say(&format!("note: {n}")));
    let (name, bytes, mime) = if let Some((path, container)) = &options.export_gltf {
        say_notes();
        let clips = &loaded.clips[..loaded.own_clips];
        let bytes = skinning_formats::gltf_export::export(&loaded.model, &loaded.looks, clips, *container)
            .map_err(|e| Failure::new(1, format!("cannot export the model as glTF: {e}")))?;
        let mime = match container {
            skinning_formats::gltf_export::Container::Gltf => "model/gltf+json",
            skinning_formats::gltf_export::Container::Glb => "model/gltf-binary",
        };
        (path, bytes, mime)
    } else if let Some(path) = &options.dump {
        let mut bytes = Vec::new();
        let to = crate::demo::dump::To::Bytes(&mut bytes);
        crate::demo::dump::dump(options, &loaded.model, &loaded.clips, say_notes, to)?;
        (path, bytes, "application/json")
    } else {
        return Ok(());
    };
    download::offer(&name.to_string_lossy(), &bytes, mime, false).map_err(|why| Failure::new(1, why))
}

/// Hands `asked` to the running page; none runs yet, or any more: dropped.
fn send(asked: Asked) {
    PROXY.with(|slot| {
        if let Some(proxy) = &*slot.borrow() {
            let _ = proxy.send_event(asked);
        }
    });
}

/// The page's JavaScript: a button of the bar was pressed; `key` is the key it stands for.
#[wasm_bindgen]
pub fn press(key: String) {
    send(Asked::Key(key));
}

/// The page's JavaScript: files were dropped on the page or chosen with its file button; their
/// names and bytes, in the same order. The model among them opens, with the others beside it.
#[wasm_bindgen]
pub fn open_files(names: Vec<String>, contents: Vec<js_sys::Uint8Array>) {
    let files = crate::demo::model::files::Files {
        entries: names.into_iter().zip(contents).map(|(name, bytes)| (name, Ok(bytes.to_vec()))).collect(),
        notes: Vec::new(),
    };
    let Some(name) = files.model().map(str::to_string) else {
        return crate::demo::output::console::say(
            "none of the files given is a model: give a .glb, a .gltf (with its files) or an .md5mesh \
             (with its .md5anim files)",
        );
    };
    send(Asked::Open { name, files, first: false });
}
