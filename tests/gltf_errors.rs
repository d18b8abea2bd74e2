//! Bad files get one clear line, exit code 1, and nothing written: every case of issue 8's list,
//! made from the test's own fixture by editing its JSON or bytes, checked in the library (the
//! message says what is wrong) and through the program (one line, exit 1, no dump left behind).

use common::fixture;
use common::gltf_build::Gltf;
use common::{run, scratch};
use serde_json::{Value, json};
use skinning_formats::gltf_import::load_from_slice;

/// The fixture with `edit` applied to its JSON, as an embedded `.gltf`.
fn edited(edit: impl FnOnce(&mut Value)) -> Vec<u8> {
    let mut gltf = fixture::build();
    edit(&mut gltf.json);
    gltf.embedded()
}

/// The byte offset in the buffer of accessor `index`'s first element.
fn data_offset(gltf: &Gltf, index: usize) -> usize {
    let accessor = &gltf.json["accessors"][index];
    let view = &gltf.json["bufferViews"][accessor["bufferView"].as_u64().unwrap() as usize];
    (view["byteOffset"].as_u64().unwrap() + accessor["byteOffset"].as_u64().unwrap_or(0)) as usize
}

/// A deep chain: `n` more nodes, each the only child of the one before, under the prop (node 3).
fn deep_chain(n: usize) -> Vec<u8> {
    edited(|json| {
        let nodes = json["nodes"].as_array_mut().unwrap();
        let first = nodes.len();
        nodes[3]["children"] = json!([first]);
        for i in 0..n {
            let children = if i + 1 < n { json!([first + i + 1]) } else { json!([]) };
            nodes.push(json!({ "name": format!("link{i}"), "children": children }));
        }
    })
}

/// The fixture plus a root node `far` at x = 3e38 (node 8), still a 32-bit float, then `edit`: the
/// numbers are each finite, and only what is made of them overflows.
fn far(edit: impl FnOnce(&mut Gltf)) -> Vec<u8> {
    let mut gltf = fixture::build();
    gltf.push("nodes", json!({ "name": "far", "translation": [3e38, 0.0, 0.0] }));
    gltf.json["scenes"][0]["nodes"].as_array_mut().unwrap().push(json!(8));
    edit(&mut gltf);
    gltf.embedded()
}

/// `far` with a skin 3 of its own (inverse bind matrix `ibm`) moving a mesh of one vertex at `at`.
fn far_skin(ibm: glam::Mat4, at: [f32; 3]) -> Vec<u8> {
    far(|g| {
        let ibm = g.floats(&ibm.to_cols_array(), "MAT4");
        g.push("skins", json!({ "joints": [8], "inverseBindMatrices": ibm }));
        let attributes = json!({
            "POSITION": g.floats(&at, "VEC3"),
            "JOINTS_0": g.ints(&[0, 0, 0, 0], "VEC4", 5123, false),
            "WEIGHTS_0": g.floats(&[1.0, 0.0, 0.0, 0.0], "VEC4"),
        });
        let mesh = g.push("meshes", json!({ "primitives": [{ "attributes": attributes, "mode": 0 }] }));
        let node = g.push("nodes", json!({ "name": "far_mesh", "mesh": mesh, "skin": 3 }));
        g.json["scenes"][0]["nodes"].as_array_mut().unwrap().push(json!(node));
    })
}

