//! `cargo bench --bench crowd`: what a character costs in a crowd of 1, 10, 100 and 1,000 Foxes
//! (`crates/fast/src/crowd.rs`), a frame of every character at its own phase of the Walk.
//!
//! Five ways of running the crowd's frame, each timed per frame and divided by the crowd's size:
//! the pose and the blend (positions, then positions and normals, as the lit surface needs) on one
//! thread; the same on all the machine's threads (one character a job, from the blend's usual 6,000
//! vertices on, `parallel.rs`); and the GPU path's CPU side, the pose and the palette alone (on all
//! threads), which is all the CPU does when the vertex shader blends. Each figure is the median of
//! every frame timed, twice: by the clock on the wall, and in CPU time (the thread's own, or the
//! whole process's for all threads), which other programs taking turns on the cores do not
//! lengthen. The sizes and the ways take turns in 15 rounds, so a burst of other work falls on
//! all of them, and the growth from 1 to 1,000 compares frames timed in the same spells. The
//! machine's load (`/proc/loadavg`) is printed before and after: on a shared machine the clock's
//! figures for a long frame hold the other programs' turns too.
//!
//! The targets (issue 40): a character in a crowd of 1,000 costs at most 1.1 times what one alone
//! costs, on one thread; 1,000 Foxes' pose and blend take at most 16.7 ms a frame on all threads
//! (by the clock; the CPU time a thread says what idle cores would give). Each is said met or not,
//! both ways; a missed one does not fail the run (the figures depend on the load).
//!
//! The Fox comes from `SKINNING_MODELS` (`Fox.glb`); without it, the crate's synthetic tube of the
//! Fox's size (24 bones, 1,728 vertices) stands in, and the run says so. `--quick` (for CI) times
//! each way a tenth as long. The last line is for scripts: `RESULT ...`.

use skinning_fast::crowd::{Crowd, Work, pose_bytes, spacing};
use skinning_fast::parallel::BlendThreads;
use skinning_fast::synthetic;
use skinning_method::clip::Clip;
use skinning_method::frame::Pose;
use skinning_method::model::Model;
use std::time::{Duration, Instant};

const SIZES: [usize; 4] = [1, 10, 100, 1000];
/// The columns: name, work, on all threads.
const WAYS: [(&str, Work, bool); 5] = [
    ("1 thread", Work::Blend, false),
    ("1t +normals", Work::BlendAndNormals, false),
    ("all", Work::Blend, true),
    ("all +normals", Work::BlendAndNormals, true),
    ("GPU's CPU", Work::Palette, true),
];
const ROUNDS: usize = 15;
/// A frame at 60 frames a second.
const FRAME_MS: f64 = 1000.0 / 60.0;

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let budget = Duration::from_millis(if quick { 150 } else { 1500 });
    let (name, model, clip) = fox_or_tube();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let all = BlendThreads::new(threads).unwrap_or_else(|e| panic!("{e}"));
    let one = BlendThreads::one();
    println!("crowd benchmark: {} ({threads} threads){}", cpu_model(), if quick { ", --quick" } else { "" });
    println!(
        "{name}: {} vertices, {} joints; an extra character owns {} bytes (its pose), the model is shared",
        model.skin.len(),
        model.skin.joints().len(),
        pose_bytes(&Pose::new(&model))
    );
    println!("load before: {}", load());
    println!("µs per character a frame, the median of every frame timed: by the clock on the wall, and");
    println!("in CPU time (this thread's for one thread; the process's, every thread, for all), which");
    println!("other programs on the machine do not lengthen\n");
    // Every size and every way in each round: a slow spell of the machine falls on all of them,
    // so the growth from 1 to 1,000 compares frames timed in the same spells.
    let mut crowds: Vec<Crowd> =
        SIZES.iter().map(|&n| Crowd::on_grid(&model, n, spacing(&model), clip.duration as f64)).collect();
    let mut frames: Vec<Vec<Vec<(f64, f64)>>> = vec![vec![Vec::new(); WAYS.len()]; SIZES.len()];
    let mut time = 0.0;
    for _ in 0..ROUNDS {
        for ((crowd, count), frames) in crowds.iter_mut().zip(SIZES).zip(&mut frames) {
            for ((_, work, on_all), timed) in WAYS.iter().zip(frames) {
                let (threads, clock) = if *on_all { (&all, Clock::Process) } else { (&one, Clock::Thread) };
                let started = Instant::now();
                while started.elapsed() < budget / ROUNDS as u32 || timed.len() < 3 {
                    time += 1.0 / 60.0;
                    let (frame, cpu_before) = (Instant::now(), clock.now());
                    crowd.run(&model, &clip, time, *work, threads);
                    let cpu = clock.now() - cpu_before;
                    timed
                        .push((frame.elapsed().as_secs_f64() * 1e6 / count as f64, cpu * 1e6 / count as f64));
                }
            }
        }
    }
    let medians = |pick: fn(&(f64, f64)) -> f64| -> Vec<Vec<f64>> {
        frames
            .iter()
            .map(|ways| ways.iter().map(|f| median(f.iter().map(pick).collect())).collect())
            .collect()
    };
    let (wall, cpu) = (medians(|t| t.0), medians(|t| t.1));
    print_table("wall-clock", &wall);
    print_table("CPU time", &cpu);
    println!("\nload after: {}", load());
    // One thread: the growth by the clock and in CPU time. All threads: 1,000 characters' frame by
    // the clock, and what the CPU time says it would be on this many idle cores.
    let (growth, cpu_growth) = (wall[3][0] / wall[0][0], cpu[3][0] / cpu[0][0]);
    let ms = |us_each: f64| us_each * SIZES[3] as f64 / 1000.0;
    let (frame_ms, idle_ms) = (ms(wall[3][2]), ms(cpu[3][2]) / threads as f64);
    println!(
        "target: a character among 1,000 at most 1.1x one alone, one thread: {growth:.2}x by the clock, {}; \
         {cpu_growth:.2}x in CPU time, {}",
        verdict(growth <= 1.1),
        verdict(cpu_growth <= 1.1)
    );
    println!(
        "target: 1,000 characters' pose and blend within {FRAME_MS:.1} ms a frame on {threads} threads: \
         {frame_ms:.2} ms by the clock, {}; {idle_ms:.2} ms of CPU time a thread, {}",
        verdict(frame_ms <= FRAME_MS),
        verdict(idle_ms <= FRAME_MS)
    );
    if quick {
        println!("(--quick timings are rough: run without --quick for the real figures)");
    }
    println!(
        "RESULT model={} threads={threads} us1={:.2} us1000={:.2} cpu_us1={:.2} cpu_us1000={:.2} ms1000_all={frame_ms:.2} cpu_ms1000_all={idle_ms:.2} ms1000_gpu_cpu={:.2}",
        name.split_whitespace().next().unwrap_or("?"),
        wall[0][0],
        wall[3][0],
        cpu[0][0],
        cpu[3][0],
        ms(wall[3][4])
    );
}

