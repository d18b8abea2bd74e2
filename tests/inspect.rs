//! The vertex inspector's math (`skinning_method::inspect`) against numbers worked out by hand, and its
//! report against the rule a learner checks it by: each contribution is weight times candidate, and
//! they add up to the skinned position.

use glam::{Quat, Vec3, vec3};
use skinning_fast::fast_path::FastPath;
use skinning_method::frame::{Frame, Pose, Still};
use skinning_method::inspect::{Report, inspect, skinned_position};
use skinning_method::lbs_or_dqs::{Blender, ByMethod, Method, Palette, Reference};
use skinning_method::scene::{self, BONE1, BONE2};
use skinning_method::transform::Trs;

#[test]
fn vertex_2_with_bone2_turned_a_quarter() {
    // bone2 turns 90 degrees about z at its joint (0.4, 0); nothing else moves. Vertex 2, at
    // (0.3, 0.05), is half bone1 and half bone2.
    let model = scene::article().expect("the article's scene");
    let mut pose = Pose::new(&model);
    let turn = Quat::from_rotation_z(90f32.to_radians());
    pose.local[BONE2] = Trs { rotation: turn, ..Trs::from_translation(vec3(0.2, 0.0, 0.0)) };
    pose.run(&model, Frame::new(&Still, 0.0)).expect("linear blending takes any palette");
    let i = inspect(&model.skin, model.skin.bind(), &pose.palette, 2);
    let c = i.candidates();
    assert_eq!((i.vertex, i.bind, c.len()), (2, vec3(0.3, 0.05, 0.0), 2));
    // bone1 has not moved: its candidate is the bind position itself.
    assert_eq!((c[0].joint, c[0].weight), (BONE1, 0.5));
    assert!(c[0].position.abs_diff_eq(vec3(0.3, 0.05, 0.0), 1e-6), "{}", c[0].position);
    // bone2 alone: (0.3, 0.05) is (-0.1, 0.05) from its joint; a quarter turn makes that
    // (-0.05, -0.1), so the candidate is (0.35, -0.1).
    assert_eq!((c[1].joint, c[1].weight), (BONE2, 0.5));
    assert!(c[1].position.abs_diff_eq(vec3(0.35, -0.1, 0.0), 1e-6), "{}", c[1].position);
    // Half of each: (0.15, 0.025) + (0.175, -0.05) = (0.325, -0.025).
    assert!(c[0].contribution.abs_diff_eq(vec3(0.15, 0.025, 0.0), 1e-6));
    assert!(c[1].contribution.abs_diff_eq(vec3(0.175, -0.05, 0.0), 1e-6));
    assert!(i.blended.abs_diff_eq(vec3(0.325, -0.025, 0.0), 1e-6), "{}", i.blended);
}

#[test]
fn vertex_2_at_the_top_of_the_bend_clip() {
    // At 2 s the bend clip holds bone1 at 30 degrees and bone2 at 40 more (about z).
    // bone1 alone: (0.1, 0.05) from its joint (0.2, 0), turned 30 degrees:
    //   (0.1 cos30 - 0.05 sin30, 0.1 sin30 + 0.05 cos30) + (0.2, 0) = (0.261603, 0.093301).
    // bone2 alone: (-0.1, 0.05) from its joint, turned 40 degrees, then carried by bone1 (0.2 along,
    //   turned 30 degrees): (0.292018, 0.023132).
    // Half of each: (0.276810, 0.058217).
    let model = scene::article().expect("the article's scene");
    let mut pose = Pose::new(&model);
    pose.update(&model, &scene::bend().expect("bend"), 2.0);
    let i = inspect(&model.skin, model.skin.bind(), &pose.palette, 2);
    let c = i.candidates();
    assert!(c[0].position.abs_diff_eq(vec3(0.261603, 0.093301, 0.0), 1e-5), "{}", c[0].position);
    assert!(c[1].position.abs_diff_eq(vec3(0.292018, 0.023132, 0.0), 1e-5), "{}", c[1].position);
    assert!(i.blended.abs_diff_eq(vec3(0.276810, 0.058217, 0.0), 1e-5), "{}", i.blended);
}

