//! `cargo bench --bench md5_load`: how long an MD5 model takes to load, files read from disk to
//! model and clips ready to play (`md5_import::load`).
//!
//! The model is made here and written by the program's own exporter: the synthetic tube
//! (`crates/fast/src/synthetic.rs`, 100 bones, 1,152 vertices of four weights each) with its `wave` clip, which
//! gives a `.md5mesh` and a `.md5anim` of over 300 KB each. The load is timed 41 times in a row;
//! the first is thrown away (it fills the caches), the median and the fastest of the other 40 are
//! reported. The target: under 20 ms in a release build (`cargo bench` builds one). The run fails
//! if the median misses it; `--quick` (for CI) keeps 10 loads.
//!
//! The last line is for scripts: `RESULT mesh_kb=M anim_kb=A median_ms=X fastest_ms=Y`.

use skinning_fast::synthetic;
use skinning_formats::md5_export::export;
use skinning_formats::md5_import::load;
use std::time::{Duration, Instant};

const BONES: usize = 100;
const RINGS: usize = 72;
const RING_SIZE: usize = 16;
/// The sizes the issue asks for, and the time.
const AT_LEAST_BYTES: usize = 300_000;
const TARGET: Duration = Duration::from_millis(20);

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let model = synthetic::tube(BONES, RINGS, RING_SIZE);
    let files = export(&model, &Default::default(), &[synthetic::wave()]).expect("the tube exports");
    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder.path().join("tube.md5mesh");
    std::fs::write(&path, &files.mesh).expect("the mesh is written");
    let (clip, anim) = &files.animations[0];
    std::fs::write(folder.path().join(format!("{clip}.md5anim")), anim).expect("the animation is written");
    let (mesh_kb, anim_kb) = (files.mesh.len() / 1000, anim.len() / 1000);
    println!(
        "tube: {} vertices, {BONES} joints; {clip}.md5anim: 2 s at 120 frames a second; files {mesh_kb} KB and {anim_kb} KB",
        model.skin.len()
    );
    assert!(files.mesh.len() >= AT_LEAST_BYTES && anim.len() >= AT_LEAST_BYTES, "the files are too small");

    let runs = if quick { 10 } else { 40 };
    let mut times: Vec<Duration> = (0..=runs)
        .map(|_| {
            let started = Instant::now();
            let loaded = load(&path).expect("the tube loads");
            let took = started.elapsed();
            assert_eq!(
                (loaded.model.skin.len(), loaded.clips.len()),
                (model.skin.len(), 2),
                "the wave and rest"
            );
            took
        })
        .skip(1)
        .collect();
    times.sort();
    let (median, fastest) = (times[times.len() / 2], times[0]);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "load (read, parse, build the model and the clip): median {:.2} ms, fastest {:.2} ms",
        ms(median),
        ms(fastest)
    );
    println!(
        "RESULT mesh_kb={mesh_kb} anim_kb={anim_kb} median_ms={:.2} fastest_ms={:.2}",
        ms(median),
        ms(fastest)
    );
    if median > TARGET {
        eprintln!(
            "md5_load: the median load took {:.2} ms, over the {} ms target",
            ms(median),
            TARGET.as_millis()
        );
        std::process::exit(1);
    }
}
