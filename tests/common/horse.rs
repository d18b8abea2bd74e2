//! Models without a skin, written by hand (`gltf_build.rs`): what three.js's Horse is (a mesh
//! animated by its morph targets alone) and a static textured mesh, small enough to work out here.
//!
//! The **horse**: node 0 `horse`, turned a quarter turn about z and placed at (0, 1, 0), holds a
//! square of four vertices, [`SQUARE`], with two morph targets on its top edge: `Up` moves v2 and
//! v3 by (0, 0.5, 0), `Lean` by (0.3, 0, 0). No skin anywhere in the file. The animation `gallop`
//! keys the weights (LINEAR) at 0, 0.5 and 1 s: (0, 0), (1, 0), (0, 1), and slides the node
//! (LINEAR) from (0, 1, 0) at 0 s to (2, 1, 0) at 1 s. So at `t` every vertex is
//! `T(t) · R · (p + w_Up Δ_Up + w_Lean Δ_Lean)` ([`expected`]): rigid = one influence, its node,
//! at weight 1.
//!
//! The **tile**: node 0 `tile` at (0, 0, -1) holds the same square, facing +z, textured with a
//! 2 x 2 PNG of one colour, [`TILE_COLOUR`], and no animation.

use super::gltf_build::Gltf;
use glam::{Mat4, Quat, Vec3};
use serde_json::json;

/// The square's corners, counter-clockwise seen from +z.
pub const SQUARE: [Vec3; 4] =
    [Vec3::ZERO, Vec3::new(1.0, 0.0, 0.0), Vec3::new(1.0, 1.0, 0.0), Vec3::new(0.0, 1.0, 0.0)];
/// The targets' displacements, vertex by vertex.
pub const UP: [Vec3; 4] = [Vec3::ZERO, Vec3::ZERO, Vec3::new(0.0, 0.5, 0.0), Vec3::new(0.0, 0.5, 0.0)];
pub const LEAN: [Vec3; 4] = [Vec3::ZERO, Vec3::ZERO, Vec3::new(0.3, 0.0, 0.0), Vec3::new(0.3, 0.0, 0.0)];
/// The tile's texture: one colour, sRGB bytes.
pub const TILE_COLOUR: [u8; 3] = [40, 90, 220];

fn flat(points: &[Vec3]) -> Vec<f32> {
    points.iter().flat_map(|p| p.to_array()).collect()
}

/// The square as a mesh's one primitive: positions, normals (+z), two triangles; its targets, if any.
fn square(g: &mut Gltf, targets: bool, texcoords: bool) -> serde_json::Value {
    let positions = g.floats(&flat(&SQUARE), "VEC3");
    let normals = g.floats(&[0.0, 0.0, 1.0].repeat(4), "VEC3");
    let indices = g.ints(&[0, 1, 2, 0, 2, 3], "SCALAR", 5123, false);
    let mut primitive =
        json!({ "attributes": { "POSITION": positions, "NORMAL": normals }, "indices": indices });
    if targets {
        let up = g.floats(&flat(&UP), "VEC3");
        let lean = g.floats(&flat(&LEAN), "VEC3");
        primitive["targets"] = json!([{ "POSITION": up }, { "POSITION": lean }]);
    }
    if texcoords {
        let uv = g.floats(&[0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0], "VEC2");
        primitive["attributes"]["TEXCOORD_0"] = json!(uv);
        primitive["material"] = json!(0);
    }
    primitive
}

/// The horse, as described above.
pub fn horse() -> Gltf {
    let mut g = Gltf::new();
    let primitive = square(&mut g, true, false);
    let turn = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    g.push(
        "nodes",
        json!({ "name": "horse", "mesh": 0, "translation": [0.0, 1.0, 0.0], "rotation": turn.to_array() }),
    );
    g.json["scene"] = json!(0);
    g.json["scenes"] = json!([{ "nodes": [0] }]);
    let mesh = json!({ "name": "horse", "primitives": [primitive], "weights": [0.0, 0.0],
                       "extras": { "targetNames": ["Up", "Lean"] } });
    g.push("meshes", mesh);
    let times = g.floats(&[0.0, 0.5, 1.0], "SCALAR");
    let weights = g.floats(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0], "SCALAR");
    let slide_times = g.floats(&[0.0, 1.0], "SCALAR");
    let slide = g.floats(&[0.0, 1.0, 0.0, 2.0, 1.0, 0.0], "VEC3");
    let channels = json!([
        { "sampler": 0, "target": { "node": 0, "path": "weights" } },
        { "sampler": 1, "target": { "node": 0, "path": "translation" } }
    ]);
    let samplers = json!([{ "input": times, "output": weights }, { "input": slide_times, "output": slide }]);
    g.push("animations", json!({ "name": "gallop", "channels": channels, "samplers": samplers }));
    g
}

/// The morph weights (Up, Lean) at `t` (0 to 1 s).
pub fn weights(t: f32) -> [f32; 2] {
    if t <= 0.5 { [2.0 * t, 0.0] } else { [2.0 - 2.0 * t, 2.0 * t - 1.0] }
}

/// Where the glTF spec puts the horse's four vertices at `t`: morphed, then placed by its node.
pub fn expected(t: f32) -> Vec<Vec3> {
    let [up, lean] = weights(t);
    let node = Mat4::from_rotation_translation(
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
        Vec3::new(2.0 * t, 1.0, 0.0),
    );
    (0..4).map(|v| node.transform_point3(SQUARE[v] + up * UP[v] + lean * LEAN[v])).collect()
}

/// A 2 x 2 PNG of one colour.
fn png(colour: [u8; 3]) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, 2, 2);
    encoder.set_color(png::ColorType::Rgb);
    let mut writer = encoder.write_header().expect("a PNG header");
    writer.write_image_data(&colour.repeat(4)).expect("PNG data");
    drop(writer);
    bytes
}

/// The tile, as described above: a static textured mesh, no skin, no animation.
pub fn tile() -> Gltf {
    let mut g = Gltf::new();
    let primitive = square(&mut g, false, true);
    g.push("nodes", json!({ "name": "tile", "mesh": 0, "translation": [0.0, 0.0, -1.0] }));
    g.json["scene"] = json!(0);
    g.json["scenes"] = json!([{ "nodes": [0] }]);
    g.push("meshes", json!({ "name": "tile", "primitives": [primitive] }));
    let image = g.view(&png(TILE_COLOUR));
    g.push("images", json!({ "bufferView": image, "mimeType": "image/png" }));
    g.push("textures", json!({ "source": 0 }));
    g.push(
        "materials",
        json!({ "name": "tile", "pbrMetallicRoughness": { "baseColorTexture": { "index": 0 } } }),
    );
    g
}
