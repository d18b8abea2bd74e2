//! The main table: nine ways to blend (or not) the same posed tube, timed in turn, round after
//! round (`blend.rs` says what each is and prints the ratios).

use super::{BONES, Posed};
use glam::{Mat4, Vec3A};
use rayon::prelude::*;
use skinning_fast::fast_path::FastPath;
use skinning_fast::synthetic;
use skinning_method::blend::blend;
use skinning_method::dual_quat::{DualQuat, compute_dq_palette};
use skinning_method::lbs_or_dqs::{Blender, Palette, Reference};
use skinning_method::skin::{SLOTS, VertexInfluences, compute_palette};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The project's road: the palette once per bone, then one pass over the vertices.
fn project_blend(posed: &Posed, palette: &mut [Mat4], out: &mut [Vec3A]) {
    compute_palette(&posed.world, posed.model.skin.joints(), palette);
    blend(&posed.model.skin, palette, out);
}

/// The other method: the palette, each matrix as a dual quaternion, then the DQS blend (the same
/// readable loop, `blend_run`, by `DualQuats`, as `lbs_or_dqs::ByMethod` on the readable loops runs it).
fn dqs(posed: &Posed, palette: &mut [Mat4], dq_palette: &mut [DualQuat], out: &mut [Vec3A]) {
    let skin = &posed.model.skin;
    compute_palette(&posed.world, skin.joints(), palette);
    let scale = compute_dq_palette(palette, dq_palette).expect("the tube's joints only turn");
    Reference.blend(skin, skin.shape(), Palette::Dqs { joints: dq_palette, scale }, out, &mut []);
}

/// DON'T DO THIS: the comparison, not a way to skin. `world * offset` is the same for every vertex
/// on a bone, yet here it is multiplied again (64 multiplies, 48 adds) for each influence of each vertex,
/// exactly as the formula reads: `Σ weight * (world[bone] * offset[bone]) * bind`.
fn textbook(posed: &Posed, out: &mut [Vec3A]) {
    let (world, joints) = (&posed.world, posed.model.skin.joints());
    let skin = &posed.model.skin;
    for ((v, &bind), out) in skin.vertex_influences().iter().zip(skin.bind()).zip(out.iter_mut()) {
        let mut sum = Vec3A::ZERO;
        for i in 0..SLOTS {
            let joint = joints[v.joints[i] as usize];
            let matrix = world[joint.bone] * joint.offset;
            sum += v.weights[i] * matrix.transform_point3a(bind);
        }
        *out = sum;
    }
}

/// The floor: move the bytes a blend moves, compute nothing.
///
/// Only the bind position is copied, yet both streams the blend reads come in from memory: the
/// positions, and the influences, of which each vertex's first weight is read (never negative, so
/// the copy is always the bind position; a load and a branch that always goes one way). Memory moves in
/// 64-byte cache lines, so one read per record fetches the whole stream. So this reads what the
/// blend reads and writes what it writes, with the least work a CPU can do on them.
/// Its stores are plain ones, as the fast path's, so the floor is measured with the same stores.
fn copy(bind: &[Vec3A], vertices: &[VertexInfluences], out: &mut [Vec3A]) {
    const { assert!(size_of::<VertexInfluences>() <= 64, "every cache line must hold a weight") };
    for ((v, &bind), out) in vertices.iter().zip(bind).zip(out.iter_mut()) {
        *out = if v.weights[0] < 0.0 { Vec3A::ZERO } else { bind };
    }
}

/// The copy on all the pool's threads, cut as `parallel.rs` cuts the blend. The calling thread is
/// one of the pool's (`BlendThreads::new`), so rayon runs this on that pool.
fn copy_parallel(threads: usize, bind: &[Vec3A], vertices: &[VertexInfluences], out: &mut [Vec3A]) {
    let chunk = vertices.len().div_ceil(threads * 4).max(1).next_multiple_of(skinning_fast::lanes::GROUP);
    let runs = bind.par_chunks(chunk).zip(vertices.par_chunks(chunk));
    out.par_chunks_mut(chunk).zip(runs).for_each(|(out, (bind, vertices))| copy(bind, vertices, out));
}

pub const VARIANTS: [&str; 9] =
    ["blend", "textbook", "copy", "dqs", "fast", "fast dqs", "fast xN", "copy xN", "fast dqs xN"];

