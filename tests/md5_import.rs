//! MD5 models by hand: a 2-joint, 3-vertex model small enough to work out on paper, its positions
//! computed here by article 002's first formula and compared with the program's (the article's
//! formula, through the same skeleton, skin and clips); the folder rules for `.md5anim` files; and
//! one damaged file for each rule of the format, each refused in one line that says where. The
//! model is `tests/common/md5_hand.rs`, whose comments work its numbers out.

use common::md5_hand::{ANIM, MESH};
use common::quaternion::hamilton;
use glam::{Vec3, vec3};
use skinning_formats::md5_import::{self, Md5Error, REST, load, load_from_str};
use skinning_method::frame::Pose;
use skinning_method::model::Axis;
use std::f64::consts::FRAC_1_SQRT_2;

/// A joint as MD5 places one: a position and a unit quaternion `(x, y, z, w)`.
#[derive(Clone, Copy)]
struct Placed {
    position: [f64; 3],
    orientation: [f64; 4],
}

/// The quaternion a file stores as x y z: `w = -sqrt(1 - x² - y² - z²)`.
fn quaternion([x, y, z]: [f64; 3]) -> [f64; 4] {
    [x, y, z, -(1.0 - x * x - y * y - z * z).max(0.0).sqrt()]
}

/// `q ⊗ v`: v turned by q, as `v + 2w (q × v) + 2 q × (q × v)` with q's vector part.
fn rotate([x, y, z, w]: [f64; 4], v: [f64; 3]) -> [f64; 3] {
    let cross = |a: [f64; 3], b: [f64; 3]| {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    };
    let u = [x, y, z];
    let t = cross(u, v);
    let tt = cross(u, t);
    [0, 1, 2].map(|i| v[i] + 2.0 * w * t[i] + 2.0 * tt[i])
}

/// Seed 002's first formula: `vertex = Σ bias · (joint.position + joint.orientation ⊗ weight.position)`.
fn first_formula(joints: &[Placed], weights: &[(usize, f64, [f64; 3])]) -> [f64; 3] {
    let mut sum = [0.0; 3];
    for &(joint, bias, position) in weights {
        let turned = rotate(joints[joint].orientation, position);
        for i in 0..3 {
            sum[i] += bias * (joints[joint].position[i] + turned[i]);
        }
    }
    sum
}

/// The three vertices' weights, as the mesh above lists them.
fn weights() -> [Vec<(usize, f64, [f64; 3])>; 3] {
    [
        vec![(0, 1.0, [0.5, 0.2, 0.0])],
        vec![(0, 0.5, [1.0, 0.2, 0.0]), (1, 0.5, [0.2, 0.0, 0.0])],
        vec![(1, 1.0, [0.5, 0.0, 0.0])],
    ]
}

/// The animation's joints in object space for frame `k`: a root's are its own, a child's are its
/// parent's with its own added: `position = parent + parent ⊗ local`, `orientation = parent · local`.
fn animated(k: usize) -> [Placed; 2] {
    // The file's 0.7071068 is 1/√2 to seven places.
    let (root_x, arm_turn) = match k {
        0 => (0.0, [0.0, 0.0, -FRAC_1_SQRT_2]),
        _ => (2.0, [0.0, 0.0, 0.0]),
    };
    let root = Placed { position: [root_x, 0.0, 0.0], orientation: quaternion([0.0, 0.0, 0.0]) };
    let local = rotate(root.orientation, [1.0, 0.0, 0.0]);
    let arm = Placed {
        position: [0, 1, 2].map(|i| root.position[i] + local[i]),
        orientation: hamilton(root.orientation, quaternion(arm_turn)),
    };
    [root, arm]
}

fn close(a: Vec3, b: [f64; 3], what: &str) {
    let b = Vec3::new(b[0] as f32, b[1] as f32, b[2] as f32);
    assert!(a.abs_diff_eq(b, 1e-5), "{what}: the program has {a}, the first formula {b}");
}

