//! Morph targets (`crates/method/src/morph.rs`), held against the glTF spec on a face written by hand
//! (`common/face.rs`): every weight 0 is the modelled mesh bit for bit, one target at weight 1 is
//! the mesh plus its displacements, a weight channel samples as the spec's spline says (worked out
//! by hand), and the morph then the skin puts every vertex where the spec's formula, recomputed
//! here, puts it.

use common::face::{self, BIND, FROWN, NODE_WEIGHTS, SMILE, SMILE_NORMALS};
use glam::{Vec3, Vec3A};
use serde_json::json;
use skinning_formats::gltf_import::{Imported, load_from_slice};
use skinning_method::frame::{Frame, Pose, Still};
use skinning_method::morph::{
    Held, MeshMorph, Morph, MorphTargets, Morphed, morph_normal, morph_position, sample_weights,
};

fn load(g: &common::gltf_build::Gltf) -> Imported {
    load_from_slice(&g.embedded(), None).expect("the face loads")
}

fn positions(pose: &Pose) -> Vec<Vec3> {
    pose.skinned.iter().map(|&p| p.into()).collect()
}

#[test]
fn the_loader_reads_the_targets_their_names_and_the_nodes_weights() {
    let imported = load(&face::face(true));
    assert!(imported.notes.is_empty(), "{:?}", imported.notes);
    let morphs = &imported.morphs;
    assert_eq!(morphs.len(), 2, "the face and the badge");
    let (face, badge) = (&morphs[0], &morphs[1]);
    assert_eq!((face.name.as_str(), face.bone, face.vertices.clone()), ("face", 2, 0..4));
    assert_eq!(face.targets, ["Smile", "Frown"]);
    assert_eq!(face.defaults, NODE_WEIGHTS, "the node's weights win over the mesh's");
    assert_eq!((face.weights.clone(), badge.weights.clone()), (0..2, 2..3));
    for v in 0..4 {
        assert_eq!(face.displacements(v), [Vec3A::from(SMILE[v]), Vec3A::from(FROWN[v])], "vertex {v}");
    }
    // No names in the file: the target is called by its index.
    assert_eq!(
        (badge.targets.as_slice(), badge.target_label(0).as_str()),
        (&[String::new()][..], "target 0")
    );
    // The badge's node scales by 2: its displacement, in the model's space, too.
    assert_eq!(badge.positions, [Vec3A::new(2.0, 0.0, 0.0); 3]);
    // Measured in 64-bit floats, from the 32-bit displacements: Frown's longest is 0.4 as f32.
    assert_eq!((face.reach(0), face.reach(1)), (0.5, f64::from(0.4f32)));
}

#[test]
fn every_weight_0_gives_the_modelled_mesh_exactly() {
    // The face held at 0 by its node, and the same file without targets: the same numbers, bit for
    // bit, at every time (a weight of 0 adds nothing, not even a rounding).
    let mut g = face::face(true);
    g.json["nodes"][2]["weights"] = json!([0.0, 0.0]);
    g.json["meshes"][1]["weights"] = json!([0.0]);
    g.json["animations"][0]["channels"].as_array_mut().unwrap().pop();
    let with = load(&g);
    for mesh in 0..2 {
        g.json["meshes"][mesh]["primitives"][0].as_object_mut().unwrap().remove("targets");
        g.json["meshes"][mesh].as_object_mut().unwrap().remove("weights");
    }
    g.json["nodes"][2].as_object_mut().unwrap().remove("weights");
    let without = load(&g);
    assert!(without.morphs.is_empty());
    let (mut a, mut b) = (Pose::new(&with.model), Pose::new(&without.model));
    let mut morphed = Morphed::new(&with.model.skin, &with.morphs);
    let mut morph = Morph { targets: &with.morphs, held: &[], morphed: &mut morphed };
    for t in [0.0, 0.3, 0.8] {
        common::update_reshaped_with_normals(&mut a, &with.model, &mut morph, &with.clips[0], t);
        common::update_with_normals(&mut b, &without.model, &without.clips[0], t);
        assert_eq!(a.skinned, b.skinned, "t {t}");
        assert_eq!(a.normals, b.normals, "t {t}");
    }
}

