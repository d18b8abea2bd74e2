//! What else we tried, to make `blend::blend` itself faster (`docs/14-every-core.md` has a run):
//! each attempt against `blend::blend` in the same run, in turn on the same 10,000-vertex tube and
//! palette. Each returns the blend's positions (to f32 rounding), which the run checks.

use glam::{Affine3A, Mat4, Vec3A, Vec4};
use skinning_method::blend::blend;
use skinning_method::skin::{SLOTS, Skin};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// A way to blend: the skin, its palette, room for a palette of another type, the output.
type Blend = fn(&Skin, &[Mat4], &mut Vec<Affine3A>, &mut [Vec3A]);

const VARIANTS: [(&str, Blend); 7] = [
    ("blend::blend", |skin, palette, _, out| blend(skin, palette, out)),
    ("matrices first", matrices_first),
    ("Affine3A, matrices first", affine_matrices_first),
    ("Affine3A, same loop", affine_same_loop),
    ("used slots only", used_slots_only),
    ("no bounds checks", no_bounds_checks),
    ("weights as one Vec4", weights_as_vec4),
];

/// Blend the four matrices with the weights, then move the point once: one matrix-times-point,
/// but four matrix-times-number sums of 16 products each, instead of four matrix-times-point.
fn matrices_first(skin: &Skin, palette: &[Mat4], _: &mut Vec<Affine3A>, out: &mut [Vec3A]) {
    for ((v, &bind), out) in skin.vertex_influences().iter().zip(skin.bind()).zip(out.iter_mut()) {
        let mut matrix = palette[v.joints[0] as usize] * v.weights[0];
        for i in 1..SLOTS {
            matrix += palette[v.joints[i] as usize] * v.weights[i];
        }
        *out = matrix.transform_point3a(bind);
    }
}

/// The palette as `Affine3A` (a 3x3 matrix and a translation: 12 numbers, not 16), made each call.
fn to_affine(palette: &[Mat4], affine: &mut Vec<Affine3A>) {
    affine.clear();
    affine.extend(palette.iter().copied().map(Affine3A::from_mat4));
}

/// As [`matrices_first`], with the `Affine3A` palette: 12 numbers a matrix to blend instead of 16.
fn affine_matrices_first(skin: &Skin, palette: &[Mat4], affine: &mut Vec<Affine3A>, out: &mut [Vec3A]) {
    to_affine(palette, affine);
    for ((v, &bind), out) in skin.vertex_influences().iter().zip(skin.bind()).zip(out.iter_mut()) {
        let first = &affine[v.joints[0] as usize];
        let (mut matrix3, mut translation) = (first.matrix3 * v.weights[0], first.translation * v.weights[0]);
        for i in 1..SLOTS {
            let a = &affine[v.joints[i] as usize];
            matrix3 += a.matrix3 * v.weights[i];
            translation += a.translation * v.weights[i];
        }
        *out = matrix3 * bind + translation;
    }
}

/// `blend::blend`'s loop over the `Affine3A` palette.
fn affine_same_loop(skin: &Skin, palette: &[Mat4], affine: &mut Vec<Affine3A>, out: &mut [Vec3A]) {
    to_affine(palette, affine);
    for ((v, &bind), out) in skin.vertex_influences().iter().zip(skin.bind()).zip(out.iter_mut()) {
        let mut sum = Vec3A::ZERO;
        for i in 0..SLOTS {
            sum += v.weights[i] * affine[v.joints[i] as usize].transform_point3a(bind);
        }
        *out = sum;
    }
}

/// `blend::blend`'s loop over the slots in use only (`Skin::slots_used`, one more stream to read):
/// less arithmetic, a branch per vertex.
fn used_slots_only(skin: &Skin, palette: &[Mat4], _: &mut Vec<Affine3A>, out: &mut [Vec3A]) {
    let vertices = skin.vertex_influences().iter().zip(skin.slots_used());
    for (((v, &used), &bind), out) in vertices.zip(skin.bind()).zip(out.iter_mut()) {
        let mut sum = Vec3A::ZERO;
        for i in 0..used as usize {
            sum += v.weights[i] * palette[v.joints[i] as usize].transform_point3a(bind);
        }
        *out = sum;
    }
}

