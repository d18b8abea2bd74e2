//! Linear blend skinning on the article's scene, against numbers worked out by hand.

use glam::{Mat4, Quat, Vec3, Vec3A, vec3};
use skinning_fast::fast_path::FastPath;
use skinning_method::blend::blend;
use skinning_method::frame::{Blending, Frame, Pose, Still};
use skinning_method::model::Model;
use skinning_method::scene::{self, BONE1, BONE2, BONE31, BONE32, ROOT};
use skinning_method::skin::{
    Influence, Joint, Skin, SkinError, SkinProblem, VertexInfluences, compute_palette,
};
use skinning_method::transform::Trs;

/// The article's scene posed with these local translations (bones not named keep their bind ones),
/// blended by the readable loops; the program's fast path must land within 1e-6 of it.
fn posed(moves: &[(usize, Vec3)]) -> (Model, Vec<Vec3>) {
    let model = scene::article().expect("the article's scene");
    let mut pose = Pose::new(&model);
    for &(bone, position) in moves {
        pose.local[bone] = Trs::from_translation(position);
    }
    let fast = held_on_the_fast_path(&model, &pose);
    pose.run(&model, Frame::new(&Still, 0.0)).expect("linear blending takes any palette");
    for (i, (a, b)) in pose.skinned.iter().zip(&fast.skinned).enumerate() {
        assert!(a.abs_diff_eq(*b, 1e-6), "vertex {i}: the fast path's {b}, the readable loop's {a}");
    }
    let skinned = pose.skinned.iter().map(|&p| Vec3::from(p)).collect();
    (model, skinned)
}

/// `pose` as it is held, blended by the program's fast path (`FastPath::new()`), in a copy.
fn held_on_the_fast_path(model: &Model, pose: &Pose) -> Pose {
    let mut fast = pose.clone();
    let blending = Blending::Skin { by: &mut FastPath::new(), normals: true };
    fast.run(model, Frame { blending, ..Frame::new(&Still, 0.0) }).expect("LBS takes any palette");
    fast
}

fn bind(model: &Model) -> Vec<Vec3> {
    model.skin.bind_positions().collect()
}

#[test]
fn bind_pose_in_bind_positions_out() {
    let (model, skinned) = posed(&[]);
    for (i, (s, b)) in skinned.iter().zip(bind(&model)).enumerate() {
        assert!(s.abs_diff_eq(b, 1e-6), "vertex {i}: {s} != {b}");
    }
}

#[test]
fn a_vertex_on_one_bone_moves_rigidly_with_it() {
    // bone32 slides from (0.2, -0.1) to (0.1, -0.1) in bone2's space: vertex 7 (bone32 only) moves
    // by (-0.1, 0, 0), from (0.65, -0.1) to (0.55, -0.1).
    let (model, skinned) = posed(&[(BONE32, vec3(0.1, -0.1, 0.0))]);
    assert!(skinned[7].abs_diff_eq(vec3(0.55, -0.1, 0.0), 1e-6), "{}", skinned[7]);
    // Vertices that bone32 does not touch stay put.
    for v in [0, 1, 2, 3, 4, 5, 10, 11, 12] {
        assert!(skinned[v].abs_diff_eq(bind(&model)[v], 1e-6), "vertex {v} moved");
    }
}

#[test]
fn a_half_and_half_vertex_moves_by_the_average() {
    // bone1 up by 0.2 (local y 0 -> 0.2): bone1, bone2 and the claws all move by (0, 0.2).
    let (model, skinned) = posed(&[(BONE1, vec3(0.2, 0.2, 0.0))]);
    let b = bind(&model);
    // Vertex 1: root 0.5 (moves 0) + bone1 0.5 (moves 0.2) -> up 0.1: (0.1, 0.15).
    assert!(skinned[1].abs_diff_eq(vec3(0.1, 0.15, 0.0), 1e-6), "{}", skinned[1]);
    // Vertex 2: bone1 0.5 + bone2 0.5, both moved 0.2 -> up 0.2: (0.3, 0.25).
    assert!(skinned[2].abs_diff_eq(vec3(0.3, 0.25, 0.0), 1e-6), "{}", skinned[2]);
    // Vertex 0: root only -> stays.
    assert!(skinned[0].abs_diff_eq(b[0], 1e-6));

    // bone32 to (0, -0.1) in bone2's space: it moves (-0.2, 0); bone31 stays.
    // Vertex 6: bone31 0.5 + bone32 0.5 -> (-0.1, 0) from (0.5, 0): (0.4, 0).
    let (_, skinned) = posed(&[(BONE32, vec3(0.0, -0.1, 0.0))]);
    assert!(skinned[6].abs_diff_eq(vec3(0.4, 0.0, 0.0), 1e-6), "{}", skinned[6]);
    // Vertex 8: bone2 0.2 (0) + bone32 0.8 (-0.2) -> x - 0.16: (0.44, -0.15).
    assert!(skinned[8].abs_diff_eq(vec3(0.44, -0.15, 0.0), 1e-6), "{}", skinned[8]);
}

