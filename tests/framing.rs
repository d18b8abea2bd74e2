//! The camera frames what is drawn: the mesh (bind pose and skinned) and the joints, not a glTF
//! file's other nodes. An empty node far away, or the skinned mesh's own node moved far away (glTF
//! ignores its transform), must not shrink the model to a dot.

mod common;

use common::fixture;
use glam::Vec3;
use serde_json::json;
use skinning::camera::{Camera, framing_model};
use skinning::gltf_import::load_from_slice;
use skinning::model::Pose;

/// The camera for the fixture with `edit` applied to its JSON, and the points the picture draws at
/// a few times of the first clip (skinned vertices, bind vertices).
fn framed(edit: impl FnOnce(&mut serde_json::Value)) -> (Camera, Vec<Vec3>) {
    let mut gltf = fixture::build();
    edit(&mut gltf.json);
    let imported = load_from_slice(&gltf.embedded(), None).expect("the fixture loads");
    let model = &imported.model;
    let mut drawn: Vec<Vec3> = model.skin.bind_positions().collect();
    let mut pose = Pose::new(model);
    for t in [0.0, 0.5, 1.0, 1.5] {
        pose.update(model, &imported.clips[0], t);
        drawn.extend(pose.skinned.iter().map(|&p| Vec3::from(p)));
    }
    (framing_model(model, &imported.clips), drawn)
}

#[test]
fn nodes_that_are_not_drawn_do_not_move_the_camera() {
    let (plain, drawn) = framed(|_| {});
    let far_empty = framed(|json| {
        let nodes = json["nodes"].as_array_mut().unwrap();
        nodes.push(json!({ "name": "lamp", "translation": [500.0, 0.0, 0.0] }));
        let lamp = nodes.len() - 1;
        json["scenes"][0]["nodes"].as_array_mut().unwrap().push(json!(lamp));
    });
    // Node 6 holds skinned mesh 0 and is no joint: its transform moves nothing that is drawn.
    let far_mesh_node = framed(|json| json["nodes"][6]["translation"] = json!([500.0, 0.0, 0.0]));
    assert_eq!(far_empty.0, plain, "an empty node at x = 500 moved the camera");
    assert_eq!(far_mesh_node.0, plain, "the skinned mesh's own node at x = 500 moved the camera");
    assert_eq!(far_empty.1, drawn);

    // And the model fills the picture: every drawn point inside, spread over most of its width or
    // height.
    let (width, height) = (640, 480);
    let pixels: Vec<_> = drawn.iter().map(|&p| plain.project(p, width, height)).collect();
    let (min, max) = pixels.iter().fold((pixels[0], pixels[0]), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    assert!(min.x >= 0.0 && min.y >= 0.0 && max.x <= width as f32 && max.y <= height as f32, "{min} {max}");
    let fill = ((max.x - min.x) / width as f32).max((max.y - min.y) / height as f32);
    assert!(fill > 0.5, "the model covers only {fill} of the picture");
}
