//! What normals cost: positions alone against positions and normals, on the same tube, in turn,
//! round after round, as the main table is measured, at each size, on one thread.
//!
//! - **fast**: the fast path (`fast_path.rs`: `FastPath::new()`, the best lanes of `lanes.rs`), positions
//!   alone, and **fast + normals**: the same pass with the normals, from the blended matrix it
//!   already has. The goal (issues 18 and 26): normals add at most half the cost of the positions,
//!   a ratio of at most 1.5.
//! - **blend** and **+ normals**: the reference, `blend::blend` (positions alone), then the readable
//!   loop with the normals (`lbs_or_dqs::Reference`: `blend_run` by `Linear`, whose second loop blends
//!   each vertex's matrix again), the first path's code.
//! - **+ plain**: ozz-animation's shortcut after `blend::blend`, the blended matrix as it is,
//!   `Σ wᵢ Mᵢ n` (`normals::Rule::BlendedMatrix`, wrong under non-uniform scale), whose cost ozz
//!   gives as 1.25 times positions alone.

use glam::{Mat4, Vec3A};
use skinning_fast::fast_path::FastPath;
use skinning_method::blend::blend;
use skinning_method::lbs_or_dqs::{Blender, Palette, Reference};
use skinning_method::model::Model;
use skinning_method::normals::Rule;
use skinning_method::skin::Skin;
use std::hint::black_box;
use std::time::{Duration, Instant};

const VARIANTS: [&str; 5] = ["fast", "+ normals", "blend", "+ normals", "+ plain"];

/// The shortcut's loop, for its cost: the blended matrix as it is, normalised.
fn plain_normals(skin: &Skin, palette: &[Mat4], normals: &mut [Vec3A]) {
    for ((v, n), out) in skin.vertex_influences().iter().zip(skin.normals()).zip(normals.iter_mut()) {
        *out = Rule::BlendedMatrix.skin(v, *n, palette);
    }
}

/// The goal: the fast path's positions and normals at most 1.5 times its positions alone.
const NORMALS_OVER_POSITIONS: f64 = 1.5;

/// At each of `sizes`, the tube `posed` makes (with its palette), timed for about `budget`; then
/// whether the goal is met at every size. Returns the worst ratio.
pub fn run(sizes: &[usize], budget: Duration, posed: impl Fn(usize) -> (Model, Vec<Mat4>)) -> f64 {
    println!("\nnormals (benches/normals.rs): one thread, ns/vertex, median");
    let mut worst = 0.0f64;
    for &vertices in sizes {
        let (model, palette) = posed(vertices);
        worst = worst.max(time(&model.skin, &palette, budget, &super::thousands(vertices)));
    }
    println!(
        "target: the fast path's normals add at most half its positions' cost (at most \
         {NORMALS_OVER_POSITIONS}x): worst {worst:.2}x, {}",
        super::verdict(worst <= NORMALS_OVER_POSITIONS)
    );
    worst
}

/// Times the five on `skin` with `palette` for about `budget`; prints a row each and returns the
/// fast path's positions and normals over its positions alone.
fn time(skin: &Skin, palette: &[Mat4], budget: Duration, label: &str) -> f64 {
    let n = skin.len();
    let (mut skinned, mut normals) = (vec![Vec3A::ZERO; n], vec![Vec3A::ZERO; n]);
    let mut samples: [Vec<Duration>; 5] = Default::default();
    let fast = FastPath::new();
    let started = Instant::now();
    let mut round = 0;
    while round <= 5 || (started.elapsed() < budget && round <= 2000) {
        for (variant, samples) in samples.iter_mut().enumerate() {
            let (skin, palette) = black_box((skin, palette));
            let t = Instant::now();
            match variant {
                0 => fast.blend(skin, skin.shape(), Palette::Lbs(palette), &mut skinned, &mut []),
                1 => fast.blend(skin, skin.shape(), Palette::Lbs(palette), &mut skinned, &mut normals),
                2 => blend(skin, palette, &mut skinned),
                3 => Reference.blend(skin, skin.shape(), Palette::Lbs(palette), &mut skinned, &mut normals),
                _ => {
                    blend(skin, palette, &mut skinned);
                    plain_normals(skin, palette, &mut normals);
                }
            }
            let elapsed = t.elapsed();
            black_box((&mut skinned, &mut normals));
            if round > 0 {
                samples.push(elapsed);
            }
        }
        round += 1;
    }
    // The fast path's normals are the rule's, unit length: the loop ran and kept them so.
    let (mut positions, mut reference) = (vec![Vec3A::ZERO; n], vec![Vec3A::ZERO; n]);
    Reference.blend(skin, skin.shape(), Palette::Lbs(palette), &mut positions, &mut reference);
    fast.blend(skin, skin.shape(), Palette::Lbs(palette), &mut skinned, &mut normals);
    let apart = normals.iter().zip(&reference).map(|(a, b)| a.distance(*b)).fold(0.0, f32::max);
    assert!(apart < 1e-5, "the fast path's normals are {apart} from the rule's");
    assert!(normals.iter().all(|n| (n.length() - 1.0).abs() < 1e-5), "normals must be unit length");

    let ns = samples.map(|mut s| {
        s.sort();
        s[s.len() / 2].as_secs_f64() * 1e9 / n as f64
    });
    for (i, (name, ns_per_vertex)) in VARIANTS.iter().zip(ns).enumerate() {
        let ratio = match i {
            1 => format!("fast + normals / fast = {:.2}x", ns[1] / ns[0]),
            2 => format!("blend / fast = {:.2}x", ns[2] / ns[0]),
            3 => format!("blend + normals / blend = {:.2}x", ns[3] / ns[2]),
            4 => format!("blend + plain / blend = {:.2}x", ns[4] / ns[2]),
            _ => String::new(),
        };
        println!("{:>10}  {:<10} {:>10.2}   {ratio}", if i == 0 { label } else { "" }, name, ns_per_vertex);
    }
    ns[1] / ns[0]
}
