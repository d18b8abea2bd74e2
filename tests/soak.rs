//! Soak: the headless program runs for a long stretch, and nothing creeps.
//!
//! Two things go wrong only after many frames, so a short test never sees them:
//!
//! - **memory that grows**: a buffer or GL object made every frame and never freed. The program's
//!   `--stats` line reports its resident memory after warm-up and after the last frame; they must
//!   match to within the allocator's noise. (This check found that the headless loop never handed
//!   its frames to the driver, and Mesa queued them all: 59 KB a frame.)
//! - **time that drifts**: the program adds `dt` to its clock every frame. Added 20,000 times in
//!   `f64` the error stays near 1e-11 s, and the clip wraps time into one loop before it turns
//!   into `f32`. So the last frame must show the pose computed directly at `start + (N - 1) * dt`.
//!
//! `SKINNING_SOAK_FRAMES` sets the length (default 20,000, about 10 s in a debug build; at least
//! 5,000). Run it alone with `cargo test --test soak -- --nocapture` to see the figures.

mod common;

use common::Image;
use skinning_method::frame::Pose;
use skinning_method::scene;
use std::time::Instant;

const DEFAULT_FRAMES: u64 = 20_000;
const MIN_FRAMES: u64 = 5_000;
const DT: f64 = 0.016;
/// Starting away from 0 so the start time takes part in the sum.
const START: f64 = 0.25;
/// Resident memory may wobble this much after warm-up (the allocator's arenas and the driver's
/// threads move by about a megabyte); a leak of a kilobyte a frame passes it within 5,000 frames.
const RESIDENT_SLACK_KIB: u64 = 4096;

/// The numbers of the program's `--stats` line that the soak checks.
struct Stats {
    allocations: u64,
    resident_warm_kib: u64,
    resident_last_kib: u64,
    final_time: f64,
}

/// Reads "... 0 allocations drawing frames 4..N, resident W KiB at frame 500, L KiB at frame N,
/// final time T s".
fn parse_stats(line: &str) -> Stats {
    let number_before = |marker: &str| -> &str {
        let (before, _) = line.split_once(marker).unwrap_or_else(|| panic!("no {marker:?} in {line}"));
        before.rsplit(' ').next().expect("a word before the marker")
    };
    let resident: Vec<u64> =
        line.split(" KiB at frame").filter_map(|part| part.rsplit(' ').next()?.parse().ok()).collect();
    assert_eq!(resident.len(), 2, "two resident figures in {line}");
    let final_time = line.rsplit_once("final time ").expect("a final time").1.trim_end_matches(" s");
    Stats {
        allocations: number_before(" allocations drawing frames").parse().expect("an allocation count"),
        resident_warm_kib: resident[0],
        resident_last_kib: resident[1],
        final_time: final_time.parse().expect("the final time is a number"),
    }
}

#[test]
fn a_long_headless_run_neither_grows_nor_drifts() {
    let frames: u64 = match std::env::var("SKINNING_SOAK_FRAMES") {
        Ok(v) => v.parse().expect("SKINNING_SOAK_FRAMES is a whole number"),
        Err(_) => DEFAULT_FRAMES,
    };
    assert!(
        frames >= MIN_FRAMES,
        "a soak of {frames} frames is too short to show a creep; use {MIN_FRAMES}+"
    );
    let dir = common::scratch("soak");
    let last_frame = dir.join("last.png");
    let (n, dt, start) = (frames.to_string(), DT.to_string(), START.to_string());

    let started = Instant::now();
    // No words: the corner line shows the frame's cost, which differs from run to run.
    let args =
        ["--headless", "--no-text", "--clip", "seed", "--time", &start, "--fixed-dt", &dt, "--frames", &n];
    let Some(out) =
        common::run_gl(&[&args[..], &["--stats", "--screenshot", last_frame.to_str().unwrap()]].concat())
    else {
        return;
    };
    let seconds = started.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().find(|l| l.starts_with("stats:")).expect("--stats prints a stats line");
    let stats = parse_stats(line);

    // Memory: no allocation in a steady frame, and resident memory flat after warm-up.
    assert_eq!(stats.allocations, 0, "{line}");
    let growth = stats.resident_last_kib as i64 - stats.resident_warm_kib as i64;
    assert!(
        growth <= RESIDENT_SLACK_KIB as i64,
        "resident memory grew by {growth} KiB after warm-up over {frames} frames: {line}"
    );

    // Time: the program's clock, added up frame by frame, against the time computed directly.
    let direct = START + (frames - 1) as f64 * DT;
    let drift = stats.final_time - direct;
    assert!(drift.abs() < 1e-6, "the clock drifted by {drift} s over {frames} frames");

    // The pose at the program's time against the pose at the direct time.
    let model = scene::article().expect("the article's scene");
    let (mut at_final, mut at_direct) = (Pose::new(&model), Pose::new(&model));
    at_final.update(&model, &scene::seed(), stats.final_time);
    at_direct.update(&model, &scene::seed(), direct);
    let pose_difference =
        at_final.skinned.iter().zip(&at_direct.skinned).map(|(a, b)| a.distance(*b)).fold(0.0, f32::max);
    assert!(pose_difference < 1e-5, "the final pose is off by {pose_difference}");

    // And what the program drew last is, pixel for pixel, a fresh one-frame run at the direct time.
    let fresh_frame = dir.join("direct.png");
    let direct_time = direct.to_string();
    let fresh = [
        "--headless",
        "--no-text",
        "--clip",
        "seed",
        "--time",
        &direct_time,
        "--frames",
        "1",
        "--screenshot",
    ];
    common::run_gl(&[&fresh[..], &[fresh_frame.to_str().unwrap()]].concat()).expect("GL worked a moment ago");
    let (last, fresh) = (Image::load(&last_frame), Image::load(&fresh_frame));
    assert!(last.rgba == fresh.rgba, "frame {frames} differs from the frame drawn directly at {direct} s");
    assert!(last.count(common::Class::Red) > 0, "the skinned mesh is in the picture");

    eprintln!(
        "soak: {frames} frames in {seconds:.1} s; resident {} KiB at warm-up, {} KiB at the end ({growth:+} KiB); \
         clock drift {drift:.1e} s; final pose off by {pose_difference:.1e}",
        stats.resident_warm_kib, stats.resident_last_kib
    );
    let _ = std::fs::remove_dir_all(&dir);
}
