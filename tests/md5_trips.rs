//! Round trips through MD5 and glTF that stay the same size (issue 31, item 5): the MD5 export
//! writes the skin's joints and the bones between them, not the roots and mesh nodes a glTF file
//! adds, and the glTF export hangs a mesh on the node it came from, so a second round trip gives
//! the first's files back (same joints, same sizes, to float rounding); an MD5 clip keeps its frame
//! rate; a mesh's material travels in its shader, a picture beside the model or a colour; `--info`
//! lists `rest` once. Before, each trip added joints (the Fox 24 → 27 → 29, Bob's MD5 33 → 40 →
//! 47 in glTF), every clip went out at 120 frames a second (the Fox came back three times its
//! size), and shaders were the meshes' names.

use common::{bob, run, sample_model, scratch};
use glam::Vec3;
use skinning_formats::gltf_import;
use skinning_formats::md5_import;
use std::path::{Path, PathBuf};

/// Runs the program, which must succeed.
fn program(args: &[&str]) -> String {
    let out = run(args);
    assert!(out.status.success(), "skinning {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `model` exported with `--export-md5` as `dir/NAME.md5mesh`.
fn to_md5(model: &Path, dir: &Path, name: &str) -> PathBuf {
    let mesh = dir.join(format!("{name}.md5mesh"));
    program(&["--model", model.to_str().unwrap(), "--export-md5", mesh.to_str().unwrap()]);
    mesh
}

/// `model` exported with `--export-gltf` as `path`.
fn to_gltf(model: &Path, path: PathBuf) -> PathBuf {
    program(&["--model", model.to_str().unwrap(), "--export-gltf", path.to_str().unwrap()]);
    path
}

/// What an MD5 model's files hold that a trip must keep: its joints (name, parent), each mesh's
/// shader, and each animation's file, frames and rate; and the files' sizes.
#[derive(Debug, PartialEq)]
struct Md5Summary {
    joints: Vec<String>,
    shaders: Vec<String>,
    animations: Vec<(String, String, String)>,
}

fn summary(mesh: &Path) -> (Md5Summary, Vec<(String, u64)>) {
    let text = std::fs::read_to_string(mesh).unwrap();
    let joints_block = text.split("joints {").nth(1).unwrap().split('}').next().unwrap();
    // A joint: its quoted name and its parent index.
    let joints = joints_block
        .lines()
        .filter(|l| l.contains('"'))
        .map(|l| l.split(" (").next().unwrap().trim().to_string())
        .collect();
    let shaders =
        text.lines().filter(|l| l.trim_start().starts_with("shader")).map(|l| l.trim().to_string()).collect();
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(mesh.parent().unwrap()).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut animations = Vec::new();
    let mut sizes = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        sizes.push((name.clone(), std::fs::metadata(file).unwrap().len()));
        if name.ends_with(".md5anim") {
            let text = std::fs::read_to_string(file).unwrap();
            let line = |key: &str| text.lines().find(|l| l.starts_with(key)).unwrap().to_string();
            animations.push((name, line("numFrames"), line("frameRate")));
        }
    }
    (Md5Summary { joints, shaders, animations }, sizes)
}

/// Sizes the same but for float rounding: within `part` of the larger.
fn about_the_same(a: u64, b: u64, part: f64) -> bool {
    a.abs_diff(b) as f64 <= part * a.max(b) as f64
}

/// Two trips: MD5 and glTF files after one, and after two, for `start`: `md5_first` when it is an
/// MD5 model (MD5 → glTF → MD5 → glTF → MD5), else glTF → MD5 → glTF → MD5 → glTF.
fn trips(start: &Path, dir: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let (mut md5, mut gltf) = (Vec::new(), Vec::new());
    std::fs::create_dir_all(dir).expect("the folder can be made");
    let mut now = start.to_path_buf();
    for trip in 1..=4 {
        let is_md5 = now.extension().is_some_and(|e| e == "md5mesh");
        now = match is_md5 {
            true => to_gltf(&now, dir.join(format!("trip{trip}.glb"))),
            false => to_md5(&now, &dir.join(format!("trip{trip}")), "model"),
        };
        if now.extension().is_some_and(|e| e == "md5mesh") {
            md5.push(now.clone())
        } else {
            gltf.push(now.clone())
        }
    }
    (md5, gltf)
}

#[test]
fn a_second_round_trip_gives_the_firsts_files_back() {
    let dir = scratch("md5-trips");
    let blender_bob = bob::write(&dir.join("bob"), Vec3::NEG_Y);
    // Bob's numbers are short decimals (10.1493), as an exporter's are. The first MD5 written
    // keeps them short; the turns and scales of the trips after it leave float rounding in their
    // last digits (10.149299), and the second MD5 comes out 6% longer (1752 then 1853 bytes
    // of md5mesh here). The samples' numbers are full floats already, held to 1%.
    let mut models = vec![("Bob (MD5, Blender's)".to_string(), blender_bob, 11, 0.1)];
    for (file, joints) in [("Fox.glb", 24), ("RobotExpressive.glb", 60)] {
        // Without the sample models (it says SKIPPED), Bob is still checked.
        let Some(path) = sample_model(file) else { continue };
        models.push((file.to_string(), path, joints, 0.01));
    }
    for (name, start, joints, part) in models {
        let (md5, gltf) = trips(&start, &dir.join(name.split(' ').next().unwrap()));
        let (first, first_sizes) = summary(&md5[0]);
        let (second, second_sizes) = summary(&md5[1]);
        let nodes = |glb: &Path| gltf_import::load(glb).expect("it loads").model.skeleton.len();
        let glb = |i: usize| std::fs::metadata(&gltf[i]).unwrap().len();
        println!(
            "{name}: MD5 joints {} then {}; glTF bones {} then {}, {} then {} bytes; MD5 files {first_sizes:?} then {second_sizes:?}",
            first.joints.len(),
            second.joints.len(),
            nodes(&gltf[0]),
            nodes(&gltf[1]),
            glb(0),
            glb(1)
        );
        assert_eq!(first.joints.len(), joints, "{name}: the skin's joints, no more");
        assert_eq!(first, second, "{name}: the same joints, shaders and animations");
        assert_eq!(nodes(&gltf[0]), nodes(&gltf[1]), "{name}");
        assert!(about_the_same(glb(0), glb(1), part), "{name}: {} then {}", glb(0), glb(1));
        for ((file, a), (_, b)) in first_sizes.iter().zip(&second_sizes) {
            assert!(about_the_same(*a, *b, part), "{name}: {file} {a} then {b}");
        }
    }
}

#[test]
fn an_md5_clip_keeps_its_frame_rate_and_the_fox_does_not_grow_through_md5() {
    let dir = scratch("md5-rates");
    let bob = bob::write(&dir.join("bob"), Vec3::NEG_Y);
    let (md5, _) = trips(&bob, &dir.join("bob-trips"));
    for mesh in &md5 {
        let (summary, _) = summary(mesh);
        assert_eq!(
            summary.animations,
            [("walk.md5anim".into(), "numFrames 5".into(), "frameRate 24".into())]
        );
    }
    let Some(fox) = sample_model("Fox.glb") else { return };
    let (md5, gltf) = trips(&fox, &dir.join("fox-trips"));
    let (summary, _) = summary(&md5[0]);
    let rates: Vec<&str> = summary.animations.iter().map(|(_, _, rate)| rate.as_str()).collect();
    // Survey and Walk are keyed every 1/24 s; the Run's last keys fall on 120ths.
    assert_eq!(rates, ["frameRate 120", "frameRate 24", "frameRate 24"], "Run, Survey, Walk");
    let (before, after) =
        (std::fs::metadata(&fox).unwrap().len(), std::fs::metadata(&gltf[0]).unwrap().len());
    println!(
        "the Fox: {before} bytes, {after} through MD5 and back ({:.2} times)",
        after as f64 / before as f64
    );
    assert!(after < 2 * before, "{before} then {after}");
}

#[test]
fn a_mesh_keeps_its_material_in_its_shader_and_md5_draws_the_picture_it_names() {
    let dir = scratch("md5-shaders");
    // Bob's shader names the picture beside him: drawn, and written out again.
    let bob = bob::write(&dir.join("bob"), Vec3::NEG_Y);
    let imported = md5_import::load(&bob).expect("Bob loads");
    let materials = &imported.looks.materials;
    assert_eq!(materials.list.len(), 1);
    assert_eq!(materials.images[0].bytes, bob::png(bob::BODY_COLOUR));
    assert!(imported.files.iter().any(|f| f.ends_with("bob_body.png")), "{:?}", imported.files);
    let info = program(&["--model", bob.to_str().unwrap(), "--info"]);
    assert!(info.contains("materials: 1, 1 texture (PNG)"), "{info}");
    let again = to_md5(&bob, &dir.join("again"), "bob");
    assert_eq!(std::fs::read(again.with_file_name("bob_body.png")).unwrap(), bob::png(bob::BODY_COLOUR));
    // The Fox's texture goes beside its MD5 model, named in its shader; the robot's colours go in theirs.
    let Some(fox) = sample_model("Fox.glb") else { return };
    let Some(robot) = sample_model("RobotExpressive.glb") else { return };
    let fox_md5 = to_md5(&fox, &dir.join("fox"), "fox");
    assert_eq!(summary(&fox_md5).0.shaders, ["shader \"fox_material.png\""]);
    let fox_gltf = gltf_import::load(&fox).unwrap();
    let fox_back = md5_import::load(&fox_md5).unwrap();
    assert_eq!(fox_back.looks.materials.images[0].bytes, fox_gltf.looks.materials.images[0].bytes);
    let robot_md5 = to_md5(&robot, &dir.join("robot"), "robot");
    let robot_gltf = gltf_import::load(&robot).unwrap();
    let robot_back = md5_import::load(&robot_md5).unwrap();
    let colours = |m: &skinning_formats::material::Materials| -> Vec<(String, [f32; 4])> {
        let mut list: Vec<_> = m.list.iter().map(|m| (m.name.clone(), m.base_color.to_array())).collect();
        list.sort_by(|a, b| a.0.cmp(&b.0));
        list.dedup();
        list
    };
    assert_eq!(
        colours(&robot_back.looks.materials),
        colours(&robot_gltf.looks.materials),
        "every colour exactly"
    );
    // A shader whose picture is missing, or outside the model's folder: said once, drawn plain.
    for (shader, says) in [
        ("gone.png", "no file \"gone.png\" beside the model"),
        ("../bob/bob_body.png", "leads outside the model's folder"),
    ] {
        let folder = dir.join("odd");
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("odd.md5mesh"), bob::mesh(Vec3::NEG_Y, shader)).unwrap();
        let odd = md5_import::load(&folder.join("odd.md5mesh")).expect("it loads");
        assert!(odd.looks.materials.list.is_empty(), "{shader}");
        assert!(
            odd.notes.iter().any(|n| n.contains(says) && n.contains("drawn without its texture")),
            "{shader}: {:?}",
            odd.notes
        );
    }
}

