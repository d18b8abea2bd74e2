//! The figures of chapter 18 worked out again: the legs of the walking figure (`tests/walker.gltf`)
//! and of the stocky one with the same names (`tests/stocky.gltf`), their ratio and the stride it
//! gives, by the library's `leg_length` and `retarget_clip`; and the same for a copy of the walker
//! twice its size.

use super::format::fixed;
use super::{Facts, Work};
use crate::markdown::root;
use glam::{Mat4, Quat, Vec3};
use skinning_method::clip::Clip;
use skinning_method::retarget::{Matching, leg_length, retarget_clip};
use skinning_method::root_motion::hips;
use skinning_method::skeleton::{Skeleton, SkeletonBuilder};
use skinning_method::transform::Trs;

pub const COMPUTED: [Work; 2] = [("18-legs", legs), ("18-exercise-twice", twice)];

fn load(name: &str) -> (Skeleton, Vec<Clip>) {
    let imported = skinning_formats::gltf_import::load(&root().join("tests").join(name)).expect("a test rig");
    (imported.model.skeleton, imported.clips)
}

/// `skeleton` with every rest translation `size` times as long.
fn scaled(skeleton: &Skeleton, size: f32) -> Skeleton {
    let mut b = SkeletonBuilder::new();
    for bone in skeleton.bones() {
        b.bone_with(bone.name.clone(), Trs { translation: bone.rest.translation * size, ..bone.rest });
    }
    for (i, bone) in skeleton.bones().iter().enumerate() {
        if let Some(child) = bone.first_child {
            b.set_first_child(i, child);
        }
        if let Some(sibling) = bone.sibling {
            b.set_sibling(i, sibling);
        }
    }
    b.build().expect("the same tree")
}

/// Where the carried Walk puts the target's hips along its front, half way through its loop.
fn stride(source: &Skeleton, walk: &Clip, target: &Skeleton) -> (f32, f32) {
    let (s, t) = (hips(source).expect("hips"), hips(target).expect("hips"));
    let ratio = leg_length(target, t, Vec3::Y) / leg_length(source, s, Vec3::Y);
    let same: Vec<Option<usize>> = (0..target.len()).map(Some).collect();
    let carried = retarget_clip(
        source,
        walk,
        target,
        &Matching { source_of: same, hips: Some((t, s)), ratio, turn: Quat::IDENTITY },
    );
    let mut local = vec![Trs::IDENTITY; target.len()];
    carried.sample(target, 0.5, &mut local);
    let matrices: Vec<Mat4> = local.iter().map(Trs::to_mat4).collect();
    let mut world = vec![Mat4::IDENTITY; target.len()];
    target.compute_world(&matrices, &mut world);
    (ratio, world[t].w_axis.z)
}

/// The walker's and the stocky figure's legs, and the stocky hips half way through the Walk.
fn legs() -> Facts {
    let (walker, clips) = load("walker.gltf");
    let (stocky, _) = load("stocky.gltf");
    let walk = clips.iter().find(|c| c.name == "Walk").expect("a Walk");
    let length = |s: &Skeleton| leg_length(s, hips(s).expect("hips"), Vec3::Y) as f64;
    let (a, b) = (length(&walker), length(&stocky));
    let (ratio, z) = stride(&walker, walk, &stocky);
    assert!((ratio as f64 - b / a).abs() < 1e-6);
    Ok(vec![
        format!("legs {} long", fixed(a, 4)),
        format!("legs {} long", fixed(b, 4)),
        format!("{} / {} = {}", fixed(b, 4), fixed(a, 4), fixed(ratio as f64, 4)),
        format!("z = {}", fixed(z as f64, 4)),
    ])
}

/// Exercise 1: the walker onto itself twice its size.
fn twice() -> Facts {
    let (walker, clips) = load("walker.gltf");
    let walk = clips.iter().find(|c| c.name == "Walk").expect("a Walk");
    let big = scaled(&walker, 2.0);
    let length = leg_length(&big, hips(&big).expect("hips"), Vec3::Y) as f64;
    let (ratio, z) = stride(&walker, walk, &big);
    Ok(vec![
        format!("legs {} long", fixed(length, 4)),
        format!("ratio {}", fixed(ratio as f64, 4)),
        format!("z = {}", fixed(z as f64, 4)),
    ])
}
