//! Images and textures as a careless or hostile file gives them: image objects that crashed the
//! `gltf` crate, a texture whose picture is only in an extension, pictures wider than the GPU
//! takes, JPEGs in Adobe's CMYK and YCCK, JPEGs cut short or claiming more than they hold, and
//! base colour factors outside 0 to 1. Each loads, and draws what it can, saying what it could
//! not: never a panic, never a texture drawn wrong without a word.

use super::pictures::{JpegColour, jpeg, materials_showing, png, square};
use super::support::{no_gl, no_panic, run, scratch, stderr};
use common::Image;
use serde_json::json;
use std::path::{Path, PathBuf};

/// The square with one material, showing `image` (its JSON), written as `name` in `dir` with
/// its buffer in a `data:` URI; `more` may add what else the file needs.
fn textured(
    dir: &Path,
    name: &str,
    image: serde_json::Value,
    more: impl FnOnce(&mut common::gltf_build::Gltf),
) -> PathBuf {
    let mut g = square();
    materials_showing(&mut g, vec![image]);
    more(&mut g);
    let path = dir.join(name);
    std::fs::write(&path, g.embedded()).expect("written");
    path
}

/// `--model path` with `args`: it must succeed and say nothing of a panic. Its standard output
/// and error together.
fn runs(path: &Path, args: &[&str]) -> String {
    let mut all = vec!["--model", path.to_str().expect("utf-8")];
    all.extend(args);
    let out = run(&all);
    let err = stderr(&out);
    no_panic(&err);
    assert!(out.status.success(), "{all:?}: {}; {err}", out.status);
    format!("{}{err}", String::from_utf8_lossy(&out.stdout))
}

/// One frame of `path` drawn headless, no words: what it said, and a pixel of the square, facing
/// the camera in full light (off the middle, where its bone's joint is drawn). None where this
/// machine has no OpenGL.
fn middle(path: &Path) -> Option<(String, [u8; 3])> {
    let shot = path.with_extension("shot.png");
    let args = ["--headless", "--frames", "1", "--no-text", "--screenshot", shot.to_str().expect("utf-8")];
    let mut all = vec!["--model", path.to_str().expect("utf-8")];
    all.extend(args);
    let out = run(&all);
    if no_gl(&out) {
        return None;
    }
    let said = runs(path, &args);
    let image = Image::load(&shot);
    let pixel = image.pixel(image.width as i64 * 5 / 8, image.height as i64 * 5 / 8).expect("inside");
    Some((said, pixel))
}

fn green([r, g, b]: [u8; 3]) -> bool {
    g > 180 && r < 60 && b < 60
}

#[test]
fn image_objects_the_gltf_crate_panics_on_are_noted_and_loaded() {
    let dir = scratch("image-objects");
    let green_png = png(4, 4, [0, 255, 0, 255]);
    // In a buffer view without its mimeType: read by its bytes, with a note.
    let mut view = 0;
    let no_mime = textured(&dir, "no-mime.gltf", json!({}), |g| {
        view = g.view(&green_png);
        g.json["images"] = json!([{ "bufferView": view }]);
    });
    // Nowhere, and in two places: drawn without, with a note.
    let nowhere = textured(&dir, "nowhere.gltf", json!({ "name": "lost" }), |_| {});
    let both = textured(&dir, "both.gltf", json!({}), |g| {
        let view = g.view(&green_png);
        g.json["images"] = json!([{ "bufferView": view, "mimeType": "image/png", "uri": "green.png" }]);
    });
    for (model, note) in [
        (&no_mime, "image 0 has a bufferView and no mimeType (glTF requires one there)"),
        (
            &nowhere,
            "image 0: it names neither a uri nor a bufferView, so its bytes are nowhere; drawn without its texture",
        ),
        (
            &both,
            "image 0: it names both a uri and a bufferView (glTF: one or the other); drawn without its texture",
        ),
    ] {
        let info = runs(model, &["--info"]);
        assert!(info.contains(note), "{}: {info}", model.display());
        runs(model, &["--dump", "/dev/null", "--frames", "2"]);
    }
    assert!(runs(&no_mime, &["--info"]).contains("materials: 1, 1 texture (PNG)"));
    let Some((said, pixel)) = middle(&no_mime) else { return };
    assert!(green(pixel), "{pixel:?}: the PNG in the view is drawn; {said}");
    let Some((said, _)) = middle(&nowhere) else { return };
    assert!(said.contains("bytes are nowhere"), "{said}");
}

