//! Round trip: the article's scene written as glTF (`gltf_export`) and read back (`gltf_import`)
//! moves as the built-in scene, frame after frame, for every clip (within 1e-5, and within the
//! sampling bound for the procedural `seed`); its skeleton, offsets
//! and skin come back as they were; and the file holds what the glTF specification asks for,
//! checked here straight from its JSON and bytes, without the loader.

use common::{run, scratch};
use glam::{Quat, Vec3};
use serde_json::Value;
use skinning_fast::synthetic;
use skinning_formats::gltf_export::{Container, ExportError, SAMPLES_PER_SECOND, export};
use skinning_formats::gltf_import::{Imported, SYNTHETIC_ROOT, load, load_from_slice};
use skinning_formats::material::Looks;
use skinning_method::clip::{Channel, Clip, Motion, Track};
use skinning_method::frame::Pose;
use skinning_method::model::Model;
use skinning_method::scene::{self, BONE2};

fn article() -> (Model, Vec<Clip>) {
    (scene::article().expect("the scene is valid"), scene::clips().expect("the clips are valid"))
}

/// The article's scene written in `container` and loaded back.
fn round_trip(container: Container) -> Imported {
    let (model, clips) = article();
    let bytes = export(&model, &Looks::default(), &[], &clips, container).expect("the scene exports");
    load_from_slice(&bytes, None).expect("our own file loads")
}

/// Times over three loops of a 4 s clip and a bit before 0, between keys and on them.
fn times() -> impl Iterator<Item = f64> {
    (-40..=1200).map(|k| k as f64 * 0.01).chain([1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 8.0, 11.999])
}

/// The largest distance between the built-in scene's skinned vertices and the loaded file's, over
/// `times()`, for each clip in order.
fn largest_differences(imported: &Imported) -> Vec<(String, f32)> {
    let (model, clips) = article();
    let (mut built, mut loaded) = (Pose::new(&model), Pose::new(&imported.model));
    clips
        .iter()
        .zip(&imported.clips)
        .map(|(clip, loaded_clip)| {
            let mut largest = 0.0f32;
            for t in times() {
                built.update(&model, clip, t);
                loaded.update(&imported.model, loaded_clip, t);
                for (a, b) in built.skinned.iter().zip(&loaded.skinned) {
                    largest = largest.max(a.distance(*b));
                }
            }
            (clip.name.clone(), largest)
        })
        .collect()
}

#[test]
fn every_frame_of_every_clip_comes_back_as_the_built_in_scene_moves() {
    for container in [Container::Gltf, Container::Glb] {
        let imported = round_trip(container);
        assert!(imported.notes.is_empty(), "our own file needs no mending: {:?}", imported.notes);
        let names: Vec<&str> = imported.clips.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["seed", "bend", "twist"]);
        assert!(imported.clips.iter().all(|c| c.duration == 4.0), "each clip loops after 4 s");
        let differences = largest_differences(&imported);
        println!("{container:?}: largest distance from the built-in scene per clip: {differences:?}");
        for (name, largest) in differences {
            // Keyframes go out key for key. `seed` is sampled: in a straight line between keys a
            // vertex on bone32 is off the curve by at most 0.185 h² (see SAMPLES_PER_SECOND).
            let h = 1.0 / SAMPLES_PER_SECOND;
            let allowed = if name == "seed" { 0.185 * h * h + 1e-6 } else { 1e-5 };
            assert!(largest <= allowed, "{name}: {largest} > {allowed}");
            assert!(allowed <= 1e-3);
        }
    }
}

