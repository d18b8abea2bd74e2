//! A user's file kept whole through the exports: texture coordinates come back unchanged, an MD5
//! model is lit with smooth normals like the glTF it came from, a model of any kind goes out as
//! glTF and comes back moving as it did in every clip, a clip's name comes back from a safe file
//! name, and a model without clips is written in the pose it was shown in.

use common::gltf_build::Gltf;
use common::{run, sample_model, scratch};
use glam::{Quat, Vec3, Vec3A};
use serde_json::json;
use skinning_formats::gltf_export::{Container, export};
use skinning_formats::material::Looks;
use skinning_formats::{gltf_import, md5_export, md5_import};
use skinning_method::clip::Clip;
use skinning_method::frame::Pose;
use skinning_method::model::{Axes, Model};
use skinning_method::normals::degrees_between;

/// `model` (with its `looks`) and `clips` written as MD5 and read back.
fn md5_round_trip(model: &Model, looks: &Looks, clips: &[Clip]) -> md5_import::Imported {
    let files = md5_export::export(model, looks, clips).expect("the model exports as MD5");
    let animations: Vec<(&str, &str)> =
        files.animations.iter().map(|(s, t)| (s.as_str(), t.as_str())).collect();
    md5_import::load_from_str(&files.mesh, &animations).expect("our own MD5 files load")
}

/// A Y-up point as an MD5 file has it, turned back: the exporter writes (z, x, y), id's axes.
fn from_z_up(p: Vec3A) -> Vec3 {
    Vec3::new(p.y, p.z, p.x)
}

/// The diagonal of the box around the model's bind positions.
fn size(model: &Model) -> f32 {
    let (mut min, mut max) = (Vec3::INFINITY, Vec3::NEG_INFINITY);
    for p in model.skin.bind_positions() {
        (min, max) = (min.min(p), max.max(p));
    }
    (max - min).length()
}

#[test]
fn texture_coordinates_come_back_unchanged_through_md5_and_gltf() {
    let Some(fox) = sample_model("Fox.glb") else { return };
    let imported = gltf_import::load(&fox).expect("the Fox loads");
    let (model, looks) = (&imported.model, &imported.looks);
    assert_eq!(looks.texcoords.len(), model.skin.len(), "one per vertex, from TEXCOORD_0");
    assert!(looks.texcoords.iter().any(|t| *t != glam::Vec2::ZERO));
    let md5 = md5_round_trip(model, looks, &imported.clips);
    assert_eq!(md5.looks.texcoords, looks.texcoords, "through MD5, bit for bit");
    let bytes =
        export(&md5.model, &md5.looks, &[], &md5.clips, Container::Glb).expect("the MD5 Fox exports as glTF");
    let back = gltf_import::load_from_slice(&bytes, None).expect("and loads");
    assert_eq!(back.looks.texcoords, looks.texcoords, "then through glTF, bit for bit");
    // The material and its texture come along too.
    assert_eq!(looks.materials.images.len(), 1, "the Fox's texture");
    let exported =
        export(model, looks, &imported.morphs, &imported.clips, Container::Glb).expect("the Fox exports");
    let direct = gltf_import::load_from_slice(&exported, None).expect("the Fox's own export loads");
    assert_eq!(direct.looks.materials.images, looks.materials.images, "the image file's own bytes");
    assert_eq!(direct.looks.materials.list[0].base_color, looks.materials.list[0].base_color);
}

/// The angles between `ours` (an MD5 model's, Z-up) and `theirs` (the glTF's): sorted.
fn angles(ours: &[Vec3A], theirs: &[Vec3A]) -> Vec<f32> {
    let mut angles: Vec<f32> =
        ours.iter().zip(theirs).map(|(a, b)| degrees_between(from_z_up(*a).into(), *b)).collect();
    angles.sort_by(f32::total_cmp);
    angles
}

/// The angle below which a share `q` of `angles` (sorted) lie.
fn quantile(angles: &[f32], q: f32) -> f32 {
    angles[((angles.len() - 1) as f32 * q) as usize]
}

