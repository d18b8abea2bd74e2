//! The web page around the canvas (`web/index.html`): where the program's lines go, the frame
//! count a test waits for, and the links that hand over what the desktop would write as files.
//!
//! The page has no terminal, so what the desktop prints goes onto it, under the picture: `say`'s
//! one-line messages and `show`'s text (the `--stats` line, the inspector's numbers) in `#said`,
//! also to the browser's console; the key list in `#keys`. A failure that stops the page is said
//! the same way and kept in `document.body.dataset.failure`; the frames drawn of the model shown are
//! counted in `document.body.dataset.frames` and its name is `dataset.model`, so that a test (or a
//! curious reader) can wait for a frame before it looks.

use wasm_bindgen::JsCast;
use web_sys::{Document, HtmlElement};

fn document() -> Option<Document> {
    web_sys::window()?.document()
}

/// The element with id `id`, if the page has it.
fn element(id: &str) -> Option<HtmlElement> {
    document()?.get_element_by_id(id)?.dyn_into::<HtmlElement>().ok()
}

/// Adds `text` and a line break to the messages under the picture.
fn add_line(text: &str) {
    let Some(said) = element("said") else { return };
    let mut all = said.text_content().unwrap_or_default();
    all.push_str(text.trim_end_matches('\n'));
    all.push('\n');
    said.set_text_content(Some(&all));
}

/// A one-line message (`output::console::say`, already `skinning: ` first and printable).
pub fn say(line: &str) {
    web_sys::console::warn_1(&line.into());
    add_line(line);
}

/// What the desktop shows on standard output (`output::console::show`).
pub fn show(text: &str) {
    web_sys::console::log_1(&text.into());
    add_line(text);
}

/// A failure that leaves nothing to draw: said, and kept where a test finds it.
pub fn failed(line: &str) {
    let line = format!("skinning: {}", skinning_method::printable::printable(line));
    say(&line);
    set_data("failure", &line);
}

/// The key list (`H`, and at the start, as the desktop prints it when its window opens).
pub fn keys(text: &str, open: bool) {
    let Some(keys) = element("keys") else { return };
    if let Some(list) = element("keys-list") {
        list.set_text_content(Some(text));
    }
    if open {
        let _ = keys.set_attribute("open", "");
    }
}

/// The page's title, which the browser shows on its tab: the desktop's window title.
pub fn set_title(title: &str) {
    if let Some(document) = document() {
        document.set_title(title);
    }
}

/// `document.body.dataset[name] = value`.
pub fn set_data(name: &str, value: &str) {
    if let Some(body) = document().and_then(|d| d.body()) {
        let _ = body.dataset().set(name, value);
    }
}

/// The page's address: `web/mod.rs` reads its `?args=` query, and the model's name is relative to it.
pub fn location() -> Option<web_sys::Location> {
    Some(web_sys::window()?.location())
}
