//! Compressed glTF (`crates/formats/src/gltf_import/draco.rs`, `meshopt.rs`): a Draco and a meshopt
//! file load to what gltf-transform decodes them to. Each fixture in `tests/compressed/` has a twin
//! that gltf-transform decoded and wrote plain (its README says how they were made); both are
//! loaded, and every attribute the program reads must agree to 1e-6 of the model's size: bind
//! positions, normals, joints and weights, texture coordinates, morph displacements, and the
//! clip's pose. The program before these decoders refused both files. Last, a texture transform
//! with a rotation, on a square written here, against the extension's formula.

use common::gltf_build::Gltf;
use glam::{Mat3, Vec2, Vec3, Vec3A};
use serde_json::json;
use skinning_formats::gltf_import::{Imported, load};
use skinning_method::clip::Clip;
use skinning_method::transform::Trs;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/compressed").join(name)
}

fn loaded(name: &str) -> Imported {
    load(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The diagonal of the box around the model's bind positions.
fn size(model: &Imported) -> f32 {
    let (lo, hi) = model
        .model
        .skin
        .bind_positions()
        .fold((Vec3A::MAX, Vec3A::MIN), |(lo, hi), p| (lo.min(p.into()), hi.max(p.into())));
    (hi - lo).length()
}

/// The largest difference between two lists of vectors of the same length.
fn worst<T: Copy>(a: &[T], b: &[T], distance: impl Fn(T, T) -> f32) -> f32 {
    assert_eq!(a.len(), b.len(), "as many in both");
    a.iter().zip(b).map(|(&x, &y)| distance(x, y)).fold(0.0, f32::max)
}

/// Every attribute the program reads, of `compressed` and of its `twin`, the same to 1e-6 of the
/// model's size (directions and texture coordinates to 1e-6).
fn same_attributes(compressed: &str, twin: &str) {
    let (a, b) = (loaded(compressed), loaded(twin));
    let tolerance = 1e-6 * size(&b);
    let (skin, twin_skin) = (&a.model.skin, &b.model.skin);
    assert_eq!(skin.len(), twin_skin.len(), "{compressed}: as many vertices");
    assert!(skin.len() >= 144, "{compressed}: {} vertices", skin.len());
    let positions = |m: &Imported| m.model.skin.bind_positions().map(Vec3A::from).collect::<Vec<_>>();
    let distance = |x: Vec3A, y: Vec3A| x.distance(y);
    assert!(worst(&positions(&a), &positions(&b), distance) <= tolerance, "{compressed}: positions");
    assert_eq!(skin.normals().len(), skin.len(), "{compressed}: a normal per vertex");
    assert!(worst(skin.normals(), twin_skin.normals(), distance) <= 1e-6, "{compressed}: normals");
    for v in 0..skin.len() {
        let (x, y): (Vec<_>, Vec<_>) = (skin.influences(v).collect(), twin_skin.influences(v).collect());
        assert_eq!(x.len(), y.len(), "{compressed}: vertex {v}'s influences");
        for (i, j) in x.iter().zip(&y) {
            assert_eq!(i.joint, j.joint, "{compressed}: vertex {v}'s joints");
            assert!((i.weight - j.weight).abs() <= 1e-6, "{compressed}: vertex {v}'s weights");
        }
    }
    let uv = |x: Vec2, y: Vec2| x.distance(y);
    assert_eq!(a.looks.texcoords.len(), skin.len(), "{compressed}: texture coordinates on every vertex");
    assert!(worst(&a.looks.texcoords, &b.looks.texcoords, uv) <= 1e-6, "{compressed}: texture coordinates");
    let (morph, twin_morph) = (&a.morphs[0], &b.morphs[0]);
    assert_eq!((morph.target_count(), morph.positions.len()), (1, skin.len()), "{compressed}: the bulge");
    assert!(worst(&morph.positions, &twin_morph.positions, distance) <= tolerance, "{compressed}: morph");
    assert!(worst(&morph.normals, &twin_morph.normals, distance) <= 1e-6, "{compressed}: morph normals");
    // Every clip, at a few times: every bone's pose.
    let names = |m: &Imported| m.clips.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&a), ["Idle", "Wave", "Pose"], "{compressed}: its three clips");
    assert_eq!(names(&a), names(&b), "{compressed}");
    let sampled = |m: &Imported, clip: &Clip, t: f64| {
        let mut trs: Vec<Trs> = m.model.skeleton.bones().iter().map(|b| b.rest).collect();
        clip.sample(&m.model.skeleton, t, &mut trs);
        trs
    };
    for (clip, twin_clip) in a.clips.iter().zip(&b.clips) {
        for t in [0.0, 0.1, 0.37, 0.7, 1.5] {
            let (pose, twin_pose) = (sampled(&a, clip, t), sampled(&b, twin_clip, t));
            assert_eq!(pose.len(), twin_pose.len(), "{compressed}: as many bones");
            for (x, y) in pose.iter().zip(&twin_pose) {
                let at = format!("{compressed}: {} at {t} s", clip.name);
                assert!(x.translation.distance(y.translation) <= tolerance, "{at}");
                assert!(x.rotation.dot(y.rotation).abs() >= 1.0 - 1e-6, "{at}");
            }
        }
    }
}

