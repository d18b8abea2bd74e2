//! What the desktop writes as a file, the page hands over as a download: `--screenshot` (after
//! `--frames N`, or on `P`), `--dump` and `--export-gltf` become a link under the picture, named as
//! the command line named the file, that saves its bytes. A page cannot write into a folder of its
//! own choosing, so there is nothing to check beforehand and nothing left half-written.

use crate::demo::output::page;
use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, Url};

/// Offers `bytes` as the file `name` (only its last part: a page saves into the reader's downloads
/// folder; `-`, standard output on the desktop, is `skinning.json` or the like): a link added to
/// the page, clicked once if `now`. Says so in one line.
pub fn offer(name: &str, bytes: &[u8], mime: &str, now: bool) -> Result<(), String> {
    let name = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let standard_output = match mime {
        "application/json" => "skinning.json",
        "image/png" => "skinning.png",
        "model/gltf+json" => "skinning.gltf",
        _ => "skinning.glb",
    };
    let name = if name == "-" { standard_output } else { name };
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(js_error)?;
    let url = Url::create_object_url_with_blob(&blob).map_err(js_error)?;
    let document = web_sys::window().and_then(|w| w.document()).ok_or("the page has no document")?;
    let link: HtmlAnchorElement =
        document.create_element("a").map_err(js_error)?.dyn_into().map_err(|_| "not a link")?;
    link.set_href(&url);
    link.set_download(name);
    link.set_text_content(Some(&format!("download {name} ({} bytes)", bytes.len())));
    let links = document.get_element_by_id("downloads").ok_or("the page has no #downloads")?;
    links.append_child(&link).map_err(js_error)?;
    if now {
        link.click();
    }
    page::show(&format!("{name} is ready: {} bytes, saved as a download", bytes.len()));
    Ok(())
}

/// A JavaScript exception as the line it says.
pub fn js_error(e: wasm_bindgen::JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}
