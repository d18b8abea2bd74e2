//! What every influence costs (`skin/extras.rs`): the blend with its second pass, against today's
//! four-slot loop alone, on the same 100,000-vertex tube and palette, in turn, round after round.
//!
//! 1. **four slots**: the main loop of `blend::blend_run` alone (`Linear`'s position of each vertex
//!    over its four slots, written out here: the library has no entry for the loop without its
//!    second pass), the article's loop: what the blend was before it took every influence.
//! 2. **blend**: `blend::blend`, that loop and then the second pass, `blend::finish_extras`, on the
//!    same tube, where no vertex has more than four: what the design costs a model that does not
//!    need it.
//! 3. **blend, 1 in 16 on 8**: `blend::blend` on the tube with one vertex of each ring (1 in 16)
//!    on eight joints, the rest on four.
//! 4. **blend, all on 8**: `blend::blend` with every vertex on eight joints, the side table at its
//!    worst: every vertex blended by its four slots in the main loop, then again whole, all eight
//!    influences, in the second pass, half of them read from beside the slots.
//! 5. **eight slots**: what the other design, every vertex widened to eight slots, costs on the
//!    same eight-joint tube: one loop over eight slots, no second pass.
//!
//! Each variant's positions are checked against the same blend done plainly (to f32 rounding).

use glam::{Mat4, Vec3A};
use skinning_fast::synthetic::BONE_LENGTH;
use skinning_method::blend::blend;
use skinning_method::model::Model;
use skinning_method::skin::{Influence, SLOTS, Skin};
use std::hint::black_box;
use std::time::{Duration, Instant};

const VARIANTS: [&str; 5] = ["four slots", "blend", "blend, 1 in 16 on 8", "blend, all on 8", "eight slots"];

/// The tube's skin with vertex v on the eight bones around it when `on_eight(v)`, on its own four
/// otherwise: the bones whose middles are nearest along the chain, weighted by `exp(-d²)` as
/// `synthetic::tube` weighs four.
fn widened(model: &Model, on_eight: impl Fn(usize) -> bool) -> Skin {
    let skin = &model.skin;
    let bones = skin.joints().len();
    let mut out = Skin::new(skin.joints().to_vec());
    for (v, bind) in skin.bind().iter().enumerate() {
        let influences: Vec<Influence> = if on_eight(v) {
            let s = bind.x / BONE_LENGTH - 0.5;
            let first = (s.floor() as isize - 3).clamp(0, bones as isize - 8) as usize;
            let bell: Vec<f32> = (first..first + 8).map(|b| (-(s - b as f32).powi(2)).exp()).collect();
            let sum: f32 = bell.iter().sum();
            bell.iter().enumerate().map(|(i, w)| Influence { joint: first + i, weight: w / sum }).collect()
        } else {
            skin.influences(v).collect()
        };
        out.add_vertex((*bind).into(), &influences).expect("weights summing to 1");
    }
    out
}

/// The main loop of `blend::blend_run` alone, by linear blending: each vertex by its four slots
/// (`Linear`'s position with no extras, the same sum in the same order), no second pass. Written
/// out here rather than called: `Linear::position` from this crate would be a call per vertex,
/// where the library's own loop has it inlined.
fn four_slots(skin: &Skin, palette: &[Mat4], out: &mut [Vec3A]) {
    for ((v, &bind), out) in skin.vertex_influences().iter().zip(skin.bind()).zip(out.iter_mut()) {
        let mut sum = Vec3A::ZERO;
        for i in 0..SLOTS {
            sum += v.weights[i] * palette[v.joints[i] as usize].transform_point3a(bind);
        }
        *out = sum;
    }
}

/// The other design: every vertex in eight slots, unused ones joint 0 with weight 0.
struct EightSlots {
    bind: Vec3A,
    joints: [u16; 2 * SLOTS],
    weights: [f32; 2 * SLOTS],
}

fn eight_slots(skin: &Skin) -> Vec<EightSlots> {
    (skin.bind().iter().enumerate())
        .map(|(v, &bind)| {
            let mut e = EightSlots { bind, joints: [0; 8], weights: [0.0; 8] };
            for (i, influence) in skin.influences(v).enumerate() {
                (e.joints[i], e.weights[i]) = (influence.joint as u16, influence.weight);
            }
            e
        })
        .collect()
}

/// The four-slot loop, widened to eight.
fn blend_eight_slots(vertices: &[EightSlots], palette: &[Mat4], out: &mut [Vec3A]) {
    for (v, out) in vertices.iter().zip(out.iter_mut()) {
        let mut sum = Vec3A::ZERO;
        for i in 0..2 * SLOTS {
            sum += v.weights[i] * palette[v.joints[i] as usize].transform_point3a(v.bind);
        }
        *out = sum;
    }
}

/// The same blend done plainly, influence by influence, for the check.
fn plainly(skin: &Skin, palette: &[Mat4]) -> Vec<Vec3A> {
    (0..skin.len())
        .map(|v| {
            let bind = skin.bind()[v];
            skin.influences(v).map(|i| i.weight * palette[i.joint].transform_point3a(bind)).sum()
        })
        .collect()
}

/// Times the five on the tube `model` posed by `palette`, for about `budget`; prints a row each.
pub fn run(model: &Model, palette: &[Mat4], budget: Duration) {
    let four = &model.skin;
    let some = widened(model, |v| v % 16 == 0);
    let all = widened(model, |_| true);
    let wide = eight_slots(&all);
    let skins = [four, four, &some, &all, &all];
    let n = four.len();
    let mut outputs = [(); 5].map(|_| vec![Vec3A::ZERO; n]);
    let mut samples: [Vec<Duration>; 5] = Default::default();
    let started = Instant::now();
    let mut round = 0;
    while round <= 5 || (started.elapsed() < budget && round <= 2000) {
        for (variant, (out, samples)) in outputs.iter_mut().zip(&mut samples).enumerate() {
            let (skin, palette) = black_box((skins[variant], palette));
            let t = Instant::now();
            match variant {
                0 => four_slots(skin, palette, out),
                4 => blend_eight_slots(&wide, palette, out),
                _ => blend(skin, palette, out),
            }
            let elapsed = t.elapsed();
            black_box(&mut *out);
            if round > 0 {
                samples.push(elapsed);
            }
        }
        round += 1;
    }
    // Where no vertex has more than four, the loop alone is the blend, bit for bit.
    assert!(outputs[0] == outputs[1], "the four slots' loop differs from blend::blend on four joints");
    for (variant, out) in outputs.iter().enumerate() {
        let want = plainly(skins[variant], palette);
        let worst = want.iter().zip(out).map(|(a, b)| a.distance(*b)).fold(0.0, f32::max);
        assert!(worst < 1e-3, "{} and the plain blend disagree by {worst}", VARIANTS[variant]);
    }

    let ns = samples.map(|mut s| {
        s.sort();
        s[s.len() / 2].as_secs_f64() * 1e9 / n as f64
    });
    println!(
        "\nevery influence (benches/influences.rs): one thread, {} vertices, ns/vertex, median",
        super::thousands(n)
    );
    for (i, (name, t)) in VARIANTS.iter().zip(ns).enumerate() {
        let ratio = match i {
            0 => String::new(),
            1..=3 => format!("{name} / four slots = {:.2}x", t / ns[0]),
            _ => format!("{name} / blend, all on 8 = {:.2}x", t / ns[3]),
        };
        println!("{name:<20} {t:>10.2}   {ratio}");
    }
}
