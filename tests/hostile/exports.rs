//! Exports write only what the user named (`src/demo/output/together.rs`, `inputs.rs`): never over
//! a file the model was read from, by any name (itself, a link, a hard link, standard output opened
//! on it, a buffer beside it, an `.md5anim` beside it), and no more do a dump or a screenshot, nor
//! over what `--clips-from` read or an MD5 model's texture; an `.md5anim` the export names itself never
//! replaces a file without `--force`, and never goes through a link; a refusal comes before any
//! file is written. Each case here lost a file before.

use super::arm::{arm, text, write};
use super::support::{Folder, fails_cleanly, program, run, scratch, stderr};
use common::md5_hand::{ANIM, MESH};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;

/// Every file of `dir` with its bytes (a link: where it points), to see that nothing changed,
/// not even in place.
fn contents(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let entries = std::fs::read_dir(dir).expect("the folder can be listed");
    (entries.map(|e| e.expect("an entry").path()))
        .map(|path| {
            let name = path.file_name().expect("a name").to_string_lossy().into_owned();
            let bytes = match std::fs::read_link(&path) {
                Ok(to) => to.into_os_string().into_encoded_bytes(),
                Err(_) => std::fs::read(&path).unwrap_or_default(),
            };
            (name, bytes)
        })
        .collect()
}

/// Runs `args`, which must be refused in one line (exit 1) containing `why`, leaving `dir` as
/// it was, byte for byte. Returns the line.
fn refused_leaving(dir: &Path, args: &[&str], why: &str) -> String {
    let (before, bytes) = (Folder::of(dir), contents(dir));
    let line = fails_cleanly(&run(args), 1);
    assert!(line.contains(why), "{args:?}: {why:?} not in {line}");
    before.unchanged(dir);
    assert!(contents(dir) == bytes, "{args:?}: a file's bytes changed");
    line
}

#[test]
fn the_model_is_never_written_over_by_any_name_for_it() {
    let model = write("export-over-model", "arm.glb", &arm().glb());
    let dir = model.parent().expect("a folder");
    std::os::unix::fs::symlink("arm.glb", dir.join("link.glb")).expect("a link");
    std::fs::hard_link(&model, dir.join("hard.glb")).expect("a hard link");
    std::fs::create_dir(dir.join("sub")).expect("mkdir");
    for name in ["arm.glb", "link.glb", "hard.glb", "sub/../arm.glb"] {
        let out = text(&model).replace("arm.glb", name);
        let line =
            refused_leaving(dir, &["--model", text(&model), "--export-gltf", &out], "the model's own file");
        assert!(line.ends_with("the program never writes over a file it read: name another file"), "{line}");
    }
    // `--export-gltf -` with standard output opened on the model for appending (`>> arm.glb`).
    let before = std::fs::read(&model).expect("the model");
    let append = std::fs::OpenOptions::new().append(true).open(&model).expect("opened");
    let out = program()
        .args(["--model", text(&model), "--export-gltf", "-"])
        .stdin(Stdio::null())
        .stdout(append)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("skinning: cannot write standard output: that is the model"),
        "{}",
        stderr(&out)
    );
    assert!(std::fs::read(&model).expect("the model") == before, "the model was appended to");
}

#[test]
fn a_dump_or_a_screenshot_never_writes_over_a_file_the_model_was_read_from() {
    // The model itself, and the file --clips-from read (a screenshot is a `.png`: below).
    let model = write("dump-over-model", "arm.glb", &arm().glb());
    let dir = model.parent().expect("a folder");
    let clips = dir.join("clips.glb");
    std::fs::copy(&model, &clips).expect("copied");
    let (model, clips) = (text(&model), text(&clips));
    for (args, why) in [
        (vec!["--model", model, "--dump", model], "the model's own file"),
        (
            vec!["--model", model, "--clips-from", clips, "--dump", clips],
            "clips.glb, which the model was read from",
        ),
    ] {
        let line = refused_leaving(dir, &args, why);
        assert!(line.ends_with("the program never writes over a file it read: name another file"), "{line}");
    }
    // An MD5 model's animation beside it, and its texture.
    let shot = ["--headless", "--frames", "1", "--size", "8x8", "--screenshot"];
    let dir = scratch("dump-over-md5");
    let mesh = dir.join("hand.md5mesh");
    std::fs::write(&mesh, MESH).expect("written");
    let (anim, picture) = (dir.join("walk.md5anim"), dir.join("hand.png"));
    std::fs::write(&anim, ANIM).expect("written");
    refused_leaving(&dir, &["--model", text(&mesh), "--dump", text(&anim)], "walk.md5anim, which");
    // The shader "hand" finds hand.png beside the mesh: here the book's screenshot.
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/screenshot.png"), &picture).expect("copied");
    let args = [&["--model", text(&mesh)][..], &shot, &[text(&picture)]].concat();
    refused_leaving(&dir, &args, "hand.png, which the model was read from");
}

