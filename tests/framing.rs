//! The camera frames the skinned mesh over the clip (`camera::framing_model`), not a glTF file's
//! other nodes: an empty node far away, the skinned mesh's own node moved far away (glTF ignores
//! its transform), or a joint that moves no vertex (an IK pole target) must not shrink the model
//! to a dot. A mesh whose vertices all sit at one point has no size: its joints are framed instead,
//! and the picture shows them and a mark where the mesh is.

use common::gltf_build::Gltf;
use common::{Class, Image, fixture, run_gl, sample_model, scratch};
use glam::{Vec2, Vec3};
use serde_json::json;
use skinning::camera::{Camera, framing_model};
use skinning_formats::gltf_export::Container;
use skinning_formats::gltf_import::{load, load_from_slice};
use skinning_method::clip::Clip;
use skinning_method::frame::Pose;
use skinning_method::model::Model;

/// The skinned vertices of `clip` at a few times: what the picture draws of the skin.
fn skinned_points(model: &Model, clip: &Clip) -> Vec<Vec3> {
    let mut pose = Pose::new(model);
    let mut drawn = Vec::new();
    for k in 0..8 {
        pose.update(model, clip, clip.duration as f64 * k as f64 / 8.0);
        drawn.extend(pose.skinned.iter().map(|&p| Vec3::from(p)));
    }
    drawn
}

/// The camera for the fixture with `edit` applied to its JSON, and the skinned points of its clip.
fn framed(edit: impl FnOnce(&mut serde_json::Value)) -> (Camera, Vec<Vec3>) {
    let mut gltf = fixture::build();
    edit(&mut gltf.json);
    let imported = load_from_slice(&gltf.embedded(), None).expect("the fixture loads");
    let clips = &imported.clips[..1];
    (framing_model(&imported.model, clips), skinned_points(&imported.model, &clips[0]))
}