#[test]
fn one_target_at_weight_1_gives_the_mesh_plus_its_displacements() {
    let imported = load(&face::face(false));
    let model = &imported.model;
    let (mut pose, mut morphed) = (Pose::new(model), Morphed::new(&model.skin, &imported.morphs));
    // Smile alone, fully on; the badge off. The rest pose: every joint matrix is the identity.
    morphed.weights.copy_from_slice(&[1.0, 0.0, 0.0]);
    let mut morph = Morph { targets: &imported.morphs, held: &[], morphed: &mut morphed };
    let frame = Frame { reshape: Some(&mut morph), ..Frame::new(&Still, 0.0) };
    pose.run(model, frame).expect("linear blending takes any palette");
    let shaped = morphed.shape(&model.skin);
    for v in 0..4 {
        assert_eq!(Vec3::from(shaped.positions[v]), BIND[v] + SMILE[v], "vertex {v}");
        assert_eq!(positions(&pose)[v], BIND[v] + SMILE[v], "vertex {v}, skinned in the rest pose");
    }
    // The normal: normalize(n + Δn), (0, 1, 1) / √2 for v2; the others keep +z exactly.
    let half = std::f32::consts::FRAC_1_SQRT_2;
    assert!(shaped.normals[2].abs_diff_eq(Vec3A::new(0.0, half, half), 1e-6), "{}", shaped.normals[2]);
    assert_eq!(shaped.normals[3], Vec3A::Z);
    // The model's own skin is never changed.
    assert_eq!(Vec3::from(model.skin.bind()[2]), BIND[2]);
}

#[test]
fn the_sums_themselves() {
    let d = [Vec3A::new(1.0, 0.0, 0.0), Vec3A::new(0.0, 2.0, 0.0)];
    assert_eq!(morph_position(Vec3A::ONE, &[0.5, 0.25], &d), Vec3A::new(1.5, 1.5, 1.0));
    assert_eq!(morph_position(Vec3A::new(-0.0, 1.0, 2.0), &[0.0, 0.0], &d).x.to_bits(), (-0.0f32).to_bits());
    assert_eq!(morph_normal(Vec3A::Z, &[0.0, 1.0], &[Vec3A::X, Vec3A::ZERO]), Vec3A::Z);
    assert_eq!(morph_normal(Vec3A::Z, &[1.0, 0.0], &[-Vec3A::Z, Vec3A::ZERO]), Vec3A::Z, "no normal left");
}

#[test]
fn a_cubicspline_weight_channel_samples_as_worked_out_by_hand() {
    // At 0.5 s, halfway between keys 1 s apart, the Hermite basis is h00 = 0.5, h10 = 0.125,
    // h01 = 0.5, h11 = -0.125. Smile: 0.5 * 0 + 0.125 * 2 + 0.5 * 1 - 0.125 * 1 = 0.625.
    // Frown: 0.5 * 1 + 0.125 * (-1) + 0.5 * 0 - 0.125 * 0.5 = 0.3125.
    let imported = load(&face::face(true));
    let clip = &imported.clips[0];
    let mut weights = vec![0.0; 3];
    sample_weights(clip, 0.5, &imported.morphs, &mut weights);
    assert_eq!(weights, [0.625, 0.3125, 1.0], "the badge has no channel: its mesh's weight");
    for t in [0.0, 0.2, 0.7, 0.99] {
        sample_weights(clip, t as f64, &imported.morphs, &mut weights);
        let spec = face::weights(t);
        assert!(
            (weights[0] - spec[0]).abs() < 1e-6 && (weights[1] - spec[1]).abs() < 1e-6,
            "t {t}: {weights:?}"
        );
    }
}

#[test]
fn step_and_linear_weight_channels_sample_as_the_spec_says() {
    // One value per target and key: (0.2, 0.4) at 0 s, (0.6, 0.8) at 1 s.
    for (interpolation, at_quarter) in [("STEP", [0.2, 0.4]), ("LINEAR", [0.3, 0.5])] {
        let mut g = face::face(true);
        let keys = g.floats(&[0.2, 0.4, 0.6, 0.8], "SCALAR");
        g.json["animations"][0]["samplers"][1]["output"] = json!(keys);
        g.json["animations"][0]["samplers"][1]["interpolation"] = json!(interpolation);
        let imported = load(&g);
        let mut weights = vec![0.0; 3];
        sample_weights(&imported.clips[0], 0.25, &imported.morphs, &mut weights);
        assert!(
            weights[..2].iter().zip(at_quarter).all(|(w, e)| (w - e).abs() < 1e-6),
            "{interpolation}: {weights:?}"
        );
    }
}