#[test]
fn an_md5_model_gets_smooth_normals_close_to_the_gltf_it_came_from() {
    // A tube of rings of 16 (tests/common/character.rs), its NORMALs straight out of the tube.
    let dir = scratch("smooth-normals");
    let path = dir.join("tube.glb");
    std::fs::write(&path, common::character::character(true).glb()).unwrap();
    let tube = gltf_import::load(&path).expect("the tube loads");
    let md5 = md5_round_trip(&tube.model, &tube.looks, &tube.clips);
    let (ours, theirs) = (md5.model.skin.normals(), tube.model.skin.normals());
    assert_eq!(ours.len(), theirs.len(), "an MD5 model has a normal per vertex, not flat ones");
    let tube_angles = angles(ours, theirs);
    let at = |q| quantile(&tube_angles, q);
    println!(
        "the MD5 tube's normals against the glTF's: median {:.2}°, 99% within {:.2}°, largest {:.1}°",
        at(0.5),
        at(0.99),
        at(1.0)
    );
    // Round the tube, each vertex's triangles lean as much one way as the other: straight out.
    // Only the end rings lean a little along the tube (3.8° measured).
    assert!(at(0.99) < 0.1 && at(1.0) < 5.0, "99% {}, largest {}", at(0.99), at(1.0));

    // Vertices at one place (the Fox's texture seams) share one normal: no crease in the light.
    let Some(fox) = sample_model("Fox.glb") else { return };
    let fox = gltf_import::load(&fox).expect("the Fox loads");
    let md5 = md5_round_trip(&fox.model, &fox.looks, &fox.clips);
    let (normals, mut first_at) = (md5.model.skin.normals(), std::collections::HashMap::new());
    let mut shared = 0;
    for (v, p) in md5.model.skin.bind_positions().enumerate() {
        let first = *first_at.entry(p.to_array().map(f32::to_bits)).or_insert(v);
        assert_eq!(normals[first], normals[v], "vertices {first} and {v} share a place");
        shared += usize::from(first != v);
    }
    assert!(shared > 100, "the Fox has seams: {shared} vertices share a place with another");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every clip's skinned positions, the original against the loaded file, the largest distance
/// relative to the original's size, over times across each clip.
fn largest_relative(model: &Model, clips: &[Clip], back: &gltf_import::Imported) -> Vec<(String, f32)> {
    let (mut a, mut b) = (Pose::new(model), Pose::new(&back.model));
    // A model in other axes is written in glTF's (for id's: (x, y, z) → (y, z, x)), as the camera
    // turns it.
    let turn = |p: Vec3A| model.axes.to_gltf(p.into());
    clips
        .iter()
        .map(|clip| {
            let again =
                back.clips.iter().find(|c| c.name == clip.name).expect("each clip comes back by name");
            let mut largest = 0.0f32;
            for k in 0..=40 {
                let t = clip.duration as f64 * k as f64 / 40.0;
                a.update(model, clip, t);
                b.update(&back.model, again, t);
                for (p, q) in a.skinned.iter().zip(&b.skinned) {
                    largest = largest.max(turn(*p).distance(Vec3::from(*q)));
                }
            }
            (clip.name.clone(), largest / size(model))
        })
        .collect()
}

#[test]
fn any_model_goes_out_as_gltf_and_comes_back_moving_as_it_did() {
    let Some(fox) = sample_model("Fox.glb") else { return };
    let Some(robot) = sample_model("RobotExpressive.glb") else { return };
    let fox = gltf_import::load(&fox).expect("the Fox loads");
    let robot = gltf_import::load(&robot).expect("the robot loads");
    // The Fox as MD5, Z-up: turned to Y-up on the way out.
    let md5_fox = md5_round_trip(&fox.model, &fox.looks, &fox.clips);
    for (name, model, looks, clips) in [
        ("Fox", &fox.model, &fox.looks, &fox.clips),
        ("RobotExpressive", &robot.model, &robot.looks, &robot.clips),
        // Its own clips (the loader's `rest`, the bind pose, moves nothing: no animation for it).
        (
            "the Fox as MD5",
            &md5_fox.model,
            &md5_fox.looks,
            &md5_fox.clips[..md5_fox.animations.len()].to_vec(),
        ),
    ] {
        for container in [Container::Gltf, Container::Glb] {
            // (The Fox has no morph targets.)
            let bytes = export(model, looks, &[], clips, container).expect("exports");
            let back = gltf_import::load_from_slice(&bytes, None).expect("our own file loads");
            assert_eq!(back.model.axes, Axes::GLTF);
            for (clip, off) in largest_relative(model, clips, &back) {
                println!("{name} ({container:?}), {clip}: {off:.1e} of its size");
                assert!(off < 1e-5, "{name}, {clip}: {off:e}");
            }
            assert_eq!(back.model.skin.normals().len(), model.skin.normals().len(), "{name}: normals");
            assert_eq!(back.model.triangles.len(), model.triangles.len(), "{name}: triangles");
        }
    }
}

#[test]
fn a_clip_name_that_is_no_file_name_comes_back_from_inside_the_file() {
    let Some(fox) = sample_model("Fox.glb") else { return };
    let mut imported = gltf_import::load(&fox).expect("the Fox loads");
    imported.clips[0].name = "Armature|mixamo.com|Layer0".into();
    imported.clips[1].name = "Armature/mixamo.com|Layer0".into();
    let files = md5_export::export(&imported.model, &imported.looks, &imported.clips).expect("exports");
    let stems: Vec<&str> = files.animations.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(stems, ["Armature_mixamo.com_Layer0", "Armature_mixamo.com_Layer0_2", "Run"]);
    assert!(
        files.animations[0]
            .1
            .contains("commandline \"skinning --export-md5: clip Armature|mixamo.com|Layer0\"")
    );
    let back = md5_round_trip(&imported.model, &imported.looks, &imported.clips);
    let names: Vec<&str> = back.clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["Armature|mixamo.com|Layer0", "Armature/mixamo.com|Layer0", "Run", "rest"]);
}

