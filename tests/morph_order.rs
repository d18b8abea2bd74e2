//! The order matters: on the robot's face (RobotExpressive, the three.js robot), the morph added
//! after the skin instead of before it puts vertices elsewhere, as soon as the head has turned.
//! Every clip, 60 times through each, each face target fully on in turn: the largest distance
//! between the spec's order (the shape, then the skin) and the wrong one (the skin, then the
//! displacement added as it was modelled). Chapter 13 quotes what this prints.

use glam::{Vec3, Vec3A};
use skinning_formats::gltf_import::load;
use skinning_method::blend::{Linear, blend_run};
use skinning_method::frame::{Frame, Pose};
use skinning_method::morph::Morphed;

#[test]
fn the_wrong_order_moves_the_robots_face() {
    let Some(path) = common::sample_model("RobotExpressive.glb") else { return };
    let imported = load(&path).expect("the robot loads");
    let model = &imported.model;
    let size = {
        let (lo, hi) = model
            .skin
            .bind_positions()
            .fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| (lo.min(p), hi.max(p)));
        lo.distance(hi)
    };
    let (mut pose, mut morphed) = (Pose::new(model), Morphed::new(&model.skin, &imported.morphs));
    // (distance, clip, time, mesh, target)
    let mut worst = (0.0f32, String::new(), 0.0f32, String::new(), String::new());
    // The longest displacement of any target: the bound on how far the two orders part.
    let mut longest = 0.0f32;
    for clip in &imported.clips {
        for i in 0..60 {
            let t = clip.duration * i as f32 / 60.0;
            pose.run(model, Frame::new(clip, t as f64).palette_only())
                .expect("linear blending takes any palette");
            for morph in &imported.morphs {
                let (mut right, mut skinned) =
                    (vec![Vec3A::ZERO; morph.vertices.len()], vec![Vec3A::ZERO; morph.vertices.len()]);
                // (Head_2's and Head_3's targets move nothing: both orders agree there.)
                for k in (0..morph.target_count()).filter(|&k| morph.reach(k) > 0.0) {
                    // The spec's order: the shape, then the skin.
                    morphed.weights.fill(0.0);
                    morphed.weights[morph.weights.start + k] = 1.0;
                    morphed.apply(&model.skin, &imported.morphs);
                    let run = morph.vertices.clone();
                    let palette = Linear(&pose.palette);
                    let shaped = morphed.shape(&model.skin).positions;
                    blend_run(&model.skin, shaped, &palette, run.clone(), &mut right);
                    // The wrong one: the modelled mesh skinned, then the displacement added.
                    blend_run(&model.skin, model.skin.bind(), &palette, run, &mut skinned);
                    for i in 0..morph.vertices.len() {
                        longest = longest.max(morph.displacements(i)[k].length());
                        let wrong = skinned[i] + morph.displacements(i)[k];
                        let apart = wrong.distance(right[i]);
                        if apart > worst.0 {
                            let target = morph.target_label(k);
                            worst = (apart, clip.name.clone(), t, morph.name.clone(), target);
                        }
                    }
                }
            }
        }
    }
    let (apart, clip, t, mesh, target) = worst;
    println!(
        "the wrong order (skin, then displacement) puts a vertex of {mesh} up to {apart:.3} from the spec's \
         position ({:.1}% of the model's size, {size:.2}): {target} fully on, clip {clip} at {t:.2} s",
        100.0 * apart / size
    );
    // The longest is Surprised's, fully on, which chapters 9 and 13 quote: 0.466.
    assert!((longest - 0.466).abs() < 5e-4, "the longest displacement is {longest}");
    // The right order adds `M d`, the wrong one `d`: where the blended matrix `M` only turns, they
    // part by |M d - d|, at most twice the displacement's length, reached where `M` turns it round.
    assert!(apart > 0.1 && apart <= 2.0 * longest * (1.0 + 1e-4), "{apart} against {longest}");
}
