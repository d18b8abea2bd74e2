//! A steady frame allocates nothing: not the method (pose + blend), not the upload and draw.
//!
//! Allocating is slow and unpredictable (a lock, maybe a system call, memory that grows), so a
//! frame loop should allocate once, at start-up, and reuse its buffers every frame after. `Pose`
//! is built that way; these tests hold it to it. This test program's global allocator counts the
//! allocations each thread makes (per thread, because the test harness runs tests side by side).

use skinning_fast::fast_path::FastPath;
use skinning_fast::synthetic;
use skinning_method::frame::{Blending, Frame, Pose};
use skinning_method::lbs_or_dqs::{ByMethod, Method, Reference};
use skinning_method::scene;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    // A const-initialised `Cell` needs no allocation and no destructor, so the allocator may use it.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    ALLOCATIONS.with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is passed straight to `System`, which upholds the `GlobalAlloc` contract.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same layout contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same layout contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: `ptr` came from this allocator with `layout`, as the caller guarantees.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator with `layout`, as the caller guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// How many allocations this thread makes while running `f`.
fn allocations_in(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn the_counter_sees_allocations() {
    // Without this, a counter that never counts would make the other tests pass for nothing.
    let n = allocations_in(|| {
        let v: Vec<u64> = std::hint::black_box(Vec::with_capacity(8));
        drop(v);
    });
    assert_eq!(n, 1);
}

#[test]
fn a_steady_frame_of_the_article_allocates_nothing() {
    let model = scene::article().expect("the article's scene");
    let clips = scene::clips().expect("the article's clips");
    let mut pose = Pose::new(&model);
    // Warm up: one frame of every clip.
    for clip in &clips {
        pose.update(&model, clip, 0.0);
    }
    // Then a thousand frames of each clip, across several loops of it, at 60 frames a second.
    let n = allocations_in(|| {
        for clip in &clips {
            for frame in 0..1000 {
                pose.update(&model, clip, frame as f64 / 60.0);
            }
        }
    });
    assert_eq!(n, 0, "{n} allocations in 3000 frames of pose + blend");
    // And the frames did run: the last one is the twist clip at 999/60 s, bone2 turned by 65 degrees.
    let moved =
        pose.skinned.iter().zip(model.skin.bind_positions()).any(|(s, b)| b.distance((*s).into()) > 0.01);
    assert!(moved, "the last frame should not be the bind pose");
}

#[test]
fn a_steady_dual_quaternion_frame_allocates_nothing() {
    // The dual-quaternion palette (the skinner's, `ByMethod`) and the DQS blend reuse their
    // buffers like the rest, from the skinner's first frame on.
    let model = scene::article().expect("the article's scene");
    let clips = scene::clips().expect("the article's clips");
    let tube = synthetic::tube(64, 250, 16);
    let wave = synthetic::wave();
    let (mut pose, mut tube_pose) = (Pose::new(&model), Pose::new(&tube));
    let (mut by, mut tube_by) =
        (ByMethod::new(Method::Dqs, Reference), ByMethod::new(Method::Dqs, Reference));
    for clip in &clips {
        pose.run(&model, Frame { blending: by.ending(), ..Frame::new(clip, 0.0) }).expect("rigid");
    }
    tube_pose.run(&tube, Frame { blending: tube_by.ending(), ..Frame::new(&wave, 0.0) }).expect("rigid");
    let n = allocations_in(|| {
        for clip in &clips {
            for frame in 0..1000 {
                let frame = Frame { blending: by.ending(), ..Frame::new(clip, frame as f64 / 60.0) };
                pose.run(&model, frame).expect("rigid");
            }
        }
        for frame in 0..20 {
            let frame = Frame { blending: tube_by.ending(), ..Frame::new(&wave, frame as f64 * 0.1) };
            tube_pose.run(&tube, frame).expect("rigid");
        }
    });
    assert_eq!(n, 0, "{n} allocations in 3020 frames of pose + DQS blend");
    let moved =
        pose.skinned.iter().zip(model.skin.bind_positions()).any(|(s, b)| b.distance((*s).into()) > 0.01);
    assert!(moved, "the last frame should not be the bind pose");
}

#[test]
fn a_steady_frame_of_a_big_mesh_allocates_nothing() {
    // 64 bones, 16,000 vertices: the cost does not grow allocations either.
    let model = synthetic::tube(64, 1000, 16);
    let wave = synthetic::wave();
    let mut pose = Pose::new(&model);
    pose.update(&model, &wave, 0.0);
    let n = allocations_in(|| {
        for frame in 0..20 {
            pose.update(&model, &wave, frame as f64 * 0.1);
        }
    });
    assert_eq!(n, 0, "{n} allocations in 20 frames of a 16,000-vertex tube");
}

#[test]
fn the_headless_demo_draws_steady_frames_without_allocating() {
    // The whole frame of the program, upload and draw included, counted by its own allocator, with
    // each blend method (GPU skinning is counted in tests/gpu.rs); the words are on (the corner line
    // changes every frame), and with the vertex inspector and its labels too, or off.
    let runs: [&[&str]; 7] = [
        &["--method", "lbs"],
        &["--method", "dqs"],
        &["--method", "both"],
        &["--inspect", "2", "--method", "both"],
        &["--no-text"],
        // Several clips at once, their rows in the corner line (chapter 11).
        &["--blend", "bend=0.5,twist=0.5", "--sync", "--mask", "seed@bone2=0.5", "--additive", "twist=0.3"],
        // A walk carried on over its loops, the floor's grid under it and the camera following
        // (chapter 17).
        &["--model", "tests/walker.gltf", "--root-motion", "on"],
    ];
    for extra in runs {
        let args = ["--headless", "--frames", "200", "--fixed-dt", "0.016", "--stats"];
        let Some(out) = common::run_gl(&[&args[..], extra].concat()) else { return };
        check_no_allocations(&out, &extra.join(" "));
    }
}

fn check_no_allocations(out: &std::process::Output, flags: &str) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().find(|l| l.starts_with("stats:")).expect("--stats prints a stats line");
    let (before, _) = line.split_once(" allocations drawing frames").expect("the line counts allocations");
    let n: u64 = before.rsplit(' ').next().and_then(|n| n.parse().ok()).expect("a count before it");
    assert_eq!(n, 0, "{flags}: the headless demo allocated while drawing: {line}");
    assert!(line.contains("drawing frames 4..200"), "counted over the frames after warm-up: {line}");
}