/// `blend::blend`'s loop without the check that each joint index is inside the palette.
fn no_bounds_checks(skin: &Skin, palette: &[Mat4], _: &mut Vec<Affine3A>, out: &mut [Vec3A]) {
    assert_eq!(palette.len(), skin.joints().len(), "one palette matrix per joint");
    for ((v, &bind), out) in skin.vertex_influences().iter().zip(skin.bind()).zip(out.iter_mut()) {
        let mut sum = Vec3A::ZERO;
        for i in 0..SLOTS {
            // SAFETY: `Skin::add_vertex` refuses a joint index at or past the skin's joint count,
            // unused slots hold joint 0 (which exists: a vertex has an influence), and the palette
            // has one matrix per joint (asserted above).
            let matrix = unsafe { palette.get_unchecked(v.joints[i] as usize) };
            sum += v.weights[i] * matrix.transform_point3a(bind);
        }
        *out = sum;
    }
}

/// `blend::blend`'s arithmetic with the four weights loaded as one `Vec4` (one 16-byte load).
fn weights_as_vec4(skin: &Skin, palette: &[Mat4], _: &mut Vec<Affine3A>, out: &mut [Vec3A]) {
    for ((v, &bind), out) in skin.vertex_influences().iter().zip(skin.bind()).zip(out.iter_mut()) {
        let w = Vec4::from_array(v.weights);
        let moved = |i: usize| palette[v.joints[i] as usize].transform_point3a(bind);
        *out = w.x * moved(0) + w.y * moved(1) + w.z * moved(2) + w.w * moved(3);
    }
}

/// Runs every variant in turn, round after round, for about `budget`, and prints each one's median
/// against `blend::blend`'s.
pub fn run(skin: &Skin, palette: &[Mat4], budget: Duration) {
    let mut affine = Vec::with_capacity(palette.len());
    let mut outputs = VARIANTS.map(|_| vec![Vec3A::ZERO; skin.len()]);
    let mut samples: [Vec<Duration>; VARIANTS.len()] = Default::default();
    let started = Instant::now();
    // Round 0 warms up and is not counted; at least 5 measured rounds, at most 2000.
    let mut round = 0;
    while round <= 5 || (started.elapsed() < budget && round <= 2000) {
        for ((_, variant), (out, samples)) in VARIANTS.iter().zip(outputs.iter_mut().zip(&mut samples)) {
            let t = Instant::now();
            variant(black_box(skin), palette, &mut affine, out);
            let elapsed = t.elapsed();
            black_box(&mut *out);
            if round > 0 {
                samples.push(elapsed);
            }
        }
        round += 1;
    }
    for ((name, _), out) in VARIANTS.iter().zip(&outputs) {
        let worst = outputs[0].iter().zip(out).map(|(a, b)| a.distance(*b)).fold(0.0, f32::max);
        assert!(worst < 1e-3, "{name} and blend::blend disagree by {worst}");
    }

    let ns = samples.map(|mut s| {
        s.sort();
        s[s.len() / 2].as_secs_f64() * 1e9 / skin.len() as f64
    });
    println!(
        "\nwhat else we tried: the blend alone, one thread, {} vertices, median",
        super::thousands(skin.len())
    );
    println!("{:<26} {:>10}   against blend::blend", "variant", "ns/vertex");
    for ((name, _), &t) in VARIANTS.iter().zip(&ns) {
        let change = (t / ns[0] - 1.0) * 100.0;
        let against = match *name {
            "blend::blend" => String::new(),
            _ if change >= 0.0 => format!("{change:.0}% slower"),
            _ => format!("{:.0}% faster", -change),
        };
        println!("{name:<26} {t:>10.2}   {against}");
    }
}
