//! `cargo bench`: what does skinning cost, and what makes it fast?
//!
//! One synthetic tube (64 bones, 4 influences per vertex, see `crates/fast/src/synthetic.rs`) at 10k, 100k and
//! 1M vertices, posed by the `wave` clip, blended nine ways on the same data in the same run
//! (`table.rs` holds them and times them):
//!
//! 1. **blend**: the project's readable blend, `blend::blend`, after `compute_palette` (`world *
//!    offset` once per bone).
//! 2. **textbook**: the article's formula in the order it is written, `world * offset` multiplied
//!    again for every influence of every vertex. The article warns against it; we time it to see why.
//! 3. **copy**: no math at all, only the memory a blend must touch: the vertex array read, one
//!    position per vertex written. No blend can beat it; it is the floor.
//! 4. **dqs**: dual-quaternion skinning (`dual_quat.rs`), palette and dual-quaternion palette
//!    included, for what the other method costs. It computes different positions (that is its
//!    point), so it is checked against LBS only loosely.
//! 5. **fast** and 6. **fast dqs**: the fast path (`fast_path.rs`: `FastPath::new()`, the best lanes of
//!    `lanes.rs` on one thread), positions alone, by linear blending and by dual quaternions: eight
//!    vertices at a time with AVX2+FMA (linear blending four with SSE2), in the processor's vector
//!    lanes, what the program runs.
//! 7. **fast xN**, 8. **copy xN** and 9. **fast dqs xN**: the same on all N threads of the machine
//!    (`FastPath` on `parallel.rs`'s `BlendThreads`), chunk by chunk; bit for bit the one-thread
//!    results, which the run checks.
//!    The speed-up is the one-thread time over this one. At a million vertices the copy itself
//!    gains far less than twice from a second thread (the cores share one memory bus), so there the
//!    fast path on all threads is judged against the copy on all threads.
//!
//! Then **what normals cost** (`normals.rs`): positions alone against positions and normals, at
//! each size. Then **the lanes** (`lanes.rs`): the fast path on each kind of vector lanes this
//! processor has. Then **what every influence costs** (`influences.rs`): the blend with its second
//! pass for the fifth and later influences, against the four-slot loop alone, at 100,000 vertices.
//! Then **what else we tried** (`variants.rs`): other ways to write the blend, against
//! `blend::blend` at 10,000 vertices. And the **crossover** (`crossover.rs`): on small tubes, where all
//! threads start to beat one (`SKINNING_CROSSOVER_MAX=131072` measures larger tubes too). Then
//! **several clips** (`mixing.rs`): two clips in step and an additive layer, against one clip.
//!
//! The harness is a few lines of `std::time::Instant` rather than a crate: the variants run in
//! turn, round after round, so a busy neighbour on the machine slows them all alike; the first
//! round is thrown away (it faults the output pages in and fills the caches); we report the median.
//!
//! `cargo bench --bench blend -- --lanes` prints the lanes table alone, at each size (chapter 14's
//! four lanes against eight). `cargo bench --bench blend -- --quick` does a short run (for CI: it builds, runs, checks the
//! variants agree; its timings are rough). The last line is for scripts:
//! `RESULT threads=N speedup@100k=X.XX speedup@1M=Y.YY blend2/copy2@1M=Z.ZZ normals/positions=W.WW`
//! (`blend2` is the fast path on all N threads, `copy2` the copy on them; `normals/positions` the
//! worst ratio of the normals table).

mod crossover;
mod influences;
mod lanes;
mod mixing;
mod normals;
mod table;
mod variants;

use glam::Mat4;
use skinning_fast::fast_path::FastPath;
use skinning_fast::parallel::BlendThreads;
use skinning_fast::synthetic;
use skinning_method::frame::{Frame, Pose};
use skinning_method::model::Model;
use skinning_method::skin::{SLOTS, compute_palette};
use std::time::Duration;
use table::{VARIANTS, measure};

const BONES: usize = 64;
const RING_SIZE: usize = 16;
const SIZES: [usize; 3] = [10_000, 100_000, 1_000_000];

/// The targets of issue 4, checked at the end of a full run.
const TEXTBOOK_OVER_BLEND_AT_100K: f64 = 4.0;
const BLEND_OVER_COPY_AT_1M: f64 = 2.5;
/// The targets of issue 26: all threads against one at 100k, and against the copy on all threads
/// at 1M (on a 2-core machine).
const SPEEDUP_AT_100K: f64 = 1.8;
const ALL_OVER_COPY_AT_1M: f64 = 1.2;

