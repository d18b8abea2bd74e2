//! The Khronos glTF-Validator on the files `skinning --export-gltf` writes: no errors, no warnings,
//! for the article's scene, for the models it loads (the Fox, the robot, the Fox as MD5), for a
//! hand-made face with morph targets and a weight channel, and for a mesh drawn as points.
//!
//! It needs Node.js and the npm package `gltf-validator` in `target/npm`, installed as `.ci/run`
//! does: `npm install --prefix target/npm gltf-validator`. Without them the test says SKIPPED and
//! passes, unless `SKINNING_REQUIRE_VALIDATOR` is set (as in CI), where it fails instead.
//! `tests/validate-gltf.js` runs the validator and prints its report.

use common::{run, scratch};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `node_modules` folder that holds the validator, if this machine can run it.
fn validator() -> Option<PathBuf> {
    let modules = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/npm/node_modules");
    let node = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let why = match (node, modules.join("gltf-validator").is_dir()) {
        (true, true) => return Some(modules),
        (false, _) => "node is not installed".to_string(),
        (true, false) => format!("{} has no gltf-validator", modules.display()),
    };
    if std::env::var_os("SKINNING_REQUIRE_VALIDATOR").is_some() {
        panic!("SKINNING_REQUIRE_VALIDATOR is set but the glTF-Validator cannot run: {why}");
    }
    eprintln!("SKIPPED ({why}; run `npm install --prefix target/npm gltf-validator`)");
    None
}

/// The validator's report on `file`.
fn validate(modules: &Path, file: &Path) -> Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/validate-gltf.js");
    let out = Command::new("node").arg(script).arg(file).env("NODE_PATH", modules).output();
    let out = out.expect("node runs");
    println!("{}", String::from_utf8_lossy(&out.stdout));
    out
}

#[test]
fn the_exported_files_have_no_errors_and_no_warnings() {
    let Some(modules) = validator() else { return };
    let dir = scratch("validator");
    for name in ["article.gltf", "article.glb"] {
        let path = dir.join(name);
        let out = run(&["--export-gltf", path.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let report = validate(&modules, &path);
        let text = String::from_utf8_lossy(&report.stdout);
        assert!(report.status.success(), "{name}: {text}{}", String::from_utf8_lossy(&report.stderr));
        assert!(text.contains(": 0 errors, 0 warnings,"), "{name}: {text}");
    }

    // The check can fail: a POSITION minimum that the data does not reach is an error.
    let gltf = dir.join("article.gltf");
    let mut json: serde_json::Value = serde_json::from_slice(&std::fs::read(&gltf).unwrap()).unwrap();
    let position = json["meshes"][0]["primitives"][0]["attributes"]["POSITION"].as_u64().unwrap();
    json["accessors"][position as usize]["min"][0] = serde_json::json!(-0.2);
    let broken = dir.join("broken.gltf");
    std::fs::write(&broken, serde_json::to_vec(&json).unwrap()).unwrap();
    let report = validate(&modules, &broken);
    assert_eq!(report.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&report.stdout).contains("ACCESSOR_MIN_MISMATCH"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn any_model_exported_has_no_errors() {
    let Some(modules) = validator() else { return };
    let (Some(fox), Some(robot)) =
        (common::sample_model("Fox.glb"), common::sample_model("RobotExpressive.glb"))
    else {
        return;
    };
    let dir = scratch("validator-models");
    // The Fox as MD5 first: an MD5 model goes out as glTF too, turned to Y-up.
    let md5 = dir.join("md5/Fox.md5mesh");
    let out = run(&["--model", fox.to_str().unwrap(), "--export-md5", md5.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for (model, name) in [(&fox, "fox.glb"), (&robot, "robot.gltf"), (&md5, "fox-md5.glb")] {
        let path = dir.join(name);
        let out = run(&["--model", model.to_str().unwrap(), "--export-gltf", path.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(said.starts_with(&format!("wrote {}", path.display())), "one line says what: {said}");
        let report = validate(&modules, &path);
        let text = String::from_utf8_lossy(&report.stdout);
        assert!(report.status.success(), "{name}: {text}{}", String::from_utf8_lossy(&report.stderr));
        assert!(text.contains(": 0 errors, 0 warnings,"), "{name}: {text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn morph_targets_exported_have_no_errors() {
    // The hand-made face: a skinned mesh with two targets, named, whose weights a CUBICSPLINE
    // channel moves, and a rigid badge with one unnamed target (`common/face.rs`).
    let Some(modules) = validator() else { return };
    let dir = scratch("validator-morphs");
    let face = dir.join("face.gltf");
    std::fs::write(&face, common::face::face(true).embedded()).unwrap();
    for name in ["face-out.gltf", "face-out.glb"] {
        let path = dir.join(name);
        let out = run(&["--model", face.to_str().unwrap(), "--export-gltf", path.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(said.contains(" vertices, 3 morph targets, 1 animation (talk)"), "{said}");
        let report = validate(&modules, &path);
        let text = String::from_utf8_lossy(&report.stdout);
        assert!(report.status.success(), "{name}: {text}{}", String::from_utf8_lossy(&report.stderr));
        assert!(text.contains(": 0 errors, 0 warnings,"), "{name}: {text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_mesh_of_points_exported_has_no_errors() {
    // Four skinned vertices drawn as POINTS: they go out as points, not left out.
    let Some(modules) = validator() else { return };
    let dir = scratch("validator-points");
    let mut g = common::gltf_build::Gltf::new();
    let positions = g.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0], "VEC3");
    let joints = g.ints(&[0; 16], "VEC4", 5121, false);
    let weights = g.floats(&[1.0, 0.0, 0.0, 0.0].repeat(4), "VEC4");
    let attributes = serde_json::json!({ "POSITION": positions, "JOINTS_0": joints, "WEIGHTS_0": weights });
    g.push("nodes", serde_json::json!({ "name": "bone" }));
    g.push("nodes", serde_json::json!({ "name": "points", "mesh": 0, "skin": 0 }));
    g.json["scenes"] = serde_json::json!([{ "nodes": [0, 1] }]);
    g.push("skins", serde_json::json!({ "joints": [0] }));
    g.push("meshes", serde_json::json!({ "primitives": [{ "attributes": attributes, "mode": 0 }] }));
    let model = dir.join("points.gltf");
    std::fs::write(&model, g.embedded()).unwrap();
    let path = dir.join("points-out.gltf");
    let out = run(&["--model", model.to_str().unwrap(), "--export-gltf", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = validate(&modules, &path);
    let text = String::from_utf8_lossy(&report.stdout);
    assert!(report.status.success() && text.contains(": 0 errors, 0 warnings,"), "{text}");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(json["meshes"][0]["primitives"][0]["mode"], 0, "the points are in the file as points");
    let _ = std::fs::remove_dir_all(&dir);
}
