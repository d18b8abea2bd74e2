//! Every flag that names a bone, a clip, a mesh or a morph target checks the name whatever else
//! is asked: a dump does not draw `--weights` or `--trail`, yet a bone they name that the model does
//! not have is refused, as in the window, and so is a clip the layer flags (`--fade-to`, `--blend`,
//! `--additive`, `--mask`) name; `--info` describes the whole file, so a flag that picks
//! what is shown is refused with it; and `--fade-to`'s time is bounded as `--time`'s is.

use super::arm::{arm, run_clean, text, write};
use super::support::{Folder, fails_cleanly};

#[test]
fn a_dump_checks_the_bones_of_weights_and_trail() {
    let model = write("flag-names-dump", "arm.gltf", &arm().embedded());
    let dir = model.parent().expect("a folder");
    let before = Folder::of(dir);
    let dump = dir.join("dump.json");
    for flag in ["--weights", "--trail"] {
        let out = run_clean(&["--model", text(&model), "--dump", text(&dump), flag, "elbow"]);
        let line = fails_cleanly(&out, 2);
        assert!(line.contains(&format!("unknown bone \"elbow\" for {flag}")), "{line}");
        before.unchanged(dir);
        // A bone the model has is taken.
        let out = run_clean(&["--model", text(&model), "--dump", text(&dump), flag, "arm"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        std::fs::remove_file(&dump).expect("the dump was written");
    }
}

#[test]
fn a_dump_checks_the_clips_the_layer_flags_name() {
    let model = write("flag-names-clips", "arm.gltf", &arm().embedded());
    let dir = model.parent().expect("a folder");
    let before = Folder::of(dir);
    let dump = dir.join("dump.json");
    for (flag, value) in
        [("--fade-to", "nope@0.5"), ("--blend", "nope=1"), ("--additive", "nope=1"), ("--mask", "nope@arm")]
    {
        let out = run_clean(&["--model", text(&model), "--dump", text(&dump), flag, value]);
        let line = fails_cleanly(&out, 2);
        assert!(line.contains(&format!("unknown animation \"nope\" for {flag}")), "{line}");
        before.unchanged(dir);
    }
}

#[test]
fn info_refuses_a_flag_that_picks_what_is_shown() {
    let model = write("flag-names-info", "arm.gltf", &arm().embedded());
    for args in [
        ["--animation", "nope"],
        ["--animation", "bend"],
        ["--weights", "nope"],
        ["--trail", "arm"],
        ["--morph", "strip:0=1"],
        ["--crowd", "4"],
    ] {
        let out = run_clean(&[&["--model", text(&model), "--info"][..], &args].concat());
        let line = fails_cleanly(&out, 2);
        assert!(line.contains(&format!("{} chooses what is shown", args[0])), "{args:?}: {line}");
    }
}

#[test]
fn a_crossfade_time_past_what_time_takes_is_refused() {
    let model = write("flag-names-fade", "arm.gltf", &arm().embedded());
    let dump = model.with_file_name("dump.json");
    let time =
        fails_cleanly(&run_clean(&["--model", text(&model), "--dump", text(&dump), "--time", "1e300"]), 2);
    assert!(time.contains("from -1e9 to 1e9"), "{time}");
    for at in ["bend@1e300", "bend@-2e9"] {
        let out = run_clean(&["--model", text(&model), "--dump", text(&dump), "--fade-to", at]);
        let line = fails_cleanly(&out, 2);
        assert!(line.contains("from -1e9 to 1e9"), "{at}: {line}");
    }
    assert!(!dump.exists());
    let out = run_clean(&["--model", text(&model), "--dump", text(&dump), "--fade-to", "bend@0.5"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