/// (what, file bytes, a piece the message must contain).
fn bad_files() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let glb = fixture::build().glb();
    let mut nan = fixture::build();
    let position =
        nan.json["meshes"][0]["primitives"][0]["attributes"]["POSITION"].as_u64().unwrap() as usize;
    let at = data_offset(&nan, position) + 4; // vertex 0's y
    nan.bin[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    vec![
        ("text", b"hello, I am not a model".to_vec(), "not a glTF 2.0 file"),
        ("png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec(), "not a glTF 2.0 file"),
        ("json that is not glTF", b"{\"hello\": 1}".to_vec(), "cannot be read as glTF"),
        ("glTF 1.0", edited(|j| j["asset"]["version"] = json!("1.0")), "reads 2.x"),
        ("glb cut to its header", glb[..10].to_vec(), "needs 12 bytes"),
        ("glb cut in half", glb[..glb.len() / 2].to_vec(), "cut short"),
        ("glb version 1", [&glb[..4], &1u32.to_le_bytes(), &glb[8..]].concat(), "version 1"),
        ("buffer shorter than its byteLength", longer_buffer(edited(|_| {})), "the data is cut short"),
        (
            "Draco data that is not there",
            edited(|j| {
                j["extensionsRequired"] = json!(["KHR_draco_mesh_compression"]);
                j["meshes"][0]["primitives"][0]["extensions"] = json!({ "KHR_draco_mesh_compression": { "bufferView": 99, "attributes": { "POSITION": 0 } } });
            }),
            "primitive 0 (KHR_draco_mesh_compression): ",
        ),
        (
            "meshopt's newer form",
            edited(|j| j["extensionsRequired"] = json!(["KHR_meshopt_compression"])),
            "KHR_meshopt_compression (meshopt compression), which this program does not decode",
        ),
        (
            "an unknown required extension",
            edited(|j| j["extensionsRequired"] = json!(["EXT_made_up"])),
            "the file needs the extension EXT_made_up, which this program does not support",
        ),
        (
            "joint out of its skin",
            edited(|j| j["skins"][0]["joints"] = json!([1])),
            "names joint 1, but its skin has 1 joint (joint 0 only)",
        ),
        (
            "POSITION accessor missing",
            edited(|j| j["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = json!(999)),
            "accessor 999 does not exist",
        ),
        (
            "WEIGHTS accessor missing",
            edited(|j| j["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"] = json!(999)),
            "WEIGHTS_0",
        ),
        ("child missing", edited(|j| j["nodes"][2]["children"] = json!([99])), "nodes[2].children[0]"),
        (
            "too few inverse bind matrices",
            edited(|j| j["skins"][1]["joints"] = json!([5, 1, 2, 0])),
            "4 joints but only 3 inverse bind matrices;",
        ),
        ("NaN position", nan.embedded(), "NaN or infinite"),
        (
            "infinite translation",
            edited(|j| j["nodes"][1]["translation"] = json!([0.0, 1e39, 0.0])),
            "NaN or infinite",
        ),
        (
            "a rest world transform past 32-bit floats",
            far(|g| {
                let child = g.push("nodes", json!({ "name": "farther", "translation": [3e38, 0.0, 0.0] }));
                g.json["nodes"][8]["children"] = json!([child]);
            }),
            "node #9 \"farther\": its rest world transform (its own times its ancestors') overflows",
        ),
        (
            "a rest palette past 32-bit floats",
            far_skin(glam::Mat4::from_translation(glam::Vec3::X * 3e38), [0.0; 3]),
            "skin #3: joint 0 (node #8 \"far\"): in the rest pose, its node's world transform times its \
             inverse bind matrix overflows",
        ),
        (
            "a vertex skinned past 32-bit floats in the rest pose",
            far_skin(glam::Mat4::IDENTITY, [3e38, 0.0, 0.0]),
            "mesh #4 primitive 0: vertex 0's position in the rest pose overflows 32-bit floats",
        ),
        ("node cycle", edited(|j| j["nodes"][3]["children"] = json!([0])), "the children lists form a cycle"),
        ("node its own child", edited(|j| j["nodes"][3]["children"] = json!([3])), "cycle"),
        ("two parents", edited(|j| j["nodes"][4]["children"] = json!([2])), "child of both"),
        ("too deep", deep_chain(1001), "deeper than 1000 bones, counting the root"),
        (
            "cubic values counted as linear",
            edited(|j| j["animations"][0]["samplers"][1]["interpolation"] = json!("LINEAR")),
            "3 keys need 3 LINEAR values, the sampler has 9",
        ),
        (
            "key times going back",
            {
                let mut g = fixture::build();
                let times = g.json["animations"][0]["samplers"][3]["input"].as_u64().unwrap() as usize;
                let at = data_offset(&g, times) + 8; // the third key time
                g.bin[at..at + 4].copy_from_slice(&0.1f32.to_le_bytes());
                g.embedded()
            },
            "does not come after",
        ),
        ("the glb chunk missing", without_uri(edited(|_| {})), "binary chunk"),
    ]
}

/// The file with its buffer claiming 100 bytes more than its data: a buffer cut short.
fn longer_buffer(file: Vec<u8>) -> Vec<u8> {
    let mut json: Value = serde_json::from_slice(&file).unwrap();
    json["buffers"][0]["byteLength"] = json!(json["buffers"][0]["byteLength"].as_u64().unwrap() + 100);
    serde_json::to_vec(&json).unwrap()
}

/// The file with its buffer's uri removed: a .gltf that points at a .glb chunk it does not have.
fn without_uri(file: Vec<u8>) -> Vec<u8> {
    let mut json: Value = serde_json::from_slice(&file).unwrap();
    json["buffers"][0].as_object_mut().unwrap().remove("uri");
    serde_json::to_vec(&json).unwrap()
}

#[test]
fn every_bad_file_is_an_error_that_says_what_is_wrong() {
    for (what, bytes, expected) in bad_files() {
        let error = match load_from_slice(&bytes, None) {
            Ok(_) => panic!("{what}: loaded"),
            Err(e) => e.to_string(),
        };
        assert!(error.contains(expected), "{what}: {error:?} should contain {expected:?}");
        assert!(!error.contains('\n'), "{what}: one line: {error}");
    }
}

#[test]
fn a_bad_file_is_one_line_exit_1_and_no_dump() {
    let dir = scratch("bad-files");
    let out = dir.join("dump.json");
    let mut files: Vec<(String, std::path::PathBuf)> = bad_files()
        .into_iter()
        .enumerate()
        .map(|(i, (what, bytes, _))| {
            let path = dir.join(format!("bad{i}.gltf"));
            std::fs::write(&path, bytes).unwrap();
            (what.to_string(), path)
        })
        .collect();
    files.push(("missing file".into(), dir.join("no-such-model.glb")));
    // An external buffer that is not there.
    let external = fixture::build().external(&dir, "external.gltf", "gone.bin");
    std::fs::remove_file(dir.join("gone.bin")).unwrap();
    files.push(("external .bin missing".into(), external));
    for (what, path) in files {
        let result = run(&["--model", path.to_str().unwrap(), "--dump", out.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&result.stderr);
        assert_eq!(result.status.code(), Some(1), "{what}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{what}: one line: {err}");
        assert!(
            err.starts_with("skinning: ") && err.contains(path.file_name().unwrap().to_str().unwrap()),
            "{what}: {err}"
        );
        assert!(!out.exists(), "{what}: a dump was written");
        if what == "external .bin missing" {
            assert!(err.contains("gone.bin") && err.contains("next to it"), "{err}");
        }
    }
}

#[test]
fn extensions_that_only_change_the_looks_are_noted_and_ignored() {
    let bytes = edited(|j| j["extensionsRequired"] = json!(["KHR_materials_unlit", "KHR_mesh_quantization"]));
    let imported = load_from_slice(&bytes, None).expect("loads");
    assert_eq!(
        imported.notes.iter().filter(|n| n.contains("KHR_materials_unlit")).count(),
        1,
        "{:?}",
        imported.notes
    );
}

#[test]
fn an_animation_that_overflows_is_blamed_on_the_model_at_its_time() {
    // The knee's scale goes to 3e38 at 2 s, and the prop hangs 1e10 out along it: a fine rest
    // pose, but the prop's world transform passes 3.4e38 at 0.5 s (frame 1), not at 0 s.
    let mut gltf = fixture::build();
    gltf.json["nodes"][3]["translation"] = json!([1e10, 0.0, 0.0]);
    let scale = gltf.json["animations"][0]["samplers"][2]["output"].as_u64().unwrap() as usize;
    let at = data_offset(&gltf, scale) + 12; // the second key's x
    gltf.bin[at..at + 4].copy_from_slice(&3e38f32.to_le_bytes());
    let dir = scratch("overflow");
    let model = dir.join("overflow.gltf");
    std::fs::write(&model, gltf.embedded()).unwrap();
    let model = model.to_str().unwrap();
    for (out, shown) in [("-", "standard output"), (dir.join("dump.json").to_str().unwrap(), "dump.json")] {
        let result = run(&["--model", model, "--dump", out, "--frames", "3", "--fixed-dt", "0.5"]);
        let err = String::from_utf8_lossy(&result.stderr);
        assert_eq!(result.status.code(), Some(1), "{err}");
        // The loader's notes about the fixture come first; then the error, one line.
        let errors: Vec<&str> = err.lines().filter(|l| !l.starts_with("skinning: note: ")).collect();
        assert_eq!(errors.len(), 1, "one line: {err}");
        assert!(
            errors[0]
                .contains("the model's numbers overflow at time 0.5 s (frame 1): bone 3 \"prop\"'s world"),
            "{err}"
        );
        assert!(!errors[0].contains("cannot write") && !errors[0].contains(shown), "output blamed: {err}");
        // What went out before the error: frame 0, all of it numbers, no `null` standing in.
        let text = String::from_utf8_lossy(&result.stdout);
        if out == "-" {
            let frames = text.split_once("\"frames\"").expect("the model was written").1;
            assert!(frames.contains("\"time\":0.0,"), "frame 0 was written: {frames}");
            assert!(!frames.contains("null") && !frames.contains("inf"), "{frames}");
        } else {
            assert!(!dir.join("dump.json").exists(), "no half-written dump is left");
        }
    }
}
