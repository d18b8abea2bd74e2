//! Normals that follow the skin (`crates/method/src/normals.rs`): the rule worked out on paper, the invariants it
//! keeps on every model, and how far the two shortcuts engines take land from it.
//!
//! `cargo test --test normal_rules -- --nocapture` prints the shortcuts' largest differences on
//! the twist and on the non-uniformly scaled fixture (the figures of `docs/08-normals.md`). Set
//! `SKINNING_KEEP_LIT_MODEL=FILE.glb` to keep the 28,672-vertex character with its normals, for
//! timing the lit surface by hand.

use common::{character::character, fixture, sample_model};
use glam::{DMat3, DVec3, Mat4, Quat, Vec3, Vec3A};
use skinning_formats::gltf_import::{load, load_from_slice};
use skinning_method::clip::Clip;
use skinning_method::frame::{Blending, Frame, Pose, Still};
use skinning_method::lbs_or_dqs::Reference;
use skinning_method::model::Model;
use skinning_method::normals::{
    Rule, blended_matrix, degrees_between, face_normal, face_normals, inverse_transpose, skin_normal,
};
use skinning_method::skeleton::SkeletonBuilder;
use skinning_method::skin::{Influence, Joint, SLOTS, Skin, VertexInfluences};
use skinning_method::transform::Trs;

/// One joint, turned 90° about z and stretched (2, 1, 1) (scaled first, then turned), bound
/// where it stands still, and one triangle on it facing (1, 1, 0): a face at 45°.
fn stretched_and_turned() -> Model {
    let mut b = SkeletonBuilder::new();
    let rest = Trs {
        translation: Vec3::ZERO,
        rotation: Quat::from_rotation_z(90f32.to_radians()),
        scale: Vec3::new(2.0, 1.0, 1.0),
    };
    b.bone_with("joint", rest);
    let skeleton = b.build().expect("one bone is a tree");
    let joints = vec![Joint { bone: 0, offset: Mat4::IDENTITY }];
    let on_joint: &[Influence] = &[Influence { joint: 0, weight: 1.0 }];
    let corners = [Vec3::ZERO, Vec3::new(1.0, -1.0, 0.0), Vec3::new(0.0, 0.0, 1.0)];
    let table: Vec<(Vec3, &[Influence])> = corners.iter().map(|&c| (c, on_joint)).collect();
    let mut skin = Skin::from_table(joints, &table).expect("valid skin");
    skin.set_normals(&[Vec3::new(1.0, 1.0, 0.0); 3]).expect("directions");
    // Corners 0, 2, 1 go round counter-clockwise seen from (1, 1, 0).
    Model::new(skeleton, skin, vec![]).and_then(|m| m.with_triangles(vec![[0, 2, 1]])).expect("valid")
}

#[test]
fn a_45_degree_face_on_a_joint_stretched_2_1_1_and_turned_90_degrees() {
    let model = stretched_and_turned();
    // The rest pose is the whole motion: the palette is turn * stretch. Blended with the normals
    // (`lbs_or_dqs.rs`: `Reference`).
    let mut pose = Pose::new(&model);
    let blending = Blending::Skin { by: &mut Reference, normals: true };
    pose.run(&model, Frame { blending, ..Frame::new(&Still, 0.0) })
        .expect("linear blending takes any palette");
    // On paper. The face holds the directions (1, -1, 0) and (0, 0, 1). Stretched, (1, -1, 0)
    // becomes (2, -1, 0); what is perpendicular to it and to z is (1, 2, 0). Turned 90° about z,
    // (x, y) becomes (-y, x): the skinned normal is (-2, 1, 0) / √5.
    let by_hand = Vec3A::new(-2.0, 1.0, 0.0) / 5f32.sqrt();
    // The skinned edge (1, -1, 0) -> (2, -1, 0) -> (1, 2, 0) is perpendicular to it.
    assert!(pose.skinned[1].abs_diff_eq(Vec3A::new(1.0, 2.0, 0.0), 1e-6), "{}", pose.skinned[1]);
    for normal in &pose.normals {
        assert!(normal.abs_diff_eq(by_hand, 1e-6), "{normal} != {by_hand}");
    }
    // The flat normal of the skinned triangle agrees: the rule is what the moved face says.
    let mut flat = [Vec3A::ZERO];
    face_normals(&pose.skinned, &model.triangles, &mut flat);
    assert!(flat[0].abs_diff_eq(by_hand, 1e-6), "{} != {by_hand}", flat[0]);

    // The plain 3x3 stretches the normal instead: (1, 1, 0) -> (2, 1, 0), turned (-1, 2, 0) / √5.
    let v = &model.skin.vertex_influences()[0];
    let n = model.skin.normals()[0];
    let plain = Rule::BlendedMatrix.skin(v, n, &pose.palette);
    assert!(plain.abs_diff_eq(Vec3A::new(-1.0, 2.0, 0.0) / 5f32.sqrt(), 1e-6), "{plain}");
    // By how much: cos = (-2, 1) · (-1, 2) / 5 = 4/5, so 36.87°, and it is no longer
    // perpendicular to the skinned edge (1, 2, 0): cos = 3/5 between them, 53.13° instead of 90°.
    let off = degrees_between(plain, by_hand);
    assert!((off - 0.8f32.acos().to_degrees()).abs() < 1e-3, "{off}");
    assert!((plain.dot(Vec3A::new(1.0, 2.0, 0.0).normalize()) - 0.6).abs() < 1e-6);
    println!("stretched (2, 1, 1) and turned 90°: the plain 3x3 is {off:.2}° off the rule");
}

