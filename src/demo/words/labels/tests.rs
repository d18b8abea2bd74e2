use super::*;
use skinning::camera::framing_model;
use skinning_method::frame::Pose;

fn scene() -> (Model, Pose, Mat4) {
    let model = skinning_method::scene::article().expect("the article's scene");
    let clips = skinning_method::scene::clips().expect("the article's clips");
    let mut pose = Pose::new(&model);
    pose.update(&model, &clips[1], 1.0);
    let view_projection = framing_model(&model, &clips).view_projection(640, 480);
    (model, pose, view_projection)
}

/// The batch's lit (not shadow) points.
fn letters(labels: &Labels) -> Vec<Vec2> {
    let b = labels.batch();
    b.points()
        .iter()
        .zip(b.colors())
        .filter(|(_, c)| **c != crate::demo::words::font::SHADOW)
        .map(|(p, _)| Vec2::from(*p))
        .collect()
}

#[test]
fn the_corner_line_sits_in_the_top_left_corner() {
    let (model, _, vp) = scene();
    let mut labels = Labels::new(&model);
    let words = Words { status: "clip bend", names: false, scale: 1.0 };
    labels.compose(&words, None, None, vp, (640, 480));
    let points = letters(&labels);
    assert!(!points.is_empty());
    // Nine characters of 8 pixels from x = 6; one line of 8 pixels from y = 6.
    assert!(points.iter().all(|p| (6.0..6.0 + 72.0).contains(&p.x) && (6.0..14.0).contains(&p.y)));
    // At scale 2 the margin and the letters double.
    labels.compose(&Words { scale: 2.0, ..words }, None, None, vp, (640, 480));
    assert!(
        letters(&labels).iter().all(|p| (12.0..12.0 + 144.0).contains(&p.x) && (12.0..28.0).contains(&p.y))
    );
}

#[test]
fn names_sit_beside_their_joints_and_only_when_asked() {
    let (model, pose, vp) = scene();
    let joints: Vec<Vec3> = (0..model.skeleton.len()).map(|b| pose.joint(b)).collect();
    let mut labels = Labels::new(&model);
    let without = Words { status: "", names: false, scale: 1.0 };
    labels.compose(&without, Some(&joints), None, vp, (640, 480));
    assert!(labels.batch().points().is_empty(), "names off, no status: nothing");
    labels.compose(&Words { names: true, ..without }, Some(&joints), None, vp, (640, 480));
    let points = letters(&labels);
    for (b, joint) in joints.iter().enumerate() {
        let at = to_pixels(vp, *joint, (640, 480)).expect("in front of the camera");
        let start = crate::demo::words::placement::name_spots(at, model.skeleton.bone(b).name.len(), 1.0)[0];
        let end = start + Vec2::new(model.skeleton.bone(b).name.len() as f32 * 8.0, 8.0);
        let inside = |p: &&Vec2| p.x >= start.x && p.y >= start.y && p.x < end.x && p.y < end.y;
        assert!(points.iter().filter(inside).count() > 10, "bone {b}'s name is not beside its joint");
    }
    // Hidden skeleton, no names.
    labels.compose(&Words { names: true, ..without }, None, None, vp, (640, 480));
    assert!(labels.batch().points().is_empty());
}

#[test]
fn each_candidate_gets_its_bone_and_weight_in_its_colour() {
    let (model, pose, vp) = scene();
    let inspection = skinning_method::inspect::inspect(&model.skin, model.skin.bind(), &pose.palette, 2);
    let mut labels = Labels::new(&model);
    let words = Words { status: "", names: false, scale: 1.0 };
    labels.compose(&words, None, Some(&inspection), vp, (640, 480));
    let b = labels.batch();
    let blend = to_pixels(vp, inspection.blended, (640, 480)).expect("in view");
    for (slot, c) in inspection.candidates().iter().enumerate() {
        // "bone1 0.50": ten characters' worth of lit pixels, in this candidate's colour...
        let color = candidate_color(slot, c.weight);
        let points: Vec<Vec2> = b
            .points()
            .iter()
            .zip(b.colors())
            .filter(|(_, k)| **k == color)
            .map(|(p, _)| Vec2::from(*p))
            .collect();
        assert!(points.len() > 100, "slot {slot}: {} points", points.len());
        // ...on the far side of the candidate from the blend.
        let at = to_pixels(vp, c.position, (640, 480)).expect("in view");
        let away = if at.x < blend.x {
            points.iter().all(|p| p.x < at.x)
        } else {
            points.iter().all(|p| p.x > at.x)
        };
        assert!(away, "slot {slot}'s label crosses its candidate");
        // And the sum's term in the slot's full colour, under the corner line.
        let full = candidate_color(slot, 1.0);
        let term = b.points().iter().zip(b.colors()).filter(|(p, k)| **k == full && p[1] < 40.0).count();
        assert!(term > 50, "slot {slot}'s term in the sum: {term} points");
    }
    assert_eq!(labels.line, "bone2 0.50", "the last label written");
}