/// Median and best time of one variant over the measured rounds.
pub struct Timing {
    pub median: Duration,
    pub best: Duration,
}

/// Runs the nine variants in turn, round after round, for about `budget`, the fast path on one
/// thread and on `all` (the fast path on all threads); checks they agree.
pub fn measure(posed: &Posed, all: &FastPath, budget: Duration) -> [Timing; 9] {
    let skin = &posed.model.skin;
    let n = skin.len();
    let one = FastPath::new();
    let mut palette = vec![Mat4::IDENTITY; BONES];
    let mut dq_palette = vec![DualQuat::IDENTITY; BONES];
    let mut outputs = [(); 9].map(|_| vec![Vec3A::ZERO; n]);
    let mut samples: [Vec<Duration>; 9] = Default::default();
    let started = Instant::now();
    let mut round = 0;
    // At least 5 measured rounds, at most 2000; round 0 is the warm-up.
    while round <= 5 || (started.elapsed() < budget && round <= 2000) {
        for (variant, out) in outputs.iter_mut().enumerate() {
            let posed = black_box(posed);
            let mut run = |out: &mut [Vec3A]| match variant {
                0 => project_blend(posed, &mut palette, out),
                1 => textbook(posed, out),
                2 => copy(skin.bind(), skin.vertex_influences(), out),
                3 => dqs(posed, &mut palette, &mut dq_palette, out),
                4 | 6 => {
                    compute_palette(&posed.world, skin.joints(), &mut palette);
                    let by = if variant == 4 { &one } else { all };
                    by.blend(skin, skin.shape(), Palette::Lbs(&palette), out, &mut []);
                }
                7 => copy_parallel(all.threads.count(), skin.bind(), skin.vertex_influences(), out),
                _ => {
                    // 5 and 8: dual quaternions, on one thread and on all.
                    compute_palette(&posed.world, skin.joints(), &mut palette);
                    let scale = compute_dq_palette(&palette, &mut dq_palette).expect("only turns");
                    let by = if variant == 5 { &one } else { all };
                    by.blend(skin, skin.shape(), Palette::Dqs { joints: &dq_palette, scale }, out, &mut []);
                }
            };
            if variant >= 6 {
                // The other threads fell asleep while the other variants ran: this untimed call
                // wakes them. It does not always keep them up for the timed one: a rayon thread
                // out of work spins through 32 yields (tens of µs here) and sleeps again, and
                // when the timed call hands out work after that, it pays a wake again. What a wake
                // costs is the crossover's last lines; the program, a frame every 16 ms, pays it
                // every frame (docs/14-every-core.md, "When more threads pay").
                run(out);
            }
            let t = Instant::now();
            run(out);
            let elapsed = t.elapsed();
            black_box(&mut *out);
            if round > 0 {
                samples[variant].push(elapsed);
            }
        }
        round += 1;
    }

    // The same numbers, whichever order they were computed in (to f32 rounding, on a tube 64 long).
    let [blended, by_textbook, copied, by_dqs, fast, fast_dqs, fast_by_all, copied_by_all, fast_dqs_by_all] =
        &outputs;
    // All threads compute exactly what one does.
    assert!(fast_by_all == fast, "the fast path on all threads differs from it on one");
    assert!(copied_by_all == copied, "the copy on all threads differs from it on one");
    assert!(fast_dqs_by_all == fast_dqs, "the fast DQS on all threads differs from it on one");
    let apart = |a: &[Vec3A], b: &[Vec3A]| a.iter().zip(b).map(|(a, b)| a.distance(*b)).fold(0.0, f32::max);
    let worst = apart(blended, by_textbook);
    assert!(worst < 1e-3, "blend and textbook disagree by {worst}");
    let worst = apart(blended, fast);
    assert!(worst < 1e-3, "blend and the fast path disagree by {worst}");
    let worst = apart(by_dqs, fast_dqs);
    assert!(worst < 1e-3, "DQS and the fast DQS disagree by {worst}");
    // DQS moves the skin differently by design, but by less than the tube's radius on a gentle wave.
    let worst = apart(blended, by_dqs);
    assert!(worst < synthetic::RADIUS, "LBS and DQS are {worst} apart");

    samples.map(|mut s| {
        s.sort();
        Timing { median: s[s.len() / 2], best: s[0] }
    })
}
