//! What normals cost: positions alone (`skin::blend`) against positions and normals
//! (`skin::blend`, then `normals::blend_normals`: the inverse transpose of each vertex's blended
//! matrix), on the same tube, in turn, round after round, as the main table is measured. For
//! scale, ozz-animation's shortcut too: positions and the blended matrix as it is, `Σ wᵢ Mᵢ n`
//! (`normals::Rule::BlendedMatrix`, wrong under non-uniform scale), whose cost ozz gives as 1.25
//! times positions alone.
//!
//! The goal (issue 18): normals add at most half the cost of the position blend, a ratio of at
//! most 1.5. The run prints the ratio at each size.

use glam::{Mat4, Vec3A};
use skinning::model::Model;
use skinning::normals::{Rule, blend_normals};
use skinning::skin::{Skin, blend};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Positions alone, positions and normals by the rule, positions and normals by the shortcut.
const VARIANTS: [&str; 3] = ["positions", "+ normals", "+ plain"];

/// The shortcut's loop, for its cost: the blended matrix as it is, normalised.
fn plain_normals(skin: &Skin, palette: &[Mat4], normals: &mut [Vec3A]) {
    for ((v, n), out) in skin.vertices().iter().zip(skin.normals()).zip(normals.iter_mut()) {
        *out = Rule::BlendedMatrix.skin(v, *n, palette);
    }
}

/// The goal of issue 18: positions and normals at most 1.5 times positions alone.
const NORMALS_OVER_POSITIONS: f64 = 1.5;

/// At each of `sizes`, the tube `posed` makes (with its palette), timed for about `budget`; then
/// whether the goal is met at every size.
pub fn run(sizes: &[usize], budget: Duration, posed: impl Fn(usize) -> (Model, Vec<Mat4>)) {
    println!("\nnormals (benches/normals.rs): ns/vertex, median; positions, then positions and normals");
    let mut worst = 0.0f64;
    for &vertices in sizes {
        let (model, palette) = posed(vertices);
        worst = worst.max(time(&model.skin, &palette, budget, &super::thousands(vertices)));
    }
    println!(
        "target: normals add at most half the position blend's cost (at most {NORMALS_OVER_POSITIONS}x): \
         worst {worst:.2}x, {}",
        if worst <= NORMALS_OVER_POSITIONS { "met" } else { "NOT met" }
    );
}

/// Times the three on `skin` with `palette` for about `budget`; prints a row each and returns
/// positions-and-normals over positions alone.
fn time(skin: &Skin, palette: &[Mat4], budget: Duration, label: &str) -> f64 {
    let n = skin.len();
    let (mut skinned, mut normals) = (vec![Vec3A::ZERO; n], vec![Vec3A::ZERO; n]);
    let mut samples: [Vec<Duration>; 3] = Default::default();
    let started = Instant::now();
    let mut round = 0;
    while round <= 5 || (started.elapsed() < budget && round <= 2000) {
        for (variant, samples) in samples.iter_mut().enumerate() {
            let (skin, palette) = black_box((skin, palette));
            let t = Instant::now();
            blend(skin, palette, &mut skinned);
            match variant {
                0 => {}
                1 => blend_normals(skin, palette, &mut normals),
                _ => plain_normals(skin, palette, &mut normals),
            }
            let elapsed = t.elapsed();
            black_box((&mut skinned, &mut normals));
            if round > 0 {
                samples.push(elapsed);
            }
        }
        round += 1;
    }
    // The rule's normals are unit length (the shortcut's too): the loop ran and kept them so.
    blend_normals(skin, palette, &mut normals);
    assert!(normals.iter().all(|n| (n.length() - 1.0).abs() < 1e-5), "normals must be unit length");

    let ns = samples.map(|mut s| {
        s.sort();
        s[s.len() / 2].as_secs_f64() * 1e9 / n as f64
    });
    for (i, (name, ns_per_vertex)) in VARIANTS.iter().zip(ns).enumerate() {
        let ratio = match i {
            0 => String::new(),
            _ => format!("positions {name} / positions = {:.2}x", ns_per_vertex / ns[0]),
        };
        println!("{:>10}  {:<10} {:>10.2}   {ratio}", if i == 0 { label } else { "" }, name, ns_per_vertex);
    }
    ns[1] / ns[0]
}
