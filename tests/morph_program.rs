//! What a user of the program sees of morph targets: `--morph NODE:TARGET=W` and its one-line
//! mistakes, `--info`'s list of targets, the dump's weights and displacements (enough to redo the
//! morph and the blend from the file alone), the inspector's morph table, and the robot's
//! surprised face on the picture.

use common::{Image, run, run_gl, sample_model, scratch};
use glam::{Mat4, Vec3};
use serde_json::Value;

/// The hand-made face (`common/face.rs`), written for `test`.
fn face_file(test: &str) -> String {
    let path = scratch(test).join("face.gltf");
    std::fs::write(&path, common::face::face(true).embedded()).expect("writable");
    path.to_str().unwrap().to_string()
}

/// The one line the program says for `args`, which must fail with exit 2.
fn refused(args: &[&str]) -> String {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
    assert!(out.stdout.is_empty());
    err
}

#[test]
fn each_mistake_in_morph_is_one_line_with_the_choices() {
    let face = face_file("morph-mistakes");
    for (morph, why) in [
        ("nose:Smile=1", "unknown mesh with morph targets \"nose\" for --morph: choose one of face, badge"),
        (
            "face:Grin=1",
            "unknown target of face \"Grin\" for --morph: choose one of Smile, Frown (or an index, 0 to 1)",
        ),
        ("face:Smile=nan", "--morph wants NODE:TARGET=WEIGHT"),
        ("face:Smile=inf", "--morph wants NODE:TARGET=WEIGHT"),
        ("face=1", "--morph wants NODE:TARGET=WEIGHT"),
        ("face:Smile", "--morph wants NODE:TARGET=WEIGHT"),
    ] {
        for road in [&["--dump", "-"][..], &["--headless", "--frames", "1"]] {
            let line = refused(&[&["--model", &face, "--morph", morph][..], road].concat());
            assert!(line.contains(why), "{morph}: {why:?} not in {line}");
        }
    }
    let line = refused(&["--dump", "-", "--morph", "arm:smile=1"]);
    assert!(line.contains("this model has no morph targets"), "{line}");
}

#[test]
fn info_lists_each_meshs_targets_with_how_far_they_move_a_vertex() {
    let face = face_file("morph-info");
    let out = run(&["--model", &face, "--info"]);
    let info = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    // Smile moves v2 by 0.5, Frown v3 by 0.4; the badge's target, scaled by its node, by 2.
    for line in [
        "  \"face\" on node face, 4 vertices: Smile 0.500 (",
        ", Frown 0.400 (",
        "  \"badge\" on node badge, 3 vertices: target 0 2.000 (",
        "    face: morph weights CUBICSPLINE 2 keys",
    ] {
        assert!(info.contains(line), "{line:?} not in:\n{info}");
    }
    assert!(!info.contains("ignored the morph targets"), "{info}");
}