#[test]
fn a_steady_frame_of_a_loaded_model_allocates_nothing() {
    // The test's own glTF file (three skins, a rigid mesh, cubic and step keys), the eight-influence
    // fan (every vertex blended by the second pass too), and the Fox when
    // SKINNING_MODELS names the sample models; blended by the readable loops (`Pose::update`) and
    // by the program's fast path on one thread.
    let mut models = vec![("built", common::fixture::build().glb()), ("eight", common::eight::eight().glb())];
    if let Some(path) = common::sample_model("Fox.glb") {
        models.push(("Fox", std::fs::read(path).expect("Fox.glb reads")));
    }
    for (name, bytes) in models {
        let imported = skinning_formats::gltf_import::load_from_slice(&bytes, None).expect("loads");
        let model = &imported.model;
        let (mut pose, mut fast_pose, mut fast) = (Pose::new(model), Pose::new(model), FastPath::new());
        let mut frame = |clip, t| {
            pose.update(model, clip, t);
            let blending = Blending::Skin { by: &mut fast, normals: true };
            fast_pose
                .run(model, Frame { blending, ..Frame::new(clip, t) })
                .expect("linear blending takes any palette");
        };
        for clip in &imported.clips {
            frame(clip, 0.0);
        }
        let n = allocations_in(|| {
            for clip in &imported.clips {
                for f in 0..300 {
                    frame(clip, f as f64 / 60.0);
                }
            }
        });
        assert_eq!(n, 0, "{name}: {n} allocations in pose + blend, readable and fast");
    }
}