#[test]
fn a_texture_whose_picture_is_only_in_an_extension_draws_without_it() {
    let dir = scratch("webp");
    let model =
        textured(&dir, "webp.gltf", json!({ "uri": "picture.webp", "mimeType": "image/webp" }), |g| {
            g.json["textures"] = json!([{ "extensions": { "EXT_texture_webp": { "source": 0 } } }]);
            g.json["extensionsUsed"] = json!(["EXT_texture_webp"]);
            g.json["materials"][0]["pbrMetallicRoughness"]["baseColorFactor"] = json!([0.0, 1.0, 0.0, 1.0]);
        });
    let info = runs(&model, &["--info"]);
    assert!(info.contains("material #0's texture 0 names no image (no source"), "{info}");
    assert!(info.contains("materials: 1, no texture"), "{info}");
    let Some((said, pixel)) = middle(&model) else { return };
    assert!(green(pixel), "{pixel:?}: drawn in its base colour; {said}");
}

#[test]
fn pictures_wider_or_taller_than_the_gpu_takes_are_drawn_smaller_and_said() {
    let dir = scratch("wide");
    for (name, (w, h)) in [("wide", (100_000, 1)), ("tall", (1, 40_000))] {
        std::fs::write(dir.join(format!("{name}.png")), png(w, h, [0, 255, 0, 255])).expect("written");
        let model = textured(&dir, &format!("{name}.gltf"), json!({ "uri": format!("{name}.png") }), |_| {});
        let Some((said, pixel)) = middle(&model) else { return };
        assert!(green(pixel), "{name}: {pixel:?}, not black; {said}");
        assert!(
            said.contains(&format!("is {w} x {h} pixels, larger than this GPU's largest texture")),
            "{said}"
        );
    }
}

/// A 16 x 16 JPEG of one colour, stored as `samples` with the Adobe transform `adobe`.
fn one_colour_jpeg(samples: &[u8], adobe: Option<u8>) -> Vec<u8> {
    jpeg(&JpegColour { samples: samples.to_vec(), adobe }, (16, 16), (16, 16))
}

#[test]
fn cmyk_and_ycck_jpegs_show_their_colour() {
    let dir = scratch("cmyk");
    // Pure green four ways: YCbCr, Adobe's CMYK (stored inverted: 255 is no ink) and YCCK (the
    // inverted C, M, Y as YCbCr: those of magenta), and grey's green-free sibling for contrast.
    let cases: [(&str, Vec<u8>); 3] = [
        ("ycbcr", one_colour_jpeg(&[150, 44, 21], None)),
        ("cmyk", one_colour_jpeg(&[0, 255, 0, 255], Some(0))),
        ("ycck", one_colour_jpeg(&[105, 212, 235, 255], Some(2))),
    ];
    for (name, bytes) in cases {
        std::fs::write(dir.join(format!("{name}.jpg")), bytes).expect("written");
        let model = textured(&dir, &format!("{name}.gltf"), json!({ "uri": format!("{name}.jpg") }), |_| {});
        assert!(runs(&model, &["--info"]).contains("1 texture (JPEG)"));
        let Some((said, pixel)) = middle(&model) else { return };
        assert!(green(pixel), "{name}: {pixel:?} for pure green; {said}");
    }
}

