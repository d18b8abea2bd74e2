//! The camera's framing and turning, checked.

use super::*;
use skinning_method::model::Axis;

/// The corners of a box from `min` to `max`.
fn corners(min: Vec3, max: Vec3) -> Vec<Vec3> {
    (0..8)
        .map(|i| {
            Vec3::new(
                if i & 1 == 0 { min.x } else { max.x },
                if i & 2 == 0 { min.y } else { max.y },
                if i & 4 == 0 { min.z } else { max.z },
            )
        })
        .collect()
}

#[test]
fn any_size_fills_the_same_part_of_the_picture() {
    // A fox-like box, long along z, at 1 unit and at 200 units, away from the origin.
    let small = corners(Vec3::new(-0.2, 0.0, -0.6), Vec3::new(0.2, 0.7, 0.6));
    let large: Vec<Vec3> = small.iter().map(|&p| p * 200.0 + Vec3::new(50.0, 0.0, -30.0)).collect();
    let (a, b) = (Camera::framing(small.clone()), Camera::framing(large.clone()));
    for (p, q) in small.iter().zip(&large) {
        let (pa, pb) = (a.project(*p, 640, 480), b.project(*q, 640, 480));
        assert!(pa.distance(pb) < 0.01, "{pa} vs {pb}");
        assert!(pa.x > 0.0 && pa.x < 640.0 && pa.y > 0.0 && pa.y < 480.0, "{pa} is off the picture");
    }
}

#[test]
fn a_z_up_model_stands_up_in_the_picture_its_left_on_the_right() {
    // A post 2 tall along +z, with a knob towards +y at its top: id's axes, where +y is the
    // character's left, which a camera at its front sees on the right.
    let points = [Vec3::ZERO, Vec3::new(0.0, 0.0, 2.0), Vec3::new(0.0, 0.5, 2.0)];
    let camera = Camera::framing_axes(points, Axes::ID);
    let [foot, top, knob] = points.map(|p| camera.project(p, 640, 480));
    // Up in the numbers is up on the screen (pixel y grows downwards).
    assert!(top.y < foot.y - 200.0, "{foot} {top}");
    assert!((top.x - foot.x).abs() < 1.0 && knob.x > top.x + 50.0, "{top} {knob}");
    // The camera's direction comes back in the model's numbers: level, so no z in it.
    assert!(camera.forward().z.abs() < 1e-6, "{}", camera.forward());
}

#[test]
fn the_camera_looks_at_the_front_of_either_kind_of_character() {
    // A fox-like box, long along its front: glTF's front is +z, id's +x, Blender's -y (up +y,
    // +z and +z).
    let gltf = corners(Vec3::new(-0.2, 0.0, -0.6), Vec3::new(0.2, 0.7, 0.6));
    let id = corners(Vec3::new(-0.6, -0.2, 0.0), Vec3::new(0.6, 0.2, 0.7));
    let blender = corners(Vec3::new(-0.2, -0.6, 0.0), Vec3::new(0.2, 0.6, 0.7));
    let blenders = Axes::new(Axis::PosZ, Axis::NegY).expect("across each other");
    let kinds = [(gltf, Axes::GLTF, Vec3::Z), (id, Axes::ID, Vec3::X), (blender, blenders, Vec3::NEG_Y)];
    for (points, up, front) in kinds {
        let camera = Camera::framing_axes(points.clone(), up);
        // It looks along -front, so the nose comes nearest and the tail sits behind it.
        assert!(camera.forward().abs_diff_eq(-front, 1e-6), "{up:?}: {}", camera.forward());
        // The eye and the box's centre in the model's own numbers.
        let eye = camera.upright.inverse() * camera.eye(640.0 / 480.0);
        let centre = camera.upright.inverse() * camera.target;
        let (nose, tail) = (centre + front * 0.6, centre - front * 0.6);
        assert!(eye.distance(nose) < eye.distance(tail), "{up:?}");
        // All of it in the picture.
        for p in &points {
            let at = camera.project(*p, 640, 480);
            assert!(at.x > 0.0 && at.x < 640.0 && at.y > 0.0 && at.y < 480.0, "{up:?}: {at} is off");
        }
    }
}