#[test]
fn moving_the_root_moves_every_vertex_by_the_same_amount() {
    let shift = vec3(0.3, -0.25, 0.5);
    let (model, skinned) = posed(&[(ROOT, shift)]);
    for (i, (s, b)) in skinned.iter().zip(bind(&model)).enumerate() {
        assert!(s.abs_diff_eq(b + shift, 1e-6), "vertex {i}");
    }
}

#[test]
fn blending_matches_the_formula_term_by_term() {
    // An arbitrary pose with rotations: compare the blend (the readable loop's, and the fast path's)
    // with Σ w · world · offset · bind written out.
    let model = scene::article().expect("the article's scene");
    let mut pose = Pose::new(&model);
    // Each turn after the bone's local transform, in the bone's own space.
    pose.bend[BONE1] = Quat::from_rotation_z(0.4);
    pose.bend[BONE2] = Quat::from_rotation_x(1.1);
    pose.bend[BONE31] = Quat::from_rotation_y(-0.3);
    pose.run(&model, Frame::new(&Still, 0.0)).expect("linear blending takes any palette");
    let fast = held_on_the_fast_path(&model, &pose);
    for (i, &bind) in model.skin.bind().iter().enumerate() {
        let expected: Vec3 = (model.skin.influences(i))
            .map(|inf| {
                let joint = model.skin.joints()[inf.joint];
                inf.weight * (pose.world[joint.bone] * joint.offset).transform_point3(bind.into())
            })
            .sum();
        assert!(Vec3::from(pose.skinned[i]).abs_diff_eq(expected, 1e-6), "vertex {i}");
        assert!(Vec3::from(fast.skinned[i]).abs_diff_eq(expected, 1e-6), "vertex {i}, the fast path");
    }
}

#[test]
fn the_bind_positions_are_never_overwritten() {
    // Article 004: blend from the bind positions every frame, never from last frame's result.
    let model = scene::article().expect("the article's scene");
    let before = model.skin.clone();
    let mut pose = Pose::new(&model);
    for clip in scene::clips().expect("the article's clips") {
        for i in 0..50 {
            pose.update(&model, &clip, i as f64 * 0.1);
        }
    }
    assert_eq!(model.skin, before);
    pose.update(&model, &scene::seed(), 0.0);
    for (s, b) in pose.skinned.iter().zip(model.skin.bind_positions()) {
        assert!(Vec3::from(*s).abs_diff_eq(b, 1e-6));
    }
}

#[test]
fn palette_and_blend_can_be_called_directly() {
    // The two steps on their own: move bone2 by (0, 0.1) in the world and check vertex 5 (bone31).
    let model = scene::article().expect("the article's scene");
    let mut world = model.skeleton.rest_world();
    for b in [BONE2, BONE31, BONE32] {
        world[b] = Mat4::from_translation(vec3(0.0, 0.1, 0.0)) * world[b];
    }
    let mut palette = vec![Mat4::IDENTITY; world.len()];
    compute_palette(&world, model.skin.joints(), &mut palette);
    let mut out = vec![Vec3A::ZERO; model.skin.len()];
    blend(&model.skin, &palette, &mut out);
    assert!(Vec3::from(out[5]).abs_diff_eq(vec3(0.65, 0.2, 0.0), 1e-6));
    // Vertex 2: bone1 0.5 (still) + bone2 0.5 (up 0.1): up 0.05.
    assert!(Vec3::from(out[2]).abs_diff_eq(vec3(0.3, 0.1, 0.0), 1e-6));
}

/// Five joints, all on bone 0 with no offset: only the influences matter here.
fn joints() -> Vec<Joint> {
    vec![Joint { bone: 0, offset: Mat4::IDENTITY }; 5]
}

fn check(influences: &[Influence]) -> Result<(), SkinError> {
    Skin::new(joints()).add_vertex(Vec3::ZERO, influences)
}

