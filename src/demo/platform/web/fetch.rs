//! Fetching a model from beside the page (`--model NAME` in the page's address) with the files it
//! names (`folder.rs` says which), each by its path from the page's folder, into [`Files`].

use super::download::js_error;
use super::folder::listed_md5anims;
use super::gltf_files::{gltf_uris, is_gltf};
use crate::demo::cli::values::is_md5mesh;
use crate::demo::model::files::{Files, folder_of, has_extension, inside};
use js_sys::Uint8Array;
use skinning_formats::md5_import;
use std::path::Path;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::Response;

/// The model `name` and the files it names, as the server gave them (or why it did not).
pub async fn model(name: &str) -> Files {
    let mut files = Files::default();
    let model = fetch(name).await;
    let bytes = model.as_ref().ok().cloned();
    files.entries.push((name.to_string(), model));
    let Some(bytes) = bytes else { return files };
    let folder = folder_of(name);
    let others: Vec<String> = if is_md5mesh(Path::new(name)) {
        let shown = if folder.is_empty() { "./" } else { folder };
        // The pictures its shaders name, each asked for by the names it may go by, then its animations.
        let text = String::from_utf8_lossy(&bytes);
        let pictures = md5_import::pictures_named(&text).into_iter().filter_map(|p| inside(folder, &p));
        let mut others: Vec<String> = pictures.collect();
        match fetch(shown).await {
            Ok(listing) => others.extend(listed_md5anims(folder, &String::from_utf8_lossy(&listing))),
            Err(e) => files
                .notes
                .push(format!("cannot list {shown} for its .md5anim files ({e}); showing the bind pose")),
        }
        others
    } else if is_gltf(&bytes) {
        gltf_uris(&bytes).iter().filter_map(|uri| inside(folder, uri)).collect()
    } else {
        Vec::new()
    };
    for other in others {
        let fetched = fetch(&other).await;
        // A picture that is not there is one the loader says it could not find; no note twice.
        if fetched.is_ok() || !is_md5mesh(Path::new(name)) || has_extension(&other, "md5anim") {
            files.entries.push((other, fetched));
        }
    }
    files
}

/// Each of the files `names` with the files it names (see [`model`]), as one handing-over.
pub async fn all(names: &[String]) -> Files {
    let mut all = Files::default();
    for name in names {
        let files = model(name).await;
        all.entries.extend(files.entries);
        all.notes.extend(files.notes);
    }
    all
}

/// The bytes at `name`, relative to the page, or why there are none.
async fn fetch(name: &str) -> Result<Vec<u8>, String> {
    let window = web_sys::window().ok_or("the page has no window")?;
    let response = JsFuture::from(window.fetch_with_str(name)).await.map_err(js_error)?;
    let response: Response = response.dyn_into().map_err(|_| "not an HTTP response".to_string())?;
    if !response.ok() {
        return Err(format!("HTTP {} {} beside the page", response.status(), response.status_text()));
    }
    let buffer = JsFuture::from(response.array_buffer().map_err(js_error)?).await.map_err(js_error)?;
    Ok(Uint8Array::new(&buffer).to_vec())
}
