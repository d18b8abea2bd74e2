//! Dual-quaternion skinning (`dual_quat.rs`) against what it promises: rigid where LBS is rigid,
//! no pinch under any twist, the same result for q and -q, and clear refusals for what it cannot do.

use glam::{Mat4, Quat, Vec3, Vec3A, vec3};
use skinning_method::blend::blend_run;
use skinning_method::dual_quat::{DualQuat, DualQuats, NotRigid, RigidProblem, compute_dq_palette};
use skinning_method::frame::{Frame, Pose, Still};
use skinning_method::lbs_or_dqs::{ByMethod, Method, Reference, not_rigid};
use skinning_method::model::Model;
use skinning_method::scene::{self, BONE1, BONE2, BONE31, BONE32};
use skinning_method::skin::{Influence, Joint, Skin};

fn article() -> Model {
    scene::article().expect("the article's scene")
}

/// The article's scene with each listed bone turned by a rotation on top of its rest local (a bend,
/// as a hand would make: `local * bend`).
fn posed(model: &Model, turns: &[(usize, Quat)], method: Method) -> Pose {
    posed_by(model, turns, &mut ByMethod::new(method, Reference))
}

/// [`posed`], blended `by` a skinner the caller keeps (and may ask what it made).
fn posed_by(model: &Model, turns: &[(usize, Quat)], by: &mut ByMethod<Reference>) -> Pose {
    let mut pose = Pose::new(model);
    for &(bone, turn) in turns {
        pose.bend[bone] = turn;
    }
    pose.run(model, Frame { blending: by.ending(), ..Frame::new(&Still, 0.0) })
        .expect("the article's joints are rigid");
    pose
}

/// Every vertex of `skin` by dual quaternions, positions alone.
fn blend_dqs(skin: &Skin, joints: &[DualQuat], scale: f32, out: &mut [Vec3A]) {
    blend_run(skin, skin.bind(), &DualQuats { joints, scale }, 0..skin.len(), out);
}

#[test]
fn a_dual_quaternion_moves_a_point_as_its_matrix_does() {
    // Independent expectation: glam's rotation-then-translation matrix.
    let rotation = Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.2, 2.0);
    let translation = vec3(0.5, -2.0, 3.25);
    let dq = DualQuat::from_rotation_translation(rotation, translation);
    let matrix = Mat4::from_rotation_translation(rotation, translation);
    for p in [Vec3::ZERO, Vec3::X, vec3(-0.3, 0.7, 1.9)] {
        let moved = Vec3::from(dq.transform_point(p.into()));
        assert!(moved.abs_diff_eq(matrix.transform_point3(p), 1e-6), "{p}: {moved}");
    }
    assert!(dq.translation().abs_diff_eq(translation, 1e-6));
    // Unit: |real| = 1 and real . dual = 0.
    assert!((dq.real.length() - 1.0).abs() < 1e-6 && dq.real.dot(dq.dual).abs() < 1e-6);
}

#[test]
fn a_vertex_on_one_bone_moves_rigidly_and_equals_lbs() {
    let model = article();
    let turns = [
        (BONE1, Quat::from_rotation_z(0.9)),
        (BONE2, Quat::from_rotation_x(2.4)),
        (BONE31, Quat::from_rotation_y(-0.7)),
        (BONE32, Quat::from_axis_angle(vec3(1.0, 2.0, 3.0).normalize(), 3.0)),
    ];
    let lbs = posed(&model, &turns, Method::Lbs);
    let dqs = posed(&model, &turns, Method::Dqs);
    let mut checked = 0;
    for (i, (v, &bind)) in model.skin.vertex_influences().iter().zip(model.skin.bind()).enumerate() {
        if model.skin.slots_used()[i] != 1 {
            continue;
        }
        // Rigid: exactly where the joint's palette matrix alone puts it.
        let rigid = lbs.palette[v.joints[0] as usize].transform_point3a(bind);
        assert!(dqs.skinned[i].abs_diff_eq(rigid, 1e-6), "vertex {i}: {} vs {rigid}", dqs.skinned[i]);
        assert!(dqs.skinned[i].abs_diff_eq(lbs.skinned[i], 1e-6), "vertex {i}");
        checked += 1;
    }
    assert_eq!(checked, 4, "vertices 0, 5, 7 and 12 sit on one bone each");
    // And every frame of every clip, through the whole frame: `Pose::run` by each method.
    let (mut a, mut b) = (Pose::new(&model), Pose::new(&model));
    for clip in scene::clips().expect("the article's clips") {
        for f in 0..40 {
            let t = f as f64 * 0.1;
            a.update(&model, &clip, t);
            b.run(
                &model,
                Frame { blending: ByMethod::new(Method::Dqs, Reference).ending(), ..Frame::new(&clip, t) },
            )
            .expect("rigid");
            for i in [0, 5, 7, 12] {
                assert!(a.skinned[i].abs_diff_eq(b.skinned[i], 1e-6), "{} at {t}: vertex {i}", clip.name);
            }
        }
    }
}