/// The 3x3 part of `Σ wᵢ palette[jointᵢ]` in f64, worked out here without the library, over all
/// four slots (an unused one weighs 0).
fn blend_matrix_f64(v: &VertexInfluences, palette: &[Mat4]) -> DMat3 {
    let mut m = DMat3::ZERO;
    for i in 0..SLOTS {
        let p = palette[v.joints[i] as usize].as_dmat4();
        let cols = [p.x_axis.truncate(), p.y_axis.truncate(), p.z_axis.truncate()];
        m += DMat3::from_cols(cols[0], cols[1], cols[2]) * v.weights[i] as f64;
    }
    m
}

/// A vertex's influences that weigh anything, as sorted (joint, weight) pairs, to tell whether two
/// vertices blend alike.
fn influences(v: &VertexInfluences) -> Vec<(u16, u32)> {
    let mut pairs: Vec<(u16, u32)> =
        (0..SLOTS).filter(|&i| v.weights[i] != 0.0).map(|i| (v.joints[i], v.weights[i].to_bits())).collect();
    pairs.sort_unstable();
    pairs
}

fn d(v: Vec3A) -> DVec3 {
    Vec3::from(v).as_dvec3()
}

/// What [`check_invariants`] found on one model.
#[derive(Default)]
struct Found {
    triangles: usize,
    edges: usize,
    /// The plain 3x3's largest error in `n · e`, per unit of edge length.
    plain_error: f64,
}