#[test]
fn a_long_chain_name_wraps_onto_as_many_lines_as_it_needs() {
    // The corner line of a Mixamo rig's reach: its chain's name alone is 41 characters.
    let row = "clip Idle  t 0.00 s  1x  lbs on cpu  pose+blend 51.0 µs  reach mixamorig:LeftArm-mixamorig:LeftHand \
               two-bone 0.0000 to go";
    let lines: Vec<&str> = StatusLines::new(row, 320, 1.0).collect();
    assert!(lines.len() >= 3, "{lines:?}");
    assert!(lines.iter().all(|l| l.chars().count() <= (320 - 12) / 8), "a line runs off: {lines:?}");
    assert!(lines.iter().any(|l| l.contains("mixamorig:LeftArm-mixamorig:LeftHand")), "{lines:?}");
    assert!(lines.last().is_some_and(|l| l.ends_with("to go")), "the end is shown: {lines:?}");
    // A word longer than the window is cut where the edge is.
    let lines: Vec<&str> = StatusLines::new("abcdefghij", 12 + 4 * 8, 1.0).collect();
    assert_eq!(lines, ["abcd", "efgh", "ij"]);
}

#[test]
fn a_corner_line_too_long_for_the_window_goes_on_two_lines() {
    // 88 characters; a 640-pixel window holds (640 - 2 * 6) / 8 = 78 of them.
    let status =
        "clip a-long-animation-name  t 0.62 s  1x  paused  lbs+dqs on both  pose 1.2 µs  frame 0.55 ms";
    let lines: Vec<&str> = StatusLines::new(status, 640, 1.0).collect();
    let [first, second] = lines[..] else { panic!("two lines: {lines:?}") };
    assert!(first.chars().count() <= 78, "{first:?} / {second:?}");
    assert_eq!(format!("{first}  {second}"), status, "cut at a double space, nothing lost");
    assert_eq!(
        StatusLines::new("clip bend  t 0.62 s", 640, 1.0).collect::<Vec<_>>(),
        ["clip bend  t 0.62 s"]
    );
    // At scale 2 half as many characters fit.
    assert!(StatusLines::new(status, 1280, 2.0).all(|line| line.chars().count() <= 78));

    let (model, pose, vp) = scene();
    let mut labels = Labels::new(&model);
    let inspection = skinning_method::inspect::inspect(&model.skin, model.skin.bind(), &pose.palette, 2);
    labels.compose(&Words { status, names: false, scale: 1.0 }, None, Some(&inspection), vp, (640, 480));
    let b = labels.batch();
    let text: Vec<Vec2> =
        b.points().iter().zip(b.colors()).filter(|(_, c)| **c == TEXT).map(|(p, _)| Vec2::from(*p)).collect();
    assert!(text.iter().all(|p| p.x < 640.0 - 6.0), "a letter runs off the window");
    let second_line = text.iter().filter(|p| (18.0..26.0).contains(&p.y)).count();
    assert!(second_line > 100, "the second line has {second_line} points");
    // The inspector's sum moves down a line to make room: its terms start under the second line.
    let full = candidate_color(0, 1.0);
    let term: Vec<f32> =
        b.points().iter().zip(b.colors()).filter(|(_, k)| **k == full).map(|(p, _)| p[1]).collect();
    assert!(term.iter().any(|y| (30.0..38.0).contains(y)), "the sum's first term is not on the third line");
}

#[test]
fn bone_names_are_drawn_with_their_control_characters_and_bidirectional_controls_escaped() {
    use skinning_method::skeleton::SkeletonBuilder;
    use skinning_method::skin::{Influence, Joint, Skin};
    let mut b = SkeletonBuilder::new();
    let root = b.bone("root\u{1b}[2J\u{7}\u{202e}gnp.exe", Vec3::ZERO);
    let skeleton = b.build().expect("one bone");
    let joints = vec![Joint { bone: root, offset: Mat4::IDENTITY }];
    let one = [Influence { joint: 0, weight: 1.0 }];
    let skin = Skin::from_table(joints, &[(Vec3::X, &one[..])]).expect("a skin");
    let model = Model::new(skeleton, skin, Vec::new()).expect("a model");
    let labels = Labels::new(&model);
    // The font has no glyph for the override (it would draw a bare ?): escaped, the label reads
    // as the terminal shows the name.
    assert_eq!(labels.bone_names, ["root\\u{1b}[2J\\u{7}\\u{202e}gnp.exe"]);
}

#[test]
fn the_inspectors_sum_wraps_at_the_pictures_right_edge() {
    let (model, pose, vp) = scene();
    let inspection = skinning_method::inspect::inspect(&model.skin, model.skin.bind(), &pose.palette, 2);
    assert_eq!(inspection.candidates().len(), 2, "vertex 2 is on bone1 and bone2");
    let mut labels = Labels::new(&model);
    // Names as long as Mixamo's: the sum is 108 characters, 864 pixels, on a 640-pixel picture.
    labels.bone_names =
        labels.bone_names.iter().map(|n| format!("mixamorig:LeftForeArmTwist_{n}_end")).collect();
    let words = Words { status: "", names: false, scale: 1.0 };
    labels.compose(&words, None, Some(&inspection), vp, (640, 480));
    let points = letters(&labels);
    assert!(points.iter().all(|p| p.x < 640.0 - MARGIN), "a letter runs off the right edge");
    // Two lines of the sum, each starting at the left margin: y 6 to 14, then 18 to 26.
    let starts = |top: f32| points.iter().any(|p| p.x < MARGIN + 8.0 && (top..top + GLYPH).contains(&p.y));
    assert!(starts(MARGIN) && starts(MARGIN + LINE), "the sum is not on two lines");
}
