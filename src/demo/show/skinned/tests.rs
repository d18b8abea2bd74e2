//! The skinned layer's choices: what each blends, draws and refuses.

use super::*;
use crate::demo::model::gpu_fit::MAX_GPU_INFLUENCES;
use crate::demo::model::gpu_fit::{MAX_GPU_JOINTS, fits_driver, fits_gpu};
use glam::{Mat4, Vec3};
use skinning_fast::parallel::BlendThreads;
use skinning_method::scene;

fn article() -> (Model, Pose) {
    let model = scene::article().expect("the article's scene is valid");
    let mut pose = Pose::new(&model);
    let twist = scene::twist().expect("the twist clip");
    pose.run(&model, Frame::new(&twist, 1.5).palette_only()).expect("linear blending takes any palette");
    (model, pose)
}

/// The frame of `pose` as it is held at 1.5 s, blended by `method` on the program's fast path, one
/// thread, normals included.
fn held_by(model: &Model, pose: &Pose, method: Method) -> (Pose, ByMethod<FastPath>) {
    let (mut blended, mut by) = (pose.clone(), ByMethod::new(method, FastPath::new()));
    blended.run(model, Frame { blending: by.ending(), ..Frame::new(&Still, 1.5) }).expect("rigid");
    (blended, by)
}

#[test]
fn each_choice_blends_what_it_draws() {
    let (model, pose) = article();
    let ((lbs, _), (dqs, dqs_by)) =
        (held_by(&model, &pose, Method::Lbs), held_by(&model, &pose, Method::Dqs));
    assert_ne!(lbs.skinned, dqs.skinned, "at 150 degrees the two methods differ");
    // Every skin on two threads, even these 13 vertices: the same numbers as one thread's.
    let threads = BlendThreads::new(2).expect("two threads").parallel_from(0);
    let mut layer = SkinnedLayer::new(&model, Skinning::Cpu, Methods::Lbs);
    layer.skinner.blender = FastPath::new().on(threads);
    let surface = Shown { surface: true, normal_lines: false };
    let normal_lines = Shown { surface: false, normal_lines: true };
    for ((skinning, method), shown) in [Skinning::Cpu, Skinning::Gpu, Skinning::Both]
        .into_iter()
        .flat_map(|s| [Methods::Lbs, Methods::Dqs, Methods::Both].map(|m| (s, m)))
        .flat_map(|choice| [Shown::default(), surface, normal_lines].map(|shown| (choice, shown)))
    {
        // As the demo's frame does: the frame the layer asks for (compare mode's second blend
        // included), then its finish.
        (layer.skinning, layer.method) = (skinning, method);
        let mut p = pose.clone();
        let blending = layer.ending(shown);
        let result = p.run(&model, Frame { blending, ..Frame::new(&Still, 1.5) });
        assert!(!layer.finish(&mut p, &model, result, 1.5, shown), "rigid: {method:?} stays");
        let compared = layer.skinner.compared();
        // The CPU blends what it draws, and what the normals layer starts from.
        let cpu = skinning != Skinning::Gpu || shown.normal_lines;
        // It moves the normals for the surface it draws, and for the normals layer.
        let normals_moved = (skinning != Skinning::Gpu && shown.surface) || shown.normal_lines;
        let expected_normals = match (normals_moved, method) {
            (false, _) => &pose.normals,
            (true, Methods::Dqs) => &dqs.normals,
            (true, _) => &lbs.normals,
        };
        assert_eq!(&p.normals, expected_normals, "{skinning:?} {method:?} {shown:?}");
        let expected = if !cpu {
            &pose.skinned
        } else if method == Methods::Dqs {
            &dqs.skinned
        } else {
            &lbs.skinned
        };
        assert_eq!(&p.skinned, expected, "{skinning:?} {method:?}");
        let compared_expected = (cpu && method == Methods::Both).then_some(&dqs.skinned[..]);
        assert_eq!(compared, compared_expected, "{skinning:?} {method:?}");
        // The DQS palette is ready whenever a layer reads it (the GPU's, made after the frame).
        if method != Methods::Lbs {
            let joints =
                |by: &ByMethod<FastPath>| by.dq().expect("this frame's dual quaternions").joints.clone();
            assert_eq!(joints(&layer.skinner), joints(&dqs_by), "{skinning:?} {method:?}");
        }
        let l = layers(&p, &layer.skinner, skinning, method, true);
        let drawn = (l.cpu.is_some(), l.cpu_compared.is_some(), l.gpu.is_some(), l.gpu_compared.is_some());
        let compare = method == Methods::Both;
        let (cpu_draws, gpu) = (skinning != Skinning::Gpu, skinning != Skinning::Cpu);
        assert_eq!(drawn, (cpu_draws, cpu_draws && compare, gpu, gpu && compare), "{skinning:?} {method:?}");
        if gpu {
            let first_is_dqs = matches!(l.gpu, Some(Palette::Dqs { .. }));
            assert_eq!(first_is_dqs, method == Methods::Dqs, "{skinning:?} {method:?}");
        }
        assert!(matches!(l.gpu_compared, None | Some(Palette::Dqs { .. })));
        assert_eq!(l.gpu_color.is_some(), skinning == Skinning::Both);
        assert!(layers(&p, &layer.skinner, skinning, method, false).cpu.is_none());
    }
}

