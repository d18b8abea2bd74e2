//! A crowd's steady frames allocate nothing, on any thread; and the memory an extra character adds
//! is what `crowd::pose_bytes` says: the bytes the allocator hands out for one `Pose::new`.
//!
//! One test only, as in `tests/parallel_allocations.rs`: the counter counts every thread of this
//! test program together, and the harness would run two tests side by side.

use skinning_fast::alloc_count::{self, Counting};
use skinning_fast::crowd::{Crowd, Work, pose_bytes, spacing};
use skinning_fast::parallel::BlendThreads;
use skinning_fast::synthetic;
use skinning_method::clip::Clip;
use skinning_method::frame::Pose;
use skinning_method::model::Model;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The Fox and its Walk where the sample folder has it, else the crate's synthetic tube.
fn model() -> (Model, Clip) {
    match common::sample_model("Fox.glb") {
        Some(path) => {
            let fox = skinning_formats::gltf_import::load(&path).expect("the Fox loads");
            let walk = fox.clips.iter().find(|c| c.name == "Walk").expect("the Fox walks").clone();
            (fox.model, walk)
        }
        None => (synthetic::tube(24, 40, 12), synthetic::wave()),
    }
}

#[test]
fn steady_crowd_frames_allocate_nothing_and_a_character_costs_its_pose() {
    let (model, clip) = model();
    // What one more character adds to the heap: its pose, counted by the allocator.
    let held = alloc_count::held_bytes();
    let pose = Pose::new(&model);
    let added = alloc_count::held_bytes() - held;
    assert_eq!(added as usize, pose_bytes(&pose), "the allocator's count and pose_bytes");
    drop(pose);

    // The program's road: this thread in a pool of two, the characters jobs on both.
    let threads = BlendThreads::new(2).expect("two threads").parallel_from(0);
    let mut crowd = Crowd::on_grid(&model, 100, spacing(&model), clip.duration as f64);
    let before = alloc_count::count();
    for f in 0..30 {
        let work = [Work::BlendAndNormals, Work::Blend, Work::Palette][f % 3];
        crowd.run(&model, &clip, f as f64 / 60.0, work, &threads);
    }
    let n = alloc_count::count() - before;
    assert_eq!(n, 0, "{n} allocations in 30 frames of 100 characters on two threads");
    // And on this thread alone.
    let one = BlendThreads::one();
    let before = alloc_count::count();
    for f in 0..10 {
        crowd.run(&model, &clip, f as f64 / 60.0, Work::BlendAndNormals, &one);
    }
    assert_eq!(alloc_count::count() - before, 0, "allocations on one thread");
    // The frames ran: the last character is not in its rest pose.
    let last = &crowd.characters[99].pose;
    let rest = Pose::new(&model);
    assert_ne!(last.skinned, rest.skinned, "the crowd moved");
}
