//! Where all threads start to beat one (`parallel.rs`): the program's blend (the fast path,
//! `fast_path.rs`: `FastPath`, positions alone), on small tubes, one thread against all, in turn on the
//! same data.
//!
//! Handing work to the other threads costs the same for 500 vertices as for a million, so below
//! some size one thread wins. How much it costs depends on whether the other threads are awake:
//! rayon's idle threads spin a few tens of µs, then sleep, and waking one is a system call. So two
//! measurements: **back to back**, blend after blend (the other threads never sleep), and **as in a
//! frame**, each blend after a 2 ms pause, long enough for them to fall asleep, as they do between
//! two frames of the program. The second is the program's case; `PARALLEL_FROM_VERTICES` comes
//! from one run of it, where two threads first beat one (commit de59c43). Last, the wake itself: how long the other thread takes to start a job, back to back and
//! after pauses, then the same with each thread pinned to a core of its own, to tell the kernel's
//! choice of core from the core's own restart (chapter 14, "When more threads pay").
//!
//! The tubes go up to 16,384 vertices, a short run. `SKINNING_CROSSOVER_MAX=131072 cargo bench
//! --bench blend` goes on to larger ones (24,576, 32,768, 49,152, 65,536, 98,304, 131,072: half
//! again, then twice, as from 4,096 on), for a machine where two threads pay only far higher.

use glam::{Mat4, Vec3A};
use skinning_fast::fast_path::FastPath;
use skinning_fast::parallel::BlendThreads;
use skinning_method::lbs_or_dqs::{Blender, Palette};
use skinning_method::skin::{Skin, compute_palette};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The pause before each blend in the frame-like measurement.
const PAUSE: Duration = Duration::from_millis(2);
/// The small tubes measured by default.
const SIZES: [usize; 8] = [512, 1024, 2048, 4096, 6144, 8192, 12288, 16384];
/// Names the largest tube to measure, past the default sizes.
const MAX_VAR: &str = "SKINNING_CROSSOVER_MAX";

/// The tubes' sizes: [`SIZES`], then, up to `SKINNING_CROSSOVER_MAX` vertices if it is set, 1.5
/// and 2 times each power of two past them.
pub fn sizes() -> Result<Vec<usize>, String> {
    let Some(max) = std::env::var_os(MAX_VAR) else { return Ok(SIZES.to_vec()) };
    let max = max
        .to_str()
        .and_then(|m| m.parse::<usize>().ok())
        .ok_or_else(|| format!("{MAX_VAR} wants a number of vertices (such as 131072), not {max:?}"))?;
    let mut sizes: Vec<usize> = SIZES.iter().copied().filter(|&v| v <= max).collect();
    let mut power = *SIZES.last().expect("sizes");
    while power * 3 / 2 <= max {
        sizes.extend([power * 3 / 2, power * 2].into_iter().filter(|&v| v <= max));
        power *= 2;
    }
    Ok(sizes)
}

/// Measures the crossover on tubes of these sizes, with `rounds` rounds each way, and prints where
/// all threads (the fast path `all`, on all of them) start to beat one.
pub fn run(all: &FastPath, sizes: &[usize], rounds: usize) {
    let skins: Vec<_> = (sizes.iter())
        .map(|&v| {
            let posed = super::posed_tube(v);
            let mut palette = vec![Mat4::IDENTITY; super::BONES];
            compute_palette(&posed.world, posed.model.skin.joints(), &mut palette);
            (posed.model.skin, palette)
        })
        .collect();
    let crossover = measure(all, &skins, rounds);
    let all = &all.threads;
    let from = |times: fn(&Crossover) -> (f64, f64)| {
        from_vertices(&crossover, times).map_or("never, up to the sizes measured".to_string(), |v| {
            format!("from {} vertices", super::thousands(v))
        })
    };
    println!(
        "{} threads beat one: back to back {}; after a pause, as in the program's frames, {}",
        all.count(),
        from(|r| r.back_to_back),
        from(|r| r.after_pause)
    );
    print_wakes(all, rounds, "");
    // The same with each thread pinned to a core of its own, which the program does not do (the
    // calling thread is the window's, and what it starts later would inherit the pin): how much of
    // a wake is the kernel's choice of core.
    let Some(pool) = all.pool() else { return };
    let before = pool.broadcast(|thread| pin(thread.index()));
    if before.iter().all(Option::is_some) {
        print_wakes(all, rounds, ", each thread pinned to a core of its own");
    }
    pool.broadcast(|thread| before[thread.index()].map(|cores| set_cores(&cores)));
}

