//! Blender reads what `skinning --export-gltf` writes: its own glTF importer, run through Blender
//! as a Python module (`pip install bpy`, for Python 3.11), makes of each file an armature, skinned
//! meshes, one action per clip and the materials with their images (`tests/blender-import.py`).
//!
//! `bpy` is a download of several hundred MB that CI does not make, so without it the test says
//! SKIPPED and passes. `SKINNING_PYTHON` names the Python that has it (default `python3.11`), and
//! `SKINNING_BPY` a folder to add to its path (where `pip install --target` put it).

use common::{run, sample_model, scratch};
use std::path::Path;
use std::process::Command;

/// A Python with `bpy`, and the path to give it; None (SKIPPED) without.
fn blender() -> Option<(String, Option<String>)> {
    let python = std::env::var("SKINNING_PYTHON").unwrap_or_else(|_| "python3.11".into());
    let path = std::env::var("SKINNING_BPY").ok();
    let mut check = Command::new(&python);
    check.args(["-c", "import bpy"]);
    if let Some(path) = &path {
        check.env("PYTHONPATH", path);
    }
    if check.output().is_ok_and(|o| o.status.success()) {
        return Some((python, path));
    }
    eprintln!(
        "SKIPPED ({python} cannot import bpy; `pip install bpy` and set SKINNING_PYTHON / SKINNING_BPY)"
    );
    None
}

#[test]
fn blender_imports_the_exported_models() {
    let Some((python, path)) = blender() else { return };
    let (Some(fox), Some(robot)) = (sample_model("Fox.glb"), sample_model("RobotExpressive.glb")) else {
        return;
    };
    let dir = scratch("blender");
    let md5 = dir.join("md5/Fox.md5mesh");
    assert!(run(&["--model", fox.to_str().unwrap(), "--export-md5", md5.to_str().unwrap()]).status.success());
    let mut files = Vec::new();
    for (model, name) in [(&fox, "fox.glb"), (&robot, "robot.gltf"), (&md5, "fox-md5.glb")] {
        let file = dir.join(name);
        let out = run(&["--model", model.to_str().unwrap(), "--export-gltf", file.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        files.push(file);
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/blender-import.py");
    let mut command = Command::new(&python);
    command.arg(script).args(&files);
    if let Some(path) = path {
        command.env("PYTHONPATH", path);
    }
    let out = command.output().expect("python runs");
    let text = String::from_utf8_lossy(&out.stdout);
    println!("{text}");
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    for (name, expected) in [
        ("fox.glb", "FINISHED, 1 skinned meshes, 1 armatures, 24 bones, 3 actions, 1 materials, 1 images"),
        ("robot.gltf", "FINISHED, 19 skinned meshes, 1 armatures,"),
        // The Fox through MD5: its skin's 24 joints (no more the root and mesh nodes of Fox.glb),
        // and its texture, which travels in the MD5 model's shader.
        (
            "fox-md5.glb",
            "FINISHED, 1 skinned meshes, 1 armatures, 24 bones, 3 actions, 1 materials, 1 images",
        ),
    ] {
        let line = text.lines().find(|l| l.contains(name)).unwrap_or_default();
        assert!(line.contains(expected), "{name}: {line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
