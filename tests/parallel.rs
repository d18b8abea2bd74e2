//! The parallel blend gives exactly the one-thread blend's result: `==` on every position, for meshes
//! of many sizes cut into chunks of many sizes, including the sizes that leave a short last chunk.
//! The same for the fast path (`lanes.rs`), positions alone and with normals.

use glam::{Mat4, Vec3A};
use skinning_fast::lanes::Lanes;
use skinning_fast::parallel::{BlendThreads, PARALLEL_FROM_VERTICES};
use skinning_fast::synthetic;
use skinning_method::blend::{Linear, blend_run};
use skinning_method::dual_quat::{DualQuat, DualQuats, compute_dq_palette};
use skinning_method::frame::{Frame, Pose};
use skinning_method::lbs_or_dqs::Palette;
use skinning_method::model::Model;
use skinning_method::normals::{BlendNormal, normals_run};
use skinning_method::scene;
use skinning_method::skin::Skin;

/// A model posed mid-motion, so every palette matrix differs from the identity: its palette and
/// its palette as dual quaternions.
fn posed(model: &Model, clip: &skinning_method::clip::Clip, time: f64) -> (Vec<Mat4>, Vec<DualQuat>, f32) {
    let mut pose = Pose::new(model);
    pose.run(model, Frame::new(clip, time).palette_only()).expect("linear blending takes any palette");
    let mut dq = vec![DualQuat::IDENTITY; pose.palette.len()];
    let scale = compute_dq_palette(&pose.palette, &mut dq).expect("these clips only turn joints");
    (pose.palette, dq, scale)
}

/// One run of vertices blended by `palette`: the readable loop, or the lanes.
fn run(
    skin: &Skin,
    lanes: Option<Lanes>,
    palette: Palette,
    run: std::ops::Range<usize>,
    out: (&mut [Vec3A], &mut [Vec3A]),
) {
    match (lanes, palette) {
        (Some(lanes), palette) => lanes.blend_run(skin, skin.shape(), palette, run, out.0, out.1),
        (None, Palette::Lbs(p)) => readable(skin, &Linear(p), run, out),
        (None, Palette::Dqs { joints, scale }) => readable(skin, &DualQuats { joints, scale }, run, out),
    }
}

/// The readable loops over one run: the positions, then the normals unless there is no room.
fn readable(
    skin: &Skin,
    method: &impl BlendNormal,
    run: std::ops::Range<usize>,
    out: (&mut [Vec3A], &mut [Vec3A]),
) {
    blend_run(skin, skin.bind(), method, run.clone(), out.0);
    if !out.1.is_empty() {
        normals_run(skin, skin.normals(), method, run, out.1);
    }
}

/// Both methods, positions with normals and alone, by the readable loop and by the lanes: the whole
/// skin in one run against the skin cut into runs of every size in `chunks`, compared with `==`.
/// What threads rely on: a vertex's result does not depend on the run it falls in.
fn check(model: &Model, palette: &[Mat4], dq: &[DualQuat], scale: f32, chunks: &[usize]) {
    let (skin, n) = (&model.skin, model.skin.len());
    assert_eq!(skin.normals().len(), n, "the article and the tubes have normals");
    let palettes = [Palette::Lbs(palette), Palette::Dqs { joints: dq, scale }];
    for (lanes, palette) in [None, Some(Lanes::best())].into_iter().flat_map(|l| palettes.map(|p| (l, p))) {
        let (mut whole, mut whole_normals) = (vec![Vec3A::ZERO; n], vec![Vec3A::ZERO; n]);
        run(skin, lanes, palette, 0..n, (&mut whole, &mut whole_normals));
        for &chunk in chunks {
            // Filled with NaN first: a vertex no run wrote would stay NaN, and NaN != NaN.
            let (mut cut, mut cut_normals, mut alone) =
                (vec![Vec3A::NAN; n], vec![Vec3A::NAN; n], vec![Vec3A::NAN; n]);
            for start in (0..n).step_by(chunk) {
                let end = (start + chunk).min(n);
                run(skin, lanes, palette, start..end, (&mut cut[start..end], &mut cut_normals[start..end]));
                run(skin, lanes, palette, start..end, (&mut alone[start..end], &mut []));
            }
            let what = format!("{palette:?} on {lanes:?}, {n} vertices in runs of {chunk}");
            assert!(cut == whole, "{what}: positions not bit-identical");
            assert!(cut_normals == whole_normals, "{what}: normals not bit-identical");
            assert!(alone == whole, "{what}: positions alone not bit-identical");
        }
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
    let one_thread = BlendThreads::one();
    assert_eq!((one_thread.count(), one_thread.used_for(1_000_000)), (1, 1));

    let wave = synthetic::wave();
    for model in [scene::article().expect("the article"), synthetic::tube(64, 17, 241)] {
        let (skin, n) = (&model.skin, model.skin.len());
        let (palette, dq, scale) = posed(&model, &wave_or_bend(&model, &wave), 0.7);
        for palette in [Palette::Lbs(&palette), Palette::Dqs { joints: &dq, scale }] {
            for lanes in [None, Some(Lanes::best())] {
                let (mut one, mut one_normals) = (vec![Vec3A::ZERO; n], vec![Vec3A::ZERO; n]);
                run(skin, lanes, palette, 0..n, (&mut one, &mut one_normals));
                for threads in [&always, &one_thread] {
                    // What `FastPath::blend` does with its threads.
                    let (mut out, mut out_normals) = (vec![Vec3A::NAN; n], vec![Vec3A::NAN; n]);
                    threads.split(n, &mut out, &mut out_normals, |r, p, normals| {
                        run(skin, lanes, palette, r, (p, normals))
                    });
                    let on = threads.used_for(n);
                    assert!(
                        out == one && out_normals == one_normals,
                        "{palette:?} on {lanes:?}, {n} vertices on {on} threads"
                    );
                }
            }
        }
    }
}

/// The tube moves with `wave`; the article with its own `bend` clip.
fn wave_or_bend(model: &Model, wave: &skinning_method::clip::Clip) -> skinning_method::clip::Clip {
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