#[test]
fn a_steady_frame_of_several_clips_allocates_nothing() {
    // The mixer moves to each frame's time, then poses bone by bone into the frame's pose: two
    // clips in step, a masked one and an additive one, on the article's scene and on the Fox.
    use skinning_method::mixer::mask::Mask;
    use skinning_method::mixer::{Kind, Layer, Mixer};
    let mut models = vec![(scene::article().expect("valid"), scene::clips().expect("valid"))];
    if let Some(path) = common::sample_model("Fox.glb") {
        let fox = skinning_formats::gltf_import::load(&path).expect("loads");
        models.push((fox.model, fox.clips));
    }
    for (model, clips) in models {
        let skeleton = &model.skeleton;
        let layers = vec![
            Layer::new(Kind::Blend, 0, 0.4),
            Layer::new(Kind::Blend, 1, 0.6),
            Layer::new(Kind::Masked(Mask::new(skeleton, skeleton.len() / 2)), 2, 0.5),
            Layer::new(Kind::additive(&clips[2], skeleton), 2, 0.3),
        ];
        let mut mixer = Mixer::new(clips.into(), layers, true);
        let mut pose = Pose::new(&model);
        let mut frame = |time: f64| {
            mixer.advance_to(time);
            pose.run(&model, Frame::new(&mixer, time)).expect("linear blending takes any palette");
        };
        frame(0.0);
        let n = allocations_in(|| (0..600).for_each(|f| frame(f as f64 / 60.0)));
        assert_eq!(n, 0, "{n} allocations in 600 frames of four layers");
    }
}

#[test]
fn a_steady_frame_that_reaches_allocates_nothing() {
    // Chapter 12: the chains are made once, with room for their world transforms and the clip's
    // rotations; each solve only writes into them. Two chains (two-bone with a pole and a weight,
    // CCD on three bones), a bend by hand, and a target that moves every frame.
    use glam::{Quat, Vec3};
    use skinning_method::reach::{Reach, Solver};
    let model = scene::article().expect("the article's scene");
    let clip = scene::bend().expect("the bend clip");
    let mut pose = Pose::new(&model);
    let two_bone = Solver::TwoBone { soften: 0.9 };
    let mut reaches = vec![
        Reach::new(&model.skeleton, scene::BONE31, two_bone, Vec3::new(0.3, 0.2, 0.0)).expect("a chain"),
        Reach::new(&model.skeleton, scene::BONE32, Solver::Ccd { bones: 3 }, Vec3::new(0.3, -0.2, 0.1))
            .expect("a chain"),
    ];
    (reaches[0].pole, reaches[0].weight) = (Some(Vec3::new(0.3, 0.0, 0.3)), 0.7);
    pose.bend[scene::BONE2] = Quat::from_rotation_z(0.3);
    let frame = |pose: &mut Pose, reaches: &mut [Reach], t: f64| {
        let mut reaches = reaches;
        let adjust = Some(&mut reaches as &mut dyn skinning_method::frame::Adjust);
        pose.run(&model, Frame { adjust, ..Frame::new(&clip, t) })
            .expect("linear blending takes any palette");
    };
    frame(&mut pose, &mut reaches, 0.0);
    let n = allocations_in(|| {
        for f in 0..1000 {
            reaches[0].target.x = 0.3 + 0.1 * (f as f32 * 0.01).sin();
            frame(&mut pose, &mut reaches, f as f64 / 60.0);
        }
    });
    assert_eq!(n, 0, "{n} allocations in 1000 frames that reach");
    // And they did reach: the last chain solved is on its target (it turns bone1 and bone2, which
    // the first chain turned before it: a later chain has the last word).
    let off = pose.joint(scene::BONE32).distance(reaches[1].target);
    assert!(off < 1e-5, "bone32 is {off} from its target");
}
