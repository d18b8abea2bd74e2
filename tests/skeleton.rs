//! The bone tree, world transforms and offsets, checked against the article's scene by hand.

use glam::{Mat4, Vec3, vec3};
use skinning_method::scene::{self, BONE1, BONE2, BONE31, BONE32, ROOT};
use skinning_method::skeleton::{MAX_DEPTH, SkeletonBuilder, TreeError, compute_offsets};

fn close(a: Vec3, b: Vec3) -> bool {
    a.abs_diff_eq(b, 1e-6)
}

#[test]
fn the_article_tree_has_the_article_links() {
    let model = scene::article().expect("the article's scene");
    let s = &model.skeleton;
    assert_eq!(s.root(), ROOT);
    let names: Vec<&str> = s.bones().iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["root", "bone1", "bone2", "bone31", "bone32"]);
    // First child / sibling, as SetFirstChild and SetSibling made them.
    assert_eq!(s.bone(ROOT).first_child, Some(BONE1));
    assert_eq!(s.bone(BONE1).first_child, Some(BONE2));
    assert_eq!(s.bone(BONE2).first_child, Some(BONE31));
    assert_eq!(s.bone(BONE31).sibling, Some(BONE32));
    assert_eq!(s.bone(BONE32).sibling, None);
    // The parent links, for drawing: bone32 is bone2's child although only bone31 links to it.
    let parents: Vec<Option<usize>> = s.bones().iter().map(|b| b.parent).collect();
    assert_eq!(parents, [None, Some(ROOT), Some(BONE1), Some(BONE2), Some(BONE2)]);
}

#[test]
fn bind_world_positions_match_the_hand_computed_ones() {
    let model = scene::article().expect("the article's scene");
    let bind_world = model.skeleton.rest_world();
    let joint = |b: usize| bind_world[b].transform_point3(Vec3::ZERO);
    // root (0,0,0); bone1 = root + (0.2,0,0); bone2 = bone1 + (0.2,0,0);
    // bone31 = bone2 + (0.2,0.1,0); bone32 = bone2 + (0.2,-0.1,0) -- bone2's world, not bone31's.
    assert!(close(joint(ROOT), vec3(0.0, 0.0, 0.0)));
    assert!(close(joint(BONE1), vec3(0.2, 0.0, 0.0)));
    assert!(close(joint(BONE2), vec3(0.4, 0.0, 0.0)));
    assert!(close(joint(BONE31), vec3(0.6, 0.1, 0.0)));
    assert!(
        close(joint(BONE32), vec3(0.6, -0.1, 0.0)),
        "a sibling must get the parent's world: {}",
        joint(BONE32)
    );
}

#[test]
fn a_sibling_gets_the_parents_world_even_when_the_parent_turns() {
    // Turn bone2 a quarter turn: both claws must swing with it, the sibling included.
    let model = scene::article().expect("the article's scene");
    let s = &model.skeleton;
    let mut local = s.rest_locals();
    local[BONE2] *= Mat4::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let mut world = vec![Mat4::IDENTITY; s.len()];
    s.compute_world(&local, &mut world);
    // In bone2's turned space, (0.2, -0.1) points to (0.1, 0.2) in the world; plus bone2 at (0.4, 0).
    assert!(close(world[BONE32].transform_point3(Vec3::ZERO), vec3(0.5, 0.2, 0.0)));
    assert!(close(world[BONE31].transform_point3(Vec3::ZERO), vec3(0.3, 0.2, 0.0)));
}

#[test]
fn offset_times_bind_world_is_identity_for_every_bone() {
    let model = scene::article().expect("the article's scene");
    let bind_world = model.skeleton.rest_world();
    // Every bone is a joint of the skin, joint i on bone i.
    let joints = model.skin.joints();
    assert_eq!(joints.len(), model.skeleton.len());
    for (b, (joint, world)) in joints.iter().zip(&bind_world).enumerate() {
        assert_eq!(joint.bone, b);
        assert!((joint.offset * *world).abs_diff_eq(Mat4::IDENTITY, 1e-6), "bone {b}");
        assert!((*world * joint.offset).abs_diff_eq(Mat4::IDENTITY, 1e-6), "bone {b}");
    }
    // For translation-only binds the offset is minus the world position, as in ComputeBoneOffset.
    assert!(close(joints[BONE32].offset.transform_point3(Vec3::ZERO), vec3(-0.6, 0.1, 0.0)));
}

