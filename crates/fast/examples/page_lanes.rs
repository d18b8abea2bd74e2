//! The page's lanes against the desktop's: `bash web/lanes-bench.sh` runs this program natively
//! and in Node (compiled for wasm32-wasip1 with `simd128`, run by `web/wasi.mjs`), one after the
//! other, and prints the ratio. Here, one round: the bench's tube (64 bones, 4 influences, posed
//! by the wave) at 10,000 and 100,000 vertices, one thread, on each kind of lanes this build runs,
//! positions alone and with normals. A line each, `lanes NAME VERTICES positions NS normals NS`, in
//! ns a vertex, the best of the round's repetitions.

use glam::{Mat4, Vec3A};
use skinning_fast::lanes::Lanes;
use skinning_fast::synthetic;
use skinning_method::frame::{Frame, Pose};
use skinning_method::lbs_or_dqs::Palette;
use skinning_method::skin::compute_palette;
use std::hint::black_box;
use std::time::Instant;

fn main() {
    for vertices in [10_000, 100_000] {
        let model = synthetic::tube(64, vertices / 16, 16);
        let mut pose = Pose::new(&model);
        pose.run(&model, Frame::new(&synthetic::wave(), 0.7).palette_only())
            .expect("linear blending takes any palette");
        let mut palette = vec![Mat4::IDENTITY; 64];
        compute_palette(&pose.world, model.skin.joints(), &mut palette);
        let skin = &model.skin;
        let (mut positions, mut normals) = (vec![Vec3A::ZERO; vertices], vec![Vec3A::ZERO; vertices]);
        for lanes in Lanes::all().into_iter().filter(|l| l.runs_here()) {
            // Positions alone, then with normals, in turn. The rounds of the first 0.3 s are thrown
            // away: Node first runs a function compiled quickly, and its optimised code only once the
            // function has run a while, in the background.
            let mut best = [f64::INFINITY; 2];
            let started = Instant::now();
            let mut warm = 0;
            while started.elapsed().as_secs_f64() < 0.3 {
                warm += 1;
                let normals = if warm % 2 == 1 { &mut normals[..] } else { &mut [] };
                lanes.blend_run(
                    skin,
                    skin.shape(),
                    Palette::Lbs(black_box(&palette)),
                    0..vertices,
                    &mut positions,
                    normals,
                );
            }
            for _ in 0..40 {
                for (kind, best) in best.iter_mut().enumerate() {
                    let normals = if kind == 1 { &mut normals[..] } else { &mut [] };
                    let t = Instant::now();
                    let palette = Palette::Lbs(black_box(&palette));
                    lanes.blend_run(skin, skin.shape(), palette, 0..vertices, &mut positions, normals);
                    let ns = t.elapsed().as_secs_f64() * 1e9 / vertices as f64;
                    black_box((&mut positions, normals));
                    *best = best.min(ns);
                }
            }
            println!("lanes {} {vertices} positions {:.3} normals {:.3}", lanes.name(), best[0], best[1]);
        }
    }
}