#[test]
fn the_skeleton_offsets_and_skin_come_back_as_they_were() {
    let (model, _) = article();
    let imported = round_trip(Container::Glb);
    let (skeleton, loaded) = (&model.skeleton, &imported.model.skeleton);
    // The article's five bones, then the skinned mesh's own node, then the root above the two.
    assert_eq!(loaded.len(), 7);
    assert_eq!((loaded.bone(5).name.as_str(), loaded.bone(6).name.as_str()), ("mesh", SYNTHETIC_ROOT));
    assert_eq!((loaded.root(), loaded.bone(5).parent), (6, Some(6)));
    for (i, bone) in skeleton.bones().iter().enumerate() {
        let back = loaded.bone(i);
        assert_eq!(back.name, bone.name);
        let parent = if i == skeleton.root() { Some(6) } else { bone.parent };
        assert_eq!(back.parent, parent, "{}", bone.name);
        assert!(back.rest.to_mat4().abs_diff_eq(bone.rest.to_mat4(), 1e-6), "{}", bone.name);
    }
    assert_eq!(loaded.bone(scene::BONE2).first_child, Some(scene::BONE31));
    assert_eq!(loaded.bone(scene::BONE31).sibling, Some(scene::BONE32));

    let (joints, back) = (model.skin.joints(), imported.model.skin.joints());
    assert_eq!(back.len(), joints.len());
    for (j, (a, b)) in joints.iter().zip(back).enumerate() {
        assert_eq!(a.bone, b.bone, "joint {j}");
        assert!(a.offset.abs_diff_eq(b.offset, 1e-6), "joint {j}: {} != {}", a.offset, b.offset);
    }
    assert_eq!(imported.skins.len(), 1);
    assert_eq!(imported.skins[0].joints, 0..5);
    assert_eq!(imported.model.skin.bind(), model.skin.bind(), "bind positions");
    assert_eq!(imported.model.skin.vertex_influences(), model.skin.vertex_influences(), "influences");
    // The importer keeps every edge once, smaller vertex first: the article's closed loop.
    let mut edges: Vec<[u32; 2]> = model.edges.iter().map(|&[a, b]| [a.min(b), a.max(b)]).collect();
    edges.sort();
    assert_eq!(imported.model.edges, edges);
}

/// The file's JSON and its buffer's bytes, read by hand: a `.glb`'s two chunks.
fn glb_parts(bytes: &[u8]) -> (Value, Vec<u8>) {
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    assert_eq!(&bytes[..4], b"glTF");
    assert_eq!((word(4), word(8)), (2, bytes.len()), "version 2, and the length of the whole file");
    let json_length = word(12);
    assert_eq!((&bytes[16..20], json_length % 4), (&b"JSON"[..], 0));
    let bin_at = 20 + json_length;
    assert_eq!((&bytes[bin_at + 4..bin_at + 8], word(bin_at) % 4), (&b"BIN\0"[..], 0));
    assert_eq!(bin_at + 8 + word(bin_at), bytes.len(), "nothing after the BIN chunk");
    let json = serde_json::from_slice(&bytes[20..bin_at]).expect("the JSON chunk is JSON");
    (json, bytes[bin_at + 8..].to_vec())
}