/// Two bones, the second bound straight up and resting turned a quarter turn: a file whose rest
/// pose is not its bind pose, and which has no animation.
fn bent_at_rest() -> Gltf {
    let mut g = Gltf::new();
    let rest = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    g.json["nodes"] = json!([
        { "name": "root", "children": [1] },
        { "name": "arm", "translation": [0.0, 1.0, 0.0], "rotation": rest.to_array() },
        { "name": "mesh", "mesh": 0, "skin": 0 }
    ]);
    g.json["scenes"] = json!([{ "nodes": [0, 2] }]);
    g.json["scene"] = json!(0);
    let positions = [0.2f32, 0.0, 0.0, 0.2, 1.0, 0.0, 0.2, 2.0, 0.0, -0.2, 2.0, 0.0];
    let position = g.floats(&positions, "VEC3");
    let joints = g.ints(&[0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], "VEC4", 5123, false);
    let weights = [1.0f32, 0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
    let weights = g.floats(&weights, "VEC4");
    let indices = g.ints(&[0, 1, 2, 0, 2, 3], "SCALAR", 5123, false);
    g.json["meshes"] = json!([{ "primitives": [{
        "attributes": { "POSITION": position, "JOINTS_0": joints, "WEIGHTS_0": weights },
        "indices": indices
    }] }]);
    // Bound upright: the arm's bind world is a move up by 1, not turned.
    let ibm: Vec<f32> = [glam::Mat4::IDENTITY, glam::Mat4::from_translation(-Vec3::Y)]
        .iter()
        .flat_map(|m| m.to_cols_array())
        .collect();
    let ibm = g.floats(&ibm, "MAT4");
    g.json["skins"] = json!([{ "joints": [0, 1], "inverseBindMatrices": ibm }]);
    g
}

#[test]
fn a_model_without_clips_is_written_in_the_rest_pose_it_was_shown_in() {
    let dir = scratch("rest-export");
    let gltf = dir.join("bent.gltf");
    std::fs::write(&gltf, bent_at_rest().embedded()).unwrap();
    let mesh = dir.join("md5/bent.md5mesh");
    let out = run(&["--model", gltf.to_str().unwrap(), "--export-md5", mesh.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let shown = gltf_import::load(&gltf).expect("loads");
    let written = md5_import::load(&mesh).expect("the export loads");
    assert_eq!(written.clips[0].name, "rest", "the pose shown, as a clip named rest");
    let (mut a, mut b) = (Pose::new(&shown.model), Pose::new(&written.model));
    a.update(&shown.model, &shown.clips[0], 0.0);
    b.update(&written.model, &written.clips[0], 0.0);
    for (p, q) in a.skinned.iter().zip(&b.skinned) {
        assert!(Vec3::from(*p).distance(from_z_up(*q)) < 1e-5, "{p} shown, {q} written");
    }
    // What the program said it wrote.
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.starts_with("wrote bent.md5mesh and 1 animation in "), "{said}");
    assert!(said.contains("rest.md5anim (clips rest;"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}
