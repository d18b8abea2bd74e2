//! MD5 through the program: `--model NAME.md5mesh` with `--dump`, `--info`, the inspector, the
//! picture and GPU skinning; `--export-md5` and its files; bad files and bad exports as one line,
//! exit 1, nothing written.

use common::md5_hand::{ANIM, MESH};
use common::{Image, run, run_gl, scratch};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The hand-written model and its `wave` animation in a folder of their own.
fn hand(test: &str) -> (PathBuf, PathBuf) {
    let dir = scratch(test);
    std::fs::write(dir.join("hand.md5mesh"), MESH).unwrap();
    std::fs::write(dir.join("wave.md5anim"), ANIM).unwrap();
    let mesh = dir.join("hand.md5mesh");
    (dir, mesh)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn dump(args: &[&str], out: &Path) -> Value {
    let result = run(&[args, &["--dump", out.to_str().unwrap()]].concat());
    assert!(result.status.success(), "{args:?}: {}", text(&result.stderr));
    serde_json::from_str(&std::fs::read_to_string(out).unwrap()).expect("the dump is JSON")
}

fn xyz(v: &Value) -> [f64; 3] {
    [0, 1, 2].map(|i| v[i].as_f64().expect("a number"))
}

#[test]
fn the_dump_of_the_hand_model_holds_the_positions_worked_out_by_hand() {
    let (dir, mesh) = hand("md5-dump");
    let out = dir.join("dump.json");
    let mesh = mesh.to_str().unwrap();
    // Frame 1 of `wave` (0.1 s): worked out in `common/md5_hand.rs` and `tests/md5_import.rs`.
    let frame = dump(&["--model", mesh, "--animation", "wave", "--time", "0.1"], &out);
    let skinned = frame["frames"][0]["skinned"].as_array().expect("skinned positions");
    let by_hand = [[2.5, 0.2, 0.0], [3.1, 0.1, 0.0], [3.5, 0.0, 0.0]];
    assert_eq!(skinned.len(), 3, "every vertex of every mesh, in file order");
    for (v, (p, hand)) in skinned.iter().zip(by_hand).enumerate() {
        let p = xyz(p);
        assert!((0..3).all(|i| (p[i] - hand[i]).abs() < 1e-5), "vertex {v}: {p:?} vs {hand:?}");
    }
    // `rest` (the last clip, and by name) is the bind pose, as the .md5mesh stores it.
    for rest in ["rest", "1"] {
        let bind = dump(&["--model", mesh, "--animation", rest, "--time", "0.37"], &out);
        let skinned = bind["frames"][0]["skinned"].as_array().unwrap();
        let binds = bind["vertices"].as_array().unwrap();
        for (p, v) in skinned.iter().zip(binds) {
            let (p, b) = (xyz(p), xyz(&v["bind"]));
            assert!((0..3).all(|i| (p[i] - b[i]).abs() < 1e-6), "{rest}: {p:?} vs {b:?}");
        }
    }
    assert_eq!(frame["clip"], "wave");
}

#[test]
fn info_says_what_the_file_holds_and_whether_the_two_formulas_agree() {
    let (dir, mesh) = hand("md5-info");
    let result = run(&["--model", mesh.to_str().unwrap(), "--info"]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let info = text(&result.stdout);
    for expected in [
        "an MD5 model (MD5Version 10, Doom 3's; Z-up): 2 joints; 1 mesh; 3 vertices, 1 triangle, 4 weights",
        "  root (joint 0) at (0.0000, 0.0000, 0.0000)\n    arm (joint 1) at (1.0000, 0.0000, 0.0000)",
        "  0 \"hand\": 3 vertices, 1 triangle, 4 weights; at most 2 weights on one vertex",
        "  0 \"wave\": 3 frames at 10 a second, 0.200 s, 4 components animated",
        "  1 \"rest\": the bind pose, as the .md5mesh stores it",
        // Chapter 10's table: written by hand, its weights are offset · bind to the last bit.
        "largest spread: 0 of the model's size (0.5831)",
        "the two formulas agree for this file",
        "ignored: mesh 0's shader \"hand\" (no picture file beside the model by that name, nor a colour",
    ] {
        assert!(info.contains(expected), "{expected:?} missing from:\n{info}");
    }
    // Weight 2 moved 0.3 along arm's -y, which arm's quarter turn makes +x: it now says vertex 1 is
    // at (1.3, 0.2, 0), root's weight still (1, 0.2, 0). Half of each puts the vertex at (1.15, 0.2,
    // 0), 0.15 from either claim. The model's size is the diagonal of the box from (0.5, 0.2) to
    // (1.15, 0.5): sqrt(0.65² + 0.3²) = 0.7159.
    std::fs::write(&mesh, MESH.replace("weight 2 1 0.5 ( 0.2 0 0 )", "weight 2 1 0.5 ( 0.2 -0.3 0 )"))
        .unwrap();
    let info = text(&run(&["--model", mesh.to_str().unwrap(), "--info"]).stdout);
    let relative = 0.15 / (0.65f64 * 0.65 + 0.3 * 0.3).sqrt();
    let expected =
        format!("largest spread: {relative:.2e} of the model's size (0.7159), at vertex 1, weight slot ");
    assert!(info.contains(&expected), "{expected:?} missing from:\n{info}");
    assert!(
        info.contains("the two formulas disagree: the article's moves that vertex up to 1.500e-1"),
        "{info}"
    );
    drop(dir);
}

/// A TGA of `width` x 1 pixels of `bgr`, run-length encoded, bottom row first (as Doom 3's are).
fn tga(width: u8, bgr: [u8; 3]) -> Vec<u8> {
    let mut file = vec![0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, width, 0, 1, 0, 24, 0];
    file.push(0x80 | (width - 1));
    file.extend(bgr);
    file
}

#[test]
fn a_bare_shader_finds_its_png_or_tga_beside_the_model_in_any_case() {
    let png = include_bytes!("../crates/formats/tests/data/one-pixel.png");
    for (file, bytes, kind) in [("Hand.PNG", &png[..], "PNG"), ("HAND.tga", &tga(4, [0, 200, 0])[..], "TGA")]
    {
        let (dir, mesh) = hand(&format!("md5-bare-{kind}"));
        std::fs::write(dir.join(file), bytes).unwrap();
        let result = run(&["--model", mesh.to_str().unwrap(), "--info"]);
        assert!(result.status.success(), "{}", text(&result.stderr));
        let info = text(&result.stdout);
        assert!(
            info.contains(&format!("materials: 1, 1 texture ({kind}), drawn on the lit surface")),
            "{info}"
        );
        // Drawn, so not listed as ignored (the line said every shader was, before).
        let ignored = info.lines().find(|l| l.starts_with("ignored: ")).expect("an ignored line");
        assert!(!ignored.contains("shader"), "{ignored}");
        // A glTF file cannot hold a TGA: the export writes its pixels as a PNG, which reads back.
        let gltf = dir.join("hand.gltf");
        let out = run(&["--model", mesh.to_str().unwrap(), "--export-gltf", gltf.to_str().unwrap()]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let info = text(&run(&["--model", gltf.to_str().unwrap(), "--info"]).stdout);
        assert!(info.contains("1 texture (PNG)"), "{info}");
    }
}

#[test]
fn a_doom_style_tga_beside_the_model_colours_its_surface() {
    // The hand's triangle, drawn with a green TGA named by its bare shader "hand"; without the
    // picture, the lit surface is the skinned mesh's red.
    let green = |image: &Image| {
        image
            .rgba
            .chunks_exact(4)
            .filter(|p| p[1] > 60 && u32::from(p[1]) > 2 * u32::from(p[0].max(p[2])))
            .count()
    };
    let mut counts = Vec::new();
    for with_picture in [false, true] {
        let (dir, mesh) = hand(&format!("md5-tga-{with_picture}"));
        if with_picture {
            std::fs::write(dir.join("hand.TGA"), tga(2, [0, 200, 0])).unwrap();
        }
        let path = dir.join("shot.png");
        // Seen from above: the triangle lies flat in the file's x-y plane.
        let args = [
            "--headless",
            "--frames",
            "1",
            "--no-text",
            "--camera",
            "0,80",
            "--size",
            "320x240",
            "--screenshot",
        ];
        let Some(out) =
            run_gl(&[&["--model", mesh.to_str().unwrap()], &args[..], &[path.to_str().unwrap()]].concat())
        else {
            return;
        };
        assert!(out.status.success(), "{}", text(&out.stderr));
        counts.push(green(&Image::load(&path)));
    }
    assert!(counts[1] > counts[0] + 150, "green pixels without and with the TGA: {counts:?}");
}

#[test]
fn the_inspector_sets_each_stored_weight_beside_offset_times_bind() {
    let (_dir, mesh) = hand("md5-inspect");
    let args =
        ["--model", mesh.to_str().unwrap(), "--headless", "--frames", "1", "--inspect", "1", "--no-text"];
    let Some(out) = run_gl(&args) else { return };
    let report = text(&out.stdout);
    assert!(
        report.contains("the file's weights (each in its joint's space) beside the article's offset · bind:"),
        "{report}"
    );
    // Vertex 1: half on root at (1, 0.2, 0), half on arm at (0.2, 0, 0) in arm's space.
    for row in [
        "  root   0.5000  (1.0000, 0.2000, 0.0000)     (1.0000, 0.2000, 0.0000)",
        "  arm    0.5000  (0.2000, 0.0000, 0.0000)     (0.2000, 0.0000, 0.0000)",
    ] {
        assert!(report.contains(row), "{row:?} missing from:\n{report}");
    }
}

#[test]
fn the_exported_arm_looks_as_the_article_does_turned_z_up_and_back() {
    let dir = scratch("md5-picture");
    let mesh = dir.join("arm.md5mesh");
    let result = run(&["--export-md5", mesh.to_str().unwrap()]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["arm.md5mesh", "bend.md5anim", "seed.md5anim", "twist.md5anim"]);
    // The file has id's axes: the arm's claws, along y (up) in the article, are along z in it,
    // and its length, along x, along y (id's left, as glTF's +x is a character's left).
    let file = std::fs::read_to_string(&mesh).unwrap();
    assert!(file.contains("\"bone31\"\t2 ( 0 0.6 0.1 )"), "{file}");

    let shot = |args: &[&str], name: &str| {
        let path = dir.join(name);
        let common = ["--headless", "--frames", "1", "--time", "1.3", "--no-text", "--size", "320x240"];
        run_gl(&[args, &common, &["--screenshot", path.to_str().unwrap()]].concat())
            .map(|_| Image::load(&path))
    };
    // The article as a model too, from its glTF export, Y-up: a model's camera frames the clip that
    // plays, where the built-in scene's frames its three clips at once (chapter 8).
    let gltf = dir.join("arm.gltf");
    assert!(run(&["--export-gltf", gltf.to_str().unwrap()]).status.success());
    let Some(article) = shot(&["--model", gltf.to_str().unwrap(), "--animation", "bend"], "article.png")
    else {
        return;
    };
    let Some(md5) = shot(&["--model", mesh.to_str().unwrap(), "--animation", "bend"], "md5.png") else {
        return;
    };
    // The camera stands the Z-up file up: the same picture, but for a pixel here and there.
    let differing = article.rgba.chunks(4).zip(md5.rgba.chunks(4)).filter(|(a, b)| a != b).count();
    let drawn = article.rgba.chunks(4).filter(|p| p[..3] != article.rgba[..3]).count();
    println!("the exported arm against the article: {differing} of {drawn} drawn pixels differ");
    assert!(drawn > 500, "the arm is drawn ({drawn} pixels)");
    assert!(differing * 50 < drawn, "{differing} of {drawn} drawn pixels differ");
}

#[test]
fn gpu_skinning_equals_the_cpu_on_an_md5_model() {
    let dir = scratch("md5-gpu");
    let mesh = dir.join("arm.md5mesh");
    assert!(run(&["--export-md5", mesh.to_str().unwrap()]).status.success());
    let args = [
        "--model",
        mesh.to_str().unwrap(),
        "--animation",
        "twist",
        "--frames",
        "6",
        "--fixed-dt",
        "0.37",
        "--time",
        "0.2",
    ];
    let cpu = dump(&args, &dir.join("cpu.json"));
    let gpu_path = dir.join("gpu.json");
    if run_gl(&[&args[..], &["--skinning", "gpu", "--dump", gpu_path.to_str().unwrap()]].concat()).is_none() {
        return;
    }
    let gpu: Value = serde_json::from_str(&std::fs::read_to_string(&gpu_path).unwrap()).unwrap();
    let (mut largest, mut moved) = (0.0f64, 0.0f64);
    for (c, g) in cpu["frames"].as_array().unwrap().iter().zip(gpu["frames"].as_array().unwrap()) {
        for (c, g) in c["skinned"].as_array().unwrap().iter().zip(g["skinned"].as_array().unwrap()) {
            let (c, g) = (xyz(c), xyz(g));
            largest = (0..3).map(|i| (c[i] - g[i]).abs()).fold(largest, f64::max);
        }
        moved = moved.max((xyz(&c["skinned"][4])[2] - xyz(&cpu["vertices"][4]["bind"])[2]).abs());
    }
    println!("MD5 arm, twist: GPU and CPU at most {largest:e} apart");
    assert!(largest <= 1e-5, "{largest}");
    assert!(moved > 0.01, "the skin moved ({moved})");
}

#[test]
fn a_steady_frame_of_an_md5_model_allocates_nothing() {
    let (_dir, mesh) = hand("md5-allocations");
    let args = [
        "--model",
        mesh.to_str().unwrap(),
        "--headless",
        "--frames",
        "200",
        "--fixed-dt",
        "0.016",
        "--stats",
        "--inspect",
        "1",
    ];
    let Some(out) = run_gl(&args) else { return };
    let stdout = text(&out.stdout);
    let line = stdout.lines().find(|l| l.starts_with("stats:")).expect("--stats prints a stats line");
    assert!(line.contains(" 0 allocations drawing frames 4..200"), "{line}");
    assert!(stdout.lines().any(|l| l.starts_with("load: ") && l.ends_with("(3 vertices)")), "{stdout}");
}

#[test]
fn bad_files_and_exports_are_one_line_exit_1_and_write_nothing() {
    let (dir, mesh) = hand("md5-bad");
    let out = dir.join("dump.json");
    let one_line = |args: &[&str], expected: &str| {
        let result = run(args);
        let err = text(&result.stderr);
        assert_eq!(result.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(expected), "{expected:?} missing from {err}");
        assert!(!out.exists(), "{args:?}: a dump was written");
    };
    let (m, o) = (mesh.to_str().unwrap(), out.to_str().unwrap());
    // A name with an escape sequence in a message: escaped, so the terminal shows it, not obeys it.
    std::fs::write(&mesh, MESH.replace("\"arm\"\t0", "\"a\u{1b}[2J\"\t1")).unwrap();
    one_line(&["--model", m, "--dump", o], "hand.md5mesh: line 8: joint 1 \"a\\u{1b}[2J\"'s parent is 1");
    std::fs::write(&mesh, "").unwrap();
    one_line(&["--model", m, "--dump", o], "hand.md5mesh: line 1: the file is empty");
    std::fs::write(&mesh, MESH).unwrap();
    std::fs::write(dir.join("broken.md5anim"), &ANIM[..ANIM.len() / 2]).unwrap();
    one_line(&["--model", m, "--dump", o], "hand.md5mesh: its animation broken.md5anim: line ");
    std::fs::remove_file(dir.join("broken.md5anim")).unwrap();
    let anim = dir.join("wave.md5anim");
    one_line(&["--model", anim.to_str().unwrap(), "--dump", o], "give its .md5mesh");

    // An animation of other joints is skipped, said once; the model still shows.
    std::fs::write(dir.join("leg.md5anim"), ANIM.replace("\"arm\"\t0 56 1", "\"leg\"\t0 56 1")).unwrap();
    let result = run(&["--model", m, "--dump", o]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    assert_eq!(
        text(&result.stderr),
        "skinning: note: skipped the animation leg.md5anim: its joint 1 is \"leg\", the mesh's is \"arm\"\n"
    );
    std::fs::remove_file(&out).unwrap();

    // All files or none: an .md5anim whose name is taken by a folder stops the export before
    // anything is renamed into place.
    let export = dir.join("out");
    std::fs::create_dir_all(export.join("bend.md5anim")).unwrap();
    let result = run(&["--export-md5", export.join("arm.md5mesh").to_str().unwrap()]);
    assert_eq!(result.status.code(), Some(1), "{}", text(&result.stderr));
    assert_eq!(text(&result.stderr).trim_end().lines().count(), 1, "{}", text(&result.stderr));
    let left: Vec<_> = std::fs::read_dir(&export).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["bend.md5anim"], "nothing else written, no temporary file left");

    // A missing folder is made; if the files cannot be written there (a name past the 255 bytes a
    // file name may have), the folders made for them go again.
    let new = dir.join("new/deeper/arm.md5mesh");
    assert!(run(&["--export-md5", new.to_str().unwrap()]).status.success());
    assert!(dir.join("new/deeper/twist.md5anim").is_file());
    let long = dir.join("other/deeper").join(format!("{}.md5mesh", "a".repeat(300)));
    let result = run(&["--export-md5", long.to_str().unwrap()]);
    assert_eq!(result.status.code(), Some(1), "{}", text(&result.stderr));
    assert_eq!(text(&result.stderr).trim_end().lines().count(), 1, "{}", text(&result.stderr));
    assert!(!dir.join("other").exists(), "the folders made for the export are removed");
}
