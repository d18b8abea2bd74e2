//! The ground's flag (chapter 20): a slope of 90 degrees or more, a step with a bad height, a
//! shape the program has not, a model with no legs, `--info` with a ground: each refused in one
//! line with exit 2, nothing written.

use super::arm::{arm, run_clean, text, write};
use super::support::{Folder, fails_cleanly, run, scratch};

#[test]
fn each_mistake_in_the_ground_is_one_line_and_nothing_is_written() {
    let dir = scratch("grounds");
    let dump = dir.join("ground.json");
    let dump = dump.to_str().expect("utf-8");
    let before = Folder::of(&dir);
    let cases: [(&[&str], &str); 7] = [
        (&["--ground", "slope:90"], "above -90 and below 90"),
        (&["--ground", "slope:-120"], "above -90 and below 90"),
        (&["--ground", "slope:NaN"], "--ground slope:DEG wants"),
        (&["--ground", "steps:0"], "other than 0"),
        (&["--ground", "steps:1e39"], "a finite number"),
        (&["--ground", "hills"], "--ground wants flat, slope:DEG or steps:HEIGHT"),
        (&["--ground"], "--ground needs a value"),
    ];
    for (args, expected) in cases {
        let out = run(&[&["--dump", dump], args].concat());
        let line = fails_cleanly(&out, 2);
        assert!(line.contains(expected), "{args:?}: {line}");
        before.unchanged(&dir);
    }
}

#[test]
fn a_model_with_no_legs_or_a_description_stands_nothing() {
    let model = write("grounds-no-legs", "arm.gltf", &arm().embedded());
    let dir = model.parent().expect("a folder");
    let before = Folder::of(dir);
    let dump = dir.join("dump.json");
    let out = run_clean(&["--model", text(&model), "--dump", text(&dump), "--ground", "flat"]);
    let line = fails_cleanly(&out, 2);
    assert!(line.starts_with("skinning: --ground: no legs found on this model"), "{line}");
    before.unchanged(dir);
    let out = run_clean(&["--model", text(&model), "--info", "--ground", "slope:10"]);
    let line = fails_cleanly(&out, 2);
    assert!(line.contains("--ground goes with a window, a picture or a dump"), "{line}");
}