/// A chain of `bones` bones, one joint each, with one vertex on the last: a model of any size.
pub fn chain(bones: usize) -> Model {
    let mut b = skinning_method::skeleton::SkeletonBuilder::new();
    for i in 0..bones {
        b.bone(&format!("bone{i}"), Vec3::X);
        if i > 0 {
            b.set_first_child(i - 1, i);
        }
    }
    let skeleton = b.build().expect("a chain is a tree");
    let joints =
        (0..bones).map(|bone| skinning_method::skin::Joint { bone, offset: Mat4::IDENTITY }).collect();
    let on_last = [skinning_method::skin::Influence { joint: bones - 1, weight: 1.0 }];
    let skin = skinning_method::skin::Skin::from_table(joints, &[(Vec3::ZERO, &on_last[..])]).expect("valid");
    Model::new(skeleton, skin, vec![]).expect("sizes match")
}

#[test]
fn a_model_too_big_for_the_gpu_palette_stays_on_the_cpu() {
    assert!(fits_gpu(MAX_GPU_JOINTS).is_ok());
    let why = fits_gpu(MAX_GPU_JOINTS + 1).expect_err("one joint too many");
    assert!(why.contains("257") && why.contains("256") && !why.contains('\n'), "{why}");
    // At the limit G switches; one past it, G is refused with that line.
    assert_eq!(next_skinning(Skinning::Cpu, &chain(MAX_GPU_JOINTS), None), Ok(Skinning::Gpu));
    assert_eq!(next_skinning(Skinning::Cpu, &chain(MAX_GPU_JOINTS + 1), None), Err(why));
    assert_eq!(next_skinning(Skinning::Both, &chain(MAX_GPU_JOINTS + 1), None), Ok(Skinning::Cpu));
}

/// A fan of `influences` joints on one root, and one vertex moved by all of them, equally.
fn one_vertex_on(influences: usize) -> Model {
    let mut b = skinning_method::skeleton::SkeletonBuilder::new();
    for i in 0..influences {
        b.bone(&format!("bone{i}"), Vec3::X);
        if i > 0 {
            b.set_first_child(i - 1, i);
        }
    }
    let skeleton = b.build().expect("a chain is a tree");
    let joints =
        (0..influences).map(|bone| skinning_method::skin::Joint { bone, offset: Mat4::IDENTITY }).collect();
    // Eighths and ninths are exact enough: the weights sum to 1 within the skin's tolerance.
    let all: Vec<_> = (0..influences)
        .map(|joint| skinning_method::skin::Influence { joint, weight: 1.0 / influences as f32 })
        .collect();
    let skin = skinning_method::skin::Skin::from_table(joints, &[(Vec3::ZERO, &all[..])]).expect("valid");
    Model::new(skeleton, skin, vec![]).expect("sizes match")
}

