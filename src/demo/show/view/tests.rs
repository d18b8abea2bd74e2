//! The weight view: which bones it shows, what it says, and what `--weights` refuses.

use super::*;
use crate::demo::cli::options::Options;
use crate::demo::show::state::{Demo, Reply};
use glam::{Mat4, Vec3};
use skinning_method::skeleton::SkeletonBuilder;
use skinning_method::skin::{Influence, Joint, Skin};

/// A chain of `bones` bones, `b0` to `bN`, each a joint of the skin; every bone but the last moves
/// one vertex; the last is a joint with weight 0 everywhere (like an IK target).
fn chain(bones: usize) -> Model {
    let mut b = SkeletonBuilder::new();
    let ids: Vec<BoneId> = (0..bones).map(|i| b.bone(&format!("b{i}"), Vec3::X)).collect();
    for pair in ids.windows(2) {
        b.set_first_child(pair[0], pair[1]);
    }
    let skeleton = b.build().expect("a chain");
    let joints = ids.iter().map(|&bone| Joint { bone, offset: Mat4::IDENTITY }).collect();
    let influences: Vec<[Influence; 2]> = (0..bones - 1)
        .map(|i| [Influence { joint: i, weight: 1.0 }, Influence { joint: bones - 1, weight: 0.0 }])
        .collect();
    let table: Vec<(Vec3, &[Influence])> =
        influences.iter().enumerate().map(|(i, w)| (Vec3::new(i as f32, 0.0, 0.0), &w[..])).collect();
    let skin = Skin::from_table(joints, &table).expect("a skin");
    Model::new(skeleton, skin, Vec::new()).expect("a model")
}

#[test]
fn w_names_its_bone_in_the_corner_line_and_once_on_the_terminal() {
    let model = skinning_method::scene::article().expect("the article's scene");
    let clips = skinning_method::scene::clips().expect("its clips");
    let mut d = Demo::new(model, clips, &Options::default()).expect("a demo");
    assert!(!d.status.line.contains("weights"), "{}", d.status.line);
    // Every bone of the article moves a vertex: W goes through them in turn, then off.
    // Counted from `scene::MESH`: root holds vertices 0, 1, 11, 12; bone2 2, 3, 4, 8, 9, 10...
    for (bone, moved) in [("root", 4), ("bone1", 4), ("bone2", 6), ("bone31", 4), ("bone32", 4)] {
        let Reply::Said(said) = d.key("w") else { panic!("W says which bone") };
        assert!(said.starts_with(&format!("weights: {bone} (bone ")), "{said}");
        assert!(said.contains(&format!("moves {moved} of 13 vertices")), "{said}");
        assert!(d.status.line.contains(&format!("  weights {bone}  ")), "{}", d.status.line);
    }
    assert_eq!(d.key("w"), Reply::Said("weights: off".into()));
    assert!(!d.status.line.contains("weights"), "{}", d.status.line);
}

#[test]
fn the_weight_view_skips_a_bone_that_moves_no_vertex_and_weights_refuses_it() {
    let model = chain(4);
    assert_eq!(weighted_bones(&model), [true, true, true, false]);
    assert_eq!(find_bone(&model, "b1"), Ok(1));
    assert_eq!(find_bone(&model, "2"), Ok(2));
    let err = find_bone(&model, "b3").expect_err("b3 has weight 0 everywhere");
    assert_eq!(
        err,
        "--weights \"b3\": bone b3 moves no vertex, so its weights are all 0; the closest that do: b0 (0), b1 (1), b2 (2)"
    );
    let mut view = View::new(skinning::camera::Camera::framing([Vec3::ZERO]), &model, None, true);
    let seen: Vec<String> = (0..4).map(|_| view.next_weight_bone(&model)).collect();
    assert!(seen[2].starts_with("weights: b2") && seen[3] == "weights: off", "{seen:?}");
}

#[test]
fn a_long_list_of_bones_is_cut_short_and_says_where_the_rest_are() {
    let model = chain(30);
    let err = find_bone(&model, "hand").expect_err("no such bone");
    assert!(err.starts_with("unknown bone \"hand\" for --weights: the closest of its 30 are "), "{err}");
    assert!(err.ends_with("(or an index, 0 to 29; --info lists them all)"), "{err}");
    assert!(err.contains(" are b0, b1, b2, b3, b4, b5 (or"), "the six closest: {err}");
}