/// A vertex's distance from the x axis, about which `twist` turns bone2.
fn from_axis(p: Vec3A) -> f32 {
    (p.y * p.y + p.z * p.z).sqrt()
}

#[test]
fn under_dqs_the_twist_keeps_every_vertex_at_its_distance_from_the_axis() {
    let model = article();
    let bind: Vec<Vec3A> = model.skin.bind().to_vec();
    // Every angle, past 180 degrees too, where the sign flip decides.
    for degrees in (0..=360).step_by(5) {
        let twist = Quat::from_rotation_x((degrees as f32).to_radians());
        let dqs = posed(&model, &[(BONE2, twist)], Method::Dqs);
        for (i, (p, b)) in dqs.skinned.iter().zip(&bind).enumerate() {
            let (now, before) = (from_axis(*p), from_axis(*b));
            assert!(
                (now - before).abs() <= 1e-5,
                "{degrees}°: vertex {i} at {now} from the axis, not {before}"
            );
            // Turning about x never moves a vertex along x.
            assert!((p.x - b.x).abs() <= 1e-5, "{degrees}°: vertex {i} slid along the axis");
        }
    }
}

#[test]
fn at_150_degrees_lbs_pinches_to_cos_75_and_dqs_turns_halfway() {
    let model = article();
    let twist = Quat::from_rotation_x(150f32.to_radians());
    let lbs = posed(&model, &[(BONE2, twist)], Method::Lbs);
    let dqs = posed(&model, &[(BONE2, twist)], Method::Dqs);
    // Vertices 2 and 10 are half on bone1 (still) and half on bone2 (turned by 150°), 0.05 off the axis.
    for v in [2, 10] {
        let bind = model.skin.bind()[v];
        let lbs_radius = from_axis(lbs.skinned[v]);
        assert!((lbs_radius - 0.05 * 75f32.to_radians().cos()).abs() < 1e-6, "LBS vertex {v}: {lbs_radius}");
        // DQS: the bind position turned by half the twist, 75° about x.
        let halfway = Quat::from_rotation_x(75f32.to_radians()) * Vec3::from(bind);
        assert!(Vec3::from(dqs.skinned[v]).abs_diff_eq(halfway, 1e-6), "DQS vertex {v}: {}", dqs.skinned[v]);
    }
    // The twist clip holds 150° from 1.5 s to 2.5 s: the same numbers through the whole frame.
    let clip = scene::twist().expect("the twist clip");
    let mut pose = Pose::new(&model);
    pose.run(
        &model,
        Frame { blending: ByMethod::new(Method::Dqs, Reference).ending(), ..Frame::new(&clip, 2.0) },
    )
    .expect("rigid");
    assert!((from_axis(pose.skinned[2]) - 0.05).abs() < 1e-6);
    pose.run(
        &model,
        Frame { blending: ByMethod::new(Method::Lbs, Reference).ending(), ..Frame::new(&clip, 2.0) },
    )
    .expect("LBS takes any palette");
    assert!((from_axis(pose.skinned[2]) - 0.05 * 75f32.to_radians().cos()).abs() < 1e-6);
}

