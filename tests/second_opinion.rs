//! three.js and the program agree on where a model's vertices go, clip by clip: the same file, the
//! same clip, the same time, skinned by two programs written apart (`tests/common/three.rs`). The
//! chapters that blend several clips or morph a face set their own requests beside this one.

mod common;

use common::three::{dump_parts, dump_positions, size, three, three_part, three_positions};
use common::{run, sample_model};
use serde_json::{Value, json};

/// The program's positions and three.js's for one clip of `model` at `time`: the largest distance
/// between them over every vertex of the meshes `compared` keeps, and the model's size.
fn apart(
    modules: &std::path::Path,
    model: &str,
    clip: &str,
    time: f32,
    compared: impl Fn(&str) -> bool,
) -> (f32, f32) {
    let path = sample_model(model).expect("the models are there");
    let path = path.to_str().unwrap();
    let out = run(&["--model", path, "--animation", clip, "--time", &time.to_string(), "--dump", "-"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let dump: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ours = dump_positions(&dump["frames"][0]);
    // A clip by its index where the program was given one (a file's clips may have no names).
    let clip_value = clip.parse::<u64>().map_or(json!(clip), |i| json!(i));
    let request =
        json!({ "model": path, "actions": [ { "clip": clip_value, "weight": 1.0, "time": time } ] });
    let theirs = three_positions(modules, &request);
    let mut worst: f32 = 0.0;
    let mut compared_any = false;
    for part in dump_parts(&dump).iter().filter(|p| compared(&p.name)) {
        compared_any = true;
        for (i, p) in three_part(&theirs, part).into_iter().enumerate() {
            worst = worst.max(p.distance(ours[part.first + i]));
        }
    }
    assert!(compared_any, "{model}: no mesh compared");
    (worst, size(&ours))
}

#[test]
fn three_js_puts_every_vertex_where_the_program_does() {
    let Some(modules) = three() else { return };
    if sample_model("Fox.glb").is_none() {
        return;
    }
    let everything = |_: &str| true;
    // SimpleSkin is not here: its rotation keys (0.707, 0.707) are 1.5e-4 short of unit length, which
    // the program mends and three.js uses as they are, 2.3e-4 of the model's size apart.
    // The robot's face carries morph targets the program does not apply yet: its head parts are
    // left out here until it does.
    let no_face = |name: &str| !name.starts_with("Head");
    for (model, clip, time, compared) in [
        ("Fox.glb", "Walk", 0.3, &everything as &dyn Fn(&str) -> bool),
        ("Fox.glb", "Run", 0.55, &everything),
        ("RobotExpressive.glb", "Walking", 0.4, &no_face),
        ("RobotExpressive.glb", "Dance", 1.1, &no_face),
    ] {
        let (worst, size) = apart(&modules, model, clip, time, compared);
        println!(
            "{model} {clip} at {time} s: three.js and the program {worst:.2e} apart ({:.1e} of the size)",
            worst / size
        );
        assert!(worst <= 1e-4 * size, "{model} {clip}: {worst} apart, size {size}");
    }
}
