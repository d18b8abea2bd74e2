//! A user's file shown as itself, in pictures the program draws: a flat face lit the same from a
//! glTF file and from the same model as MD5 (Z-up), the Fox and the robot in their materials'
//! colours (the weight view keeping its own), and a texture beside the file, a JPEG.

use common::gltf_build::Gltf;
use common::{Image, run, run_gl, sample_model, scratch};
use serde_json::json;
use std::path::Path;

/// Two unit quads crossing along the y axis, one facing +z and one facing +x, on one bone: from
/// the front or from the side, one of them faces the camera. Each vertex has its face's NORMAL
/// and a TEXCOORD_0; with `texture`, they take a material whose base colour texture is that file.
fn crossed_quads(texture: Option<&str>) -> Gltf {
    let mut g = Gltf::new();
    g.json["nodes"] = json!([{ "name": "root" }, { "name": "quads", "mesh": 0, "skin": 0 }]);
    g.json["scenes"] = json!([{ "nodes": [0, 1] }]);
    g.json["scene"] = json!(0);
    #[rustfmt::skip]
    let positions = [
        -1.0f32, 0.0, 0.0,  1.0, 0.0, 0.0,  1.0, 2.0, 0.0,  -1.0, 2.0, 0.0,
        0.0, 0.0, 1.0,  0.0, 0.0, -1.0,  0.0, 2.0, -1.0,  0.0, 2.0, 1.0,
    ];
    let normals: Vec<f32> =
        [[0.0f32, 0.0, 1.0]; 4].into_iter().chain([[1.0, 0.0, 0.0]; 4]).flatten().collect();
    let uv: Vec<f32> = [[0.0f32, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]].repeat(2).concat();
    let mut attributes = json!({
        "POSITION": g.floats(&positions, "VEC3"),
        "NORMAL": g.floats(&normals, "VEC3"),
        "TEXCOORD_0": g.floats(&uv, "VEC2"),
        "JOINTS_0": g.ints(&[0; 32], "VEC4", 5123, false),
        "WEIGHTS_0": g.floats(&[1.0f32, 0.0, 0.0, 0.0].repeat(8), "VEC4"),
    });
    let indices = g.ints(&[0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7], "SCALAR", 5123, false);
    let mut primitive = json!({ "attributes": attributes.take(), "indices": indices });
    if let Some(file) = texture {
        g.json["images"] = json!([{ "uri": file }]);
        g.json["textures"] = json!([{ "source": 0 }]);
        g.json["materials"] = json!([{ "pbrMetallicRoughness": { "baseColorTexture": { "index": 0 } } }]);
        primitive["material"] = json!(0);
    }
    g.json["meshes"] = json!([{ "primitives": [primitive] }]);
    let ibm = g.floats(&glam::Mat4::IDENTITY.to_cols_array(), "MAT4");
    g.json["skins"] = json!([{ "joints": [0], "inverseBindMatrices": ibm }]);
    g
}

/// A picture of `model`, one frame, no words.
fn picture(model: &Path, out: &Path, more: &[&str]) -> Option<Image> {
    let mut args = vec!["--model", model.to_str().unwrap(), "--headless", "--frames", "1", "--no-text"];
    args.extend(["--screenshot", out.to_str().unwrap()]);
    args.extend(more);
    run_gl(&args)?;
    Some(Image::load(out))
}

/// The red of the surface's pixels (the skinned mesh's red, lit), on average, and how many.
fn lit_red(image: &Image) -> (f32, usize) {
    let red: Vec<f32> = (image.rgba.chunks_exact(4))
        .filter(|p| p[0] > 40 && p[0] as u32 > 2 * p[1] as u32 && p[0] as u32 > 2 * p[2] as u32)
        .map(|p| p[0] as f32)
        .collect();
    (red.iter().sum::<f32>() / red.len().max(1) as f32, red.len())
}

