//! The parallel blend allocates nothing frame after frame, on any thread.
//!
//! `tests/allocations.rs` counts per thread; here the work runs on the pool's threads too, so this
//! test program counts every thread's allocations together. That is why it holds one test only: the
//! test harness runs the tests of one program side by side, and their allocations would mix.
//!
//! It also shows why `BlendThreads` makes the calling thread one of its pool's threads: a pool used
//! from outside allocates (rayon's queue for work from outside takes a new block every 63 jobs).

use glam::{Mat4, Vec3A};
use rayon::ThreadPoolBuilder;
use skinning_fast::alloc_count::{self, Counting};
use skinning_fast::fast_path::FastPath;
use skinning_fast::lanes::Lanes;
use skinning_fast::parallel::BlendThreads;
use skinning_fast::synthetic;
use skinning_method::frame::{Blending, Frame, Pose};
use skinning_method::lbs_or_dqs::{Blender, ByMethod, Method, Palette};
use skinning_method::model::Model;
use skinning_method::scene;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// How many allocations every thread together makes while `f` runs.
fn allocations_in(f: impl FnOnce()) -> u64 {
    let before = alloc_count::count();
    f();
    alloc_count::count() - before
}

#[test]
fn steady_parallel_frames_allocate_nothing_on_any_thread() {
    // The program's road: this thread joins the pool, and every skin blends in parallel.
    let threads = BlendThreads::new(2).expect("two threads").parallel_from(0);
    // Only one pool may hold this thread: the readable loop and the lanes take turns on it.
    let mut by = ByMethod::new(Method::Lbs, FastPath { lanes: None, threads });
    let article = scene::article().expect("the article's scene");
    let clips = scene::clips().expect("the article's clips");
    let tube = synthetic::tube(64, 125, 16);
    let wave = synthetic::wave();
    let (mut pose, mut tube_pose) = (Pose::new(&article), Pose::new(&tube));
    // Both methods, positions with normals and alone, by the readable loop and by the lanes.
    let frame = |pose: &mut Pose, model: &Model, clip, t, by: &mut ByMethod<FastPath>| {
        for method in [Method::Lbs, Method::Dqs] {
            for normals in [true, false] {
                by.method = method;
                let frame =
                    Frame { blending: Blending::Skin { by: &mut *by, normals }, ..Frame::new(clip, t) };
                pose.run(model, frame).expect("rigid joints");
            }
        }
    };
    // The skinner sizes its dual quaternions in its first frame by them (`ByMethod`), here the
    // tube's, the larger. No other warm-up: `BlendThreads::new` has each thread take a job
    // already, so even the first frames allocate nothing.
    frame(&mut tube_pose, &tube, &wave, 0.0, &mut by);
    let n = allocations_in(|| {
        for lanes in [None, Some(Lanes::best())] {
            by.blender.lanes = lanes;
            for f in 0..150 {
                let t = f as f64 / 60.0;
                frame(&mut pose, &article, &clips[f % 3], t, &mut by);
                frame(&mut tube_pose, &tube, &wave, t, &mut by);
            }
        }
    });
    assert_eq!(n, 0, "{n} allocations in 300 frames of 8 parallel blends (2,400 hand-overs)");
    // The frames ran: the tube's last pose is not its bind pose.
    let moved =
        tube_pose.skinned.iter().zip(tube.skin.bind_positions()).any(|(s, b)| b.distance((*s).into()) > 0.1);
    assert!(moved, "the tube should have moved");

    // And a plain parallel blend from inside the pool allocates nothing either.
    let mut out = vec![Vec3A::ZERO; tube.skin.len()];
    let palette = vec![Mat4::IDENTITY; tube.skin.joints().len()];
    let n = allocations_in(|| {
        for _ in 0..200 {
            by.blender.blend(&tube.skin, tube.skin.shape(), Palette::Lbs(&palette), &mut out, &mut []);
        }
    });
    assert_eq!(n, 0, "{n} allocations in 200 parallel blends from a thread of the pool");

    // The controls, last, so the threads of this other pool end after the counts above: the counter
    // sees the threads of a pool, and a job handed to one that allocates there is counted.
    let outside = ThreadPoolBuilder::new().num_threads(2).build().expect("a pool");
    let spawned = allocations_in(|| outside.install(|| drop(std::hint::black_box(vec![1u8; 64]))));
    assert!(spawned >= 1, "an allocation on a pool thread was not counted");

    // A pool used from outside its threads allocates now and then: 1,000 hand-overs of no work.
    let from_outside = allocations_in(|| {
        for _ in 0..1000 {
            outside.install(|| std::hint::black_box(()));
        }
    });
    // docs/14-every-core.md quotes this count:
    // `cargo test --test parallel_allocations -- --nocapture` shows it.
    eprintln!("a pool used from outside: {from_outside} allocations in 1,000 hand-overs");
    assert!(from_outside > 0, "rayon no longer allocates for outside work: parallel.rs says it does");
}