#[test]
fn q_and_minus_q_in_the_palette_give_the_same_result() {
    let model = article();
    let turns = [(BONE1, Quat::from_rotation_z(1.3)), (BONE2, Quat::from_rotation_x(2.8))];
    let mut by = ByMethod::new(Method::Dqs, Reference);
    let pose = posed_by(&model, &turns, &mut by);
    // Flip the sign of every other joint's dual quaternion (both parts): the same motions.
    let dq = by.dq().expect("the frame blended by DQS");
    let flipped: Vec<DualQuat> = (dq.joints.iter().enumerate())
        .map(|(j, d)| if j % 2 == 0 { DualQuat { real: -d.real, dual: -d.dual } } else { *d })
        .collect();
    assert_ne!(flipped, dq.joints);
    let mut out = vec![Vec3A::ZERO; model.skin.len()];
    blend_dqs(&model.skin, &flipped, dq.scale, &mut out);
    for (i, (a, b)) in out.iter().zip(&pose.skinned).enumerate() {
        assert!(a.abs_diff_eq(*b, 1e-6), "vertex {i}: {a} vs {b}");
    }
}

/// A one-bone skeleton with `joints` joints, all on it, and these vertices.
fn skin_of(joints: usize, table: &[(Vec3, &[Influence])]) -> Skin {
    let joints = vec![Joint { bone: 0, offset: Mat4::IDENTITY }; joints];
    Skin::from_table(joints, table).expect("a valid skin")
}

#[test]
fn blending_two_equal_transforms_gives_that_transform() {
    let w = |joint, weight| Influence { joint, weight };
    let points = [vec3(0.3, -0.2, 0.1), vec3(-0.4, 0.5, 0.25)];
    let skin =
        skin_of(2, &[(points[0], &[w(0, 0.3), w(1, 0.7)][..]), (points[1], &[w(0, 0.5), w(1, 0.5)][..])]);
    let motion = DualQuat::from_rotation_translation(Quat::from_rotation_y(2.9), vec3(0.1, 0.2, -0.3));
    // The same motion twice, and once as -q: the blend is that motion.
    for second in [motion, DualQuat { real: -motion.real, dual: -motion.dual }] {
        let mut out = vec![Vec3A::ZERO; 2];
        blend_dqs(&skin, &[motion, second], 1.0, &mut out);
        for (p, o) in points.iter().zip(&out) {
            let expected = motion.transform_point((*p).into());
            assert!(o.abs_diff_eq(expected, 1e-6), "{p}: {o} vs {expected}");
        }
    }
}

#[test]
fn a_scale_shared_by_every_joint_is_factored_out() {
    // A model exported 100 times too big, its armature scaled by 0.01: every palette matrix is
    // [0.01 R | t]. DQS blends the rigid parts and scales the bind positions by 0.01.
    let (r0, r1) = (Quat::from_rotation_z(0.4), Quat::from_rotation_x(1.9));
    let scale = Vec3::splat(0.01);
    let palette = [
        Mat4::from_scale_rotation_translation(scale, r0, vec3(1.0, 0.0, 0.0)),
        Mat4::from_scale_rotation_translation(scale, r1, vec3(0.0, 2.0, 0.0)),
    ];
    let mut dq = [DualQuat::IDENTITY; 2];
    let common = compute_dq_palette(&palette, &mut dq).expect("one uniform scale is fine");
    assert!((common - 0.01).abs() < 1e-8, "{common}");
    let w = |joint, weight| Influence { joint, weight };
    let bind = vec3(50.0, -20.0, 10.0);
    let skin =
        skin_of(2, &[(bind, &[w(0, 1.0)][..]), (bind, &[w(1, 1.0)][..]), (bind, &[w(0, 0.5), w(1, 0.5)])]);
    let mut out = vec![Vec3A::ZERO; 3];
    blend_dqs(&skin, &dq, common, &mut out);
    // One influence: exactly what the scaled matrix does.
    assert!(Vec3::from(out[0]).abs_diff_eq(palette[0].transform_point3(bind), 1e-5), "{}", out[0]);
    assert!(Vec3::from(out[1]).abs_diff_eq(palette[1].transform_point3(bind), 1e-5), "{}", out[1]);
    // Two: the rigid blend of the scaled bind position, computed here from the rotations directly.
    let halfway = DualQuat::from_rotation_translation(r0, vec3(1.0, 0.0, 0.0));
    let other = DualQuat::from_rotation_translation(r1, vec3(0.0, 2.0, 0.0));
    let sign = if halfway.real.dot(other.real) < 0.0 { -1.0 } else { 1.0 };
    let real = (halfway.real + other.real * sign) * 0.5;
    let dual = (halfway.dual + other.dual * sign) * 0.5;
    let n = real.length();
    let expected = DualQuat { real: real / n, dual: dual / n }.transform_point((0.01 * bind).into());
    assert!(out[2].abs_diff_eq(expected, 1e-5), "{} vs {expected}", out[2]);
}