#[test]
fn no_file_the_model_was_read_from_is_written_over() {
    // A .gltf whose buffer beside it is named like a .glb.
    let dir = scratch("export-over-buffer");
    let model = arm().external(&dir, "arm.gltf", "data.glb");
    let buffer = dir.join("data.glb");
    let args = ["--model", text(&model), "--export-gltf", text(&buffer)];
    let line = refused_leaving(&dir, &args, "data.glb, which the model was read from");
    assert!(line.starts_with("skinning: cannot write "), "{line}");

    // An MD5 model with its animation beside it: exported into its own folder, that animation
    // would be replaced by the export's own walk.md5anim; exported onto itself, the mesh would be.
    let dir = scratch("export-over-md5");
    let mesh = dir.join("hand.md5mesh");
    std::fs::write(&mesh, MESH).expect("written");
    std::fs::write(dir.join("walk.md5anim"), ANIM).expect("written");
    let copy = dir.join("copy.md5mesh");
    let line =
        refused_leaving(&dir, &["--model", text(&mesh), "--export-md5", text(&copy)], "walk.md5anim, which");
    assert!(line.ends_with("export into another folder"), "{line}");
    refused_leaving(&dir, &["--model", text(&mesh), "--export-md5", text(&mesh)], "the model's own file");
    // --force lets an export replace a file it names itself, never one the model was read from.
    let args = ["--model", text(&mesh), "--export-md5", text(&copy), "--force"];
    refused_leaving(&dir, &args, "walk.md5anim, which the model was read from");
}

/// The arm with its animation `bend` turning by `degrees`, and a second animation `wave`.
fn two_clips(degrees: f32) -> Vec<u8> {
    let mut g = arm();
    let times = g.floats(&[0.0, 1.0], "SCALAR");
    let turn = glam::Quat::from_rotation_z(degrees.to_radians()).to_array();
    let turns = g.floats(&[[0.0, 0.0, 0.0, 1.0], turn].concat(), "VEC4");
    g.json["animations"][0]["samplers"][0]["output"] = json!(turns);
    let channel = json!({ "sampler": 0, "target": { "node": 0, "path": "rotation" } });
    let sampler = json!({ "input": times, "output": turns });
    g.push("animations", json!({ "name": "wave", "channels": [channel], "samplers": [sampler] }));
    g.glb()
}

#[test]
fn a_file_the_export_names_itself_replaces_nothing_and_follows_no_link() {
    let dir = scratch("export-derived");
    let first = dir.join("first.glb");
    let second = dir.join("second.glb");
    std::fs::write(&first, two_clips(90.0)).expect("written");
    std::fs::write(&second, two_clips(45.0)).expect("written");
    let shared = dir.join("shared");
    let exported = |model: &Path, mesh: &str, extra: &[&str]| {
        let mesh = shared.join(mesh);
        run(&[&["--model", text(model), "--export-md5", text(&mesh)][..], extra].concat())
    };
    assert!(exported(&first, "first.md5mesh", &[]).status.success());
    // A second model into the same folder would have replaced the first's bend.md5anim.
    let mesh = shared.join("second.md5mesh");
    let args = ["--model", text(&second), "--export-md5", text(&mesh)];
    let line = refused_leaving(&shared, &args, "bend.md5anim: a file of that name is there already");
    assert!(line.ends_with("export into another folder, or add --force to replace it"), "{line}");
    // With --force it may: both of its animations replace the first's, and its mesh is written.
    let bend = std::fs::read(shared.join("bend.md5anim")).expect("the first's bend");
    let out = exported(&second, "second.md5mesh", &["--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read(shared.join("bend.md5anim")).expect("replaced") != bend);
    assert!(shared.join("second.md5mesh").is_file());

    // A link where an animation goes: never written through, even with --force.
    let out_dir = dir.join("out");
    std::fs::create_dir(&out_dir).expect("mkdir");
    std::fs::write(dir.join("victim.txt"), "keep me\n").expect("written");
    std::os::unix::fs::symlink("../victim.txt", out_dir.join("wave.md5anim")).expect("a link");
    let mesh = out_dir.join("m.md5mesh");
    for extra in [&[][..], &["--force"]] {
        let args = [&["--model", text(&first), "--export-md5", text(&mesh)][..], extra].concat();
        let line = refused_leaving(&out_dir, &args, "wave.md5anim: it is a symbolic link");
        assert!(line.ends_with("remove it or export into another folder"), "{line}");
        assert_eq!(std::fs::read_to_string(dir.join("victim.txt")).expect("there"), "keep me\n");
    }
    // Refused at the second animation, after the mesh and the first were planned: none is written.
    std::fs::remove_file(out_dir.join("wave.md5anim")).expect("rm");
    std::fs::write(out_dir.join("wave.md5anim"), "someone else's\n").expect("written");
    let args = ["--model", text(&first), "--export-md5", text(&mesh)];
    refused_leaving(&out_dir, &args, "wave.md5anim: a file of that name is there already");
    assert_eq!(Folder::of(&out_dir).names(), ["wave.md5anim"]);
}

#[test]
fn an_md5_export_note_escapes_a_name_once() {
    // A control character in a clip's name is written `_` (tests/hostile/md5_names.rs), and said.
    let mut g = arm();
    g.json["animations"][0]["name"] = json!("bend\u{7}");
    let model = write("export-escape", "arm.glb", &g.glb());
    let out = model.with_file_name("out.md5mesh");
    let run = run(&["--model", text(&model), "--export-md5", text(&out)]);
    assert!(run.status.success(), "{}", stderr(&run));
    let line = stderr(&run).lines().next().unwrap_or_default().to_string();
    assert!(line.contains("the clip \"bend\\u{7}\" is written \"bend_\""), "{line}");
    assert!(!line.contains("\\\\"), "escaped twice: {line}");
}