#[test]
fn the_hand_model_moves_as_seed_002s_first_formula_says_in_the_bind_pose_and_two_frames() {
    let imported = load_from_str(MESH, &[("wave", ANIM)]).expect("the hand-written model loads");
    let model = &imported.model;
    assert_eq!(model.axes.up(), Axis::PosZ, "MD5 is Z-up; the numbers stay, only the camera turns");
    let names: Vec<&str> = imported.clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["wave", REST]);
    assert!((imported.clips[0].duration - 0.2).abs() < 1e-7, "(3 - 1) frames / 10 per second");

    // The bind pose: the first formula with the md5mesh's joints gives the bind positions...
    let bind_joints = [
        Placed { position: [0.0; 3], orientation: quaternion([0.0; 3]) },
        Placed { position: [1.0, 0.0, 0.0], orientation: quaternion([0.0, 0.0, -FRAC_1_SQRT_2]) },
    ];
    let by_hand = [[0.5, 0.2, 0.0], [1.0, 0.2, 0.0], [1.0, 0.5, 0.0]];
    for (v, (weights, hand)) in weights().iter().zip(by_hand).enumerate() {
        let first = first_formula(&bind_joints, weights);
        close(Vec3::from(model.skin.bind()[v]), first, &format!("bind position of vertex {v}"));
        close(
            Vec3::new(hand[0] as f32, hand[1] as f32, hand[2] as f32),
            first,
            &format!("vertex {v} by hand"),
        );
    }
    // ...and so does the rest clip, through the whole method.
    let mut pose = Pose::new(model);
    pose.update(model, &imported.clips[1], 0.0);
    for (v, weights) in weights().iter().enumerate() {
        close(pose.skinned[v].into(), first_formula(&bind_joints, weights), &format!("rest, vertex {v}"));
    }

    // Two frames of the animation: the article's formula (the program) against the first (here).
    let frame_one_by_hand = [[2.5, 0.2, 0.0], [3.1, 0.1, 0.0], [3.5, 0.0, 0.0]];
    for k in 0..2 {
        pose.update(model, &imported.clips[0], k as f64 / 10.0);
        let joints = animated(k);
        for (v, weights) in weights().iter().enumerate() {
            close(pose.skinned[v].into(), first_formula(&joints, weights), &format!("frame {k}, vertex {v}"));
            if k == 1 {
                close(pose.skinned[v].into(), frame_one_by_hand[v], &format!("frame 1, vertex {v} by hand"));
            }
        }
    }
}

#[test]
fn every_stored_weight_is_offset_times_bind() {
    let imported = load_from_str(MESH, &[]).unwrap();
    let spread = md5_import::spread(&imported.model, &imported.stored);
    for v in 0..3 {
        for w in imported.stored.of(v) {
            let article = md5_import::offset_times_bind(&imported.model, w.joint, v);
            assert!(
                article.abs_diff_eq(w.position, 1e-5 * spread.size),
                "vertex {v}: {article} vs {}",
                w.position
            );
        }
    }
    assert!(spread.relative() < 1e-6, "{spread:?}");
    // The model's size is the diagonal of the box around (0.5, 0.2), (1, 0.2) and (1, 0.5).
    assert!((spread.size - vec3(0.5, 0.3, 0.0).length()).abs() < 1e-6, "{}", spread.size);
}

/// `MESH` (or `ANIM`) with one piece of text replaced, loaded: the error's one line.
fn refused(mesh_from: &str, mesh_to: &str, anim_from: &str, anim_to: &str) -> String {
    assert!(MESH.contains(mesh_from) && ANIM.contains(anim_from), "{mesh_from:?} / {anim_from:?}");
    let (mesh, anim) = (MESH.replacen(mesh_from, mesh_to, 1), ANIM.replacen(anim_from, anim_to, 1));
    let error: Md5Error = match load_from_str(&mesh, &[("wave", &anim)]) {
        Ok(_) => panic!("{mesh_from:?} -> {mesh_to:?}, {anim_from:?} -> {anim_to:?} loaded"),
        Err(e) => e,
    };
    let line = error.to_string();
    assert!(!line.contains('\n'), "two lines: {line}");
    line
}

