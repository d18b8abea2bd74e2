//! Every model the program loads exports to glTF and to MD5, and each file loads back with the
//! same skinned positions: a mesh drawn as points, a mesh whose only triangle has its corners on
//! one vertex (glTF and MD5), the article's scene and the sample models. A mesh with neither
//! faces nor lines was left out of the glTF file before (`crates/formats/src/gltf_export/meshes.rs` writes it as
//! points now): the file held no mesh, and the program refused its own export.

use super::arm::{arm, text};
use super::support::{run, scratch, stderr};
use common::md5_hand::{ANIM, MESH};
use common::sample_model;
use glam::Vec3;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Every vertex's position in each of the dump's frames: the skinned meshes', then the rigid ones'.
fn frames(dump: &Value) -> Vec<Vec<Vec3>> {
    let point =
        |p: &Value| Vec3::from_slice(&serde_json::from_value::<Vec<f32>>(p.clone()).expect("x, y, z"));
    let frames = dump["frames"].as_array().expect("frames");
    (frames.iter())
        .map(|f| {
            ["skinned", "rigid"]
                .iter()
                .flat_map(|part| f[part].as_array().cloned().unwrap_or_default())
                .collect()
        })
        .map(|points: Vec<Value>| points.iter().map(point).collect())
        .collect()
}

/// Four frames of `clip`, played by the model at `model` (None: the article's scene), in glTF's
/// axes: an MD5 file's (Z up, facing +x) are turned back, `(x, y, z) → (y, z, x)`.
fn played(model: Option<&Path>, clip: &str, dump: &Path) -> Vec<Vec<Vec3>> {
    let mut args = match model {
        Some(model) => vec!["--model", text(model), "--animation", clip],
        None => vec!["--clip", clip],
    };
    args.extend(["--dump", text(dump), "--frames", "4", "--fixed-dt", "0.29", "--time", "0.05"]);
    let out = run(&args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let json = serde_json::from_slice(&std::fs::read(dump).expect("dumped")).expect("JSON");
    let md5 = model.is_some_and(|m| m.extension().is_some_and(|e| e == "md5mesh"));
    let turned = |p: Vec3| if md5 { Vec3::new(p.y, p.z, p.x) } else { p };
    frames(&json).into_iter().map(|f| f.into_iter().map(turned).collect()).collect()
}

/// The diagonal of the box around every position of `frames`.
fn size(frames: &[Vec<Vec3>]) -> f32 {
    let (mut min, mut max) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for &p in frames.iter().flatten() {
        (min, max) = (min.min(p), max.max(p));
    }
    (max - min).length()
}

/// Exports `model` (None: the article's scene) to glTF and to MD5 in `dir`, loads each back and
/// compares where it puts every vertex with where the model does, in four frames of `clip`.
fn comes_back(dir: &Path, model: Option<&Path>, clip: &str) {
    let original = played(model, clip, &dir.join("original.json"));
    let allowed = 1e-4 * size(&original).max(1.0);
    let exports = [("--export-gltf", dir.join("again.glb")), ("--export-md5", dir.join("md5/again.md5mesh"))];
    for (flag, file) in exports {
        let mut args = vec![flag, text(&file)];
        if let Some(model) = model {
            args.extend(["--model", text(model)]);
        }
        let out = run(&args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let back = played(Some(&file), clip, &dir.join("back.json"));
        assert_eq!(back.len(), original.len());
        for (k, (a, b)) in original.iter().zip(&back).enumerate() {
            assert_eq!(a.len(), b.len(), "{args:?}: frame {k} has {} vertices, not {}", b.len(), a.len());
            let largest = a.iter().zip(b).map(|(a, b)| a.distance(*b)).fold(0.0, f32::max);
            assert!(largest <= allowed, "{args:?}: frame {k} is {largest} off (allowed {allowed})");
        }
    }
}

/// The arm's mesh as points, or as one triangle with its three corners on vertex 1.
fn arm_without_faces(test: &str, points: bool) -> PathBuf {
    let mut g = arm();
    let degenerate = g.ints(&[1, 1, 1], "SCALAR", 5123, false);
    let primitive = &mut g.json["meshes"][0]["primitives"][0];
    match points {
        true => {
            primitive["mode"] = json!(0);
            primitive.as_object_mut().expect("an object").remove("indices");
        }
        false => primitive["indices"] = json!(degenerate),
    }
    let dir = scratch(test);
    let path = dir.join("arm.glb");
    std::fs::write(&path, g.glb()).expect("written");
    path
}

#[test]
fn a_mesh_without_faces_or_lines_exports_and_comes_back() {
    for (test, points) in [("reload-points", true), ("reload-degenerate", false)] {
        let model = arm_without_faces(test, points);
        comes_back(model.parent().expect("a folder"), Some(&model), "bend");
    }
    // The hand-written MD5 model, its one triangle made one vertex three times.
    let dir = scratch("reload-md5-degenerate");
    let mesh = dir.join("hand.md5mesh");
    std::fs::write(&mesh, MESH.replace("\ttri 0 0 2 1", "\ttri 0 1 1 1")).expect("written");
    std::fs::write(dir.join("walk.md5anim"), ANIM).expect("written");
    comes_back(&dir, Some(&mesh), "walk");
}

#[test]
fn the_article_and_the_sample_models_export_and_come_back() {
    comes_back(&scratch("reload-article"), None, "bend");
    for (name, clip) in
        [("Fox.glb", "Survey"), ("SimpleSkin.gltf", "animation0"), ("RobotExpressive.glb", "Wave")]
    {
        let Some(path) = sample_model(name) else { continue };
        comes_back(&scratch(&format!("reload-{name}")), Some(&path), clip);
    }
}