#[test]
fn jpegs_cut_short_or_claiming_more_than_they_hold_are_said_and_drawn_without() {
    let dir = scratch("cut-jpeg");
    let colour = JpegColour { samples: vec![150, 44, 21], adobe: None };
    let whole = jpeg(&colour, (64, 64), (64, 64));
    // Cut in its scan data: the last 40 bytes of the picture's 64 blocks, and its end marker.
    let cut = whole[..whole.len() - 42].to_vec();
    // A header that claims 8192 x 8192 pixels over the data of 16 x 16.
    let lying = jpeg(&colour, (16, 16), (8192, 8192));
    for (name, bytes) in [("cut", cut), ("lying", lying)] {
        std::fs::write(dir.join(format!("{name}.jpg")), bytes).expect("written");
        let model = textured(&dir, &format!("{name}.gltf"), json!({ "uri": format!("{name}.jpg") }), |g| {
            g.json["materials"][0]["pbrMetallicRoughness"]["baseColorFactor"] = json!([0.0, 0.0, 1.0, 1.0]);
        });
        let Some((said, pixel)) = middle(&model) else { return };
        assert!(said.contains("note: image 0: its JPEG data is damaged or cut short"), "{name}: {said}");
        // Drawn in its factor alone (blue), not a grey guess times it.
        let [r, g, b] = pixel;
        assert!(b > 180 && r < 60 && g < 60, "{name}: {pixel:?}");
    }
}

#[test]
fn base_colour_factors_outside_0_to_1_are_clamped_with_a_note() {
    let dir = scratch("factor");
    let model = textured(&dir, "factor.gltf", json!({}), |g| {
        g.json.as_object_mut().expect("an object").remove("images");
        g.json.as_object_mut().expect("an object").remove("textures");
        g.json["materials"] = json!([{ "pbrMetallicRoughness": { "baseColorFactor": [-1, 5, 1e30, -2] } }]);
    });
    let info = runs(&model, &["--info"]);
    assert!(
        info.contains(
            "material #0's baseColorFactor [-1.0, 5.0, 1e30, -2.0] is drawn as [0.0, 1.0, 1.0, 0.0]"
        ),
        "{info}"
    );
    let Some((said, [r, g, b])) = middle(&model) else { return };
    // Cyan, lit: no NaN reached the shader.
    assert!(r < 60 && g > 180 && b > 180, "{:?}; {said}", [r, g, b]);
}

#[test]
fn many_materials_and_eleven_jpegs_load_and_draw_as_before() {
    // Like a real character: 1,168 materials (Paladin's count) over eleven JPEG textures, each
    // in a buffer view of its own, each a colour of its own; every material one of them.
    let dir = scratch("character");
    let mut g = square();
    let images: Vec<serde_json::Value> = (0..11u8)
        .map(|k| {
            let bytes =
                jpeg(&JpegColour { samples: vec![40 + 15 * k, 90, 200], adobe: None }, (64, 64), (64, 64));
            json!({ "bufferView": g.view(&bytes), "mimeType": "image/jpeg" })
        })
        .collect();
    materials_showing(&mut g, images);
    g.json["materials"] = (0..1168)
        .map(|i| json!({ "name": format!("m{i}"), "pbrMetallicRoughness": { "baseColorTexture": { "index": i % 11 } } }))
        .collect();
    let model = dir.join("character.glb");
    std::fs::write(&model, g.glb()).expect("written");
    let info = runs(&model, &["--info"]);
    let jpegs = ["JPEG"; 11].join(", ");
    assert!(info.contains(&format!("materials: 1168, 11 textures ({jpegs})")), "{info}");
    assert!(info.contains("ignored or mended: nothing"), "{info}");
    let Some((said, pixel)) = middle(&model) else { return };
    assert!(!said.contains("note:"), "{said}");
    // Material 0 shows texture 0: Y 40, Cb 90, Cr 200 is a dark red (141, 2, 0).
    let [r, g, b] = pixel;
    assert!(r > 100 && g < 40 && b < 40, "{pixel:?}; {said}");
}
