//! `--export-md5` writes each `.md5anim` frame by frame as its clip is sampled
//! (`crates/formats/src/md5_export/anim.rs`): memory does not grow with the clip. An export past the budget of
//! joint poses (`crates/formats/src/md5_export/frames.rs`: `POSE_BUDGET`) is refused in one line before it starts.
//! It held every frame of every clip before: 200 bones and one 833 s clip peaked at 2.09 GiB.
//!
//! `--export-gltf` lays its file out first and then writes it as it is made
//! (`crates/formats/src/gltf_export.rs`: `Export`): it holds the model, not a copy of the file. It
//! held the buffer and then the whole file besides (a `.gltf`'s base64 twice).

use super::arm::text;
use super::big_files::peak;
use super::pictures::{materials_showing, square};
use super::support::{Folder, no_panic, peak_kib, scratch};
use common::gltf_build::Gltf;
use glam::{Mat4, Quat, Vec3};
use serde_json::json;
use std::path::Path;

/// `bones` joints in a chain 0.1 apart, a triangle on the first three, and `clips` animations of
/// `seconds` each that turn every joint a little about z (keys at the start, 1/120 s in, and the
/// end: only 120 frames a second fall on all three, so the export takes that rate).
fn long_clips(bones: usize, seconds: f32, clips: usize) -> Vec<u8> {
    let mut g = Gltf::new();
    let positions = g.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    let joints = g.ints(&[0, 1, 0, 0, 1, 2, 0, 0, 2, 0, 0, 0], "VEC4", 5121, false);
    let weights = g.floats(&[0.5, 0.5, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], "VEC4");
    let bind: Vec<f32> = (0..bones)
        .flat_map(|i| Mat4::from_translation(-0.1 * (i + 1) as f32 * Vec3::Y).to_cols_array())
        .collect();
    let bind = g.floats(&bind, "MAT4");
    for i in 0..bones {
        let mut node = json!({ "name": format!("b{i}"), "translation": [0.0, 0.1, 0.0] });
        if i + 1 < bones {
            node["children"] = json!([i + 1]);
        }
        g.push("nodes", node);
    }
    g.push("nodes", json!({ "name": "body", "mesh": 0, "skin": 0 }));
    g.json["scenes"] = json!([{ "nodes": [0, bones] }]);
    g.push("skins", json!({ "joints": (0..bones).collect::<Vec<_>>(), "inverseBindMatrices": bind }));
    let attributes = json!({ "POSITION": positions, "JOINTS_0": joints, "WEIGHTS_0": weights });
    g.push("meshes", json!({ "primitives": [{ "attributes": attributes }] }));
    let times = g.floats(&[0.0, 1.0 / 120.0, seconds], "SCALAR");
    for c in 0..clips {
        let (mut channels, mut samplers) = (Vec::new(), Vec::new());
        for i in 0..bones {
            let turn = Quat::from_rotation_z(0.3 + 0.001 * i as f32).to_array();
            let turns = g.floats(&[[0.0, 0.0, 0.0, 1.0], turn, turn].concat(), "VEC4");
            samplers.push(json!({ "input": times, "output": turns }));
            channels.push(json!({ "sampler": i, "target": { "node": i, "path": "rotation" } }));
        }
        g.push(
            "animations",
            json!({ "name": format!("clip{c}"), "channels": channels, "samplers": samplers }),
        );
    }
    g.glb()
}

/// `--export-md5` of `model` into `dir/out`, under 1 GiB of address space: its exit status,
/// standard error and peak memory in KiB.
fn export(dir: &Path, model: &Path, out: &str) -> Option<(std::process::ExitStatus, String, i64)> {
    let mesh = dir.join(out).join("m.md5mesh");
    peak(dir, &["--model", text(model), "--export-md5", text(&mesh)], Some(1 << 30))
}