#[test]
fn a_flat_face_is_lit_the_same_from_gltf_and_from_md5() {
    let dir = scratch("light");
    let gltf = dir.join("quads.gltf");
    std::fs::write(&gltf, crossed_quads(None).embedded()).unwrap();
    let md5 = dir.join("md5/quads.md5mesh");
    let out = run(&["--model", gltf.to_str().unwrap(), "--export-md5", md5.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let Some(from_gltf) = picture(&gltf, &dir.join("gltf.png"), &[]) else { return };
    let Some(from_md5) = picture(&md5, &dir.join("md5.png"), &[]) else { return };
    let ((a, n), (b, m)) = (lit_red(&from_gltf), lit_red(&from_md5));
    println!("the face's red on average: {a:.1} from glTF ({n} pixels), {b:.1} from MD5 ({m} pixels)");
    assert!(n > 2000 && m > 2000, "the face is seen: {n} and {m} pixels");
    // A face towards the light at the camera is near full light in both (0.95 of 255, lit 0.25 +
    // 0.75 x the cosine): the light is at the camera for a Z-up model too.
    assert!(a > 200.0 && (a - b).abs() < 6.0, "glTF {a}, MD5 {b}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Pixels whose colour is orange (the Fox's fur, the robot's body): red strong, green about half
/// of it, blue low. The skinned mesh's red (green a fifth of red) and the green and blue lines are
/// none.
fn orange(image: &Image) -> usize {
    (image.rgba.chunks_exact(4))
        .filter(|p| {
            let (r, g, b) = (p[0] as f32, p[1] as f32, p[2] as f32);
            r > 120.0 && (0.35..0.8).contains(&(g / r)) && b < 0.45 * r
        })
        .count()
}

/// Pixels of a light grey or white, as the Fox's chest and the robot's joints.
fn grey(image: &Image) -> usize {
    (image.rgba.chunks_exact(4))
        .filter(|p| {
            let (lo, hi) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
            lo > 90 && hi - lo < 25
        })
        .count()
}

#[test]
fn the_fox_and_the_robot_look_like_themselves() {
    let (Some(fox), Some(robot)) = (sample_model("Fox.glb"), sample_model("RobotExpressive.glb")) else {
        return;
    };
    let dir = scratch("looks");
    let Some(plain) = picture(&fox, &dir.join("fox.png"), &[]) else { return };
    let Some(gpu) = picture(&fox, &dir.join("fox-gpu.png"), &["--skinning", "gpu"]) else { return };
    let Some(weights) = picture(&fox, &dir.join("fox-weights.png"), &["--weights", "b_Spine01_02"]) else {
        return;
    };
    let Some(robot) = picture(&robot, &dir.join("robot.png"), &[]) else { return };
    for (name, image) in [("the Fox", &plain), ("the Fox on the GPU", &gpu), ("the robot", &robot)] {
        let (orange, grey) = (orange(image), grey(image));
        println!("{name}: {orange} orange pixels, {grey} light grey");
        assert!(orange > 5000 && grey > 300, "{name} in its colours: {orange} orange, {grey} grey");
    }
    // The weight view keeps its colours: dark red to yellow, none of the Fox's white.
    let grey_in_weights = grey(&weights);
    assert!(grey_in_weights < 50, "{grey_in_weights} grey pixels in the weight view");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_jpeg_beside_the_file_is_its_texture() {
    let dir = scratch("jpeg");
    let jpeg = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/formats/tests/data/blue.jpg");
    std::fs::copy(jpeg, dir.join("blue.jpg")).unwrap();
    let gltf = dir.join("quads.gltf");
    std::fs::write(&gltf, crossed_quads(Some("blue.jpg")).embedded()).unwrap();
    let Some(image) = picture(&gltf, &dir.join("blue.png"), &[]) else { return };
    let blue = (image.rgba.chunks_exact(4)).filter(|p| p[2] > 150 && p[2] as u32 > p[0] as u32 + 80).count();
    assert!(blue > 2000, "{blue} blue pixels: the JPEG's colour");
    // A texture may not come from outside the model's folder: said once, drawn without it.
    let inside = dir.join("inside");
    std::fs::create_dir_all(&inside).unwrap();
    let outside = inside.join("quads.gltf");
    std::fs::write(&outside, crossed_quads(Some("../blue.jpg")).embedded()).unwrap();
    let Some(out) = run_gl(&["--model", outside.to_str().unwrap(), "--headless", "--frames", "1"]) else {
        return;
    };
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("image 0: its uri \"../blue.jpg\" leads outside the model's folder"), "{said}");
    // --info says what the surface is made of.
    let out = run(&["--model", gltf.to_str().unwrap(), "--info"]);
    let info = String::from_utf8_lossy(&out.stdout);
    assert!(info.contains("materials: 1, 1 texture (JPEG)"), "{info}");
    assert!(!info.contains("draws no surfaces"), "{info}");
    let _ = std::fs::remove_dir_all(&dir);
}
