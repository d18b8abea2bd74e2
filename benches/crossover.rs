//! Where all threads start to beat one (`parallel.rs`): the blend alone, on small tubes, one thread
//! against all, in turn on the same data.
//!
//! Handing work to the other threads costs the same for 500 vertices as for a million, so below
//! some size one thread wins. How much it costs depends on whether the other threads are awake:
//! rayon's idle threads spin a few microseconds, then sleep, and waking one is a system call. So two
//! measurements: **back to back**, blend after blend (the other threads never sleep), and **as in a
//! frame**, each blend after a 2 ms pause, long enough for them to fall asleep, as they do between
//! two frames of the program. The second is the program's case; `PARALLEL_FROM_VERTICES` comes
//! from it.

use glam::{Mat4, Vec3A};
use skinning::parallel::BlendThreads;
use skinning::skin::{Skin, blend};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The pause before each blend in the frame-like measurement.
const PAUSE: Duration = Duration::from_millis(2);

/// One size's median times, in microseconds per blend: one thread, all threads; back to back, then
/// after a pause.
pub struct Crossover {
    pub vertices: usize,
    pub back_to_back: (f64, f64),
    pub after_pause: (f64, f64),
}

/// Measures each skin, `rounds` rounds of each way, and prints the table.
pub fn measure(threads: &BlendThreads, skins: &[(Skin, Vec<Mat4>)], rounds: usize) -> Vec<Crossover> {
    let all = threads.count();
    println!(
        "\ncrossover: the blend alone, 1 thread against {all}, median µs per blend\n{:>10}  {:>9} {:>9} {:>8}   {:>9} {:>9} {:>8}",
        "", "back to", "back", "", "after a", "2 ms pause", "(as between frames)"
    );
    println!(
        "{:>10}  {:>9} {:>9} {:>8}   {:>9} {:>9} {:>8}",
        "vertices",
        "1 thread",
        format!("{all} threads"),
        "speed-up",
        "1 thread",
        format!("{all} threads"),
        "speed-up"
    );
    let mut results = Vec::new();
    for (skin, palette) in skins {
        let mut out = vec![Vec3A::ZERO; skin.len()];
        let back_to_back = one_against_all(threads, skin, palette, &mut out, rounds, None);
        let after_pause = one_against_all(threads, skin, palette, &mut out, rounds, Some(PAUSE));
        let row = Crossover { vertices: skin.len(), back_to_back, after_pause };
        let (b, p) = (row.back_to_back, row.after_pause);
        println!(
            "{:>10}  {:>9.1} {:>9.1} {:>7.2}x   {:>9.1} {:>9.1} {:>7.2}x",
            row.vertices,
            b.0,
            b.1,
            b.0 / b.1,
            p.0,
            p.1,
            p.0 / p.1
        );
        results.push(row);
    }
    results
}

/// The smallest size from which all threads beat one at every larger size measured, if any.
pub fn from_vertices(results: &[Crossover], times: impl Fn(&Crossover) -> (f64, f64)) -> Option<usize> {
    let wins: Vec<bool> = results.iter().map(|r| times(r).1 < times(r).0).collect();
    let first = (0..wins.len()).find(|&i| wins[i..].iter().all(|&w| w))?;
    Some(results[first].vertices)
}

/// Median µs of the one-thread blend and of `threads`' blend, taken in turn, after `pause` each.
fn one_against_all(
    threads: &BlendThreads,
    skin: &Skin,
    palette: &[Mat4],
    out: &mut [Vec3A],
    rounds: usize,
    pause: Option<Duration>,
) -> (f64, f64) {
    let mut samples = [Vec::new(), Vec::new()];
    // Round 0 warms up and is not counted.
    for round in 0..=rounds {
        for (way, samples) in samples.iter_mut().enumerate() {
            if let Some(pause) = pause {
                std::thread::sleep(pause);
            }
            let t = Instant::now();
            match way {
                0 => blend(black_box(skin), palette, out),
                _ => threads.blend(black_box(skin), palette, out),
            }
            let elapsed = t.elapsed();
            black_box(&mut *out);
            if round > 0 {
                samples.push(elapsed.as_secs_f64() * 1e6);
            }
        }
    }
    let [one, all] = samples.map(|mut s| {
        s.sort_by(f64::total_cmp);
        s[s.len() / 2]
    });
    (one, all)
}