/// One posed tube: what every variant reads.
struct Posed {
    model: Model,
    /// World transforms of the bones at the pose being blended.
    world: Vec<Mat4>,
}

/// "met" or "NOT met".
fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "NOT met" }
}

fn main() {
    // Cargo passes `--bench`; ours are `--quick` and `--lanes`.
    let quick = std::env::args().any(|a| a == "--quick");
    let budget = if quick { Duration::from_millis(100) } else { Duration::from_millis(1500) };
    if std::env::args().any(|a| a == "--lanes") {
        // The lanes table alone, at every size: what four lanes cost against eight.
        println!("blend benchmark, the lanes alone: {}", cpu_model());
        for vertices in SIZES {
            let (tube, palette) = tube_with_palette(vertices);
            lanes::run(&tube.skin, &palette, budget);
        }
        return;
    }
    let crossover_sizes = crossover::sizes().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    // The fast path on all the machine's threads, this one among them; every skin in parallel,
    // however small.
    let pool = BlendThreads::new(threads()).unwrap_or_else(|e| panic!("{e}")).parallel_from(0);
    let all = FastPath::new().on(pool);
    heading(&all, quick);
    let rows: Vec<Row> = SIZES.into_iter().map(|vertices| nine_ways(vertices, &all, budget)).collect();
    let normals_over_positions = the_other_costs(&all, budget, quick, &crossover_sizes);
    println!();
    targets(&rows, all.threads.count());
    if quick {
        println!("(--quick timings are rough: run without --quick for the real figures)");
    }
    let at_100k = at(&rows, 100_000);
    let at_1m = at(&rows, 1_000_000);
    println!(
        "RESULT threads={} speedup@100k={:.2} speedup@1M={:.2} blend2/copy2@1M={:.2} normals/positions={:.2}",
        all.threads.count(),
        at_100k.speedup,
        at_1m.speedup,
        at_1m.all_over_copy_all,
        normals_over_positions
    );
}

/// What is measured, on what, and the table's head.
fn heading(all: &FastPath, quick: bool) {
    let n = all.threads.count();
    println!(
        "blend benchmark: {} ({} threads available, {} lanes), one thread and {n}",
        cpu_model(),
        threads(),
        skinning_fast::lanes::Lanes::best().name()
    );
    println!(
        "tube of {BONES} bones, {SLOTS} influences per vertex; median of interleaved rounds{}\n",
        if quick { " (--quick: short run, rough numbers)" } else { "" }
    );
    println!(
        "{:>10}  {:<11} {:>10} {:>10} {:>12}   ratios",
        "vertices", "variant", "ns/vertex", "(best)", "Mvertices/s"
    );
}

/// The tube of `vertices` blended the nine ways (`table.rs`): a line each, and the ratios the
/// targets need.
fn nine_ways(vertices: usize, all: &FastPath, budget: Duration) -> Row {
    let n = all.threads.count();
    let posed = posed_tube(vertices);
    let timings = measure(&posed, all, budget);
    let ns = timings.map(|t| {
        (t.median.as_secs_f64() * 1e9 / vertices as f64, t.best.as_secs_f64() * 1e9 / vertices as f64)
    });
    let ratio = |a: usize, b: usize| ns[a].0 / ns[b].0;
    let row = Row {
        vertices,
        textbook_over_blend: ratio(1, 0),
        blend_over_copy: ratio(0, 2),
        fast_over_blend: ratio(4, 0),
        speedup: ratio(4, 6),
        all_over_copy_all: ratio(6, 7),
    };
    for (i, (name, (median, best))) in VARIANTS.iter().zip(ns).enumerate() {
        let ratio = match i {
            0 => format!("textbook / blend = {:.1}x", row.textbook_over_blend),
            1 => format!("blend / copy = {:.2}x", row.blend_over_copy),
            2 => format!("dqs / blend = {:.2}x", ratio(3, 0)),
            3 => format!("fast / blend = {:.2}x", row.fast_over_blend),
            4 => format!("fast / copy = {:.2}x", ratio(4, 2)),
            5 => format!("dqs / fast dqs = {:.2}x", ratio(3, 5)),
            6 => format!("fast / fast x{n} = {:.2}x (speed-up)", row.speedup),
            7 => format!(
                "fast x{n} / copy x{n} = {:.2}x; copy / copy x{n} = {:.2}x",
                row.all_over_copy_all,
                ratio(2, 7)
            ),
            _ => format!("fast dqs / fast dqs x{n} = {:.2}x (speed-up)", ratio(5, 8)),
        };
        println!(
            "{:>10}  {:<11} {:>10.2} {:>10.2} {:>12.0}   {ratio}",
            if i == 0 { thousands(vertices) } else { String::new() },
            name.replace('N', &n.to_string()),
            median,
            best,
            1e3 / median,
        );
    }
    row
}