#[test]
fn any_other_scale_shear_or_mirror_is_refused_naming_the_joint() {
    let rigid = Mat4::from_rotation_translation(Quat::from_rotation_z(0.5), Vec3::X);
    let cases = [
        (Mat4::from_scale(vec3(1.5, 1.0, 1.0)), RigidProblem::Scaled(vec3(1.5, 1.0, 1.0))),
        (Mat4::from_scale(Vec3::splat(2.0)), RigidProblem::ScaleDiffers { scale: 2.0, first: 1.0 }),
        (Mat4::from_scale(vec3(-1.0, 1.0, 1.0)), RigidProblem::Mirrored),
        (
            Mat4::from_cols_array(&[
                1.0, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
            ]),
            {
                // A shear: y's axis leans towards x. Its length is not 1 either; the scale check comes first.
                RigidProblem::Scaled(vec3(1.0, 1.25f32.sqrt(), 1.0))
            },
        ),
    ];
    for (bad, problem) in cases {
        let palette = [rigid, rigid, bad];
        let mut dq = [DualQuat::IDENTITY; 3];
        let err = compute_dq_palette(&palette, &mut dq).expect_err("not rigid");
        assert_eq!(err, NotRigid { joint: 2, problem });
        let line = err.to_string();
        assert!(line.starts_with("joint 2 ") && !line.contains('\n'), "{line}");
    }
    // A shear that keeps every axis one long: y's axis leans towards x, normalised.
    let lean = vec3(0.6, 0.8, 0.0);
    let sheared = Mat4::from_cols(glam::Vec4::X, lean.extend(0.0), glam::Vec4::Z, glam::Vec4::W);
    let err = compute_dq_palette(&[rigid, sheared], &mut [DualQuat::IDENTITY; 2]).expect_err("sheared");
    assert_eq!(err, NotRigid { joint: 1, problem: RigidProblem::Sheared });
    assert_eq!(err.to_string(), "joint 1 is sheared");
    // Within the tolerance is rigid: what float rounding leaves.
    let nearly = Mat4::from_scale(Vec3::splat(1.0 + 1e-5)) * rigid;
    assert!(compute_dq_palette(&[rigid, nearly], &mut [DualQuat::IDENTITY; 2]).is_ok());
}

#[test]
fn a_pose_with_a_scaled_bone_keeps_its_bones_and_leaves_the_blend_to_lbs() {
    let model = article();
    let mut pose = Pose::new(&model);
    pose.local[BONE31].scale *= vec3(1.0, 2.0, 1.0);
    let before = pose.skinned.clone();
    let mut by = ByMethod::new(Method::Dqs, Reference);
    let err = pose
        .run(&model, Frame { blending: by.ending(), ..Frame::new(&Still, 0.0) })
        .expect_err("bone31 is scaled");
    assert_eq!(not_rigid(&err).map(|e| e.joint), Some(BONE31));
    assert_eq!(pose.skinned, before, "a refused blend writes nothing");
    // Linear blending takes any matrix.
    by.method = Method::Lbs;
    pose.run(&model, Frame { blending: by.ending(), ..Frame::new(&Still, 0.0) }).expect("LBS never refuses");
    assert_ne!(pose.skinned, before);
}

