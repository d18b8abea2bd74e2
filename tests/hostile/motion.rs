//! A character that goes somewhere (chapters 17 and 18): a wrong `--root-motion`, a `--root-bone`
//! the model does not have or that no travel uses, root motion over layers of clips; each one line,
//! exit 2, and no dump written. A model with no hips is no mistake: it plays as stored, with one
//! note. `--clips-from` a file without clips, or whose bones share no name with the model's, or
//! that is not there: one line, exit 1.

use super::arm::{arm, loads, run_clean, same_positions, skinned, text, write};
use super::support::{Folder, fails_cleanly, stderr};
use serde_json::Value;

#[test]
fn a_wrong_root_motion_is_one_line_and_nothing_written() {
    let model = write("motion-wrong", "arm.gltf", &arm().embedded());
    let dir = model.parent().expect("a folder");
    let before = Folder::of(dir);
    let dump = dir.join("dump.json");
    let cases: [(&[&str], &str); 5] = [
        (&["--root-motion", "sideways"], "--root-motion wants on, in-place or off, not \"sideways\""),
        (&["--root-motion"], "--root-motion needs a value: --root-motion on|in-place|off"),
        (&["--root-bone", "arm"], "--root-bone names the bone whose travel --root-motion takes"),
        (&["--root-motion", "on", "--root-bone", "elbow"], "unknown bone \"elbow\" for --root-bone"),
        (&["--root-motion", "on", "--blend", "bend=1,bend=1"], "--root-motion takes one clip's travel"),
    ];
    for (args, said) in cases {
        let out = run_clean(&[&["--model", text(&model), "--dump", text(&dump)], args].concat());
        let line = fails_cleanly(&out, 2);
        assert!(line.contains(said), "{args:?}: {line}");
        before.unchanged(dir);
    }
}

#[test]
fn a_model_without_hips_plays_as_stored_with_one_note() {
    let model = write("motion-no-hips", "arm.gltf", &arm().embedded());
    let dump = model.with_file_name("dump.json");
    let args = ["--model", text(&model), "--dump", text(&dump), "--time", "0.7"];
    let out = run_clean(&[&args[..], &["--root-motion", "on"]].concat());
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    let notes: Vec<&str> = err.lines().filter(|l| l.contains("--root-motion on")).collect();
    assert_eq!(notes.len(), 1, "{err}");
    assert!(notes[0].contains("no hips") && notes[0].contains("plays as stored"), "{err}");
    // As stored: where the run without --root-motion puts every vertex.
    let dumped =
        || -> Value { serde_json::from_str(&std::fs::read_to_string(&dump).expect("dumped")).expect("JSON") };
    let with = skinned(&dumped());
    same_positions(&with, &skinned(&loads(&model, 0.7, &[])));
    // Named, the arm's root carries what it holds; its bend does not move it, so nothing travels.
    let out = run_clean(&[&args[..], &["--root-motion", "on", "--root-bone", "root"]].concat());
    assert!(out.status.success() && !stderr(&out).contains("no hips"), "{}", stderr(&out));
    same_positions(&skinned(&dumped()), &with);
}

#[test]
fn clips_from_a_file_without_clips_or_without_a_shared_name_is_one_line() {
    let model = write("motion-clips-from", "arm.gltf", &arm().embedded());
    let dir = model.parent().expect("a folder");
    // The arm without its animation, and the arm with every node renamed.
    let bare = dir.join("bare.gltf");
    std::fs::write(&bare, arm_without_animations()).expect("written");
    let mut renamed = arm();
    for (i, node) in renamed.json["nodes"].as_array_mut().expect("nodes").iter_mut().enumerate() {
        node["name"] = format!("other{i}").into();
    }
    let renamed_path = dir.join("renamed.gltf");
    std::fs::write(&renamed_path, renamed.embedded()).expect("written");
    let before = Folder::of(dir);
    let dump = dir.join("dump.json");
    let cases = [
        (&bare, 1, "it has no animations to carry over"),
        (&renamed_path, 1, "bones shares a name with this model's"),
        (&dir.join("missing.gltf"), 1, "missing.gltf"),
    ];
    for (from, code, said) in cases {
        let out = run_clean(&["--model", text(&model), "--dump", text(&dump), "--clips-from", text(from)]);
        let line = fails_cleanly(&out, code);
        assert!(line.contains(said), "{from:?}: {line}");
        before.unchanged(dir);
    }
    let twice = ["--model", text(&model), "--clips-from", text(&model), "--clips-from", text(&model)];
    assert!(fails_cleanly(&run_clean(&twice), 2).contains("--clips-from is given twice"));
    let info = ["--model", text(&model), "--info", "--clips-from", text(&model)];
    assert!(fails_cleanly(&run_clean(&info), 2).contains("run --clips-from without it"));
}

/// The arm, its animation taken out.
fn arm_without_animations() -> Vec<u8> {
    let mut gltf = arm();
    gltf.json.as_object_mut().expect("an object").remove("animations");
    gltf.embedded()
}