/// The box `points` cover in a 640x480 picture, and how much of its width or height they fill.
fn on_screen(camera: &Camera, points: &[Vec3]) -> (Vec2, Vec2, f32) {
    let pixels: Vec<Vec2> = points.iter().map(|&p| camera.project(p, 640, 480)).collect();
    let (min, max) = pixels.iter().fold((pixels[0], pixels[0]), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    (min, max, ((max.x - min.x) / 640.0).max((max.y - min.y) / 480.0))
}

#[test]
fn nodes_and_joints_away_from_the_mesh_do_not_move_the_camera() {
    let (plain, drawn) = framed(|_| {});
    let far_empty = framed(|json| {
        let nodes = json["nodes"].as_array_mut().unwrap();
        nodes.push(json!({ "name": "lamp", "translation": [500.0, 0.0, 0.0] }));
        let lamp = nodes.len() - 1;
        json["scenes"][0]["nodes"].as_array_mut().unwrap().push(json!(lamp));
    });
    // Node 6 holds skinned mesh 0 and is no joint: its transform moves nothing that is drawn.
    let far_mesh_node = framed(|json| json["nodes"][6]["translation"] = json!([500.0, 0.0, 0.0]));
    // A joint of skin 2 that no vertex leans on, 500 units away, like the robot's pole targets.
    let far_joint = framed(|json| {
        let nodes = json["nodes"].as_array_mut().unwrap();
        nodes.push(json!({ "name": "pole", "translation": [500.0, 0.0, 0.0] }));
        let pole = nodes.len() - 1;
        json["scenes"][0]["nodes"].as_array_mut().unwrap().push(json!(pole));
        json["skins"][2]["joints"].as_array_mut().unwrap().push(json!(pole));
    });
    assert_eq!(far_empty.0, plain, "an empty node at x = 500 moved the camera");
    assert_eq!(far_mesh_node.0, plain, "the skinned mesh's own node at x = 500 moved the camera");
    assert_eq!(far_joint.0, plain, "a joint at x = 500 that moves no vertex moved the camera");
    assert_eq!(far_empty.1, drawn);

    // And the skin fills the picture: every skinned point inside, over most of its width or height.
    let (min, max, fill) = on_screen(&plain, &drawn);
    assert!(min.x >= 0.0 && min.y >= 0.0 && max.x <= 640.0 && max.y <= 480.0, "{min} {max}");
    assert!(fill > 0.5, "the model covers only {fill} of the picture");
}

#[test]
fn the_robot_fills_the_picture_centred() {
    let Some(path) = sample_model("RobotExpressive.glb") else { return };
    let imported = load(&path).expect("the robot loads");
    for clip in &imported.clips {
        let camera = framing_model(&imported.model, std::slice::from_ref(clip));
        let (min, max, fill) = on_screen(&camera, &skinned_points(&imported.model, clip));
        let centre = (min + max) / 2.0;
        println!("robot {}: fills {fill:.2}, centred at {centre}", clip.name);
        assert!(
            min.x >= 0.0 && min.y >= 0.0 && max.x <= 640.0 && max.y <= 480.0,
            "{}: {min} {max}",
            clip.name
        );
        assert!(fill > 0.6, "{}: the robot covers only {fill} of the picture", clip.name);
        assert!(centre.distance(Vec2::new(320.0, 240.0)) < 40.0, "{}: centred at {centre}", clip.name);
    }
}

/// Two joints, one above the other, and a triangle whose three corners all sit at (0.5, 0.5, 0).
fn a_mesh_at_one_point() -> Vec<u8> {
    let mut g = Gltf::new();
    let position = g.floats(&[0.5, 0.5, 0.0].repeat(3), "VEC3");
    let joints = g.ints(&[0, 1, 0, 0].repeat(3), "VEC4", 5121, false);
    let weights = g.floats(&[0.5, 0.5, 0.0, 0.0].repeat(3), "VEC4");
    let attributes = json!({ "POSITION": position, "JOINTS_0": joints, "WEIGHTS_0": weights });
    g.push("meshes", json!({ "primitives": [{ "attributes": attributes }] }));
    g.push("nodes", json!({ "name": "root", "children": [1] }));
    g.push("nodes", json!({ "name": "top", "translation": [0.0, 3.0, 0.0] }));
    g.push("nodes", json!({ "mesh": 0, "skin": 0 }));
    g.push("skins", json!({ "joints": [0, 1] }));
    g.push("scenes", json!({ "nodes": [0, 2] }));
    g.json["scene"] = json!(0);
    g.embedded()
}

#[test]
fn a_mesh_at_one_point_frames_its_joints_and_shows_them_and_a_mark() {
    let bytes = a_mesh_at_one_point();
    let imported = load_from_slice(&bytes, None).expect("it loads");
    let model = &imported.model;
    let camera = framing_model(model, &imported.clips);
    assert!(camera.view_projection(640, 480).is_finite(), "{camera:?}");
    let pose = Pose::new(model);
    let joints = [pose.joint(0), pose.joint(1)];
    // Half on each joint, neither turned: the skin sits halfway between (0.5, 0.5, 0) moved by the
    // root (not at all) and by the top (3 up), every corner at the same point still.
    let skinned = Vec3::from(pose.skinned[0]);
    assert!(
        skinned.abs_diff_eq(Vec3::new(0.5, 2.0, 0.0), 1e-6)
            && pose.skinned.iter().all(|&p| p == pose.skinned[0])
    );
    let (min, max, fill) = on_screen(&camera, &[joints[0], joints[1], skinned]);
    assert!(min.x >= 0.0 && min.y >= 0.0 && max.x <= 640.0 && max.y <= 480.0, "{min} {max}");
    assert!(fill > 0.5, "the joints cover only {fill} of the picture");

    // Drawn: the bones in blue, and the mesh's points, a red mark where it sits.
    let dir = scratch("one-point");
    let (file, shot) = (dir.join("point.gltf"), dir.join("point.png"));
    std::fs::write(&file, &bytes).expect("written");
    let args =
        ["--model", file.to_str().unwrap(), "--headless", "--frames", "1", "--no-text", "--size", "640x480"];
    let Some(_) = run_gl(&[&args[..], &["--screenshot", shot.to_str().unwrap()]].concat()) else { return };
    let image = Image::load(&shot);
    let mark = camera.project(skinned, 640, 480);
    assert!(image.has_near(mark.x, mark.y, 3, Class::Red), "no mark at {mark}");
    for joint in joints {
        let at = camera.project(joint, 640, 480);
        assert!(image.has_near(at.x, at.y, 3, Class::Blue), "no joint at {at}");
    }
}

/// For each clip of `model`: the head's and the tail's distances from the eye, and where the left
/// and right front feet land across the picture, as the camera frames that clip.
fn seen(model: &Model, clips: &[Clip]) -> Vec<(String, f32, f32, f32, f32)> {
    let bone = |name: &str| model.skeleton.find(name).unwrap_or_else(|| panic!("the Fox has {name}"));
    let (head, tail) = (bone("b_Head_05"), bone("b_Tail03_014"));
    let (left, right) = (bone("b_LeftHand_011"), bone("b_RightHand_08"));
    clips
        .iter()
        .map(|clip| {
            let camera = framing_model(model, std::slice::from_ref(clip));
            let mut pose = Pose::new(model);
            pose.update(model, clip, 0.0);
            // The eye in the model's own numbers, where the joints are.
            let eye = camera.upright.inverse() * camera.eye(640.0 / 480.0);
            let x = |b| camera.project(pose.joint(b), 640, 480).x;
            let far = |b| pose.joint(b).distance(eye);
            (clip.name.clone(), far(head), far(tail), x(left), x(right))
        })
        .collect()
}

#[test]
fn the_fox_shows_its_face_from_gltf_and_from_md5() {
    // glTF's front is +z, id's +x: the Fox as the file has it, and as written to MD5 and loaded
    // back (`md5_export` turns it into id's axes), both seen from the front: the head nearer than
    // the tail, and the Fox's left paw on the picture's right, as a face-to-face viewer sees it.
    let Some(path) = sample_model("Fox.glb") else { return };
    let fox = load(&path).expect("the Fox loads");
    let files =
        skinning_formats::md5_export::export(&fox.model, &fox.looks, &fox.clips).expect("the Fox exports");
    let anims: Vec<(&str, &str)> = files.animations.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let md5 = skinning_formats::md5_import::load_from_str(&files.mesh, &anims).expect("it loads back");
    assert_eq!(md5.model.axes, skinning_method::model::Axes::ID);
    // And that MD5 model written as glTF again (`gltf_export` turns id's axes into glTF's): the
    // Fox comes back in its own axes, every skinned vertex where it was, and faces the same way.
    let own = &md5.clips[..md5.clips.len() - 1]; // without the MD5 loader's rest
    let glb = skinning_formats::gltf_export::export(&md5.model, &md5.looks, &[], own, Container::Glb)
        .expect("it exports as glTF");
    let again = load_from_slice(&glb, None).expect("it loads");
    let (mut a, mut b) = (Pose::new(&fox.model), Pose::new(&again.model));
    a.update(&fox.model, &fox.clips[1], 0.5);
    b.update(&again.model, again.clips.iter().find(|c| c.name == "Walk").expect("Walk"), 0.5);
    let apart = a.skinned.iter().zip(&b.skinned).map(|(p, q)| p.distance(*q)).fold(0.0, f32::max);
    assert!(apart < 1e-3, "the Fox came back through MD5 and glTF up to {apart} from where it was");
    let models = [(&fox.model, &fox.clips[..], "glTF"), (&md5.model, &md5.clips[..], "MD5")];
    for (model, clips, format) in models.into_iter().chain([(&again.model, &again.clips[..], "glTF again")]) {
        for (clip, head, tail, left, right) in seen(model, clips) {
            println!(
                "{format} {clip}: head {head:.1} and tail {tail:.1} from the eye; paws at x {left:.0} (left), {right:.0} (right)"
            );
            assert!(head < tail, "{format} {clip}: the head is {head}, the tail {tail} from the eye");
            assert!(left > right, "{format} {clip}: the left paw at x {left}, the right at {right}");
        }
    }
}

#[test]
fn a_camera_turned_from_the_command_line_frames_the_model_again_from_there() {
    // A long model (a snake, a train: 6 long along z, 0.4 wide, 1 tall): its front view fits its
    // width and height, and steps back by its length. Seen from the side (--camera 90,0), that
    // distance crops its length; `Camera::start_at` fits the distance to the side view instead.
    let corners: Vec<Vec3> = (0..8)
        .map(|i| Vec3::new([-0.2, 0.2][i & 1], [0.0, 1.0][(i >> 1) & 1], [-3.0, 3.0][(i >> 2) & 1]))
        .collect();
    let framed = Camera::framing(corners.clone());
    let (mut orbited, mut started) = (framed, framed);
    orbited.orbit(90f32.to_radians(), 0.0);
    started.start_at(90.0, 0.0, 1.0);
    let (min, max, fill) = on_screen(&orbited, &corners);
    eprintln!("the front view's distance, turned to the side: {min} to {max}");
    assert!(min.x < 0.0 && max.x > 640.0, "the front view's distance crops the side view: {min} {max}");
    let (min, max, fill_again) = on_screen(&started, &corners);
    eprintln!("framed again from the side: {min} to {max}, {fill_again:.2} of the picture (was {fill:.2})");
    assert!(min.cmpge(Vec2::ZERO).all() && max.cmple(Vec2::new(640.0, 480.0)).all(), "cropped: {min} {max}");
    assert!(fill_again > 0.75, "it fills the picture as the front view does: {fill_again}");
    // Turned by nothing, the start is the front view it was; the Fox from the side fills it too.
    let mut front = framed;
    front.start_at(0.0, 0.0, 1.0);
    assert_eq!(on_screen(&front, &corners), on_screen(&framed, &corners));
    let Some(path) = sample_model("Fox.glb") else { return };
    let imported = load(&path).expect("the Fox loads");
    let drawn = skinned_points(&imported.model, &imported.clips[0]);
    let mut side = framing_model(&imported.model, &imported.clips[..1]);
    side.start_at(90.0, 0.0, 1.0);
    let (min, max, fill) = on_screen(&side, &drawn);
    assert!(
        min.cmpge(Vec2::ZERO).all() && max.cmple(Vec2::new(640.0, 480.0)).all() && fill > 0.75,
        "{min} {max}"
    );
}
