//! A right-drag bends the bone the way the pointer goes, from either side of its joint.

use crate::demo::cli::options::Options;
use crate::demo::show::state::Demo;
use glam::Vec2;
use skinning_method::scene::{BONE2, BONE31, BONE32};

const SIZE: (u32, u32) = (640, 480);

/// The article's arm seen from behind (`--camera 180,0`): it points left on the screen, its claws
/// at the left end.
fn from_behind() -> Demo {
    let model = skinning_method::scene::article().expect("the article's scene");
    let clips = skinning_method::scene::clips().expect("its clips");
    let options = Options { clip: "seed".into(), camera: Some((180.0, 0.0, 1.0)), ..Options::default() };
    Demo::new(model, clips, &options).expect("a demo")
}

fn on_screen(d: &Demo, bone: usize) -> Vec2 {
    d.view.camera.project(d.joints[bone], SIZE.0, SIZE.1)
}

#[test]
fn dragging_up_lifts_a_bone_that_points_left_from_either_side_of_its_joint() {
    for side in [8.0, -8.0] {
        let mut d = from_behind();
        d.key(" ");
        let joint = on_screen(&d, BONE2);
        let claws = [BONE31, BONE32].map(|b| on_screen(&d, b));
        assert!(claws.iter().all(|c| c.x < joint.x - 50.0), "the claws point left: {claws:?} from {joint}");
        // Grab beside the joint (right: away from the claws; left: towards them), drag 60 pixels up.
        let grab = joint + Vec2::new(side, 0.0);
        assert!(d.start_bend(grab, SIZE, 12.0), "bone2 caught");
        for step in 1..=6 {
            d.drag_bend(grab - Vec2::new(0.0, 10.0 * step as f32));
        }
        d.end_bend();
        for (b, before) in [BONE31, BONE32].into_iter().zip(claws) {
            let after = on_screen(&d, b);
            // Up on the screen is a smaller pixel y; the joint itself stays where it was.
            assert!(after.y < before.y - 20.0, "grabbed at {side:+}: bone {b} went from {before} to {after}");
        }
        assert!(on_screen(&d, BONE2).distance(joint) < 0.5);
    }
}

#[test]
fn the_far_end_follows_the_pointer_around_the_joint() {
    // bone1's far end is bone2's joint, its one child. Wherever the pointer goes, that end lands on
    // the line from bone1's joint through the end moved as the pointer moved.
    use skinning_method::scene::BONE1;
    for drag in [Vec2::new(0.0, 100.0), Vec2::new(-30.0, -70.0), Vec2::new(150.0, 20.0)] {
        let mut d = from_behind();
        d.key(" ");
        let (joint, end) = (on_screen(&d, BONE1), on_screen(&d, BONE2));
        let grab = joint + Vec2::new(0.0, 6.0);
        assert!(d.start_bend(grab, SIZE, 12.0));
        d.drag_bend(grab + drag);
        let (wanted, got) = (end + drag - joint, on_screen(&d, BONE2) - joint);
        let off = wanted.angle_to(got).to_degrees();
        assert!(off.abs() < 0.5, "dragged by {drag}: the end is {off}° off the pointer's line");
        assert!((got.length() - (end - joint).length()).abs() < 1.0, "the bone kept its length");
    }
}
