//! The fast path on each kind of vector lanes this processor has (`lanes.rs`: `Lanes`), positions
//! alone and with normals, against the readable loop (`blend.rs`: `blend_run`, by `Linear`, as a
//! frame's `lbs_or_dqs::ByMethod` runs it: `lbs_or_dqs::Reference`), on the same tube in turn. What the
//! lanes buy, and what the wider ones add. Then where the palette sits: on a cache line, or 16
//! bytes past one (`lanes/aligned.rs`).

use glam::{Mat4, Vec3A};
use skinning_fast::lanes::Lanes;
use skinning_method::lbs_or_dqs::{Blender, Palette, Reference};
use skinning_method::skin::Skin;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Times the reference and each kind of lanes here for about `budget`, and prints a row each.
pub fn run(skin: &Skin, palette: &[Mat4], budget: Duration) {
    let here: Vec<Lanes> = Lanes::all().into_iter().filter(|l| l.runs_here()).collect();
    let n = skin.len();
    let (mut skinned, mut normals) = (vec![Vec3A::ZERO; n], vec![Vec3A::ZERO; n]);
    // Per way (the reference, then each kind of lanes): positions alone, positions and normals.
    let mut samples = vec![[Vec::new(), Vec::new()]; here.len() + 1];
    let started = Instant::now();
    let mut round = 0;
    while round <= 5 || (started.elapsed() < budget && round <= 2000) {
        for (way, samples) in samples.iter_mut().enumerate() {
            for (with_normals, samples) in samples.iter_mut().enumerate() {
                let (skin, palette) = black_box((skin, palette));
                let normals = if with_normals == 1 { &mut normals[..] } else { &mut [] };
                let t = Instant::now();
                match way.checked_sub(1).map(|i| here[i]) {
                    None => Reference.blend(skin, skin.shape(), Palette::Lbs(palette), &mut skinned, normals),
                    Some(lanes) => lanes.blend_run(
                        skin,
                        skin.shape(),
                        Palette::Lbs(palette),
                        0..n,
                        &mut skinned,
                        normals,
                    ),
                }
                let elapsed = t.elapsed();
                black_box((&mut skinned, &mut *normals));
                if round > 0 {
                    samples.push(elapsed);
                }
            }
        }
        round += 1;
    }
    // Per way: [positions, + normals], each (median, best) in ns a vertex.
    let per_vertex = |d: Duration| d.as_secs_f64() * 1e9 / n as f64;
    let ns: Vec<[(f64, f64); 2]> = samples
        .into_iter()
        .map(|pair| {
            pair.map(|mut s| {
                s.sort();
                (per_vertex(s[s.len() / 2]), per_vertex(s[0]))
            })
        })
        .collect();
    println!(
        "\nthe lanes (benches/lanes.rs): one thread, {} vertices, ns/vertex, median (best)",
        super::thousands(n)
    );
    println!("{:<22} {:>16} {:>16}   against blend_run (+ its normals)", "", "positions", "+ normals");
    for (way, [(positions, p_best), (both, b_best)]) in ns.iter().enumerate() {
        let name = match way {
            0 => "blend_run".to_string(),
            _ => format!("lanes: {}", here[way - 1].name()),
        };
        let against = match way {
            0 => String::new(),
            _ => format!("{:.2}x and {:.2}x faster", ns[0][0].0 / positions, ns[0][1].0 / both),
        };
        let (positions, both) = (format!("{positions:.2} ({p_best:.2})"), format!("{both:.2} ({b_best:.2})"));
        println!("{name:<22} {positions:>16} {both:>16}   {against}");
    }
    placement(skin, palette, budget / 4);
}

/// A palette 16 bytes past a cache line, as an allocator may place one: every matrix spans two.
#[repr(C, align(64))]
struct OffLine([f32; 4], [Mat4; 64]);

/// A palette from a line's start: each matrix on a line of its own.
#[repr(C, align(64))]
struct OnLine([Mat4; 64]);

/// The widest lanes' positions with the same palette on a line and off one, taking turns, and the
/// ratio of their medians: about 1 where the fast path moves a palette onto lines first.
fn placement(skin: &Skin, palette: &[Mat4], budget: Duration) {
    let n = palette.len();
    let (mut on, mut off) =
        (Box::new(OnLine([Mat4::ZERO; 64])), Box::new(OffLine([0.0; 4], [Mat4::ZERO; 64])));
    on.0[..n].copy_from_slice(palette);
    off.1[..n].copy_from_slice(palette);
    let (lanes, mut out) = (Lanes::best(), vec![Vec3A::ZERO; skin.len()]);
    let mut samples = [Vec::new(), Vec::new()];
    let started = Instant::now();
    while samples[0].len() < 5 || started.elapsed() < budget {
        for (placed, samples) in [&on.0[..n], &off.1[..n]].into_iter().zip(&mut samples) {
            let t = Instant::now();
            lanes.blend_run(
                skin,
                skin.shape(),
                Palette::Lbs(black_box(placed)),
                0..skin.len(),
                &mut out,
                &mut [],
            );
            samples.push(t.elapsed());
            black_box(&mut out);
        }
    }
    let [on, off] = samples.map(|mut s| {
        s.sort();
        s[s.len() / 2].as_secs_f64()
    });
    println!("the palette 16 bytes past a line, against on one: {} positions {:.2}x", lanes.name(), off / on);
}