#[test]
fn a_draco_file_loads_as_gltf_transform_decodes_it() {
    same_attributes("t-pose-draco.glb", "t-pose-draco-decoded.glb");
}

#[test]
fn a_meshopt_file_loads_as_gltf_transform_decodes_it() {
    same_attributes("t-pose-meshopt.glb", "t-pose-meshopt-decoded.glb");
}

/// gltfpack keeps texture coordinates as 16-bit integers (`KHR_mesh_quantization`; 12 bits of them
/// used, its default) and puts the scale and offset that give them back in the texture's
/// `KHR_texture_transform`. Read through it, the meshopt file's texture coordinates are the Draco
/// file's (which keeps them as floats), vertex for vertex, to the 12 bits gltfpack kept (gltfpack
/// orders the vertices its own way, so each is matched to the nearest); read without it they would
/// all lie below 0.07.
#[test]
fn quantized_texture_coordinates_come_back_through_their_texture_transform() {
    let (packed, plain) = (loaded("t-pose-meshopt.glb"), loaded("t-pose-draco-decoded.glb"));
    let (lo, hi) =
        plain.looks.texcoords.iter().fold((Vec2::MAX, Vec2::MIN), |(lo, hi), &t| (lo.min(t), hi.max(t)));
    let range = (hi - lo).max_element();
    assert!(range > 0.9, "the texture coordinates span {lo} to {hi}");
    let step = range / 4095.0;
    for (v, &uv) in packed.looks.texcoords.iter().enumerate() {
        let nearest = plain.looks.texcoords.iter().map(|t| t.distance(uv)).fold(f32::MAX, f32::min);
        assert!(nearest <= 2.0 * step, "vertex {v} at {uv}: the nearest is {nearest} away (12 bits: {step})");
    }
}

/// Both decoded files show: `--info` describes them as it does their twins.
#[test]
fn info_describes_a_compressed_file_as_its_twin() {
    for (compressed, twin) in [
        ("t-pose-draco.glb", "t-pose-draco-decoded.glb"),
        ("t-pose-meshopt.glb", "t-pose-meshopt-decoded.glb"),
    ] {
        let info = |name: &str| {
            let out = common::run(&["--info", "--model", fixture(name).to_str().expect("utf-8")]);
            assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
            String::from_utf8(out.stdout).expect("utf-8").replace(name, "FILE")
        };
        assert_eq!(info(compressed), info(twin));
    }
}

/// `KHR_texture_transform` with a rotation too, on a square written here: each texture coordinate
/// comes out as the extension's GLSL has it, `translation * rotation * scale * (u, v, 1)`, the
/// matrices written out by hand (column by column, as GLSL's `mat3(...)` takes them).
#[test]
fn a_texture_transform_moves_texture_coordinates_as_the_extension_says() {
    let mut g = Gltf::new();
    g.json["nodes"] = json!([{ "mesh": 0 }]);
    let uv = [0.0f32, 1.0, 1.0, 1.0, 1.0, 0.0, 0.25, 0.5];
    let attributes = json!({
        "POSITION": g.floats(&[-1.0f32, -1.0, 0.0, 1.0, -1.0, 0.0, 1.0, 1.0, 0.0, -1.0, 1.0, 0.0], "VEC3"),
        "TEXCOORD_0": g.floats(&uv, "VEC2"),
    });
    let indices = g.ints(&[0, 1, 2, 0, 2, 3], "SCALAR", 5123, false);
    g.json["meshes"] =
        json!([{ "primitives": [{ "attributes": attributes, "indices": indices, "material": 0 }] }]);
    let (offset, rotation, scale) = ([0.5f32, -0.25], 0.3f32, [2.0f32, 3.0]);
    let transform = json!({ "offset": offset, "rotation": rotation, "scale": scale });
    let texture = json!({ "index": 0, "extensions": { "KHR_texture_transform": transform } });
    g.json["materials"] = json!([{ "pbrMetallicRoughness": { "baseColorTexture": texture } }]);
    g.json["textures"] = json!([{ "source": 0 }]);
    g.json["images"] = json!([{ "uri": "missing.png" }]);
    g.json["extensionsUsed"] = json!(["KHR_texture_transform"]);
    g.json["extensionsRequired"] = json!(["KHR_texture_transform"]);
    let dir = common::scratch("texture-transform");
    let model = load(&g.external(&dir, "square.gltf", "square.bin")).expect("loads");
    let (c, s) = (rotation.cos(), rotation.sin());
    let columns = |m: [[f32; 3]; 3]| Mat3::from_cols(m[0].into(), m[1].into(), m[2].into());
    let translation = columns([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [offset[0], offset[1], 1.0]]);
    let turn = columns([[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]]);
    let stretch = columns([[scale[0], 0.0, 0.0], [0.0, scale[1], 0.0], [0.0, 0.0, 1.0]]);
    let matrix = translation * turn * stretch;
    for (v, got) in model.looks.texcoords.iter().enumerate() {
        let want = (matrix * Vec3::new(uv[2 * v], uv[2 * v + 1], 1.0)).truncate();
        assert!(got.distance(want) <= 1e-6, "vertex {v}: {got}, the extension says {want}");
    }
    assert_eq!(model.looks.texcoords.len(), 4);
}
