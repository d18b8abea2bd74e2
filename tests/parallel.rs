//! The parallel blend gives exactly the one-thread blend's result: `==` on every position, for meshes
//! of many sizes cut into chunks of many sizes, including the sizes that leave a short last chunk.
//! The same for the fast path (`lanes.rs`), positions alone and with normals.

use glam::{Mat4, Vec3A};
use skinning::dual_quat::{DualQuat, blend_dqs, blend_dqs_normals, compute_dq_palette};
use skinning::lanes;
use skinning::model::{Model, Pose};
use skinning::normals::blend_normals;
use skinning::parallel::{
    BlendThreads, PARALLEL_FROM_VERTICES, blend_dqs_lanes_parallel, blend_dqs_normals_parallel,
    blend_dqs_parallel, blend_lanes_parallel, blend_normals_parallel, blend_parallel,
};
use skinning::skin::blend;
use skinning::{scene, synthetic};

/// A model posed mid-motion, so every palette matrix differs from the identity: its palette and
/// its palette as dual quaternions.
fn posed(model: &Model, clip: &skinning::clip::Clip, time: f64) -> (Vec<Mat4>, Vec<DualQuat>, f32) {
    let mut pose = Pose::new(model);
    pose.update_palette(model, clip, time);
    let mut dq = vec![DualQuat::IDENTITY; pose.palette.len()];
    let scale = compute_dq_palette(&pose.palette, &mut dq).expect("these clips only turn joints");
    (pose.palette, dq, scale)
}

/// Both methods, positions and normals, one thread against chunks of every size in `chunks`,
/// compared with `==`.
fn check(model: &Model, palette: &[Mat4], dq: &[DualQuat], scale: f32, chunks: &[usize]) {
    let n = model.skin.len();
    assert_eq!(model.skin.normals().len(), n, "the article and the tubes have normals");
    let (mut one, mut one_dqs) = (vec![Vec3A::ZERO; n], vec![Vec3A::ZERO; n]);
    blend(&model.skin, palette, &mut one);
    blend_dqs(&model.skin, dq, scale, &mut one_dqs);
    let (mut normals, mut normals_dqs) = (vec![Vec3A::ZERO; n], vec![Vec3A::ZERO; n]);
    blend_normals(&model.skin, palette, &mut normals);
    blend_dqs_normals(&model.skin, dq, &mut normals_dqs);
    let (mut fast, mut fast_normals) = (vec![Vec3A::ZERO; n], vec![Vec3A::ZERO; n]);
    lanes::blend(&model.skin, palette, &mut fast, &mut fast_normals);
    let (mut fast_dqs, mut fast_dqs_normals) = (vec![Vec3A::ZERO; n], vec![Vec3A::ZERO; n]);
    lanes::blend_dqs(&model.skin, dq, scale, &mut fast_dqs, &mut fast_dqs_normals);
    for &chunk in chunks {
        // Filled with NaN first: a chunk the parallel blend skipped would stay NaN, and NaN != NaN.
        let mut many = vec![Vec3A::NAN; n];
        blend_parallel(&model.skin, palette, &mut many, chunk);
        assert!(many == one, "LBS, {n} vertices in chunks of {chunk}: not bit-identical");
        let mut many = vec![Vec3A::NAN; n];
        blend_dqs_parallel(&model.skin, dq, scale, &mut many, chunk);
        assert!(many == one_dqs, "DQS, {n} vertices in chunks of {chunk}: not bit-identical");
        let mut many = vec![Vec3A::NAN; n];
        blend_normals_parallel(&model.skin, palette, &mut many, chunk);
        assert!(many == normals, "LBS normals, {n} vertices in chunks of {chunk}: not bit-identical");
        let mut many = vec![Vec3A::NAN; n];
        blend_dqs_normals_parallel(&model.skin, dq, &mut many, chunk);
        assert!(many == normals_dqs, "DQS normals, {n} vertices in chunks of {chunk}: not bit-identical");
        let (mut many, mut many_normals) = (vec![Vec3A::NAN; n], vec![Vec3A::NAN; n]);
        blend_lanes_parallel(&model.skin, palette, &mut many, &mut many_normals, chunk);
        assert!(many == fast, "fast path, {n} vertices in chunks of {chunk}: not bit-identical");
        assert!(
            many_normals == fast_normals,
            "fast normals, {n} vertices in chunks of {chunk}: not bit-identical"
        );
        let mut many = vec![Vec3A::NAN; n];
        blend_lanes_parallel(&model.skin, palette, &mut many, &mut [], chunk);
        assert!(many == fast, "fast positions alone, {n} vertices in chunks of {chunk}: not bit-identical");
        let (mut many, mut many_normals) = (vec![Vec3A::NAN; n], vec![Vec3A::NAN; n]);
        blend_dqs_lanes_parallel(&model.skin, (dq, scale), &mut many, &mut many_normals, chunk);
        assert!(many == fast_dqs, "fast DQS, {n} vertices in chunks of {chunk}: not bit-identical");
        assert!(many_normals == fast_dqs_normals, "fast DQS normals, {n} vertices in chunks of {chunk}");
    }
}

#[test]
fn the_article_in_chunks_is_the_article_in_one_piece() {
    let model = scene::article().expect("the article's scene");
    for clip in scene::clips().expect("the article's clips") {
        for time in [0.0, 0.5, 1.3, 2.0] {
            let (palette, dq, scale) = posed(&model, &clip, time);
            // 13 vertices: one per chunk, chunks that leave 1, 3 or 5 over, exactly 13, more than 13.
            check(&model, &palette, &dq, scale, &[1, 2, 3, 4, 5, 6, 12, 13, 14, 100]);
        }
    }
}