#[test]
fn offsets_of_a_rotated_bind_pose_are_full_inverses() {
    let bind = Mat4::from_rotation_translation(glam::Quat::from_rotation_z(0.7), vec3(1.0, 2.0, 3.0));
    let offsets = compute_offsets(&[bind]);
    let p = vec3(0.3, -0.4, 0.5);
    assert!(close(bind.transform_point3(offsets[0].transform_point3(p)), p));
}

/// root -> a, and whatever else the closure links.
fn tree(link: impl FnOnce(&mut SkeletonBuilder, [usize; 4])) -> Result<(), TreeError> {
    let mut b = SkeletonBuilder::new();
    let ids = ["root", "a", "b", "c"].map(|n| b.bone(n, Vec3::X));
    link(&mut b, ids);
    b.build().map(|_| ())
}

#[test]
fn broken_trees_are_rejected_with_the_right_error() {
    // Fine: root -> a -> b, with c a sibling of b.
    assert_eq!(
        tree(|b, [r, a, x, c]| {
            b.set_first_child(r, a).set_first_child(a, x).set_sibling(x, c);
        }),
        Ok(())
    );
    // c is linked from nowhere: two roots.
    assert_eq!(
        tree(|b, [r, a, x, _]| {
            b.set_first_child(r, a).set_first_child(a, x);
        }),
        Err(TreeError::SeveralRoots(vec!["root".into(), "c".into()]))
    );
    // The root's sibling is a second root.
    assert!(matches!(
        tree(|b, [r, a, x, c]| {
            b.set_first_child(r, a).set_first_child(a, x).set_sibling(r, c);
        }),
        Err(TreeError::SeveralRoots(_))
    ));
    // b's child is a again: a cycle reached from the root.
    assert_eq!(
        tree(|b, [r, a, x, c]| {
            b.set_first_child(r, a).set_first_child(a, x).set_first_child(x, a).set_sibling(x, c);
        }),
        Err(TreeError::ReachedTwice("a".into()))
    );
    // b and c point at each other, apart from the root's branch: unreachable from the root.
    assert_eq!(
        tree(|b, [r, a, x, c]| {
            b.set_first_child(r, a).set_sibling(x, c).set_sibling(c, x);
        }),
        Err(TreeError::Unreached("b".into()))
    );
    // Everything linked in a ring: no root at all.
    assert_eq!(
        tree(|b, [r, a, x, c]| {
            b.set_first_child(r, a).set_first_child(a, x).set_first_child(x, c).set_first_child(c, r);
        }),
        Err(TreeError::NoRoot)
    );
    // A link to a bone that does not exist.
    assert!(matches!(
        tree(|b, [r, _, _, _]| {
            b.set_first_child(r, 9);
        }),
        Err(TreeError::MissingBone { index: 9, .. })
    ));
    assert_eq!(SkeletonBuilder::new().build(), Err(TreeError::Empty));
    // A chain one bone deeper than the walk goes: its last bone is named; one bone less is fine.
    let chain = |length: usize| {
        let mut b = SkeletonBuilder::new();
        let ids: Vec<usize> = (0..length).map(|i| b.bone(&format!("b{i}"), Vec3::X)).collect();
        for pair in ids.windows(2) {
            b.set_first_child(pair[0], pair[1]);
        }
        b.build().map(|_| ())
    };
    assert_eq!(chain(MAX_DEPTH), Ok(()));
    let last = format!("b{MAX_DEPTH}");
    assert_eq!(chain(MAX_DEPTH + 1), Err(TreeError::TooDeep { bone: last, limit: MAX_DEPTH }));
}

#[test]
fn the_edit_chapter_1_suggests_is_refused_with_the_line_it_quotes() {
    // The article's bones and links, as `scene::article_with_mesh` makes them (where the joints
    // sit does not matter to the tree), then the learner's extra link.
    let mut b = SkeletonBuilder::new();
    for name in scene::NAMES {
        b.bone(name, Vec3::ZERO);
    }
    b.set_first_child(ROOT, BONE1).set_first_child(BONE1, BONE2).set_first_child(BONE2, BONE31);
    b.set_sibling(BONE31, BONE32);
    b.set_first_child(BONE32, BONE1);
    // What the program prints after "skinning: the built-in scene is invalid: ".
    let err = b.build().expect_err("bone1 is reached twice");
    assert_eq!(err.to_string(), "bone bone1 is reached twice from the root (a cycle or a shared child)");
}
