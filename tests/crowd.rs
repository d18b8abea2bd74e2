//! A crowd's characters are the model run alone at their phases: every character's palette and
//! skinned positions equal one `Pose::run` of the same clip at its time (within 1e-6), on one thread
//! and on a pool, for the Fox (when `SKINNING_MODELS` has it) and the crate's synthetic tube. And
//! the grid, the phases and the memory figure say what `crowd.rs` says they do.

use glam::Vec2;
use skinning_fast::crowd::{Crowd, Work, grid, on_ground, phase, pose_bytes, spacing};
use skinning_fast::fast_path::FastPath;
use skinning_fast::parallel::BlendThreads;
use skinning_fast::synthetic;
use skinning_method::clip::Clip;
use skinning_method::frame::{Blending, Frame, Pose};
use skinning_method::model::Model;

/// The Fox and its Walk, or None (the sample folder says SKIPPED, or fails under REQUIRE).
fn fox() -> Option<(Model, Clip)> {
    let path = common::sample_model("Fox.glb")?;
    let fox = skinning_formats::gltf_import::load(&path).expect("the Fox loads");
    let walk = fox.clips.iter().find(|c| c.name == "Walk").expect("the Fox walks").clone();
    Some((fox.model, walk))
}

/// The largest distance between a crowd's character and the same frame run alone, over every
/// character, position and palette entry; and it asserts the first and the middle character are
/// not in step (a crowd in step would show nothing).
fn against_single_runs(model: &Model, clip: &Clip, count: usize, threads: &BlendThreads, time: f64) -> f32 {
    let mut crowd = Crowd::on_grid(model, count, spacing(model), clip.duration as f64);
    crowd.run(model, clip, time, Work::BlendAndNormals, threads);
    let mut fast = FastPath::new();
    let mut alone = Pose::new(model);
    let mut worst = 0.0f32;
    for character in &crowd.characters {
        let blending = Blending::Skin { by: &mut fast, normals: true };
        let frame = Frame { blending, ..Frame::new(clip, time + character.phase) };
        alone.run(model, frame).expect("linear blending takes any palette");
        let pose = &character.pose;
        for (a, b) in pose.skinned.iter().zip(&alone.skinned).chain(pose.normals.iter().zip(&alone.normals)) {
            worst = worst.max(a.distance(*b));
        }
        for (a, b) in pose.palette.iter().zip(&alone.palette) {
            worst = worst.max((*a - *b).abs().to_cols_array().into_iter().fold(0.0, f32::max));
        }
    }
    // The characters are at different moments: the first and the middle one differ.
    let (first, middle) = (&crowd.characters[0].pose, &crowd.characters[count / 2].pose);
    let apart = first.skinned.iter().zip(&middle.skinned).map(|(a, b)| a.distance(*b)).fold(0.0, f32::max);
    assert!(count == 1 || apart > 1e-3, "characters 0 and {} are in step ({apart})", count / 2);
    worst
}

#[test]
fn every_character_equals_its_frame_run_alone_on_one_thread_and_on_a_pool() {
    let tube = synthetic::tube(16, 24, 8);
    let wave = synthetic::wave();
    let one = BlendThreads::one();
    let worst = against_single_runs(&tube, &wave, 7, &one, 0.3);
    assert!(worst <= 1e-6, "one thread: {worst}");
    // This test's thread joins a pool of two, which runs the characters as jobs from any size on.
    let two = BlendThreads::new(2).expect("two threads").parallel_from(0);
    assert_eq!(two.used_for(1), 2);
    let worst = against_single_runs(&tube, &wave, 25, &two, 1.7);
    assert!(worst <= 1e-6, "two threads: {worst}");
    if let Some((fox, walk)) = fox() {
        let worst = against_single_runs(&fox, &walk, 10, &two, 0.45);
        assert!(worst <= 1e-6, "ten Foxes on two threads: {worst}");
    }
}

#[test]
fn the_palette_only_work_stops_before_the_blend() {
    let tube = synthetic::tube(16, 24, 8);
    let wave = synthetic::wave();
    let mut crowd = Crowd::on_grid(&tube, 3, 1.0, wave.duration as f64);
    crowd.run(&tube, &wave, 0.5, Work::Palette, &BlendThreads::one());
    for character in &crowd.characters {
        // This frame's palette, and the positions of the rest pose `Pose::new` blended: not this
        // frame's, which the GPU blends.
        let mut alone = Pose::new(&tube);
        alone.run(&tube, Frame::new(&wave, 0.5 + character.phase)).expect("lbs");
        assert_eq!(character.pose.palette, alone.palette);
        assert_ne!(character.pose.skinned, alone.skinned, "the GPU path's CPU side blended");
    }
}

#[test]
fn the_grid_is_square_centred_and_the_phases_spread_over_the_loop() {
    for count in [1, 2, 3, 4, 10, 100, 1000] {
        let spots: Vec<Vec2> = (0..count).map(|i| grid(i, count)).collect();
        let side = (count as f64).sqrt().ceil() as usize;
        // Each spot its own, at most `side` across, about the origin.
        for (i, a) in spots.iter().enumerate() {
            assert!(a.x.abs() <= side as f32 / 2.0 && a.y.abs() <= side as f32 / 2.0, "{count}: {a}");
            assert!(spots[..i].iter().all(|b| b.distance(*a) >= 1.0 - 1e-5), "{count}: {a} twice");
        }
        let columns = spots.iter().map(|p| p.x.to_bits()).collect::<std::collections::BTreeSet<_>>();
        assert_eq!(columns.len(), side.min(count), "{count} characters' columns");
        let sum: Vec2 = spots.iter().copied().sum();
        assert!(count % side != 0 || sum.length() < 1e-3, "{count}: centred, {sum}");
        let phases: Vec<f64> = (0..count).map(|i| phase(i, count, 3.0)).collect();
        assert_eq!(phases[0], 0.0);
        assert!(phases.windows(2).all(|w| w[1] > w[0]) && phases[count - 1] < 3.0, "{phases:?}");
    }
    // On the ground: across the model's up, never along it.
    let tube = synthetic::tube(4, 4, 4);
    let up = tube.axes.up().vector();
    for i in 0..9 {
        let place = on_ground(&tube, grid(i, 9), 2.0);
        assert!(place.dot(up).abs() < 1e-6, "{place}");
        assert!((place.length() - 2.0 * grid(i, 9).length()).abs() < 1e-5, "{place}");
    }
}

#[test]
fn an_extra_character_owns_its_pose_and_shares_the_model() {
    let tube = synthetic::tube(16, 24, 8);
    let crowd = Crowd::on_grid(&tube, 4, 1.0, 1.0);
    let pose = &crowd.characters[0].pose;
    // The skinned positions and normals (16 bytes a vertex each), the matrices (3 of 64 a bone),
    // the local pose and the bend, the dual quaternions: nothing of the skin or the clip.
    let per_vertex = 2 * 16 * tube.skin.len();
    let per_bone = 3 * 64 * tube.skeleton.len();
    assert!(pose_bytes(pose) >= per_vertex + per_bone, "{}", pose_bytes(pose));
    assert!(pose_bytes(pose) < per_vertex + per_bone + 200 * tube.skeleton.len(), "{}", pose_bytes(pose));
    assert!(crowd.bytes() >= 4 * pose_bytes(pose) && crowd.bytes() < 5 * pose_bytes(pose));
}