#[test]
fn tubes_of_many_sizes_in_chunks_of_many_sizes() {
    let wave = synthetic::wave();
    // (bones, rings, vertices per ring): 1, 7, 259, 1,000, 4,097 and 13,000 vertices.
    for (bones, rings, ring) in
        [(3, 1, 1), (5, 1, 7), (64, 37, 7), (64, 125, 8), (64, 17, 241), (64, 1000, 13)]
    {
        let model = synthetic::tube(bones, rings, ring);
        let n = model.skin.len();
        let (palette, dq, scale) = posed(&model, &wave, 0.7);
        let chunks = [1, 2, 3, 7, 64, 100, 1000, 1024, n.saturating_sub(1).max(1), n, n + 1, n.div_ceil(8)];
        check(&model, &palette, &dq, scale, &chunks);
    }
}

#[test]
fn blend_threads_give_the_one_thread_result_above_and_below_the_threshold() {
    // The program's road: a pool made on this thread, the calling thread one of its threads.
    let threads = BlendThreads::new(2).expect("two threads");
    assert_eq!(threads.count(), 2);
    assert_eq!(threads.used_for(13), 1, "the article's 13 vertices stay on one thread");
    assert_eq!(threads.used_for(PARALLEL_FROM_VERTICES - 1), 1);
    assert_eq!(threads.used_for(PARALLEL_FROM_VERTICES), 2);
    let always = threads.parallel_from(0);
    assert_eq!(always.used_for(13), 2);
    let one = BlendThreads::one();
    assert_eq!((one.count(), one.used_for(1_000_000)), (1, 1));

    let wave = synthetic::wave();
    for model in [scene::article().expect("the article"), synthetic::tube(64, 17, 241)] {
        let n = model.skin.len();
        let (palette, dq, scale) = posed(&model, &wave_or_bend(&model, &wave), 0.7);
        let (mut expected, mut expected_dqs) = (vec![Vec3A::ZERO; n], vec![Vec3A::ZERO; n]);
        blend(&model.skin, &palette, &mut expected);
        blend_dqs(&model.skin, &dq, scale, &mut expected_dqs);
        let (mut normals, mut normals_dqs) = (vec![Vec3A::ZERO; n], vec![Vec3A::ZERO; n]);
        blend_normals(&model.skin, &palette, &mut normals);
        blend_dqs_normals(&model.skin, &dq, &mut normals_dqs);
        let (mut fast, mut fast_normals) = (vec![Vec3A::ZERO; n], vec![Vec3A::ZERO; n]);
        lanes::blend(&model.skin, &palette, &mut fast, &mut fast_normals);
        let (mut fast_dqs, mut fast_dqs_normals) = (vec![Vec3A::ZERO; n], vec![Vec3A::ZERO; n]);
        lanes::blend_dqs(&model.skin, &dq, scale, &mut fast_dqs, &mut fast_dqs_normals);
        for threads in [&always, &one] {
            let mut out = vec![Vec3A::NAN; n];
            threads.blend(&model.skin, &palette, &mut out);
            assert!(out == expected, "{n} vertices on {} threads", threads.used_for(n));
            let mut out = vec![Vec3A::NAN; n];
            threads.blend_dqs(&model.skin, &dq, scale, &mut out);
            assert!(out == expected_dqs, "DQS, {n} vertices on {} threads", threads.used_for(n));
            let mut out = vec![Vec3A::NAN; n];
            threads.blend_normals(&model.skin, &palette, &mut out);
            assert!(out == normals, "normals, {n} vertices on {} threads", threads.used_for(n));
            let mut out = vec![Vec3A::NAN; n];
            threads.blend_dqs_normals(&model.skin, &dq, &mut out);
            assert!(out == normals_dqs, "DQS normals, {n} vertices on {} threads", threads.used_for(n));
            let (mut out, mut out_normals) = (vec![Vec3A::NAN; n], vec![Vec3A::NAN; n]);
            threads.blend_lanes(&model.skin, &palette, &mut out, &mut out_normals);
            assert!(
                out == fast && out_normals == fast_normals,
                "fast, {n} vertices on {} threads",
                threads.used_for(n)
            );
            let (mut out, mut out_normals) = (vec![Vec3A::NAN; n], vec![Vec3A::NAN; n]);
            threads.blend_dqs_lanes(&model.skin, (&dq, scale), &mut out, &mut out_normals);
            let same = out == fast_dqs && out_normals == fast_dqs_normals;
            assert!(same, "fast DQS, {n} vertices on {} threads", threads.used_for(n));
        }
    }
}

/// The tube moves with `wave`; the article with its own `bend` clip.
fn wave_or_bend(model: &Model, wave: &skinning::clip::Clip) -> skinning::clip::Clip {
    if model.skin.len() == 13 { scene::bend().expect("the bend clip") } else { wave.clone() }
}

#[test]
fn a_second_pool_on_the_same_thread_is_refused_in_one_line() {
    let _first = BlendThreads::new(2).expect("two threads");
    let why = BlendThreads::new(2).err().expect("this thread is already in a pool");
    assert!(why.starts_with("cannot start 2 threads to blend: "), "{why}");
    assert!(!why.contains('\n'), "{why}");
    // One thread needs no pool, so it is always possible.
    assert_eq!(BlendThreads::new(1).map(|t| t.count()), Ok(1));
}