#[test]
fn invalid_skins_are_rejected_naming_the_vertex() {
    let w = |joint, weight| Influence { joint, weight };
    assert_eq!(check(&[w(0, 0.5), w(1, 0.5)]), Ok(()));
    assert_eq!(check(&[w(0, 0.5), w(1, 0.50005)]), Ok(()), "within 1e-4 of 1 is fine");
    assert_eq!(
        check(&[w(0, 0.5), w(1, 0.4)]).map_err(|e| e.problem),
        Err(SkinProblem::WeightsDoNotSumToOne(0.9))
    );
    assert_eq!(check(&[w(0, 1.0), w(5, 0.0)]).map_err(|e| e.problem), Err(SkinProblem::NoSuchJoint(5)));
    assert_eq!(check(&[]).map_err(|e| e.problem), Err(SkinProblem::NoInfluences));
    // Any number of influences is fine, and each is checked: a fifth on a joint that does not exist
    // is refused like a first.
    let five = [w(0, 0.2), w(1, 0.2), w(2, 0.2), w(3, 0.2), w(4, 0.2)];
    assert_eq!(check(&five), Ok(()));
    let bad_fifth = [w(0, 0.2), w(1, 0.2), w(2, 0.2), w(3, 0.2), w(5, 0.2)];
    assert_eq!(check(&bad_fifth).map_err(|e| e.problem), Err(SkinProblem::NoSuchJoint(5)));
    let short_fifth = [w(0, 0.25), w(1, 0.25), w(2, 0.25), w(3, 0.125), w(4, 0.0625)];
    assert_eq!(check(&short_fifth).map_err(|e| e.problem), Err(SkinProblem::WeightsDoNotSumToOne(0.9375)));
    assert_eq!(check(&[w(0, 1.5), w(1, -0.5)]).map_err(|e| e.problem), Err(SkinProblem::BadWeight(-0.5)));
    assert!(matches!(check(&[w(0, f32::NAN)]).map_err(|e| e.problem), Err(SkinProblem::BadWeight(_))));

    // The error names the offending vertex, counting from 0.
    let good: &[Influence] = &[w(0, 1.0)];
    let bad: &[Influence] = &[w(0, 0.7)];
    let err =
        Skin::from_table(joints(), &[(Vec3::ZERO, good), (Vec3::ZERO, good), (Vec3::X, bad)]).unwrap_err();
    assert_eq!(err.vertex, 2);
    assert_eq!(err.to_string(), "vertex 2: weights sum to 0.7, not 1");
}

#[test]
fn a_skin_for_another_skeleton_is_refused() {
    let model = scene::article().expect("the article's scene");
    // A joint on bone 7, in a skeleton of five bones.
    let skin = Skin::new(vec![Joint { bone: 7, offset: Mat4::IDENTITY }]);
    assert_eq!(
        Model::new(model.skeleton, skin, vec![]).unwrap_err().to_string(),
        "joint 0 is bone #7, which the skeleton does not have"
    );
}

#[test]
fn an_edit_of_the_scene_that_breaks_the_skin_names_the_vertex() {
    // A learner changes vertex 3's weights from 0.3 + 0.7 to 0.3 + 0.6: the scene refuses to build.
    let mut mesh = scene::MESH;
    let edited = [Influence { joint: BONE2, weight: 0.3 }, Influence { joint: BONE31, weight: 0.6 }];
    mesh[3].1 = &edited;
    let err = scene::article_with_mesh(&mesh).expect_err("weights summing to 0.9");
    let skinning_method::model::ModelError::Skin(skin_error) = &err else { panic!("a skin error: {err:?}") };
    assert_eq!(skin_error.vertex, 3);
    // What the program prints after "the built-in scene is invalid: ".
    assert_eq!(scene::SceneError::from(err).to_string(), "vertex 3: weights sum to 0.90000004, not 1");
    // The mesh as shipped builds.
    assert!(scene::article_with_mesh(&scene::MESH).is_ok());
}

#[test]
fn the_influences_stream_holds_only_what_the_blend_reads() {
    // Four joints of 2 bytes and four weights of 4: the slots, and no byte more.
    assert_eq!(size_of::<VertexInfluences>(), 4 * 2 + 4 * 4);
    let mut skin = Skin::new(joints());
    let two = [Influence { joint: 1, weight: 0.25 }, Influence { joint: 2, weight: 0.75 }];
    skin.add_vertex(Vec3::ZERO, &two).expect("a valid vertex");
    skin.add_vertex(Vec3::X, &[Influence { joint: 3, weight: 1.0 }]).expect("a valid vertex");
    // How many slots each uses is kept beside, and the unused slots weigh 0 on joint 0.
    assert_eq!(skin.slots_used(), &[2, 1]);
    let v = skin.vertex_influences()[0];
    assert_eq!((v.joints, v.weights), ([1, 2, 0, 0], [0.25, 0.75, 0.0, 0.0]));
    assert_eq!(skin.influences(0).collect::<Vec<_>>(), two);
    assert_eq!(skin.most_influences(), 2);
}