/// One table: a row per crowd size, a column per way, and the all-threads frame in ms.
fn print_table(what: &str, rows: &[Vec<f64>]) {
    print!("{what:<10}\n{:>6}", "N");
    WAYS.iter().for_each(|(name, ..)| print!(" {name:>13}"));
    println!(" {:>14}", "all, ms/frame");
    for (count, row) in SIZES.iter().zip(rows) {
        print!("{count:>6}");
        row.iter().for_each(|us| print!(" {us:>13.2}"));
        println!(" {:>14.2}", row[2] * *count as f64 / 1000.0);
    }
}

/// Which CPU time: the calling thread's, or the whole process's (every thread).
#[derive(Clone, Copy)]
enum Clock {
    Thread,
    Process,
}

impl Clock {
    /// Seconds of CPU time so far.
    fn now(self) -> f64 {
        let id = match self {
            Clock::Thread => libc::CLOCK_THREAD_CPUTIME_ID,
            Clock::Process => libc::CLOCK_PROCESS_CPUTIME_ID,
        };
        let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `t` is a live, writable timespec for the call to fill; both clocks exist on
        // Linux, and a failure leaves `t` zero, which only spoils the figure.
        unsafe { libc::clock_gettime(id, &mut t) };
        t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
    }
}

/// The Fox and its Walk, or the tube of its size and the wave, with a name that says which.
fn fox_or_tube() -> (String, Model, Clip) {
    let fox = std::env::var_os("SKINNING_MODELS").map(|dir| std::path::PathBuf::from(dir).join("Fox.glb"));
    match fox.as_deref().map(skinning_formats::gltf_import::load) {
        Some(Ok(fox)) => {
            let walk = fox.clips.iter().find(|c| c.name == "Walk").unwrap_or(&fox.clips[0]).clone();
            (format!("Fox ({})", walk.name), fox.model, walk)
        }
        other => {
            let why = match other {
                Some(Err(e)) => format!("the Fox did not load: {e}"),
                _ => "no Fox.glb in $SKINNING_MODELS".to_string(),
            };
            println!("{why}: the synthetic tube of the Fox's size stands in");
            ("tube (synthetic, wave)".to_string(), synthetic::tube(24, 108, 16), synthetic::wave())
        }
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "NOT met" }
}

/// The 1, 5 and 15 minute load averages, or a word that there are none.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg").map_or("unknown".to_string(), |l| {
        l.split_whitespace().take(3).collect::<Vec<_>>().join(" ") + " (1, 5, 15 minutes)"
    })
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            let line = info.lines().find(|l| l.starts_with("model name"))?;
            Some(line.split_once(':')?.1.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string())
}
