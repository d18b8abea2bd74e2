//! `cargo bench --bench crowd`: what a character costs in a crowd of 1, 10, 100 and 1,000 Foxes
//! (`crates/fast/src/crowd.rs`), a frame of every character at its own phase of the Walk.
//!
//! Four ways of running the crowd's frame, each timed per frame and divided by the crowd's size:
//! the pose and the blend (positions, then positions and normals, as the lit surface needs) on one
//! thread; the same on all the machine's threads (one character a job, from the blend's usual 6,000
//! vertices on, `parallel.rs`); and the GPU path's CPU side, the pose and the palette alone (on all
//! threads), which is all the CPU does when the vertex shader blends. Each figure is the median of
//! every frame timed; the ways take turns in five rounds, so a burst of other work on the machine
//! falls on all of them. The machine's load (`/proc/loadavg`) is printed before and after.
//!
//! The targets (issue 40): a character in a crowd of 1,000 costs at most 1.1 times what one alone
//! costs, on one thread; 1,000 Foxes' pose and blend take at most 16.7 ms a frame on all threads.
//! They are said met or not; a missed one does not fail the run (the figures depend on the load).
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
const ROUNDS: usize = 5;
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
    println!("µs per character a frame (median of every frame timed)\n");
    print!("{:>6}", "N");
    WAYS.iter().for_each(|(name, ..)| print!(" {name:>13}"));
    println!(" {:>14}", "all, ms/frame");
    let mut table = Vec::new();
    for count in SIZES {
        let mut crowd = Crowd::on_grid(&model, count, spacing(&model), clip.duration as f64);
        let mut frames: Vec<Vec<f64>> = vec![Vec::new(); WAYS.len()];
        let mut time = 0.0;
        for _ in 0..ROUNDS {
            for ((_, work, on_all), timed) in WAYS.iter().zip(&mut frames) {
                let threads = if *on_all { &all } else { &one };
                let started = Instant::now();
                while started.elapsed() < budget / ROUNDS as u32 || timed.len() < 3 {
                    time += 1.0 / 60.0;
                    let frame = Instant::now();
                    crowd.run(&model, &clip, time, *work, threads);
                    timed.push(frame.elapsed().as_secs_f64() * 1e6 / count as f64);
                }
            }
        }
        let row: Vec<f64> = frames.iter_mut().map(|f| median(f)).collect();
        print!("{count:>6}");
        row.iter().for_each(|us| print!(" {us:>13.2}"));
        println!(" {:>14.2}", row[2] * count as f64 / 1000.0);
        table.push(row);
    }
    println!("\nload after: {}", load());
    let growth = table[3][0] / table[0][0];
    // µs a character, times 1,000 characters, in ms.
    let frame_ms = table[3][2] * SIZES[3] as f64 / 1000.0;
    println!(
        "target: a character among 1,000 at most 1.1x one alone, one thread: {growth:.2}x, {}",
        verdict(growth <= 1.1)
    );
    println!(
        "target: 1,000 characters' pose and blend within {FRAME_MS:.1} ms a frame, {threads} threads: {frame_ms:.2} ms, {}",
        verdict(frame_ms <= FRAME_MS)
    );
    if quick {
        println!("(--quick timings are rough: run without --quick for the real figures)");
    }
    println!(
        "RESULT model={} threads={threads} us1={:.2} us1000={:.2} growth={growth:.2} ms1000_all={frame_ms:.2} ms1000_gpu_cpu={:.2}",
        name.split_whitespace().next().unwrap_or("?"),
        table[0][0],
        table[3][0],
        table[3][4]
    );
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

fn median(values: &mut [f64]) -> f64 {
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