#[test]
fn info_lists_rest_once() {
    // A model without clips is written with rest.md5anim, its rest pose: that is the clip `rest`.
    let dir = scratch("md5-rest");
    let tile = dir.join("tile.gltf");
    std::fs::write(&tile, common::horse::tile().embedded()).unwrap();
    let md5 = to_md5(&tile, &dir.join("md5"), "tile");
    let info = program(&["--model", md5.to_str().unwrap(), "--info"]);
    assert_eq!(info.matches("\"rest\"").count(), 1, "{info}");
}

/// Each part's materials, in the order its triangles first take them.
fn materials_by_part(
    model: &skinning_method::model::Model,
    looks: &skinning_formats::material::Looks,
) -> Vec<Vec<usize>> {
    let mut by_part = vec![Vec::new(); model.parts.len()];
    for run in &looks.materials.runs {
        let Some(m) = run.material else { continue };
        for t in &model.triangles[run.triangles.clone()] {
            let p = model.parts.iter().position(|p| p.vertices.contains(&(t[0] as usize))).unwrap();
            if !by_part[p].contains(&m) {
                by_part[p].push(m);
            }
        }
    }
    by_part
}

#[test]
fn a_mesh_of_several_materials_becomes_an_md5_mesh_for_each() {
    // The tile (`common/horse.rs`), its square twice over: a textured primitive and a blue one.
    let mut gltf = common::horse::tile();
    let square = gltf.json["meshes"][0]["primitives"][0].clone();
    let mut blue = square.clone();
    blue["material"] = serde_json::json!(1);
    gltf.json["meshes"][0]["primitives"] = serde_json::json!([square, blue]);
    let blue =
        serde_json::json!({ "name": "blue", "pbrMetallicRoughness": { "baseColorFactor": [0, 0, 1, 1] } });
    gltf.push("materials", blue);
    let model = gltf_import::load_from_slice(&gltf.embedded(), None).expect("it loads");
    let by_part = materials_by_part(&model.model, &model.looks);
    assert!(by_part.iter().any(|m| m.len() == 2), "{by_part:?}");
    let pieces: usize = by_part.iter().map(|m| m.len().max(1)).sum();
    let files =
        skinning_formats::md5_export::export(&model.model, &model.looks, &model.clips).expect("exports");
    let dir = scratch("md5-pieces");
    std::fs::write(dir.join("tile.md5mesh"), &files.mesh).unwrap();
    for (name, bytes) in &files.pictures {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    for (stem, text) in &files.animations {
        std::fs::write(dir.join(format!("{stem}.md5anim")), text).unwrap();
    }
    let back = md5_import::load(&dir.join("tile.md5mesh")).expect("our own files load");
    // One MD5 mesh per material of each part (the old program wrote one per part, in its first
    // material's colour), each with its own colour, in order.
    assert_eq!(back.meshes.len(), pieces);
    let colour =
        |looks: &skinning_formats::material::Looks, m: usize| looks.materials.list[m].base_color.to_array();
    let before: Vec<[f32; 4]> = by_part.iter().flatten().map(|&m| colour(&model.looks, m)).collect();
    let after: Vec<[f32; 4]> = materials_by_part(&back.model, &back.looks)
        .iter()
        .flatten()
        .map(|&m| colour(&back.looks, m))
        .collect();
    assert_eq!(before, after, "each piece keeps its material's colour");
    assert!(after.contains(&[0.0, 0.0, 1.0, 1.0]), "{after:?}");
    assert_eq!(back.looks.materials.images.len(), 1, "the tile's picture, in the first mesh's shader");
}
