//! The figures of chapter 11 worked out again: phase sync on the Fox's Walk and Run (by the formula,
//! and by the library's mixer, which must agree), a mask's bones on the article's tree, an additive
//! change laid on by hand, and the sign flip of a slerp.

use super::arm::{article, degrees_about};
use super::format::{fixed, listed, short};
use super::{Facts, Missing, Work, models};
use glam::{Quat, Vec3, Vec4};
use skinning_method::clip::Clip;
use skinning_method::mixer::additive::{add, delta};
use skinning_method::mixer::mask::Mask;
use skinning_method::mixer::phase::{cycle, time_in_clip};
use skinning_method::mixer::{Kind, Layer, Mixer};
use skinning_method::scene::{BONE1, BONE2};
use skinning_method::transform::Trs;

pub const COMPUTED: [Work; 5] = [
    ("11-phase-sync", phase_sync_half),
    ("11-phase-sync-0.3", phase_sync_0_3),
    ("11-mask", mask),
    ("11-additive", additive),
    ("11-sign-flip", sign_flip),
];

/// Phase sync of the Fox's Walk and Run at these weights, at 1.5 s, worked out in words; checked
/// against the library's mixer.
fn phase_sync(walk_weight: f32, run_weight: f32) -> Facts {
    let fox = skinning_formats::gltf_import::load(&models()?.join("Fox.glb"))
        .map_err(|e| Missing(e.to_string()))?;
    let find = |name: &str| fox.clips.iter().position(|c| c.name == name).expect("a clip of the Fox");
    let (walk, run) = (find("Walk"), find("Run"));
    let clips: &[Clip] = &fox.clips;
    let (dw, dr) = (clips[walk].duration, clips[run].duration);
    let t = cycle([(walk_weight, dw), (run_weight, dr)]);
    let at = 1.5;
    let phase = at / t;
    let (walk_at, run_at) = (time_in_clip(phase, dw), time_in_clip(phase, dr));
    // The program's mixer, in step, gives each layer the same time in its clip.
    let layers = vec![Layer::new(Kind::Blend, walk, walk_weight), Layer::new(Kind::Blend, run, run_weight)];
    let mut mixer = Mixer::new(clips.into(), layers, true);
    mixer.advance_to(at);
    assert!(
        (mixer.layers[0].time as f64 - walk_at).abs() < 1e-5
            && (mixer.layers[1].time as f64 - run_at).abs() < 1e-5
    );
    let (w, r) = (short(walk_weight as f64, 2), short(run_weight as f64, 2));
    let (dw, dr, t3) = (fixed(dw as f64, 3), fixed(dr as f64, 3), fixed(t, 3));
    let fraction = fixed(phase.fract(), 3);
    Ok(vec![
        format!("T = {w} · {dw} s + {r} · {dr} s = {t3} s"),
        format!("once in {t3} s"),
        format!("{fraction} of the way"),
        format!("At {} s the phase is", short(at, 2)),
        format!("{dw} / {t3} = {}x", fixed(dw.parse::<f64>().unwrap_or(0.0) / t, 2)),
        format!("{dr} / {t3} = {}x", fixed(dr.parse::<f64>().unwrap_or(0.0) / t, 2)),
        format!("{} / {t3} = {} loops", short(at, 2), fixed(phase, 3)),
        format!("{fraction} · {dw} s = {} s", fixed(walk_at, 3)),
        format!("{fraction} · {dr} s = {} s", fixed(run_at, 3)),
    ])
}

/// Chapter 11's worked example: the Fox's Walk and Run half and half.
fn phase_sync_half() -> Facts {
    let mut facts = phase_sync(0.5, 0.5)?;
    // The picture's corner line writes each layer's time to two places.
    let fox = skinning_formats::gltf_import::load(&models()?.join("Fox.glb"))
        .map_err(|e| Missing(e.to_string()))?;
    let length = |name: &str| fox.clips.iter().find(|c| c.name == name).map_or(0.0, |c| c.duration);
    let phase = 1.5 / cycle([(0.5, length("Walk")), (0.5, length("Run"))]);
    let (walk, run) = (time_in_clip(phase, length("Walk")), time_in_clip(phase, length("Run")));
    facts.push(format!("{walk:.2} s and {run:.2} s"));
    Ok(facts)
}

/// Chapter 11, exercise 1: the same at 0.3 and 0.7.
fn phase_sync_0_3() -> Facts {
    phase_sync(0.3, 0.7)
}

/// Chapter 11, exercise 2: the bones of a mask on bone2 and on bone1.
fn mask() -> Facts {
    let (model, _) = article();
    let names = |root: usize| {
        let mask = Mask::new(&model.skeleton, root);
        let inside: Vec<&str> = (0..model.skeleton.len())
            .filter(|&b| mask.bones[b])
            .map(|b| model.skeleton.bone(b).name.as_str())
            .collect();
        listed(&inside)
    };
    Ok(vec![names(BONE2), names(BONE1)])
}

/// Chapter 11, exercise 3: an additive turn laid over a base at half weight.
fn additive() -> Facts {
    let turn = |degrees: f32| Trs { rotation: Quat::from_rotation_z(degrees.to_radians()), ..Trs::IDENTITY };
    let (base, reference, pose) = (turn(10.0), turn(20.0), turn(50.0));
    let change = delta(&pose, &reference);
    let laid = add(&base, &change, 0.5);
    let angle = |t: &Trs| short(degrees_about(t.rotation, Vec3::Z), 2);
    Ok(vec![
        format!("50° - 20° = {}°", angle(&change)),
        format!("{}°", short(degrees_about(Quat::IDENTITY.slerp(change.rotation, 0.5), Vec3::Z), 2)),
        format!("10° + 15° = {}°", angle(&laid)),
    ])
}

/// Chapter 11, exercise 4: two keys that store turns 40° apart, the second with its sign flipped.
fn sign_flip() -> Facts {
    let a = Quat::from_rotation_z(20f32.to_radians());
    let b = -Quat::from_rotation_z(60f32.to_radians());
    let dot = a.dot(b);
    // glam's slerp, which flips `b` when the dot product is negative.
    let halfway = a.slerp(b, 0.5);
    // Without the flip: halfway along the four numbers' own arc, the long way round.
    let long = (Vec4::from(a) + Vec4::from(b)).normalize();
    Ok(vec![
        format!("{}, below 0", fixed(dot as f64, 4)),
        format!("{}°", short(degrees_about(halfway, Vec3::Z), 2)),
        format!("{}°", short(degrees_about(Quat::from_vec4(long), Vec3::Z), 2)),
    ])
}