#[test]
fn the_inspector_blends_exactly_as_the_blend_does() {
    // Every vertex, every clip, several times: the same bits as the frame's readable blend, and
    // within a rounding of the position the program draws (the fast path, `lanes.rs`, blends the
    // matrix first).
    let model = scene::article().expect("the article's scene");
    let mut pose = Pose::new(&model);
    let mut drawn = vec![glam::Vec3A::ZERO; model.skin.len()];
    for clip in scene::clips().expect("the article's clips") {
        for t in [0.0, 0.7, 1.5, 2.2, 3.9] {
            pose.update(&model, &clip, t);
            FastPath::new().blend(
                &model.skin,
                model.skin.shape(),
                Palette::Lbs(&pose.palette),
                &mut drawn,
                &mut [],
            );
            for (v, &reference) in pose.skinned.iter().enumerate() {
                let i = inspect(&model.skin, model.skin.bind(), &pose.palette, v);
                assert_eq!(Vec3::from(reference), i.blended, "{} at {t}: vertex {v}", clip.name);
                let drawn = Vec3::from(drawn[v]);
                assert!(
                    drawn.abs_diff_eq(i.blended, 1e-6),
                    "{} at {t}: vertex {v} drawn at {drawn}",
                    clip.name
                );
                assert_eq!(skinned_position(&model.skin, model.skin.bind(), &pose.palette, v), i.blended);
                // And the parts add up: weights to 1, contributions to the result.
                let weights: f32 = i.candidates().iter().map(|c| c.weight).sum();
                let sum: Vec3 = i.candidates().iter().map(|c| c.contribution).sum();
                assert!((weights - 1.0).abs() < 1e-4 && sum.abs_diff_eq(i.blended, 1e-6));
            }
        }
    }
}

#[test]
fn a_vertex_on_one_bone_has_one_candidate_the_rigid_move() {
    // Vertex 5 is all bone31: its one candidate is where it lands.
    let model = scene::article().expect("the article's scene");
    let mut pose = Pose::new(&model);
    let turn = Quat::from_rotation_z(0.7);
    pose.local[scene::BONE31] = Trs { rotation: turn, ..Trs::from_translation(vec3(0.2, 0.1, 0.0)) };
    pose.run(&model, Frame::new(&Still, 0.0)).expect("linear blending takes any palette");
    let i = inspect(&model.skin, model.skin.bind(), &pose.palette, 5);
    assert_eq!(i.candidates().len(), 1);
    assert_eq!(i.candidates()[0].weight, 1.0);
    assert_eq!(i.candidates()[0].position, i.blended);
    // Worked by hand: vertex 5 rests at (0.65, 0.1), 0.05 past bone31's joint at (0.6, 0.1); the
    // joint turns it 0.7 radians about z, the bones above it still.
    let by_hand = vec3(0.6 + 0.05 * 0.7f32.cos(), 0.1 + 0.05 * 0.7f32.sin(), 0.0);
    assert!(i.blended.distance(by_hand) < 1e-6, "{} against {by_hand}", i.blended);
}

/// The numbers on a line of the report, in order.
fn numbers(line: &str) -> Vec<f32> {
    line.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter_map(|word| word.parse().ok())
        .collect()
}