/// After the table: what normals cost, on one thread; the fast path on each kind of lanes; what
/// every influence costs; what else we tried; where all threads start to pay; what several clips
/// at once cost. Returns the worst normals / positions ratio.
fn the_other_costs(all: &FastPath, budget: Duration, quick: bool, crossover_sizes: &[usize]) -> f64 {
    let with_palette = tube_with_palette;
    let normals_over_positions = normals::run(&SIZES, budget, with_palette);
    let (tube, palette) = with_palette(10_000);
    lanes::run(&tube.skin, &palette, budget);

    // What every influence costs, on one thread.
    let (tube_100k, palette_100k) = with_palette(100_000);
    influences::run(&tube_100k, &palette_100k, budget);

    // What else we tried, on one thread; then where all threads start to pay.
    variants::run(&tube.skin, &palette, budget);
    crossover::run(all, crossover_sizes, if quick { 20 } else { 300 });
    // What several clips at once cost, against sampling one (chapter 11).
    mixing::run(budget);
    normals_over_positions
}

/// A posed tube of `vertices` vertices and its palette.
fn tube_with_palette(vertices: usize) -> (Model, Vec<Mat4>) {
    let posed = posed_tube(vertices);
    let mut palette = vec![Mat4::IDENTITY; BONES];
    compute_palette(&posed.world, posed.model.skin.joints(), &mut palette);
    (posed.model, palette)
}

/// The row of the tube of `size` vertices.
fn at(rows: &[Row], size: usize) -> &Row {
    rows.iter().find(|r| r.vertices == size).expect("size was measured")
}

/// Each target, met or not; `n` threads.
fn targets(rows: &[Row], n: usize) {
    let at_100k = at(rows, 100_000);
    let at_1m = at(rows, 1_000_000);
    println!(
        "target: blend at least {TEXTBOOK_OVER_BLEND_AT_100K}x faster than textbook at 100k: {:.1}x, {}",
        at_100k.textbook_over_blend,
        verdict(at_100k.textbook_over_blend >= TEXTBOOK_OVER_BLEND_AT_100K)
    );
    println!(
        "target: blend within {BLEND_OVER_COPY_AT_1M}x of the copy floor at 1M: {:.2}x, {}",
        at_1m.blend_over_copy,
        verdict(at_1m.blend_over_copy <= BLEND_OVER_COPY_AT_1M)
    );
    let slowest = rows.iter().map(|r| r.fast_over_blend).fold(0.0, f64::max);
    println!(
        "target: fast no slower than blend at every size: worst fast / blend = {slowest:.2}x, {}",
        verdict(slowest <= 1.0)
    );
    println!(
        "target: fast on {n} threads at least {SPEEDUP_AT_100K}x faster than on one at 100k: {:.2}x, {}",
        at_100k.speedup,
        verdict(at_100k.speedup >= SPEEDUP_AT_100K)
    );
    println!(
        "target: fast on {n} threads within {ALL_OVER_COPY_AT_1M}x of the copy on {n} threads at 1M: {:.2}x, {} \
         (speed-up {:.2}x)",
        at_1m.all_over_copy_all,
        verdict(at_1m.all_over_copy_all <= ALL_OVER_COPY_AT_1M),
        at_1m.speedup
    );
}

/// One size's ratios, for the targets.
struct Row {
    vertices: usize,
    textbook_over_blend: f64,
    blend_over_copy: f64,
    fast_over_blend: f64,
    /// The fast path on one thread over all threads.
    speedup: f64,
    /// The fast path on all threads over the copy on all threads.
    all_over_copy_all: f64,
}

/// A tube of `vertices` vertices, posed mid-wave so every bone is turned.
fn posed_tube(vertices: usize) -> Posed {
    assert!(vertices.is_multiple_of(RING_SIZE), "whole rings");
    let model = synthetic::tube(BONES, vertices / RING_SIZE, RING_SIZE);
    let mut pose = Pose::new(&model);
    pose.run(&model, Frame::new(&synthetic::wave(), 0.7).palette_only())
        .expect("linear blending takes any palette");
    Posed { world: pose.world, model }
}
/// 1000000 as "1,000,000".
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The CPU's name from /proc/cpuinfo (Linux), for the record.
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, name)| name.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string())
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
