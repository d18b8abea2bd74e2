//! GPU skinning at its limit: a skin of `MAX_GPU_JOINTS` joints, blended by both shaders, equals the
//! CPU's blends; one joint more is refused. These run the shaders directly (transform feedback), so
//! they need EGL: without it they print SKIPPED, unless `SKINNING_REQUIRE_GL` is set (as in CI).

use crate::demo::draw::gpu_skin::GpuSkin;
use crate::demo::model::gpu_fit::MAX_GPU_JOINTS;
use crate::demo::platform::headless::offscreen;
use glam::{Quat, Vec3, Vec3A, vec3};
use skinning_fast::fast_path::FastPath;
use skinning_formats::material::Looks;
use skinning_method::frame::{Blending, Frame, Pose, Still};
use skinning_method::lbs_or_dqs::{ByMethod, Method};
use skinning_method::model::Model;
use skinning_method::skeleton::{SkeletonBuilder, compute_offsets};
use skinning_method::skin::{Influence, Joint, Skin};

/// A root and `joints - 1` spokes around it, every bone a joint; every vertex sits near one spoke
/// and is moved by it and the next three, so every joint index up to the last is read.
fn fan(joints: usize) -> Model {
    let mut b = SkeletonBuilder::new();
    b.bone("root", Vec3::ZERO);
    for i in 1..joints {
        let angle = i as f32 * std::f32::consts::TAU / (joints - 1) as f32;
        b.bone(&format!("spoke{i}"), 0.5 * vec3(angle.cos(), angle.sin(), 0.0));
    }
    b.set_first_child(0, 1);
    for i in 2..joints {
        b.set_sibling(i - 1, i);
    }
    let skeleton = b.build().expect("a fan is a tree");
    let rest = skeleton.rest_world();
    let offsets = compute_offsets(&rest);
    let joints_list = offsets.into_iter().enumerate().map(|(bone, offset)| Joint { bone, offset }).collect();
    let mut skin = Skin::new(joints_list);
    let w = |joint, weight| Influence { joint, weight };
    for (j, world) in rest.iter().enumerate() {
        let near = world.transform_point3(vec3(0.05, 0.02, 0.01));
        let four = [w(j, 0.4), w((j + 1) % joints, 0.3), w((j + 2) % joints, 0.2), w((j + 3) % joints, 0.1)];
        skin.add_vertex(near, &four).expect("valid weights");
    }
    // And one vertex on the last joint alone.
    skin.add_vertex(rest[joints - 1].transform_point3(vec3(0.1, 0.0, -0.1)), &[w(joints - 1, 1.0)])
        .expect("valid");
    // Normals turning from vertex to vertex, none along an axis.
    let normals: Vec<Vec3> =
        (0..skin.len()).map(|i| vec3((i as f32 * 0.7).cos(), 0.5, (i as f32 * 0.7).sin())).collect();
    skin.set_normals(&normals).expect("directions");
    Model::new(skeleton, skin, vec![]).expect("sizes match")
}

/// An offscreen context, or None (after saying SKIPPED) on a machine without EGL.
fn context() -> Option<(glutin::api::egl::context::PossiblyCurrentContext, glow::Context)> {
    match offscreen(1, 1, false) {
        Ok(context) => Some(context),
        Err(failure) if failure.code == 3 && std::env::var_os("SKINNING_REQUIRE_GL").is_none() => {
            eprintln!("SKIPPED (no EGL / OpenGL; set SKINNING_REQUIRE_GL=1 to fail instead): {failure}");
            None
        }
        Err(failure) => panic!("no offscreen OpenGL context: {failure}"),
    }
}

#[test]
fn a_skin_of_max_gpu_joints_blends_on_the_gpu_as_on_the_cpu() {
    let Some((_context, gl)) = context() else { return };
    let model = fan(MAX_GPU_JOINTS);
    assert_eq!(model.skin.joints().len(), 256);
    let mut gpu = GpuSkin::new(&gl, &model, &[], &Looks::default()).expect("256 joints fit");
    let mut pose = Pose::new(&model);
    // Every bone turned its own way, some past a half turn, so DQS's sign flip is exercised.
    for (i, bend) in pose.bend.iter_mut().enumerate() {
        let axis = vec3(1.0, (i % 7) as f32, 2.0).normalize();
        *bend = Quat::from_axis_angle(axis, 0.02 * i as f32);
    }
    let mut on_gpu = vec![Vec3A::ZERO; model.skin.len()];
    let mut normals_on_gpu = vec![Vec3A::ZERO; model.skin.len()];
    for method in [Method::Lbs, Method::Dqs] {
        // The CPU's blend as the program runs it: the fast path, by the method.
        let mut by = ByMethod::new(method, FastPath::new());
        let blending = Blending::Skin { by: &mut by, normals: true };
        pose.run(&model, Frame { blending, ..Frame::new(&Still, 0.0) }).expect("rigid joints");
        let palette = by.palette(method, &pose.palette).expect("the skinner blended by it");
        gpu.capture(&gl, palette, &mut on_gpu, &mut normals_on_gpu).expect("transform feedback");
        let largest = |cpu: &[Vec3A], gpu: &[Vec3A]| {
            cpu.iter().zip(gpu).map(|(c, g)| (*c - *g).abs().max_element()).fold(0.0, f32::max)
        };
        let (positions, normals) = (largest(&pose.skinned, &on_gpu), largest(&pose.normals, &normals_on_gpu));
        println!(
            "{} over {} joints: largest CPU/GPU difference {positions:e}, normals {normals:e}",
            method.name(),
            MAX_GPU_JOINTS
        );
        assert!(positions <= 1e-5, "{}: CPU and GPU differ by {positions}", method.name());
        assert!(normals <= 1e-5, "{}: CPU and GPU normals differ by {normals}", method.name());
        // The last vertex rides joint 255 alone: it moved, so the shader read the end of the buffer.
        let last = model.skin.len() - 1;
        let bind = model.skin.bind()[last];
        assert!(
            (on_gpu[last] - bind).length() > 0.05,
            "{}: joint 255 did not move its vertex",
            method.name()
        );
    }
    gpu.delete(&gl);
}

#[test]
fn one_joint_past_the_limit_is_refused_by_the_gpu_skin() {
    let Some((_context, gl)) = context() else { return };
    let Err(e) = GpuSkin::new(&gl, &fan(MAX_GPU_JOINTS + 1), &[], &Looks::default()) else {
        panic!("257 joints cannot fit")
    };
    assert!(e.to_string().contains("at most 256 joints"), "{e}");
}