#[test]
fn the_morph_then_the_skin_puts_every_vertex_where_the_spec_does() {
    let imported = load(&face::face(true));
    let (model, clip) = (&imported.model, &imported.clips[0]);
    let (mut pose, mut morphed) = (Pose::new(model), Morphed::new(&model.skin, &imported.morphs));
    let mut morph = Morph { targets: &imported.morphs, held: &[], morphed: &mut morphed };
    let mut moved = 0.0f32;
    for t in [0.0, 0.25, 0.5, 0.75, 0.99] {
        common::update_reshaped_with_normals(&mut pose, model, &mut morph, clip, t as f64);
        let want = face::expected(face::weights(t), 90.0 * t);
        for (v, (got, want)) in positions(&pose).iter().zip(&want).enumerate() {
            assert!(got.abs_diff_eq(*want, 1e-5), "t {t} vertex {v}: {got} != {want}");
        }
        // The wrong order, skin first and the displacement after, would be elsewhere once the arm
        // has turned: v2's smile points along y in the bind pose, along -x at 90 degrees.
        let w = face::weights(t);
        let wrong = face::expected([0.0, 0.0], 90.0 * t)[2] + w[0] * SMILE[2] + w[1] * FROWN[2];
        moved = moved.max(wrong.distance(want[2]));
        // The smile's normal turns with the arm, after the morph: normalize((0, w, 1)) turned.
        let turn = glam::Quat::from_rotation_z((90.0 * t).to_radians());
        let normal = turn * (Vec3::Z + w[0] * SMILE_NORMALS[2]).normalize();
        assert!(
            Vec3::from(pose.normals[2]).abs_diff_eq(normal, 1e-5),
            "t {t}: {} != {normal}",
            pose.normals[2]
        );
    }
    assert!(moved > 0.3, "the orders never disagreed: {moved}");
}

#[test]
fn a_held_weight_holds_over_the_clip() {
    let imported = load(&face::face(true));
    let (model, clip) = (&imported.model, &imported.clips[0]);
    let (mut pose, mut morphed) = (Pose::new(model), Morphed::new(&model.skin, &imported.morphs));
    let held = [Held { weight: 1, value: 0.0 }];
    let mut morph = Morph { targets: &imported.morphs, held: &held, morphed: &mut morphed };
    let frame = Frame { reshape: Some(&mut morph), ..Frame::new(clip, 0.5) };
    pose.run(model, frame).expect("linear blending takes any palette");
    let want = face::expected([face::weights(0.5)[0], 0.0], 45.0);
    assert!(positions(&pose).iter().zip(&want).all(|(g, w)| g.abs_diff_eq(*w, 1e-5)));
}

#[test]
fn tangents_are_said_once_and_damaged_targets_leave_their_mesh_alone() {
    let mut g = face::face(false);
    let tangents = g.floats(&[0.0; 16], "VEC4");
    g.json["meshes"][0]["primitives"][0]["targets"][0]["TANGENT"] = json!(tangents);
    let imported = load(&g);
    assert_eq!(imported.notes.len(), 1, "{:?}", imported.notes);
    assert!(imported.notes[0].starts_with("left out the TANGENT displacements of 1 morph target"));

    // A target with 3 displacements for 4 vertices: that mesh's targets are left out, the
    // badge's kept, and the face drawn as modelled.
    let mut g = face::face(false);
    let short = g.floats(&[0.0; 9], "VEC3");
    g.json["meshes"][0]["primitives"][0]["targets"][1]["POSITION"] = json!(short);
    let imported = load(&g);
    assert_eq!(imported.notes.len(), 1, "{:?}", imported.notes);
    let note = &imported.notes[0];
    assert!(
        note.contains("morph targets of mesh \"face\"") && note.contains("3 entries for 4 vertices"),
        "{note}"
    );
    assert_eq!(imported.morphs.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["badge"]);

    // Node weights that are not one per target.
    let mut g = face::face(false);
    g.json["nodes"][2]["weights"] = json!([0.5]);
    let imported = load(&g);
    assert!(
        imported.notes[0].contains("its node's weights are 1 number for 2 targets"),
        "{:?}",
        imported.notes
    );
}

#[test]
fn morph_targets_are_checked_against_the_skin_and_given_their_weights() {
    let mesh = |name: &str, vertices: std::ops::Range<usize>, targets: usize| MeshMorph {
        name: name.into(),
        bone: 0,
        vertices: vertices.clone(),
        targets: vec![String::new(); targets],
        defaults: vec![0.0; targets],
        weights: 0..0,
        positions: vec![Vec3A::ZERO; vertices.len() * targets],
        normals: Vec::new(),
    };
    let targets = MorphTargets::new(vec![mesh("a", 0..2, 2), mesh("b", 2..4, 1)], 4).expect("they fit");
    assert_eq!(targets.iter().map(|m| m.weights.clone()).collect::<Vec<_>>(), [0..2, 2..3]);
    let err = MorphTargets::new(vec![mesh("c", 2..5, 1)], 4).expect_err("past the skin's vertices");
    assert_eq!(err, "the morph targets of mesh \"c\": its vertices 2..5 are not the skin's 0..4");
}