#[test]
fn an_md5_export_holds_a_frame_at_a_time_not_the_clip() {
    let dir = scratch("export-stream");
    let (short, long) = (dir.join("short.glb"), dir.join("long.glb"));
    std::fs::write(&short, long_clips(200, 10.0, 1)).expect("written");
    std::fs::write(&long, long_clips(200, 100.0, 1)).expect("written");
    let Some((status, err, short_kib)) = export(&dir, &short, "short") else { return };
    assert!(status.success(), "{err}");
    let Some((status, err, long_kib)) = export(&dir, &long, "long") else { return };
    assert!(status.success(), "{status}: {err}");
    let anim = std::fs::read_to_string(dir.join("long/clip0.md5anim")).expect("written");
    // The skin's 200 joints: the mesh's node and the root above the two are left out.
    assert!(anim.contains("\nnumFrames 12001\nnumJoints 200\n"), "{}", &anim[..200]);
    println!("--export-md5, 200 bones: peak {short_kib} KiB for 10 s, {long_kib} KiB for 100 s");
    // Ten times the frames: 2.4 million joint poses more, 210 MB held before; now one frame and
    // a box per frame (24 bytes each).
    assert!(long_kib - short_kib < 16 << 10, "peak grew by {} KiB", long_kib - short_kib);
}

#[test]
fn an_md5_export_past_its_budget_is_refused_before_it_starts() {
    let dir = scratch("export-budget");
    let model = dir.join("two-long-clips.glb");
    // Two clips of 833 s on 200 joints: 99,961 frames each, 40 million joint poses.
    std::fs::write(&model, long_clips(200, 833.0, 2)).expect("written");
    let before = Folder::of(&dir);
    let Some((status, err, kib)) = export(&dir, &model, "out") else { return };
    no_panic(&err);
    assert_eq!((status.code(), err.lines().count()), (Some(1), 1), "{status}: {err}");
    assert!(
        err.contains("the clips come to 39984400 joint poses (199922 frames of 200 joints), past the MD5 export's budget of 32000000"),
        "{err}"
    );
    assert!(kib < 64 << 10, "peak {kib} KiB");
    before.unchanged(&dir);
}

/// A PNG of 4096 x 4096 pixels stored without compression (64 MiB): a model whose glTF file is
/// big, though its file holds nothing the model does not hold already.
fn stored_png() -> Vec<u8> {
    let side = 4096;
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, side, side);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_compression(png::Compression::NoCompression);
    let pixels: Vec<u8> = (0..side * side * 4).map(|i| (i % 251) as u8).collect();
    encoder.write_header().expect("header").write_image_data(&pixels).expect("pixels");
    bytes
}

#[test]
fn a_gltf_export_holds_the_model_not_a_copy_of_the_file() {
    let dir = scratch("gltf-export-stream");
    let mut g = square();
    let view = g.view(&stored_png());
    materials_showing(&mut g, vec![json!({ "bufferView": view, "mimeType": "image/png" })]);
    let model = dir.join("big.glb");
    std::fs::write(&model, g.glb()).expect("written");
    let model = text(&model);
    // What loading the model holds: the picture's bytes among it.
    let (status, loaded, err) = peak_kib(&["--model", model, "--info"]);
    assert!(status.success(), "{status}: {err}");
    for name in ["out.glb", "out.gltf"] {
        let out = dir.join(name);
        let (status, kib, err) = peak_kib(&["--model", model, "--export-gltf", text(&out)]);
        no_panic(&err);
        assert!(status.success(), "{status}: {err}");
        let file_kib = std::fs::metadata(&out).expect("written").len() as i64 / 1024;
        println!("--export-gltf {name}: {file_kib} KiB written, peak {kib} KiB, {loaded} KiB to load");
        // Now under 1 MiB more. Before: the buffer and the whole file besides, 66 MiB more for the
        // `.glb`, 263 MiB for the `.gltf` (85 MiB of base64, made twice).
        assert!(
            kib - loaded < file_kib / 4,
            "{name}: {} KiB more than loading, for {file_kib} KiB",
            kib - loaded
        );
    }
}