/// Accessor `index`'s floats, straight from the spec: its view's offset plus its own, packed tight.
fn floats(json: &Value, bin: &[u8], index: usize) -> Vec<f32> {
    let accessor = &json["accessors"][index];
    assert_eq!(accessor["componentType"], 5126, "floats");
    let view = &json["bufferViews"][accessor["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap() as usize;
    let length = view["byteLength"].as_u64().unwrap() as usize;
    bin[start..start + length].chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect()
}

#[test]
fn the_file_holds_what_the_spec_asks_for() {
    let (model, clips) = article();
    let (json, bin) = glb_parts(&export(&model, &Looks::default(), &[], &clips, Container::Glb).unwrap());
    assert!(json["asset"]["generator"].as_str().unwrap().starts_with("skinning "));
    assert_eq!(json["asset"]["version"], "2.0");
    // first_child / sibling links as children arrays: bone2's children are bone31 and bone32.
    let nodes = json["nodes"].as_array().unwrap();
    let names: Vec<&str> = nodes.iter().map(|n| n["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["root", "bone1", "bone2", "bone31", "bone32", "mesh"]);
    assert_eq!(nodes[BONE2]["children"], serde_json::json!([3, 4]));
    assert_eq!(nodes[3]["translation"], serde_json::json!([0.2, 0.1, 0.0]), "printed as the f32 reads");
    assert_eq!(json["scenes"][0]["nodes"], serde_json::json!([0, 5]), "the mesh's node is a root");
    let primitive = &json["meshes"][0]["primitives"][0];
    assert_eq!(primitive["mode"], 2, "LINE_LOOP");
    assert!(primitive.get("indices").is_none());
    let position = &json["accessors"][primitive["attributes"]["POSITION"].as_u64().unwrap() as usize];
    assert_eq!(
        (position["min"].clone(), position["max"].clone()),
        (serde_json::json!([-0.1, -0.15, 0.0]), serde_json::json!([0.65, 0.15, 0.0]))
    );
    // Alignment: every view starts on a multiple of 4 bytes, and none has a byteStride.
    for view in json["bufferViews"].as_array().unwrap() {
        assert_eq!(view["byteOffset"].as_u64().unwrap() % 4, 0, "{view}");
        assert!(view.get("byteStride").is_none(), "{view}");
    }
    // The offsets are the inverse bind matrices, bit for bit.
    let offsets = floats(&json, &bin, json["skins"][0]["inverseBindMatrices"].as_u64().unwrap() as usize);
    let expected: Vec<f32> = model.skin.joints().iter().flat_map(|j| j.offset.to_cols_array()).collect();
    assert_eq!(offsets, expected);

    // Keyframes go out as they are: bend's and twist's rotation keys, bit for bit, LINEAR.
    for (a, clip) in [(1, &clips[1]), (2, &clips[2])] {
        let animation = &json["animations"][a];
        assert_eq!(animation["name"].as_str(), Some(clip.name.as_str()));
        let Motion::Keyframes(tracks) = &clip.motion else { panic!("{} is keyframed", clip.name) };
        assert_eq!(animation["channels"].as_array().unwrap().len(), tracks.len());
        for (c, track) in tracks.iter().enumerate() {
            let channel = &animation["channels"][c];
            assert_eq!(
                (channel["target"]["node"].as_u64(), &channel["target"]["path"]),
                (Some(track.bone as u64), &Value::from("rotation"))
            );
            let sampler = &animation["samplers"][channel["sampler"].as_u64().unwrap() as usize];
            assert_eq!(sampler["interpolation"], "LINEAR");
            let rotation = track.rotation.as_ref().unwrap();
            let input = sampler["input"].as_u64().unwrap() as usize;
            assert_eq!(floats(&json, &bin, input), rotation.times);
            assert_eq!(json["accessors"][input]["max"], serde_json::json!([rotation.end()]));
            let values: Vec<f32> = rotation.values.iter().flat_map(|q| q.to_array()).collect();
            assert_eq!(floats(&json, &bin, sampler["output"].as_u64().unwrap() as usize), values);
        }
    }
    // seed is sampled: bone1 and bone32 translate, 30 keys a second over 4 s, both ends included.
    let seed = &json["animations"][0];
    let targets: Vec<(u64, &str)> = (seed["channels"].as_array().unwrap().iter())
        .map(|c| (c["target"]["node"].as_u64().unwrap(), c["target"]["path"].as_str().unwrap()))
        .collect();
    assert_eq!(targets, [(1, "translation"), (4, "translation")]);
    let times = floats(&json, &bin, seed["samplers"][0]["input"].as_u64().unwrap() as usize);
    assert_eq!((times.len(), times[1], times[120]), (121, 4.0 / 120.0, 4.0));
}

#[test]
fn other_lines_go_out_as_lines_and_a_sampled_turn_stays_close() {
    // A tube of two bones: its rings are not one loop, and its wave turns the bones.
    let model = synthetic::tube(2, 3, 5);
    let wave = synthetic::wave();
    let bytes = export(&model, &Looks::default(), &[], std::slice::from_ref(&wave), Container::Gltf)
        .expect("exports");
    let imported = load_from_slice(&bytes, None).expect("loads");
    let json: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(json["meshes"][0]["primitives"][0]["mode"], 1, "LINES");
    let mut edges: Vec<[u32; 2]> = model.edges.iter().map(|&[a, b]| [a.min(b), a.max(b)]).collect();
    edges.sort();
    assert_eq!(imported.model.edges, edges);
    // Each bone's angle, 0.1 sin(π t + phase), is off by at most 0.1 π² h² / 8 between keys; a
    // vertex is at most 2.1 from bone 0's joint and 1.1 from bone 1's: 4.4e-4 in all.
    let h = 1.0 / SAMPLES_PER_SECOND;
    let allowed = 0.1 * std::f32::consts::PI.powi(2) * h * h / 8.0 * (2.1 + 1.1);
    let (mut built, mut loaded) = (Pose::new(&model), Pose::new(&imported.model));
    let mut largest = 0.0f32;
    for k in 0..400 {
        let t = k as f64 * 0.0137;
        built.update(&model, &wave, t);
        loaded.update(&imported.model, &imported.clips[0], t);
        for (a, b) in built.skinned.iter().zip(&loaded.skinned) {
            largest = largest.max(a.distance(*b));
        }
    }
    println!("the tube's wave, sampled: largest distance {largest} (allowed {allowed})");
    assert!(largest <= allowed, "{largest} > {allowed}");
}

#[test]
fn a_clip_that_would_loop_at_another_time_is_refused() {
    let (model, _) = article();
    let rotations = [(0.0, Quat::IDENTITY), (3.0, Quat::from_rotation_z(0.5))];
    let track = Track { rotation: Some(Channel::linear(&rotations)), ..Track::new(BONE2) };
    let clip = Clip { name: "held".into(), duration: 4.0, motion: Motion::Keyframes(vec![track]) };
    let err = export(&model, &Looks::default(), &[], &[clip], Container::Gltf)
        .expect_err("3 s of keys, 4 s of clip");
    assert_eq!(err, ExportError::Duration { clip: "held".into(), duration: 4.0, last_key: 3.0 });
    assert!(err.to_string().contains("ends on its last key"), "{err}");
}

/// The program's `--dump` of `args`, its frames' skinned positions.
fn dumped(dir: &std::path::Path, name: &str, args: &[&str]) -> Vec<Vec<Vec3>> {
    let path = dir.join(name);
    let frames = ["--frames", "150", "--fixed-dt", "0.0813", "--time", "0.01"];
    let out = run(&[args, &["--dump", path.to_str().unwrap()], &frames[..]].concat());
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "no notes for our own file: {}", String::from_utf8_lossy(&out.stderr));
    let json: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let position = |p: &Value| Vec3::from_array(std::array::from_fn(|i| p[i].as_f64().unwrap() as f32));
    (json["frames"].as_array().unwrap().iter())
        .map(|f| f["skinned"].as_array().unwrap().iter().map(position).collect())
        .collect()
}

#[test]
fn the_program_exports_and_plays_the_file_as_the_built_in_scene() {
    let dir = scratch("export");
    for file in ["article.gltf", "article.glb"] {
        let path = dir.join(file);
        let out = run(&["--export-gltf", path.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(load(&path).expect("loads").clips.len(), 3);
        // 150 frames 0.0813 s apart: three loops, hardly ever on a key. `seed` is held to the
        // sampling bound of the test above.
        let h = 1.0 / SAMPLES_PER_SECOND;
        for (clip, allowed) in [("seed", 0.185 * h * h + 1e-6), ("bend", 1e-5), ("twist", 1e-5)] {
            let built = dumped(&dir, "built.json", &["--clip", clip]);
            let loaded =
                dumped(&dir, "loaded.json", &["--model", path.to_str().unwrap(), "--animation", clip]);
            assert_eq!(built.len(), loaded.len());
            let largest = (built.iter().flatten().zip(loaded.iter().flatten()))
                .map(|(a, b)| a.distance(*b))
                .fold(0.0, f32::max);
            println!("{file}, --animation {clip}: largest distance from --clip {clip}: {largest}");
            assert!(largest <= allowed, "{file} {clip}: {largest}");
        }
    }
    // `-`: the .gltf JSON on standard output, the same bytes; the line saying so on standard error.
    let out = run(&["--export-gltf", "-"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && said.starts_with("wrote standard output (glTF JSON,"), "{said}");
    assert_eq!(said.lines().count(), 1, "{said}");
    assert_eq!(out.stdout, std::fs::read(dir.join("article.gltf")).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}
