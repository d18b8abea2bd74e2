//! The `seed` clip against an independent re-implementation of the article's own code: bare
//! coordinates, `ComputeWorldPos` and `BlendVertex`, no matrices, no code shared with the library.

use glam::Vec3;
use skinning_method::frame::Pose;
use skinning_method::scene;

/// The article's `Bone`: a position in the parent's space and a world position.
struct Bone {
    x: f32,
    y: f32,
    z: f32,
    wx: f32,
    wy: f32,
    wz: f32,
    sibling: Option<usize>,
    first_child: Option<usize>,
}

fn bone(x: f32, y: f32, first_child: Option<usize>, sibling: Option<usize>) -> Bone {
    Bone { x, y, z: 0.0, wx: 0.0, wy: 0.0, wz: 0.0, sibling, first_child }
}

/// `ComputeWorldPos(fatherWX, fatherWY, fatherWZ)`, word for word.
fn compute_world_pos(bones: &mut [Bone], b: usize, fx: f32, fy: f32, fz: f32) {
    bones[b].wx = fx + bones[b].x;
    bones[b].wy = fy + bones[b].y;
    bones[b].wz = fz + bones[b].z;
    if let Some(s) = bones[b].sibling {
        compute_world_pos(bones, s, fx, fy, fz);
    }
    if let Some(c) = bones[b].first_child {
        let (wx, wy, wz) = (bones[b].wx, bones[b].wy, bones[b].wz);
        compute_world_pos(bones, c, wx, wy, wz);
    }
}

/// The article's scene at time `t` of the seed motion, blended the article's way.
fn article_at(t: f64) -> Vec<[f32; 3]> {
    // buildBones: root, bone1, bone2, bone31, bone32 (indices 0..4).
    let mut bones = vec![
        bone(0.0, 0.0, Some(1), None),
        bone(0.2, 0.0, Some(2), None),
        bone(0.2, 0.0, Some(3), None),
        bone(0.2, 0.1, None, Some(4)),
        bone(0.2, -0.1, None, None),
    ];
    // ComputeBoneOffset: minus the bind world position.
    compute_world_pos(&mut bones, 0, 0.0, 0.0, 0.0);
    let offsets: Vec<[f32; 3]> = bones.iter().map(|b| [-b.wx, -b.wy, -b.wz]).collect();

    // animateBones, by time: bone1.y sweeps [-0.2, 0.2] every 4 s starting downwards; bone32.x
    // sweeps [0, 0.2] every 2 s starting at 0.2, downwards.
    let phase = |period: f64| 2.0 * std::f64::consts::PI * t / period;
    bones[1].y = (-0.2 * phase(4.0).sin()) as f32;
    bones[4].x = (0.1 + 0.1 * phase(2.0).cos()) as f32;
    compute_world_pos(&mut bones, 0, 0.0, 0.0, 0.0);

    // buildMesh's _meshData and _skinInfo (bone ids 0, 1, 2, 31, 32 -> indices 0..4).
    let mesh = [
        [-0.1, 0.05, 0.0],
        [0.1, 0.05, 0.0],
        [0.3, 0.05, 0.0],
        [0.45, 0.06, 0.0],
        [0.6, 0.15, 0.0],
        [0.65, 0.1, 0.0],
        [0.5, 0.0, 0.0],
        [0.65, -0.1, 0.0],
        [0.6, -0.15, 0.0],
        [0.45, -0.06, 0.0],
        [0.3, -0.05, 0.0],
        [0.1, -0.05, 0.0],
        [-0.1, -0.05, 0.0],
    ];
    let skin: [&[(usize, f32)]; 13] = [
        &[(0, 1.0)],
        &[(0, 0.5), (1, 0.5)],
        &[(1, 0.5), (2, 0.5)],
        &[(2, 0.3), (3, 0.7)],
        &[(2, 0.2), (3, 0.8)],
        &[(3, 1.0)],
        &[(3, 0.5), (4, 0.5)],
        &[(4, 1.0)],
        &[(2, 0.2), (4, 0.8)],
        &[(2, 0.3), (4, 0.7)],
        &[(1, 0.5), (2, 0.5)],
        &[(0, 0.5), (1, 0.5)],
        &[(0, 1.0)],
    ];

    // BlendVertex: for each bone, (vertex + offset + bone world) * weight, summed.
    mesh.iter()
        .zip(skin)
        .map(|(v, influences)| {
            let mut out = [0.0f32; 3];
            for &(b, w) in influences {
                let world = [bones[b].wx, bones[b].wy, bones[b].wz];
                for k in 0..3 {
                    out[k] += (v[k] + offsets[b][k] + world[k]) * w;
                }
            }
            out
        })
        .collect()
}

#[test]
fn the_seed_clip_matches_the_articles_arithmetic() {
    let model = scene::article().expect("the article's scene");
    let clip = scene::seed();
    let mut pose = Pose::new(&model);
    for t in [0.0, 0.3, 1.0, 1.7, 2.5, 3.0, 3.9, 4.0, 11.25, 1000.1] {
        pose.update(&model, &clip, t);
        let expected = article_at(t);
        for (i, (got, want)) in pose.skinned.iter().zip(&expected).enumerate() {
            assert!(
                Vec3::from(*got).abs_diff_eq(Vec3::from(*want), 2e-5),
                "t = {t}, vertex {i}: {got} vs {want:?}"
            );
        }
    }
}

#[test]
fn the_seed_clip_reaches_the_articles_limits() {
    // bone1 goes down to -0.2 at t = 1 s and up to 0.2 at t = 3 s; bone32 is at x = 0 at t = 1 s.
    let model = scene::article().expect("the article's scene");
    let clip = scene::seed();
    let mut pose = Pose::new(&model);
    pose.update(&model, &clip, 1.0);
    assert!(pose.joint(scene::BONE1).abs_diff_eq(Vec3::new(0.2, -0.2, 0.0), 1e-6));
    assert!(pose.joint(scene::BONE32).abs_diff_eq(Vec3::new(0.4, -0.3, 0.0), 1e-6));
    pose.update(&model, &clip, 3.0);
    assert!(pose.joint(scene::BONE1).abs_diff_eq(Vec3::new(0.2, 0.2, 0.0), 1e-6));
}
