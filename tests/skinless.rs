//! Any valid glTF opens (issue 31, item 1): a mesh on a node without a skin is skinned by one
//! joint, its node, at weight 1, so a file with no skin at all (three.js's Horse, which gallops by
//! its morph targets alone; a static textured mesh) is shown, animated and described like a skinned
//! one. The old program refused every such file ("this program shows skinned characters").
//! A file whose scene holds no mesh loads for `--info`, and is refused, in one line, for the rest.

use common::horse::{self, SQUARE};
use common::{fixture, run, run_gl, scratch};
use glam::Vec3;
use serde_json::{Value, json};
use skinning_formats::gltf_import::load_from_slice;
use skinning_method::frame::{Frame, Pose};
use skinning_method::morph::{Morph, Morphed};

/// `gltf` written into a scratch folder as `name`; its path as text.
fn written(test: &str, name: &str, bytes: &[u8]) -> String {
    let path = scratch(test).join(name);
    std::fs::write(&path, bytes).expect("the scratch folder is writable");
    path.to_str().unwrap().to_string()
}

#[test]
fn a_mesh_without_a_skin_is_one_joint_its_node_at_weight_one() {
    let imported = load_from_slice(&horse::horse().embedded(), None).expect("a file without a skin loads");
    let model = &imported.model;
    // One joint: the mesh's node, its offset undoing the node's rest world transform.
    let joints = model.skin.joints();
    assert_eq!(joints.len(), 1);
    let rest_world = model.skeleton.rest_world();
    assert_eq!(joints[0].bone, 0);
    assert!((rest_world[0] * joints[0].offset).abs_diff_eq(glam::Mat4::IDENTITY, 1e-6));
    // Every vertex: one influence, that joint, weight 1; the one part is rigid, on its node.
    for v in 0..model.skin.len() {
        let influences: Vec<_> = model.skin.influences(v).map(|i| (i.joint, i.weight)).collect();
        assert_eq!(influences, [(0, 1.0)], "vertex {v}");
    }
    assert_eq!(model.parts.len(), 1);
    assert_eq!((model.parts[0].skinned, model.parts[0].bone), (false, Some(0)));
    assert_eq!(imported.morphs.len(), 1);
    assert_eq!(imported.clips.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["gallop"]);
    assert_eq!(imported.nothing_to_draw, None);

    // It gallops: its morph weights and its node's keys, as the spec says.
    let (mut pose, mut morphed) = (Pose::new(model), Morphed::new(&model.skin, &imported.morphs));
    let mut morph = Morph { targets: &imported.morphs, held: &[], morphed: &mut morphed };
    for t in [0.0, 0.2, 0.5, 0.7, 0.95] {
        let frame = Frame { reshape: Some(&mut morph), ..Frame::new(&imported.clips[0], t as f64) };
        pose.run(model, frame).expect("linear blending takes any palette");
        for (v, want) in horse::expected(t).into_iter().enumerate() {
            let got = Vec3::from(pose.skinned[v]);
            assert!(got.abs_diff_eq(want, 1e-6), "t {t} vertex {v}: {got} != {want}");
        }
    }

    // The spec's fixture with every skin taken off: its four meshes each move with their node.
    let mut bare = fixture::build();
    bare.json["nodes"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .for_each(|n| _ = n.as_object_mut().unwrap().remove("skin"));
    let bare = load_from_slice(&bare.embedded(), None).expect("the fixture without skins loads");
    assert_eq!(bare.model.parts.len(), 4);
    assert!(bare.model.parts.iter().all(|p| !p.skinned));
    assert!((0..bare.model.skin.len()).all(|v| bare.model.skin.influences(v).count() == 1));
}

#[test]
fn the_program_plays_the_horses_morphs_and_its_node_and_describes_it() {
    let path = written("horse", "horse.gltf", &horse::horse().embedded());
    for t in [0.25f32, 0.8] {
        let time = t.to_string();
        let out = run(&["--model", &path, "--time", &time, "--dump", "-"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let dump: Value = serde_json::from_slice(&out.stdout).expect("a dump");
        let frame = &dump["frames"][0];
        let rigid = frame["rigid"].as_array().expect("the rigid mesh's positions");
        for (v, want) in horse::expected(t).into_iter().enumerate() {
            let got = Vec3::from_array([0, 1, 2].map(|i| rigid[v][i].as_f64().unwrap() as f32));
            assert!(got.abs_diff_eq(want, 1e-5), "t {t} vertex {v}: {got} != {want}");
        }
    }
    let out = run(&["--model", &path, "--info"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let info = String::from_utf8_lossy(&out.stdout);
    for says in [
        "horse (bone 0)  joint slot 0: moves its mesh rigidly  mesh \"horse\": 4 vertices, rigid",
        "meshes: 0 skinned (0 vertices), 1 rigid (4 vertices)",
        "none: each mesh moves with its node, one joint at weight 1",
        "0 \"gallop\": 1.000 s, 2 channels on 1 node",
    ] {
        assert!(info.contains(says), "--info says {says:?}:\n{info}");
    }
}

#[test]
fn a_static_textured_mesh_is_drawn_in_its_texture() {
    let path = written("tile", "tile.gltf", &horse::tile().embedded());
    let shot = scratch("tile-shot").join("tile.png");
    let shot_text = shot.to_str().unwrap();
    let args = ["--model", &path, "--headless", "--frames", "1", "--hide", "bind,bones", "--no-text"];
    let Some(_) = run_gl(&[&args[..], &["--screenshot", shot_text]].concat()) else { return };
    let image = common::Image::load(&shot);
    // The square fills the middle of the picture, lit from the camera, in the texture's blue.
    let [r, g, b] = image.pixel(image.width as i64 / 2, image.height as i64 / 2).expect("the middle");
    let [_, _, want_b] = horse::TILE_COLOUR;
    assert!(b > r + 60 && b > g + 40 && b.abs_diff(want_b) < 60, "the middle is {r} {g} {b}");
    // The square's four corners are where a static mesh's node puts them, at rest.
    let out = run(&["--model", &path, "--dump", "-"]);
    let dump: Value = serde_json::from_slice(&out.stdout).expect("a dump");
    let rigid = dump["frames"][0]["rigid"].as_array().expect("the rigid mesh").clone();
    for (v, p) in SQUARE.iter().enumerate() {
        assert_eq!(rigid[v], json!([p.x, p.y, p.z - 1.0]), "vertex {v}");
    }
}

#[test]
fn a_scene_without_a_mesh_is_described_and_not_drawn() {
    // The spec's fixture showing a scene of one node that holds no mesh.
    let mut tail = fixture::build();
    tail.json["scenes"].as_array_mut().unwrap().push(json!({ "name": "tail only", "nodes": [5] }));
    tail.json["scene"] = json!(1);
    // A file of one empty node.
    let mut empty = common::gltf_build::Gltf::new();
    empty.push("nodes", json!({ "name": "nothing" }));
    for (name, gltf, why) in [
        ("tail.gltf", tail, "the mesh on node #3 \"prop\" (and 3 more) is not in scene #1 \"tail only\""),
        (
            "empty.gltf",
            empty,
            "the file has no mesh to draw (it has 1 node, 0 meshes, 0 skins and 0 animations)",
        ),
    ] {
        let imported = load_from_slice(&gltf.embedded(), None).expect("it loads");
        assert!(
            imported.nothing_to_draw.as_deref().is_some_and(|w| w.starts_with(why)),
            "{name}: {:?}",
            imported.nothing_to_draw
        );
        let path = written("no-mesh", name, &gltf.embedded());
        let info = run(&["--model", &path, "--info"]);
        assert!(info.status.success(), "{name}: {}", String::from_utf8_lossy(&info.stderr));
        assert!(String::from_utf8_lossy(&info.stdout).contains(&format!("nothing to draw: {why}")), "{name}");
        let shown = run(&["--model", &path, "--dump", "-"]);
        let said = String::from_utf8_lossy(&shown.stderr);
        assert_eq!(shown.status.code(), Some(1), "{name}");
        assert!(said.contains(why) && said.trim_end().lines().count() == 1, "{name}: {said}");
    }
}
