//! A frame that reaches allocates nothing, like every other frame (chapter 4): the chains are
//! made once, with room for their world transforms and the clip's rotations, and each solve
//! only writes into them.
//!
//! One test only: this program counts every thread's allocations together (`src/alloc_count.rs`),
//! and the test harness would run a second test beside it.

use glam::{Quat, Vec3};
use skinning::alloc_count::{self, Counting};
use skinning::model::Pose;
use skinning::reach::{self, Reach, Solver};
use skinning::scene;
use skinning::skin::blend;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn a_steady_frame_that_reaches_allocates_nothing() {
    let model = scene::article().expect("the article's scene");
    let clip = scene::bend().expect("the bend clip");
    let mut pose = Pose::new(&model);
    let two_bone = Solver::TwoBone { soften: 0.9 };
    let mut reaches = vec![
        Reach::new(&model.skeleton, scene::BONE31, two_bone, Vec3::new(0.3, 0.2, 0.0)).expect("a chain"),
        Reach::new(&model.skeleton, scene::BONE32, Solver::Ccd { bones: 3 }, Vec3::new(0.3, -0.2, 0.1))
            .expect("a chain"),
    ];
    reaches[0].pole = Some(Vec3::new(0.3, 0.0, 0.3));
    reaches[0].weight = 0.7;
    // A bend by hand too, as a right-drag would leave it.
    pose.bend[scene::BONE2] = Quat::from_rotation_z(0.3);
    let frame = |pose: &mut Pose, reaches: &mut [Reach], t: f64| {
        clip.sample(&model.skeleton, t, &mut pose.trs);
        reach::solve(reaches, &mut pose.trs, &pose.bend);
        pose.palette_from_trs(&model);
        blend(&model.skin, &pose.palette, &mut pose.skinned);
    };
    frame(&mut pose, &mut reaches, 0.0);
    let before = alloc_count::count();
    for f in 0..1000 {
        // The targets move too, as a drag would move them.
        reaches[0].target.x = 0.3 + 0.1 * (f as f32 * 0.01).sin();
        frame(&mut pose, &mut reaches, f as f64 / 60.0);
    }
    let allocations = alloc_count::count() - before;
    assert_eq!(allocations, 0, "{allocations} allocations in 1000 frames that reach");
    // And the frames did reach: the last chain solved is on its target (it turns bone1 and bone2,
    // which the first chain turned before it: a later chain has the last word).
    let off = pose.joint(scene::BONE32).distance(reaches[1].target);
    assert!(off < 1e-5, "bone32 is {off} from its target");
}
