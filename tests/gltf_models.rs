//! Real models, from the folder named by `SKINNING_MODELS` (CI: `../shared/assets`): the Khronos
//! SimpleSkin checked against the glTF formula worked out inside the test, and the Fox loaded,
//! played, drawn, and skinned on the GPU too. Without the variable these say SKIPPED and pass.

use base64::Engine;
use common::spec::slerp;
use common::{Class, Image, run, run_gl, sample_model, scratch};
use glam::{Mat4, Quat, Vec3, Vec4};
use serde_json::Value;
use skinning_formats::gltf_import::{Imported, load};
use skinning_method::clip::Motion;
use skinning_method::frame::Pose;

/// Reads accessor `index` of a glTF JSON whose buffers are `data:` URIs, as rows of floats:
/// the test's own reader, a few lines straight from the spec (little-endian, byteStride or packed).
fn accessor(json: &Value, buffers: &[Vec<u8>], index: usize) -> Vec<Vec<f32>> {
    let a = &json["accessors"][index];
    let view = &json["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let n = match a["type"].as_str().unwrap() {
        "SCALAR" => 1,
        "VEC3" => 3,
        "VEC4" => 4,
        "MAT4" => 16,
        other => panic!("{other}"),
    };
    let size = match a["componentType"].as_u64().unwrap() {
        5126 => 4,
        5123 => 2,
        other => panic!("{other}"),
    };
    let stride = view["byteStride"].as_u64().map_or(n * size, |s| s as usize);
    let bytes = &buffers[view["buffer"].as_u64().unwrap() as usize];
    let start =
        view["byteOffset"].as_u64().unwrap_or(0) as usize + a["byteOffset"].as_u64().unwrap_or(0) as usize;
    (0..a["count"].as_u64().unwrap() as usize)
        .map(|i| {
            (0..n)
                .map(|c| {
                    let at = start + i * stride + c * size;
                    match size {
                        4 => f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()),
                        _ => u16::from_le_bytes(bytes[at..at + 2].try_into().unwrap()) as f32,
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn simple_skin_follows_the_gltf_formula_worked_out_by_hand() {
    let Some(path) = sample_model("SimpleSkin.gltf") else { return };
    let json: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let buffers: Vec<Vec<u8>> = (json["buffers"].as_array().unwrap().iter())
        .map(|b| {
            let uri = b["uri"].as_str().unwrap();
            base64::engine::general_purpose::STANDARD.decode(uri.split_once(',').unwrap().1).unwrap()
        })
        .collect();
    // The file as its JSON says: node 0 holds the mesh and the skin, node 1 and node 2 are the joints.
    let positions = accessor(&json, &buffers, 1);
    let joints = accessor(&json, &buffers, 2);
    let weights = accessor(&json, &buffers, 3);
    let ibm: Vec<Mat4> = accessor(&json, &buffers, 4).iter().map(|m| Mat4::from_cols_slice(m)).collect();
    let times: Vec<f32> = accessor(&json, &buffers, 5).iter().map(|t| t[0]).collect();
    // Rotations are unit quaternions (spec 3.11); the file writes 0.707 for the square root of 1/2,
    // so scale each key to length 1, as every reader must.
    let rotations: Vec<Vec4> =
        accessor(&json, &buffers, 6).iter().map(|q| Vec4::from_slice(q).normalize()).collect();
    let node1 = Mat4::from_translation(Vec3::new(0.0, 1.0, 0.0));

    let imported = load(&path).expect("SimpleSkin loads");
    let (model, clip) = (&imported.model, &imported.clips[0]);
    assert_eq!((model.skin.len(), model.skin.joints().len(), imported.clips.len()), (10, 2, 1));
    let mut pose = Pose::new(model);
    for t in [0.0f32, 0.7, 1.3, 2.75, 3.2, 4.0, 5.1] {
        // Node 2's rotation at t, LINEAR: slerp between the keys around t.
        let k = times.iter().rposition(|&k| k <= t).unwrap().min(times.len() - 2);
        let s = ((t - times[k]) / (times[k + 1] - times[k])).clamp(0.0, 1.0);
        let q = slerp(rotations[k], rotations[k + 1], s);
        let node2 = node1 * Mat4::from_quat(Quat::from_vec4(q));
        // Joint matrix = world(joint node) * inverse bind matrix; node 0 (identity) is above both.
        let joint_matrix = [node1 * ibm[0], node2 * ibm[1]];
        pose.update(model, clip, t as f64);
        for v in 0..10 {
            let p = Vec3::from_slice(&positions[v]);
            let expected: Vec3 =
                (0..4).map(|i| weights[v][i] * joint_matrix[joints[v][i] as usize].transform_point3(p)).sum();
            let got = Vec3::from(pose.skinned[v]);
            assert!(got.abs_diff_eq(expected, 1e-5), "t {t} vertex {v}: {got} != {expected}");
        }
    }

    // Rest pose != bind pose: the joints rest at y = 1 on the x = 0 line, but the inverse bind
    // matrices undo x = 0.5. So while the joint is unturned (t = 0) the mesh sits 0.5 to the left of
    // where it was modelled, as the spec's formula says; offsets taken from the rest pose would
    // leave it in place.
    pose.update(model, clip, 0.0);
    for (v, bind) in model.skin.bind_positions().enumerate() {
        let got = Vec3::from(pose.skinned[v]);
        assert!(got.abs_diff_eq(bind - Vec3::new(0.5, 0.0, 0.0), 1e-6), "vertex {v}: {got}");
    }
}

#[test]
fn simple_skin_dump_holds_the_files_offsets_and_skinned_positions() {
    let Some(path) = sample_model("SimpleSkin.gltf") else { return };
    let out = scratch("simple-skin-dump").join("d.json");
    let args = ["--model", path.to_str().unwrap(), "--dump", out.to_str().unwrap(), "--time", "1.3"];
    let result = run(&args);
    assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
    let dump: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    // Each joint slot's offset as the file gives it: a translation by (-0.5, -1, 0).
    for joint in dump["joints"].as_array().unwrap() {
        let offset: Vec<f64> =
            joint["offset"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        assert_eq!(&offset[12..15], &[-0.5, -1.0, 0.0]);
    }
    let imported = load(&path).unwrap();
    let mut pose = Pose::new(&imported.model);
    pose.update(&imported.model, &imported.clips[0], 1.3);
    let skinned = dump["frames"][0]["skinned"].as_array().unwrap();
    assert_eq!(skinned.len(), 10);
    for (v, p) in skinned.iter().enumerate() {
        let p: Vec<f32> = p.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect();
        assert!(Vec3::from_slice(&p).abs_diff_eq(pose.skinned[v].into(), 1e-6), "vertex {v}");
    }
    assert!(dump["frames"][0].get("rigid").is_none(), "no rigid meshes, no rigid field");
}

fn fox() -> Option<(std::path::PathBuf, Imported)> {
    let path = sample_model("Fox.glb")?;
    let imported = load(&path).expect("Fox.glb loads");
    Some((path, imported))
}

#[test]
fn the_fox_loads_with_its_joints_vertices_and_three_animations() {
    let Some((_, fox)) = fox() else { return };
    assert_eq!(fox.model.skin.joints().len(), 24);
    assert_eq!(fox.model.skinned_len(), 1728);
    // A triangle list without indices: every three vertices are one face.
    assert_eq!(fox.model.triangles.len(), 1728 / 3);
    assert_eq!(fox.skins.len(), 1);
    let names: Vec<&str> = fox.clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["Survey", "Walk", "Run"]);
    // In the rest pose, which the Fox is bound in, the skin sits where it was modelled.
    let pose = Pose::new(&fox.model);
    for (v, bind) in fox.model.skin.bind_positions().enumerate() {
        assert!(Vec3::from(pose.skinned[v]).abs_diff_eq(bind, 1e-3), "vertex {v}");
    }
}

#[test]
fn the_foxs_animations_play_and_rotations_keep_every_bone_its_length() {
    let Some((_, fox)) = fox() else { return };
    let (model, skeleton) = (&fox.model, &fox.model.skeleton);
    let rest_world = skeleton.rest_world();
    let mut pose = Pose::new(model);
    for clip in &fox.clips {
        let Motion::Keyframes(tracks) = &clip.motion else { panic!("keyframes") };
        assert!(clip.duration > 0.5, "{}: {} s", clip.name, clip.duration);
        // Bones whose own translation is animated may change length; with no scale keys in the clip
        // (the Fox has none), every other bone only turns, so it keeps its rest length.
        assert!(tracks.iter().all(|t| t.scale.is_none()), "{}: the Fox has no scale keys", clip.name);
        let moved: Vec<bool> = (0..skeleton.len())
            .map(|b| tracks.iter().any(|t| t.bone == b && t.translation.is_some()))
            .collect();
        let mut largest_move = 0.0f32;
        let mut previous: Option<Vec<Vec3>> = None;
        for i in 0..24 {
            let t = clip.duration as f64 * i as f64 / 24.0;
            pose.update(model, clip, t);
            for (b, bone) in skeleton.bones().iter().enumerate() {
                let Some(parent) = bone.parent.filter(|_| !moved[b]) else { continue };
                let rest = rest_world[b].w_axis.distance(rest_world[parent].w_axis);
                let now = pose.joint(b).distance(pose.joint(parent));
                assert!(
                    (now - rest).abs() <= 1e-3 * rest.max(1.0),
                    "{} t {t}: {} is {now} long, not {rest}",
                    clip.name,
                    bone.name
                );
            }
            let skinned: Vec<Vec3> = pose.skinned.iter().map(|&p| p.into()).collect();
            if let Some(before) = &previous {
                let step = skinned.iter().zip(before).map(|(a, b)| a.distance(*b)).fold(0.0, f32::max);
                largest_move = largest_move.max(step);
            }
            previous = Some(skinned);
        }
        // The Fox is about 150 units long: something moves by more than a unit between frames.
        assert!(largest_move > 1.0, "{} hardly moves ({largest_move})", clip.name);
    }
}

#[test]
fn the_fox_on_screen_shows_all_three_layers() {
    let Some((path, _)) = fox() else { return };
    let shot = scratch("fox-shot").join("fox.png");
    let args = ["--model", path.to_str().unwrap(), "--animation", "Walk", "--headless", "--frames", "1"];
    // Seen from its side (the camera starts at its front, where the skin hides the bind pose).
    let more =
        ["--time", "0.3", "--size", "640x480", "--camera", "90,0", "--screenshot", shot.to_str().unwrap()];
    if run_gl(&[&args[..], &more].concat()).is_none() {
        return;
    }
    let image = Image::load(&shot);
    let (green, blue) = (image.count(Class::Green), image.count(Class::Blue));
    // The skinned mesh is lit in its texture's colours: orange fur, where red leads.
    let fur = image.rgba.chunks_exact(4).filter(|p| p[0] > 120 && p[0] as i32 > p[2] as i32 + 60).count();
    println!("fox: {fur} orange or red, {green} green, {blue} blue pixels");
    assert!(fur > 2000 && green > 2000, "both meshes drawn: {fur} orange or red, {green} green");
    assert!(blue > 100, "the bones drawn: {blue} blue");
}

#[test]
fn the_fox_skinned_on_the_gpu_equals_the_cpu_within_1e_5() {
    let Some((path, _)) = fox() else { return };
    let dir = scratch("fox-gpu");
    let mut largest = 0.0f64;
    for animation in ["Survey", "Walk", "Run"] {
        let dump = |skinning: &str| {
            let out = dir.join(format!("{animation}-{skinning}.json"));
            let args = ["--model", path.to_str().unwrap(), "--animation", animation, "--skinning", skinning];
            let frames = ["--frames", "6", "--fixed-dt", "0.1", "--dump", out.to_str().unwrap()];
            run_gl(&[&args[..], &frames].concat())?;
            Some(serde_json::from_str::<Value>(&std::fs::read_to_string(&out).unwrap()).unwrap())
        };
        let (Some(cpu), Some(gpu)) = (dump("cpu"), dump("gpu")) else { return };
        for (c, g) in cpu["frames"].as_array().unwrap().iter().zip(gpu["frames"].as_array().unwrap()) {
            let (c, g) = (c["skinned"].as_array().unwrap(), g["skinned"].as_array().unwrap());
            assert_eq!((c.len(), g.len()), (1728, 1728));
            for (v, (c, g)) in c.iter().zip(g).enumerate() {
                for axis in 0..3 {
                    let d = (c[axis].as_f64().unwrap() - g[axis].as_f64().unwrap()).abs();
                    assert!(d <= 1e-5, "{animation} vertex {v}: CPU {c} GPU {g}");
                    largest = largest.max(d);
                }
            }
        }
    }
    println!("Fox: largest CPU/GPU difference {largest:e} over 3 animations x 6 frames x 1728 vertices");
}

#[test]
fn a_steady_frame_with_the_fox_loaded_allocates_nothing() {
    let Some((path, _)) = fox() else { return };
    for skinning in ["cpu", "gpu"] {
        let args =
            ["--model", path.to_str().unwrap(), "--headless", "--frames", "200", "--fixed-dt", "0.016"];
        let more = ["--size", "160x120", "--stats", "--skinning", skinning];
        let Some(out) = run_gl(&[&args[..], &more].concat()) else { return };
        let stdout = String::from_utf8_lossy(&out.stdout);
        let line = stdout.lines().find(|l| l.starts_with("stats:")).expect("a stats line");
        assert!(line.contains(" 0 allocations drawing frames 4..200"), "--skinning {skinning}: {line}");
    }
}

#[test]
fn info_describes_the_fox_for_a_learner() {
    let Some(path) = sample_model("Fox.glb") else { return };
    let out = run(&["--model", path.to_str().unwrap(), "--info"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    // What the Fox has besides its skin: its one material and texture, drawn on the lit surface, and its UVs.
    let unused = "materials: 1, 1 texture (PNG), drawn on the lit surface, except in the weight view; texture \
                  coordinates on all 1728 vertices";
    for expected in [
        "b_Hip_01",
        "joint 2 of skin 0",
        "24 joints",
        "bound in the nodes' rest pose",
        "\"Walk\"",
        "LINEAR",
        unused,
    ] {
        assert!(text.contains(expected), "--info lacks {expected:?}:\n{text}");
    }
    // Every node appears once in the tree.
    assert_eq!(text.matches("(bone ").count(), 27, "{text}");
}