#[test]
fn the_report_can_be_redone_by_hand() {
    let model = scene::article().expect("the article's scene");
    let mut pose = Pose::new(&model);
    pose.update(&model, &scene::bend().expect("bend"), 2.0);
    let inspection = inspect(&model.skin, model.skin.bind(), &pose.palette, 2);
    let text = Report { inspection: &inspection, model: &model }.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "heading, column names, two influences, the sum:\n{text}");
    assert!(lines[0].starts_with("vertex 2: bind (") && lines[0].ends_with("2 influences"), "{text}");
    assert!(lines[1].contains("candidate = palette[joint] * bind"), "{text}");
    // Each influence line: name, joint, weight, candidate (3), contribution (3).
    let mut sum = Vec3::ZERO;
    for (line, (name, joint)) in lines[2..4].iter().zip([("bone1", 1.0), ("bone2", 2.0)]) {
        assert!(line.trim_start().starts_with(name), "{line}");
        let n = numbers(line.trim_start().trim_start_matches(name));
        assert_eq!(n.len(), 8, "{line}");
        assert_eq!((n[0], n[1]), (joint, 0.5), "{line}");
        let (candidate, contribution) = (Vec3::new(n[2], n[3], n[4]), Vec3::new(n[5], n[6], n[7]));
        // The printed numbers are rounded to 4 places: the learner's product agrees to that.
        assert!((candidate * n[1]).abs_diff_eq(contribution, 1e-4), "{line}");
        sum += contribution;
    }
    assert!(lines[4].trim_start().starts_with("sum = skinned position"), "{text}");
    let result = numbers(lines[4]);
    assert_eq!(result.len(), 3, "{}", lines[4]);
    assert!(sum.abs_diff_eq(Vec3::from_slice(&result), 2e-4), "{text}");
    assert!(Vec3::from_slice(&result).abs_diff_eq(vec3(0.2768, 0.0582, 0.0), 1e-4), "{text}");
    // The sum's column is the contributions' column.
    let column = |line: &str| line.rfind('(').expect("a point");
    assert_eq!(column(lines[2]), column(lines[4]), "{text}");
    println!("{text}");
}

#[test]
fn with_dual_quaternions_the_twisted_vertex_keeps_its_distance_from_the_axis() {
    // Twist at 2 s: bone2 turned 150 degrees about the arm (x). Vertex 2 sits 0.05 from the axis.
    // Linear blending averages its two candidates, (0.3, 0.05, 0) and (0.3, 0.05 cos150, 0.05 sin150):
    // (0.3, 0.00335, 0.0125), only 0.05 cos75 = 0.01294 from the axis. Dual quaternions turn it
    // halfway, 75 degrees, at its full distance: (0.3, 0.05 cos75, 0.05 sin75) = (0.3, 0.012941, 0.048296).
    let model = scene::article().expect("the article's scene");
    let mut pose = Pose::new(&model);
    pose.update(&model, &scene::twist().expect("twist"), 2.0);
    // The dual quaternions a DQS skinner makes of this palette (`lbs_or_dqs.rs`: `ByMethod`).
    let mut dqs_skinner = ByMethod::new(Method::Dqs, Reference);
    let dq = dqs_skinner.make_dq(&pose.palette).expect("the article's palette is rigid");
    let i = inspect(&model.skin, model.skin.bind(), &pose.palette, 2).with_dqs(
        &model.skin,
        model.skin.bind(),
        &dq.joints,
        dq.scale,
    );
    assert!(i.blended.abs_diff_eq(vec3(0.3, 0.00335, 0.0125), 1e-5), "{}", i.blended);
    let dqs = i.dqs.expect("asked for");
    assert!(dqs.abs_diff_eq(vec3(0.3, 0.012941, 0.048296), 1e-5), "{dqs}");
    assert!((Vec3::new(0.0, dqs.y, dqs.z).length() - 0.05).abs() < 1e-6);
    // The same point as the whole-mesh DQS blend, and the report says so on a line of its own.
    let dqs_frame = Frame { blending: dqs_skinner.ending(), ..Frame::new(&Still, 2.0) };
    pose.run(&model, dqs_frame).expect("rigid");
    assert_eq!(Vec3::from(pose.skinned[2]), dqs);
    let text = Report { inspection: &i, model: &model }.to_string();
    let last = text.lines().last().expect("lines");
    assert!(last.trim_start().starts_with("dual quaternion skinning (dqs)"), "{text}");
    assert_eq!(numbers(last), [0.3, 0.0129, 0.0483], "{text}");
    assert!(text.contains("sum = linear blend skinning (lbs)"), "{text}");
}