#[test]
fn the_dump_holds_enough_to_redo_the_morph_and_the_blend_by_hand() {
    let face = face_file("morph-dump");
    let args =
        ["--model", &face, "--dump", "-", "--frames", "3", "--fixed-dt", "0.3", "--morph", "face:Frown=0.7"];
    let out = run(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let dump: Value = serde_json::from_slice(&out.stdout).unwrap();
    let xyz = |v: &Value| {
        Vec3::new(v[0].as_f64().unwrap() as f32, v[1].as_f64().unwrap() as f32, v[2].as_f64().unwrap() as f32)
    };
    let matrix = |v: &Value| {
        let m: Vec<f32> = v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect();
        Mat4::from_cols_slice(&m)
    };
    let vertices = dump["vertices"].as_array().unwrap();
    let morphs = dump["morphs"].as_array().unwrap();
    assert_eq!(morphs[0]["targets"], serde_json::json!(["Smile", "Frown"]));
    for (f, frame) in dump["frames"].as_array().unwrap().iter().enumerate() {
        let weights: Vec<f32> =
            frame["morph_weights"].as_array().unwrap().iter().map(|w| w.as_f64().unwrap() as f32).collect();
        assert_eq!(weights[1], 0.7, "frame {f}: --morph holds Frown over the clip");
        let palette: Vec<Mat4> = frame["palette"].as_array().unwrap().iter().map(matrix).collect();
        let mut positions: Vec<Vec3> = frame["skinned"].as_array().unwrap().iter().map(xyz).collect();
        positions.extend(frame["rigid"].as_array().unwrap().iter().map(xyz));
        for m in morphs {
            let (first, count) =
                (m["first"].as_u64().unwrap() as usize, m["count"].as_u64().unwrap() as usize);
            let n = m["targets"].as_array().unwrap().len();
            let first_weight = m["first_weight"].as_u64().unwrap() as usize;
            let displacements = m["displacements"].as_array().unwrap();
            for i in 0..count {
                let v = first + i;
                let shape = xyz(&vertices[v]["bind"])
                    + (0..n)
                        .map(|k| weights[first_weight + k] * xyz(&displacements[i * n + k]))
                        .sum::<Vec3>();
                let skinned: Vec3 = vertices[v]["influences"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|inf| {
                        let joint = inf["joint"].as_u64().unwrap() as usize;
                        inf["weight"].as_f64().unwrap() as f32 * palette[joint].transform_point3(shape)
                    })
                    .sum();
                assert!(
                    skinned.abs_diff_eq(positions[v], 1e-5),
                    "frame {f} vertex {v}: {skinned} != {}",
                    positions[v]
                );
            }
        }
    }
}

#[test]
fn the_inspector_shows_the_morph_before_the_skin() {
    let face = face_file("morph-inspect");
    // v2 at 0.5 s: Smile at 0.625 by the clip's spline, Frown held at 0.7 (it moves v2 by
    // nothing); then the arm, turned 45 degrees, moves the shape.
    let args = ["--model", &face, "--headless", "--frames", "1", "--inspect", "2", "--time", "0.5"];
    let Some(out) = run_gl(&[&args[..], &["--morph", "face:1=0.7", "--size", "64x64"]].concat()) else {
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let table = "\
vertex 2: morph targets of mesh \"face\", before the skin
  target  weight  displacement                 weight * displacement
  Smile   0.6250  ( 0.0000,  0.5000,  0.0000)  ( 0.0000,  0.3125,  0.0000)
  Frown   0.7000  ( 0.0000,  0.0000,  0.0000)  ( 0.0000,  0.0000,  0.0000)
  modelled position                            ( 2.0000,  0.0000,  0.0000)
  sum = bind position for the skin             ( 2.0000,  0.3125,  0.0000)
vertex 2: bind ( 2.0000,  0.3125,  0.0000), 1 influence
";
    assert!(text.contains(table), "not in:\n{text}");
    // The skin's table: (1, 0.3125) from the joint, turned 45 degrees.
    assert!(
        text.contains(
            "  sum = skinned position                                  ( 1.4861,  0.9281,  0.0000)"
        ),
        "{text}"
    );
}

#[test]
fn the_robots_face_changes_with_a_held_weight() {
    let Some(robot) = sample_model("RobotExpressive.glb") else { return };
    let dir = scratch("morph-robot-picture");
    let shot = |name: &str, extra: &[&str]| {
        let path = dir.join(name);
        let args = ["--model", robot.to_str().unwrap(), "--animation", "Idle", "--headless", "--frames", "1"];
        let args =
            [&args[..], &["--no-text", "--size", "400x300", "--screenshot", path.to_str().unwrap()], extra]
                .concat();
        run_gl(&args).map(|_| Image::load(&path))
    };
    let Some(plain) = shot("plain.png", &[]) else { return };
    let Some(surprised) = shot("surprised.png", &["--morph", "Head_4:Surprised=1"]) else { return };
    let changed = plain.rgba.chunks(4).zip(surprised.rgba.chunks(4)).filter(|(a, b)| a != b).count();
    // The brows rise by up to 0.47 of the robot's 6.1: some hundreds of pixels at this size.
    assert!(changed > 100, "{changed} pixels changed");
}

#[test]
fn a_steady_morphed_frame_allocates_nothing_on_either_road() {
    let Some(robot) = sample_model("RobotExpressive.glb") else { return };
    for skinning in ["cpu", "gpu"] {
        let args = ["--model", robot.to_str().unwrap(), "--headless", "--frames", "60", "--fixed-dt", "0.02"];
        let extra = [
            "--stats",
            "--morph",
            "Head_4:Surprised=0.5",
            "--skinning",
            skinning,
            "--inspect",
            "4267",
            "--normals",
        ];
        let Some(out) = run_gl(&[&args[..], &extra].concat()) else { return };
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(said.contains(" 0 allocations drawing frames"), "{skinning}: {said}");
    }
}