/// Over a few poses of every clip: the invariants of the module comment of `crates/method/src/normals.rs`.
fn check_invariants(name: &str, model: &Model, clips: &[Clip]) -> Found {
    let (vertices, bind) = (model.skin.vertex_influences(), model.skin.normals());
    let positions = model.skin.bind();
    let mut pose = Pose::new(model);
    let mut found = Found::default();
    for clip in clips {
        for step in 0..4 {
            let time = clip.duration as f64 * step as f64 / 4.0 + 0.1;
            pose.update(model, clip, time);
            // A triangle moved by one matrix M: its bind face normal, skinned by the rule, is
            // perpendicular to its skinned edges M e.
            for (t, &[a, b, c]) in model.triangles.iter().enumerate() {
                let (va, vb, vc) = (&vertices[a as usize], &vertices[b as usize], &vertices[c as usize]);
                if influences(va) != influences(vb) || influences(va) != influences(vc) {
                    continue;
                }
                let (pa, pb, pc) =
                    (d(positions[a as usize]), d(positions[b as usize]), d(positions[c as usize]));
                let cross = (pb - pa).cross(pc - pa);
                // A sliver with (next to) no area has no normal of its own to check.
                if cross.length() < 1e-6 * (pb - pa).length() * (pc - pa).length() {
                    continue;
                }
                let m = blend_matrix_f64(va, &pose.palette);
                let normal = skin_normal(va, Vec3A::from(cross.normalize().as_vec3()), &pose.palette);
                for e in [pb - pa, pc - pa, pc - pb] {
                    let cos = d(normal).dot((m * e).normalize());
                    assert!(
                        cos.abs() <= 1e-5,
                        "{name} {} at {time}: triangle {t} edge off by cos {cos:e}",
                        clip.name
                    );
                }
                // Flat normals, from the skinned corners, are the same direction.
                if pose.normals.is_empty() {
                    let corner = |v: u32| pose.skinned[v as usize];
                    let flat = face_normal(corner(a), corner(b), corner(c));
                    let angle = degrees_between(flat, normal);
                    assert!(
                        angle < 0.05,
                        "{name} {} at {time}: triangle {t}'s flat normal is {angle}° off",
                        clip.name
                    );
                }
                found.triangles += 1;
            }
            // A file normal n at either end of an edge e moved by one matrix M: the rule's
            // M⁻ᵀ n against M e gives n · e, as before the move; the plain M n does not.
            let edges: &[[u32; 2]] = if bind.is_empty() { &[] } else { &model.edges };
            for &[a, b] in edges {
                let (va, vb) = (&vertices[a as usize], &vertices[b as usize]);
                if influences(va) != influences(vb) {
                    continue;
                }
                let e = d(positions[b as usize]) - d(positions[a as usize]);
                let m = blend_matrix_f64(va, &pose.palette);
                let inverse_transpose = inverse_transpose(&blended_matrix(va, &[], &pose.palette));
                for n in [bind[a as usize], bind[b as usize]] {
                    let before = d(n).dot(e);
                    let rule = d(inverse_transpose * n).dot(m * e);
                    let plain = (m * d(n)).dot(m * e);
                    let tolerance = 1e-5 * e.length();
                    assert!(
                        (rule - before).abs() <= tolerance,
                        "{name} {}: edge {a}-{b}: {rule} != {before}",
                        clip.name
                    );
                    found.plain_error = found.plain_error.max((plain - before).abs() / e.length());
                }
                found.edges += 1;
            }
        }
    }
    println!(
        "{name}: {} triangle poses and {} edge poses checked; the plain 3x3 moves n · e by up to {:.3} per unit",
        found.triangles, found.edges, found.plain_error
    );
    found
}

