//! One memory budget per model, not a limit per object (`crates/formats/src/budget.rs`): files of a few
//! kilobytes whose objects point at one another, each loaded within its budget or refused in one
//! line naming it, at a peak measured in a child process (`wait4`), not guessed. Each of these
//! reached 0.7 to 1.6 GiB before the budgets; the limits asserted here are 64 to 200 MiB.

use super::pictures::{black_png, materials_showing, png, square};
use super::support::{fails_cleanly, peak_kib, run, scratch};
use common::gltf_build::Gltf;
use serde_json::json;
use std::path::{Path, PathBuf};

const MIB: i64 = 1024; // KiB

/// `--model path --info`: its exit status, peak in KiB and standard error, after checking that it
/// said nothing of a panic.
fn info_peak(path: &Path) -> (std::process::ExitStatus, i64, String) {
    let (status, kib, err) = peak_kib(&["--model", path.to_str().expect("utf-8"), "--info"]);
    super::support::no_panic(&err);
    println!("{}: exit {:?}, peak {} MiB", path.display(), status.code(), kib / MIB);
    (status, kib, err)
}

fn write(path: PathBuf, bytes: &[u8]) -> PathBuf {
    std::fs::write(&path, bytes).expect("written");
    path
}

/// What `--info` prints: the model, and the notes on what was mended or left out.
fn info(path: &Path) -> String {
    let out = run(&["--model", path.to_str().expect("utf-8"), "--info"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The `--info` line that says what the surface is made of.
fn looks_line(path: &Path) -> String {
    info(path).lines().find(|l| l.contains("materials:")).unwrap_or_default().to_string()
}

#[test]
fn six_hundred_images_naming_one_buffer_view_are_one_image() {
    let dir = scratch("one-view");
    let mut g = square();
    // A 2 x 2 PNG and then 2 MB of zeros, which a PNG reader never reaches: one 2 MB source.
    let mut bytes = png(2, 2, [0, 200, 0, 255]);
    bytes.resize(2 << 20, 0);
    let view = g.view(&bytes);
    materials_showing(&mut g, vec![json!({ "bufferView": view, "mimeType": "image/png" }); 600]);
    let model = write(dir.join("many.glb"), &g.glb());
    let (status, kib, err) = info_peak(&model);
    assert!(status.success(), "{err}");
    assert!(kib < 120 * MIB, "peak {} MiB for 600 images of one 2 MB view", kib / MIB);
    assert!(looks_line(&model).contains("materials: 600, 1 texture (PNG)"), "{}", looks_line(&model));
}

/// A PNG of 2 x 2 pixels, then zeros up to `size` bytes (a sparse file: nothing on the disk).
fn padded_png(path: &Path, size: u64) {
    std::fs::write(path, png(2, 2, [0, 200, 0, 255])).expect("written");
    std::fs::OpenOptions::new().write(true).open(path).and_then(|f| f.set_len(size)).expect("grown");
}

#[test]
fn six_images_naming_one_file_are_read_once_and_exported_once() {
    let dir = scratch("one-file");
    padded_png(&dir.join("big.png"), 40 << 20);
    let mut g = square();
    materials_showing(&mut g, vec![json!({ "uri": "big.png" }); 6]);
    let model = write(dir.join("six.gltf"), &g.embedded());
    let (status, kib, err) = info_peak(&model);
    assert!(status.success(), "{err}");
    // One copy of the 40 MiB file, not six.
    assert!(kib < 100 * MIB, "--info peaked at {} MiB for one 40 MiB file", kib / MIB);
    assert!(looks_line(&model).contains("materials: 6, 1 texture (PNG)"), "{}", looks_line(&model));
    // The export writes it once, too.
    let out = dir.join("out.glb");
    let (status, kib, err) =
        peak_kib(&["--model", model.to_str().unwrap(), "--export-gltf", out.to_str().unwrap()]);
    assert!(status.success(), "{err}");
    let size = std::fs::metadata(&out).expect("written").len();
    println!("--export-gltf: {size} bytes, peak {} MiB", kib / MIB);
    assert!(size < 50 << 20, "the export is {size} bytes for one 40 MiB image");
    assert!(kib < 200 * MIB, "--export-gltf peaked at {} MiB", kib / MIB);
    assert!(looks_line(&out).contains("materials: 6, 1 texture (PNG)"), "{}", looks_line(&out));
}

#[test]
fn an_image_file_past_the_budget_is_drawn_without_and_said_once() {
    let dir = scratch("past-file");
    padded_png(&dir.join("huge.png"), 256 << 20);
    let mut g = square();
    materials_showing(&mut g, vec![json!({ "uri": "huge.png" }); 6]);
    let model = write(dir.join("six.gltf"), &g.embedded());
    let (status, kib, err) = info_peak(&model);
    assert!(status.success(), "{err}");
    assert!(kib < 64 * MIB, "--info peaked at {} MiB: the file is not read past the budget", kib / MIB);
    let info = info(&model);
    let notes: Vec<&str> = info.lines().filter(|l| l.contains("budget")).collect();
    assert_eq!(notes.len(), 1, "{info}");
    assert!(notes[0].contains("268435456 image bytes would pass the model's budget of 134217728"), "{info}");
    assert!(looks_line(&model).contains("materials: 6, no texture"), "{}", looks_line(&model));
}

#[test]
fn textures_past_the_budget_of_pixels_are_said_at_load_without_decoding_a_pixel() {
    let dir = scratch("pixels");
    let mut g = square();
    // Four 8192 x 8192 PNGs (1.7 MB each, 256 MiB each decoded): four views, four sources.
    let picture = black_png(8192, 8192);
    let images = (0..4).map(|_| json!({ "bufferView": g.view(&picture), "mimeType": "image/png" })).collect();
    materials_showing(&mut g, images);
    let model = write(dir.join("four.glb"), &g.glb());
    let (status, kib, err) = info_peak(&model);
    assert!(status.success(), "{err}");
    assert!(kib < 64 * MIB, "--info peaked at {} MiB: it decodes no pixel", kib / MIB);
    let (status, kib, err) = peak_kib(&["--model", model.to_str().unwrap(), "--dump", "/dev/null"]);
    assert!(status.success(), "{err}");
    assert!(kib < 64 * MIB, "--dump peaked at {} MiB: it decodes no pixel", kib / MIB);
    // The note is said when the model loads, in every mode.
    assert!(err.contains("note: the textures hold 268435456 pixels"), "{err}");
    let info = info(&model);
    assert!(
        info.contains(
            "the textures hold 268435456 pixels, past the model's budget of 67108864 texture pixels"
        ) && info.contains("4 of the largest are drawn at half their width and height"),
        "{info}"
    );
}

/// A skinned triangle strip of `vertices` vertices on one bone, its weights bytes (normalized).
fn many_vertices(g: &mut Gltf, vertices: usize) -> serde_json::Value {
    let positions: Vec<f32> = (0..vertices).flat_map(|i| [(i % 128) as f32, (i / 128) as f32, 0.0]).collect();
    let indices: Vec<u32> = (0..vertices as u32 - 2).flat_map(|i| [i, i + 1, i + 2]).collect();
    let joints =
        json!({ "componentType": 5121, "count": vertices, "type": "VEC4", "sparse": sparse_zero(g, 4) });
    json!({
        "attributes": {
            "POSITION": g.floats(&positions, "VEC3"),
            "JOINTS_0": g.push("accessors", joints),
            "WEIGHTS_0": g.ints(&[255, 0, 0, 0].repeat(vertices), "VEC4", 5121, true),
        },
        "indices": g.ints(&indices, "SCALAR", 5125, false),
    })
}

/// The `sparse` of an accessor with no buffer view: its element 0 replaced by zeros (`bytes` of them).
fn sparse_zero(g: &mut Gltf, bytes: usize) -> serde_json::Value {
    let index = g.view(&0u32.to_le_bytes());
    let value = g.view(&vec![0; bytes]);
    json!({ "count": 1, "indices": { "bufferView": index, "componentType": 5125 }, "values": { "bufferView": value } })
}

/// A float accessor of `count` elements of `type_` (`size` floats each), all zero, from no bytes.
fn zeros(g: &mut Gltf, count: usize, type_: &str, size: usize) -> usize {
    let sparse = sparse_zero(g, 4 * size);
    g.push("accessors", json!({ "componentType": 5126, "count": count, "type": type_, "sparse": sparse }))
}

/// One skin of one bone, node 0, for a mesh on node 1.
fn one_bone(g: &mut Gltf, primitive: serde_json::Value, more_nodes: Vec<serde_json::Value>) {
    let mut nodes = vec![json!({ "name": "root" }), json!({ "name": "skinned", "mesh": 0, "skin": 0 })];
    nodes.extend(more_nodes);
    g.json["scenes"] = json!([{ "nodes": (0..nodes.len()).collect::<Vec<_>>() }]);
    g.json["nodes"] = json!(nodes);
    g.json["scene"] = json!(0);
    g.json["meshes"] = json!([{ "primitives": [primitive] }]);
    let ibm = g.floats(&glam::Mat4::IDENTITY.to_cols_array(), "MAT4");
    g.json["skins"] = json!([{ "joints": [0], "inverseBindMatrices": ibm }]);
}

#[test]
fn morph_targets_naming_one_sparse_accessor_are_spent_from_one_budget() {
    let dir = scratch("targets");
    let mut g = Gltf::new();
    let mut primitive = many_vertices(&mut g, 16384);
    let target = zeros(&mut g, 16384, "VEC3", 3);
    primitive["targets"] = json!(vec![json!({ "POSITION": target }); 3000]);
    one_bone(&mut g, primitive, Vec::new());
    let model = write(dir.join("targets.glb"), &g.glb());
    let (status, kib, err) = info_peak(&model);
    assert!(status.success(), "{err}");
    assert!(kib < 120 * MIB, "peak {} MiB for 3000 targets of one accessor", kib / MIB);
    let info = info(&model);
    assert!(
        info.contains(
            "its 49152000 morph displacements (vertices x targets) would pass the model's budget of 8388608"
        ),
        "{info}"
    );
}

#[test]
fn weight_channels_sharing_one_sampler_are_spent_from_one_budget() {
    let dir = scratch("weights");
    let mut g = Gltf::new();
    let primitive = square_primitive(&mut g);
    // Twelve nodes each holding mesh 1: three vertices, 4096 targets of one zero accessor.
    let target = zeros(&mut g, 3, "VEC3", 3);
    let positions = g.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    let morphed = json!({ "attributes": { "POSITION": positions }, "targets": vec![json!({ "POSITION": target }); 4096] });
    let nodes = (0..12).map(|i| json!({ "name": format!("face{i}"), "mesh": 1 })).collect();
    one_bone(&mut g, primitive, nodes);
    g.json["meshes"].as_array_mut().unwrap().push(json!({ "primitives": [morphed] }));
    // One sampler: 4096 keys of 4096 weights each, all zero but one, from a few bytes.
    let times: Vec<f32> = (0..4096).map(|k| k as f32 / 30.0).collect();
    let input = g.floats(&times, "SCALAR");
    let output = zeros(&mut g, 4096 * 4096, "SCALAR", 1);
    let channels: Vec<_> =
        (2..14).map(|node| json!({ "sampler": 0, "target": { "node": node, "path": "weights" } })).collect();
    g.json["animations"] = json!([{ "name": "faces", "channels": channels, "samplers": [{ "input": input, "output": output }] }]);
    let model = write(dir.join("weights.glb"), &g.glb());
    let (status, kib, err) = info_peak(&model);
    assert!(status.success(), "{err}");
    assert!(kib < 120 * MIB, "peak {} MiB for one sampler on 12 nodes' weights", kib / MIB);
    let info = info(&model);
    assert!(
        info.contains(
            "its 16777216 animation keys (keys x channels) would pass the model's budget of 8388608"
        ) && info.contains("and 11 channels more like it"),
        "{info}"
    );
}

/// The skinned square's primitive, without a material.
fn square_primitive(g: &mut Gltf) -> serde_json::Value {
    let positions = g.floats(&[-1.0, -1.0, 0.0, 1.0, -1.0, 0.0, 1.0, 1.0, 0.0, -1.0, 1.0, 0.0], "VEC3");
    let joints = g.ints(&[0; 16], "VEC4", 5123, false);
    let weights = g.floats(&[1.0f32, 0.0, 0.0, 0.0].repeat(4), "VEC4");
    let indices = g.ints(&[0, 1, 2, 0, 2, 3], "SCALAR", 5123, false);
    json!({ "attributes": { "POSITION": positions, "JOINTS_0": joints, "WEIGHTS_0": weights }, "indices": indices })
}

#[test]
fn translation_keys_past_the_budget_are_refused_in_one_line() {
    let dir = scratch("keys");
    let mut g = Gltf::new();
    let primitive = square_primitive(&mut g);
    // 520 nodes moved by one sampler of 16384 keys: 8519680 keys kept, one sampler's bytes.
    let nodes = (0..520).map(|i| json!({ "name": format!("n{i}") })).collect();
    one_bone(&mut g, primitive, nodes);
    let times: Vec<f32> = (0..16384).map(|k| k as f32 / 30.0).collect();
    let input = g.floats(&times, "SCALAR");
    let output = zeros(&mut g, 16384, "VEC3", 3);
    let channels: Vec<_> = (2..522)
        .map(|node| json!({ "sampler": 0, "target": { "node": node, "path": "translation" } }))
        .collect();
    g.json["animations"] =
        json!([{ "name": "all", "channels": channels, "samplers": [{ "input": input, "output": output }] }]);
    let model = write(dir.join("keys.glb"), &g.glb());
    let out = run(&["--model", model.to_str().unwrap(), "--info"]);
    let line = fails_cleanly(&out, 1);
    assert!(
        line.contains("animation #0 \"all\", channel 512: its 16384 animation keys (keys x channels) would pass the model's budget of 8388608"),
        "{line}"
    );
}