#[test]
fn each_rule_of_the_format_refuses_a_file_that_breaks_it_in_one_line() {
    let mesh = |from: &str, to: &str| refused(from, to, "", "");
    let anim = |from: &str, to: &str| refused("", "", from, to);
    let cases = [
        (mesh(MESH, ""), "line 1: the file is empty"),
        (mesh(&MESH[MESH.len() / 2..], ""), "the file is cut short"),
        (mesh("MD5Version 10", "MD5Version 11"), "line 1: MD5Version 11: this program reads version 10"),
        (
            mesh("numverts 3", "numverts 4"),
            "line 17: expected vert 3 (the count before the vert lines says there are more), found \"numtris\"",
        ),
        (
            mesh("numweights 4", "numweights 4000000000"),
            "line 19: numweights says 4000000000, which needs at least",
        ),
        (
            mesh("\"arm\"\t0", "\"arm\"\t1"),
            "line 8: joint 1 \"arm\"'s parent is 1; it must be an earlier joint (0 to 0)",
        ),
        (mesh("weight 3 1 1", "weight 3 2 1"), "line 23: a weight's joint is 2, outside 0 to 1"),
        (
            mesh("vert 2 ( 0 0 ) 3 1", "vert 2 ( 0 0 ) 3 2"),
            "line 16: mesh 0, vertex 2: its weights run from 3 to 4, past the mesh's last weight, 3",
        ),
        (
            mesh("tri 0 0 2 1", "tri 0 0 3 1"),
            "line 18: a triangle's corner (a vertex of its mesh) is 3, outside 0 to 2",
        ),
        (mesh("weight 3 1 1", "weight 3 1 0"), "mesh 0, vertex 2: all its biases are 0"),
        (
            mesh("( 0.5 0.2 0 )", "( nan 0.2 0 )"),
            "line 20: a weight's position is \"nan\", not a finite number",
        ),
        (
            mesh("( 0.5 0 0 )", "( 0.5 inf 0 )"),
            "line 23: a weight's position is \"inf\", not a finite number",
        ),
        (mesh("( 1 0 0 )", "( 1e39 0 0 )"), "line 8: a joint's position is \"1e39\", not a finite number"),
        (mesh("\"hand\"", "\"hand"), "line 12: a quote opens a name that is not closed on its line"),
        (mesh("( 0.5 0 0 )\n}", "( 0.5 0 0 )\n"), "the file ends where '}' should come"),
        (mesh("\"arm\"\t0", "\"a\u{1b}[2Jm\"\t1"), "joint 1 \"a\\u{1b}[2Jm\"'s parent is 1"),
        (
            anim("\t2 0 0 0\n", "\t2 0 0\n"),
            "its animation wave.md5anim: line 30: frame 1 has 3 numbers; numAnimatedComponents says 4",
        ),
        (anim("frameRate 10", "frameRate 0"), "its animation wave.md5anim: line 5: frameRate is 0"),
        (
            anim("( 0 0 -0.7071068 )", "( 0.9 0.9 0 )"),
            "its animation wave.md5anim: line 21: joint 1's base frame: the orientation (0.9 0.9 0) is longer than 1",
        ),
        (
            anim("\t2 0 0 0\n", "\t2 0.9 0.9 0\n"),
            "its animation wave.md5anim: frame 1, joint 1 \"arm\": the orientation",
        ),
    ];
    for (error, expected) in cases {
        assert!(error.contains(expected), "expected {expected:?} in: {error}");
    }
}

#[test]
fn an_animation_of_other_joints_is_skipped_with_one_line_naming_the_first_difference() {
    let other = ANIM.replace("\"arm\"\t0 56 1", "\"leg\"\t0 56 1");
    let one_more = ANIM.replace("numJoints 2", "numJoints 3");
    let imported = load_from_str(MESH, &[("leg", &other), ("wave", ANIM)]).unwrap();
    let names: Vec<&str> = imported.clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["wave", REST]);
    assert_eq!(
        imported.notes,
        ["skipped the animation leg.md5anim: its joint 1 is \"leg\", the mesh's is \"arm\""]
    );
    // A count that disagrees with the hierarchy that follows is a damaged file, not another skeleton.
    assert!(load_from_str(MESH, &[("more", &one_more)]).is_err());
}

#[test]
fn the_animations_are_the_md5anim_files_beside_the_mesh_in_name_order() {
    let dir = std::env::temp_dir().join(format!("skinning-md5-folder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("hand.md5mesh"), MESH).unwrap();
    std::fs::write(dir.join("wave.md5anim"), ANIM).unwrap();
    std::fs::write(dir.join("Back.md5anim"), ANIM.replace("\t2 0 0 0", "\t-2 0 0 0")).unwrap();
    std::fs::write(dir.join("leg.md5anim"), ANIM.replace("\"arm\"\t0 56 1", "\"leg\"\t0 56 1")).unwrap();
    let imported = load(&dir.join("hand.md5mesh")).expect("loads");
    let names: Vec<&str> = imported.clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["Back", "wave", REST]);
    assert_eq!(
        imported.animations.iter().map(|a| (a.frames, a.frame_rate, a.components)).collect::<Vec<_>>(),
        [(3, 10, 4); 2]
    );
    assert_eq!(imported.notes.len(), 1, "{:?}", imported.notes);
    // A damaged one stops the load, naming the file.
    std::fs::write(dir.join("broken.md5anim"), &ANIM[..ANIM.len() - 10]).unwrap();
    let error = load(&dir.join("hand.md5mesh")).expect_err("refused").to_string();
    assert!(error.starts_with("its animation broken.md5anim: line "), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}