#[test]
fn every_model_keeps_the_invariants() {
    let article = skinning_method::scene::article().expect("the article's scene");
    let found = check_invariants("article", &article, &skinning_method::scene::clips().expect("clips"));
    // Its outline has one edge on one bone alone (12 -> 0, the left end, on root).
    assert!(found.edges > 0 && found.triangles == 0);

    let flat = load_from_slice(&fixture::build().embedded(), None).expect("the fixture loads");
    assert!(flat.model.skin.normals().is_empty(), "the fixture has no NORMAL: flat normals");
    assert!(check_invariants("fixture", &flat.model, &flat.clips).triangles > 0);

    let lit = load_from_slice(&fixture::build_with_normals().embedded(), None).expect("it loads");
    assert_eq!(lit.model.skin.normals().len(), lit.model.skin.len());
    let found = check_invariants("fixture with normals", &lit.model, &lit.clips);
    // Its joints stretch one axis more than another: there the plain 3x3 breaks n · e.
    assert!(found.edges > 0 && found.plain_error > 0.05, "{}", found.plain_error);

    let with_normals = character(true);
    if let Some(keep) = std::env::var_os("SKINNING_KEEP_LIT_MODEL") {
        std::fs::write(keep, with_normals.glb()).expect("the kept model is written");
    }
    let tubes = load_from_slice(&with_normals.embedded(), None).expect("the character loads");
    assert_eq!(tubes.model.skin.normals().len(), 28_672);
    let found = check_invariants("28,672-vertex character", &tubes.model, &tubes.clips);
    assert!(found.edges > 0);

    for name in ["Fox.glb", "SimpleSkin.gltf", "RobotExpressive.glb"] {
        let Some(path) = sample_model(name) else { continue };
        let imported = load(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let found = check_invariants(name, &imported.model, &imported.clips);
        // SimpleSkin's ten vertices each have weights of their own: no triangle or edge of it is
        // moved by one matrix alone.
        assert!(found.triangles + found.edges > 0 || name == "SimpleSkin.gltf", "{name}: nothing checked");
        // The robot brings a NORMAL for every vertex; the fox and SimpleSkin bring none.
        let has_normals = !imported.model.skin.normals().is_empty();
        assert_eq!(has_normals, name.starts_with("Robot"), "{name}");
    }
}

/// The largest angle, over every vertex and the times `0, step, 2 step...` of `clip`, between the
/// rule and each shortcut, and between the two shortcuts: [blended matrix, per joint, between].
fn largest_differences(model: &Model, clip: &Clip, step: f64) -> [f32; 3] {
    let mut pose = Pose::new(model);
    let mut largest = [0.0f32; 3];
    for k in 0..=(clip.duration as f64 / step).round() as usize {
        pose.update(model, clip, k as f64 * step);
        for (v, &n) in model.skin.vertex_influences().iter().zip(model.skin.normals()) {
            let [rule, blended, per_joint] = Rule::ALL.map(|r| r.skin(v, n, &pose.palette));
            let apart = [
                degrees_between(rule, blended),
                degrees_between(rule, per_joint),
                degrees_between(blended, per_joint),
            ];
            for (l, a) in largest.iter_mut().zip(apart) {
                *l = l.max(a);
            }
        }
    }
    largest
}

#[test]
fn the_shortcuts_lean_off_the_rule_on_the_twist_and_under_non_uniform_scale() {
    let article = skinning_method::scene::article().expect("the article's scene");
    let twist = skinning_method::scene::twist().expect("the twist");

    // By hand, at 2 s, where bone2 holds its 150° turn about x: vertex 2 (0.3, 0.05), half on
    // bone1 (not moved) and half on bone2. Its bind normal is halfway between the outline's two
    // edges there, (0.2, 0) and (0.15, 0.01), each turned a quarter left (the outline goes round
    // clockwise): (0, 1) and (-0.01, 0.15) / |(0.01, 0.15)|.
    let second = DVec3::new(-0.01, 0.15, 0.0).normalize();
    let n = (DVec3::Y + second).normalize();
    let turn = glam::DMat3::from_rotation_x(150f64.to_radians());
    let m = (DMat3::IDENTITY + turn) * 0.5;
    let rule = (m.inverse().transpose() * n).normalize();
    let plain = (m * n).normalize();
    let by_hand = rule.angle_between(plain).to_degrees();
    let mut pose = Pose::new(&article);
    pose.update(&article, &twist, 2.0);
    let v = &article.skin.vertex_influences()[2];
    let bind = article.skin.normals()[2];
    assert!(d(bind).abs_diff_eq(n, 1e-6), "vertex 2's bind normal {bind}");
    let [r, b, p] = Rule::ALL.map(|rule| rule.skin(v, bind, &pose.palette));
    assert!(d(r).abs_diff_eq(rule, 1e-5), "{r} vs {rule}");
    assert!((degrees_between(r, b) as f64 - by_hand).abs() < 1e-3, "{} vs {by_hand}", degrees_between(r, b));
    // Each joint is a turn and a move, its own inverse transpose: the two shortcuts are one here.
    assert!(degrees_between(b, p) < 1e-3);

    let [blended, per_joint, between] = largest_differences(&article, &twist, 0.05);
    println!(
        "twist: rule vs blended matrix up to {blended:.2}°, vs per-joint inverse transpose up to {per_joint:.2}°, \
         shortcuts apart up to {between:.4}° (vertex 2 at 2 s by hand: {by_hand:.2}°)"
    );
    assert!(blended >= by_hand as f32 - 1e-3 && per_joint >= by_hand as f32 - 1e-3 && between < 1e-2);

    let lit = load_from_slice(&fixture::build_with_normals().embedded(), None).expect("it loads");
    let [blended, per_joint, between] = largest_differences(&lit.model, &lit.clips[0], 0.05);
    println!(
        "non-uniform fixture: rule vs blended matrix up to {blended:.2}°, vs per-joint inverse transpose up to \
         {per_joint:.2}°, shortcuts apart up to {between:.2}°"
    );
    // Stretched joints: the blended matrix leans far off; blended per joint, the stretch is undone
    // for each joint, not for the blend, so it leans too, and the two shortcuts disagree.
    assert!(blended > 5.0 && per_joint > 1.0 && between > 1.0, "{blended} {per_joint} {between}");
}