#[test]
fn what_dqs_trades_the_outside_of_a_strong_bend_bulges() {
    // bone2 bent 90° about z at its joint (0.4, 0): the arm turns up. Vertex 10, (0.3, -0.05), half
    // on bone1 and half on bone2, is on the outside of the bend; its skin sits 0.05 from the bone.
    let model = article();
    let bend = Quat::from_rotation_z(90f32.to_radians());
    let lbs = posed(&model, &[(BONE2, bend)], Method::Lbs);
    let dqs = posed(&model, &[(BONE2, bend)], Method::Dqs);
    // By hand. bone2 alone would put it at the joint + (-0.1, -0.05) turned 90°: (0.45, -0.1); LBS
    // takes the midpoint with bone1's (0.3, -0.05): (0.375, -0.075), 0.075 below bone1.
    assert!(Vec3::from(lbs.skinned[10]).abs_diff_eq(vec3(0.375, -0.075, 0.0), 1e-6), "{}", lbs.skinned[10]);
    // DQS turns it halfway, 45° about the joint, at its full distance 0.1118 from it:
    // (0.4 - 0.1 cos 45° + 0.05 sin 45°, -0.1 sin 45° - 0.05 cos 45°) = (0.3646, -0.1061).
    let (c, s) = (45f32.to_radians().cos(), 45f32.to_radians().sin());
    let expected = vec3(0.4 - 0.1 * c + 0.05 * s, -0.1 * s - 0.05 * c, 0.0);
    assert!(Vec3::from(dqs.skinned[10]).abs_diff_eq(expected, 1e-6), "{}", dqs.skinned[10]);
    // So it sticks out 0.106 below bone1 (whose segment it lies beside), twice the skin's 0.05 and
    // further than LBS's 0.075: the bulge. The price of never pinching.
    let below_bone1 = |p: Vec3A| -p.y;
    assert!(
        below_bone1(dqs.skinned[10]) > 2.0 * 0.05
            && below_bone1(dqs.skinned[10]) > below_bone1(lbs.skinned[10])
    );
    let joint = vec3(0.4, 0.0, 0.0);
    let from_joint = |p: Vec3A| Vec3::from(p).distance(joint);
    assert!((from_joint(dqs.skinned[10]) - 0.0125f32.sqrt()).abs() < 1e-6);
    assert!((from_joint(lbs.skinned[10]) - 0.0125f32.sqrt() * c).abs() < 1e-6, "LBS: cos 45° of it");
}

#[test]
fn a_clip_that_scales_a_joint_later_is_found_before_a_dump_is_written() {
    use skinning_formats::dump::{Frames, Settings, check_dqs, write_dump_with};
    use skinning_method::clip::{Channel, Clip, Motion, Track};
    // bone31 grows from its own size at 0 s to twice as tall at 1 s.
    let growing = Track {
        scale: Some(Channel::linear(&[(0.0, Vec3::ONE), (1.0, vec3(1.0, 2.0, 1.0))])),
        ..Track::new(BONE31)
    };
    let clip = Clip { name: "grow".into(), duration: 2.0, motion: Motion::Keyframes(vec![growing]) };
    let model = article();
    let frames = Frames { start: 0.0, dt: 0.25, count: 4 };
    // Frame 0 is rigid; at 0.25 s bone31 is 1.25 tall: the first frame DQS cannot blend.
    let (time, e) = check_dqs(&model, &clip, frames).expect("bone31 is scaled at 0.25 s");
    assert_eq!((time, e.joint), (0.25, BONE31));
    assert!(matches!(e.problem, RigidProblem::Scaled(s) if (s.y - 1.25).abs() < 1e-6), "{e}");
    assert_eq!(check_dqs(&model, &clip, Frames { count: 1, ..frames }), None);
    // Written anyway, the dump stops with that error rather than write positions DQS cannot give.
    let mut out = Vec::new();
    let err =
        write_dump_with(&mut out, &model, &clip, frames, Settings::new(Method::Dqs)).expect_err("not rigid");
    assert!(err.to_string().contains("joint 3 is scaled by (1, 1.25, 1)"), "{err}");
    // LBS takes it.
    assert!(write_dump_with(&mut Vec::new(), &model, &clip, frames, Settings::new(Method::Lbs)).is_ok());
}