fn print_wakes(all: &BlendThreads, rounds: usize, how: &str) {
    for pause in [None, Some(Duration::from_micros(100)), Some(PAUSE)] {
        let (median, own_core) = wake(all, pause, rounds);
        println!(
            "waking the other thread {}{how}: {median:.1} µs (median); it ran on the waker's core in {own_core} of {rounds}",
            pause.map_or("back to back".to_string(), |p| format!("after a {} µs pause", p.as_micros()))
        );
    }
}

/// Pins the calling thread to the `index`th of the cores it may run on; returns those cores, to
/// put back, or None (and changes nothing) if there are not that many or the system refuses.
fn pin(index: usize) -> Option<libc::cpu_set_t> {
    // SAFETY: a zeroed cpu_set_t is an empty set; the calls read or write only the set passed, of
    // the size given, for the calling thread (pid 0).
    unsafe {
        let mut allowed: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, size_of::<libc::cpu_set_t>(), &mut allowed) != 0 {
            return None;
        }
        let cores = (0..libc::CPU_SETSIZE as usize).filter(|&c| libc::CPU_ISSET(c, &allowed));
        let mut one: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cores.clone().nth(index)?, &mut one);
        set_cores(&one).then_some(allowed)
    }
}

/// Lets the calling thread run on these cores only; false if the system refuses.
fn set_cores(cores: &libc::cpu_set_t) -> bool {
    // SAFETY: the set is a whole cpu_set_t of the size given; pid 0 is the calling thread.
    unsafe { libc::sched_setaffinity(0, size_of::<libc::cpu_set_t>(), cores) == 0 }
}

/// How long the other thread takes to start a job handed out (after `pause`, the calling thread
/// asleep meanwhile, as between frames): the median µs over `rounds`, and in how many it ran on
/// the calling thread's core (where it waits until that thread stops).
fn wake(threads: &BlendThreads, pause: Option<Duration>, rounds: usize) -> (f64, usize) {
    use std::sync::atomic::{AtomicBool, Ordering};
    let Some(pool) = threads.pool() else { return (0.0, 0) };
    // SAFETY: `sched_getcpu` takes nothing and only reads which core runs the calling thread.
    let core = || unsafe { libc::sched_getcpu() };
    let (mut times, mut own_core) = (Vec::new(), 0);
    for _ in 0..rounds {
        if let Some(pause) = pause {
            std::thread::sleep(pause);
        }
        let started = AtomicBool::new(false);
        let t = Instant::now();
        // This thread waits (up to 20 ms) for the other to take the second half of the join.
        let (mine, (theirs, elapsed)) = pool.install(|| {
            rayon::join(
                || {
                    while !started.load(Ordering::Acquire) && t.elapsed() < Duration::from_millis(20) {
                        std::hint::spin_loop();
                    }
                    core()
                },
                || {
                    started.store(true, Ordering::Release);
                    (core(), t.elapsed())
                },
            )
        });
        own_core += usize::from(mine == theirs);
        times.push(elapsed.as_secs_f64() * 1e6);
    }
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], own_core)
}

/// One size's median times, in microseconds per blend: one thread, all threads; back to back, then
/// after a pause.
pub struct Crossover {
    pub vertices: usize,
    pub back_to_back: (f64, f64),
    pub after_pause: (f64, f64),
}

/// Measures each skin, `rounds` rounds of each way (the fast path on one thread, and `threads`,
/// the fast path on all), and prints the table.
pub fn measure(threads: &FastPath, skins: &[(Skin, Vec<Mat4>)], rounds: usize) -> Vec<Crossover> {
    let all = threads.threads.count();
    println!(
        "\ncrossover: the fast path, positions alone, 1 thread against {all}, median µs per blend\n{:>10}  {:>9} {:>9} {:>8}   {:>9} {:>9} {:>8}",
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
    threads: &FastPath,
    skin: &Skin,
    palette: &[Mat4],
    out: &mut [Vec3A],
    rounds: usize,
    pause: Option<Duration>,
) -> (f64, f64) {
    let mut samples = [Vec::new(), Vec::new()];
    let one = FastPath::new();
    // Round 0 warms up and is not counted.
    for round in 0..=rounds {
        for (way, samples) in samples.iter_mut().enumerate() {
            if let Some(pause) = pause {
                std::thread::sleep(pause);
            }
            let t = Instant::now();
            let by = if way == 0 { &one } else { threads };
            by.blend(black_box(skin), skin.shape(), Palette::Lbs(palette), out, &mut []);
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
