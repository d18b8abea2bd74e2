//! `--export-gltf` keeps the morph targets (`crates/formats/src/gltf_export/morphs.rs`): each mesh's targets with
//! its primitives, their default weights and names with the mesh, and a clip's weight channels as
//! one `weights` channel on the mesh's node. Read back, the model has the same targets, the clips
//! move the same weights, and every frame puts every vertex where the first model did: on the
//! hand-made face (a skinned mesh whose weights follow a cubic spline, and a rigid badge on a scaled
//! node), and on the robot with a face held. The Khronos validator's check of these files is in
//! `tests/gltf_validator.rs`.

use common::face;
use skinning_formats::gltf_export::{Container, export};
use skinning_formats::gltf_import::{Imported, load, load_from_slice};
use skinning_method::clip::{Clip, Motion};
use skinning_method::frame::{Frame, Pose};
use skinning_method::model::Model;
use skinning_method::morph::{Held, Morph, Morphed};

fn round_trip(imported: &Imported, container: Container) -> Imported {
    let bytes = export(&imported.model, &imported.looks, &imported.morphs, &imported.clips, container)
        .expect("the model exports");
    let back = load_from_slice(&bytes, None).expect("the export loads back");
    assert!(back.notes.is_empty(), "read back without a note: {:?}", back.notes);
    back
}

/// The diagonal of the box around the bind positions.
fn size(model: &Model) -> f32 {
    let (mut min, mut max) = (glam::Vec3A::splat(f32::INFINITY), glam::Vec3A::splat(f32::NEG_INFINITY));
    for &p in model.skin.bind() {
        (min, max) = (min.min(p), max.max(p));
    }
    (max - min).length()
}

/// How many of a clip's tracks move morph weights.
fn weight_tracks(clip: &Clip) -> usize {
    match &clip.motion {
        Motion::Keyframes(tracks) => tracks.iter().filter(|t| !t.weights.is_empty()).count(),
        Motion::Procedural(_) => 0,
    }
}

/// The largest distance, over `times` of every clip, between where the two models put a vertex,
/// as a share of the first's size, with `held` weights over the clips'; and the same for the
/// frames' weights.
fn largest_difference(a: &Imported, b: &Imported, held: &[Held], times: usize) -> (f32, f32) {
    let (mut pa, mut pb) = (Pose::new(&a.model), Pose::new(&b.model));
    let mut ma = Morphed::new(&a.model.skin, &a.morphs);
    let mut mb = Morphed::new(&b.model.skin, &b.morphs);
    let (mut worst, mut worst_weight) = (0.0f32, 0.0f32);
    for (ca, cb) in a.clips.iter().zip(&b.clips) {
        assert_eq!((&ca.name, ca.duration), (&cb.name, cb.duration), "the clips come back in order");
        for k in 0..=times {
            let t = ca.duration as f64 * k as f64 / times as f64;
            for (pose, morphed, (model, targets), clip) in
                [(&mut pa, &mut ma, (&a.model, &a.morphs), ca), (&mut pb, &mut mb, (&b.model, &b.morphs), cb)]
            {
                let mut morph = Morph { targets, held, morphed };
                let frame = Frame { reshape: Some(&mut morph), ..Frame::new(clip, t) };
                pose.run(model, frame).expect("LBS always blends");
            }
            for (p, q) in pa.skinned.iter().zip(&pb.skinned) {
                worst = worst.max(p.distance(*q));
            }
            for (w, v) in ma.weights.iter().zip(&mb.weights) {
                worst_weight = worst_weight.max((w - v).abs());
            }
        }
    }
    (worst / size(&a.model), worst_weight)
}

#[test]
fn the_faces_targets_weights_and_weight_channels_come_back() {
    let first = load_from_slice(&face::face(true).embedded(), None).expect("the face loads");
    assert_eq!(weight_tracks(&first.clips[0]), 1, "the face's clip moves its weights");
    for container in [Container::Gltf, Container::Glb] {
        let back = round_trip(&first, container);
        let (a, b) = (&first.morphs, &back.morphs);
        assert_eq!(a.len(), b.len(), "{container:?}: the face and the badge");
        for (m, n) in a.iter().zip(b) {
            // Each mesh on a node of its own, named as before; the same targets, bit for bit.
            assert_eq!((&m.name, &m.vertices, &m.weights), (&n.name, &n.vertices, &n.weights));
            assert_eq!((&m.targets, &m.defaults), (&n.targets, &n.defaults), "{}", m.name);
            assert_eq!((&m.positions, &m.normals), (&n.positions, &n.normals), "{}", m.name);
        }
        assert_eq!(weight_tracks(&back.clips[0]), 1, "{container:?}: the weight channel");
        // Played, with the clip's spline and with Frown held at 0.7.
        for held in [&[][..], &[Held { weight: 1, value: 0.7 }]] {
            let (worst, worst_weight) = largest_difference(&first, &back, held, 40);
            println!(
                "{container:?}, held {held:?}: positions {worst:.1e} of the size, weights {worst_weight:.1e}"
            );
            assert!(worst <= 1e-6 && worst_weight <= 1e-6, "{container:?}: {worst:e}, {worst_weight:e}");
        }
    }
}

#[test]
fn the_robots_faces_and_their_42_channels_come_back() {
    let Some(robot) = common::sample_model("RobotExpressive.glb") else { return };
    let first = load(&robot).expect("the robot loads");
    let back = round_trip(&first, Container::Glb);
    let count = |i: &Imported| i.clips.iter().map(weight_tracks).sum::<usize>();
    assert_eq!((count(&first), count(&back)), (42, 42), "every weight channel");
    let names = |i: &Imported| -> Vec<(String, Vec<String>)> {
        i.morphs.iter().map(|m| (m.name.clone(), m.targets.clone())).collect()
    };
    assert_eq!(names(&first), names(&back));
    // Head_4's Surprised fully on, through every clip.
    let head = back.morphs.iter().find(|m| m.name == "Head_4").expect("Head_4 has targets");
    let surprised = head.weights.start + 1;
    assert_eq!(head.targets[1], "Surprised");
    let (worst, worst_weight) =
        largest_difference(&first, &back, &[Held { weight: surprised, value: 1.0 }], 4);
    println!("the robot, Surprised held: positions {worst:.1e} of its size, weights {worst_weight:.1e}");
    assert!(worst <= 1e-6 && worst_weight == 0.0, "{worst:e}, {worst_weight:e}");
}