#[test]
fn a_vertex_of_more_than_eight_influences_keeps_the_model_on_the_cpu() {
    // Eight fit the two attribute sets; nine do not, and G is refused with one line that says so.
    assert_eq!(next_skinning(Skinning::Cpu, &one_vertex_on(MAX_GPU_INFLUENCES), None), Ok(Skinning::Gpu));
    let nine = one_vertex_on(MAX_GPU_INFLUENCES + 1);
    let why = next_skinning(Skinning::Cpu, &nine, None).expect_err("nine influences");
    assert!(why.contains("at most 8") && why.contains("has 9") && !why.contains('\n'), "{why}");
    assert!(why.contains("--skinning cpu"), "{why}");
    assert_eq!(next_skinning(Skinning::Both, &nine, None), Ok(Skinning::Cpu));
}

#[test]
fn a_driver_with_small_uniform_blocks_refuses_only_the_gpu() {
    // OpenGL 3.3 and ES 3.0 promise blocks of 16 KiB: 256 matrices of 16 floats of 4 bytes.
    assert_eq!(fits_driver(16 * 1024), Ok(()));
    assert_eq!(fits_driver(64 * 1024), Ok(()));
    let why = fits_driver(16 * 1024 - 1).expect_err("one byte short");
    assert!(why.contains("16383 bytes") && why.contains("--skinning cpu") && !why.contains('\n'), "{why}");
    // The renderer hands that line to the demo: G then refuses the GPU with it, whatever the model,
    // and still comes back to the CPU; the CPU never needs the driver's blocks.
    let small = (chain(1), Some(why.as_str()));
    assert_eq!(next_skinning(Skinning::Cpu, &small.0, small.1), Err(why.clone()));
    assert_eq!(next_skinning(Skinning::Gpu, &small.0, small.1), Err(why.clone()));
    assert_eq!(next_skinning(Skinning::Both, &small.0, small.1), Ok(Skinning::Cpu));
}

#[test]
fn d_is_refused_when_a_joint_is_scaled() {
    let (model, mut pose) = article();
    assert_eq!(next_method(Methods::Lbs, &pose, &model, 1.5), Ok(Methods::Dqs));
    // bone31 stretched to twice its height: no dual quaternion holds that.
    pose.local[scene::BONE31].scale *= Vec3::new(1.0, 2.0, 1.0);
    pose.run(&model, Frame::new(&Still, 1.5)).expect("linear blending takes any palette");
    let why = next_method(Methods::Lbs, &pose, &model, 1.5).expect_err("scaled");
    assert!(why.contains("joint 3 (bone \"bone31\") is scaled by (1, 2, 1)"), "{why}");
    assert!(why.contains("1.50 s") && !why.contains('\n'), "{why}");
    // Back to LBS is always fine; and the frame's blend says the same.
    assert_eq!(next_method(Methods::Both, &pose, &model, 1.5), Ok(Methods::Lbs));
    let mut layer = SkinnedLayer::new(&model, Skinning::Cpu, Methods::Dqs);
    let e = pose.run(&model, Frame { blending: layer.ending(Shown::default()), ..Frame::new(&Still, 1.5) });
    let e = e.expect_err("scaled");
    assert_eq!(not_rigid(&e).map(|e| e.joint), Some(scene::BONE31));
}

#[test]
fn a_flat_surface_needs_no_normals_from_the_cpu_and_the_normals_layer_needs_the_cpu() {
    let (surface, both) =
        (Shown { surface: true, normal_lines: false }, Shown { surface: true, normal_lines: true });
    // The CPU's surface reads the normals the mesh brings; flat ones the fragment shader finds.
    assert_eq!(Cpu::for_frame(Skinning::Cpu, surface, false), Cpu { positions: true, normals: true });
    assert_eq!(Cpu::for_frame(Skinning::Cpu, surface, true), Cpu { positions: true, normals: false });
    // The GPU's surface skins its own; the normals layer is drawn from the CPU's numbers.
    assert_eq!(Cpu::for_frame(Skinning::Gpu, surface, false), Cpu { positions: false, normals: false });
    assert_eq!(Cpu::for_frame(Skinning::Gpu, both, true), Cpu { positions: true, normals: true });
}
