//! One budget for what a model becomes (`crates/formats/src/budget.rs`: `Holding`), not only for
//! what its file holds: a mesh counts once for each node that places it, primitives that share an
//! accessor count it each, and budgets each within their own limit add up. Counted from the file
//! before anything is built, a model past it is refused at once, in one line naming its biggest
//! part, at a peak measured in a child process (`wait4`). An MD5 model's files are refused by their
//! size before they are read.

use super::support::{fails_cleanly, no_panic, peak_kib, program, run, scratch};
use common::cpu;
use common::gltf_build::Gltf;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Instant;

const MIB: i64 = 1024; // KiB

/// An accessor of `count` elements of `type_` floats with no buffer view: all zeros but the
/// first, which a sparse entry sets (to zeros too): a few bytes of the file for any count.
fn zeros(g: &mut Gltf, count: usize, type_: &str, bounds: Option<Value>) -> usize {
    let components = match type_ {
        "SCALAR" => 1,
        "VEC3" => 3,
        _ => 4,
    };
    let indices = g.view(&[0; 4]);
    let values = g.view(&vec![0; 4 * components]);
    let sparse = json!({
        "count": 1,
        "indices": { "bufferView": indices, "componentType": 5125 },
        "values": { "bufferView": values }
    });
    let mut accessor = json!({ "componentType": 5126, "count": count, "type": type_, "sparse": sparse });
    if let Some(bounds) = bounds {
        accessor["min"] = bounds.clone();
        accessor["max"] = bounds;
    }
    g.push("accessors", accessor)
}

/// A mesh of `vertices` zero positions (so many triangles) with `targets` morph targets, placed by
/// `placements` nodes.
fn placed(g: &mut Gltf, vertices: usize, targets: usize, placements: usize) {
    let positions = zeros(g, vertices, "VEC3", Some(json!([0.0, 0.0, 0.0])));
    let target = json!({ "POSITION": positions });
    let primitive = json!({ "attributes": { "POSITION": positions }, "targets": vec![target; targets] });
    g.push("meshes", json!({ "primitives": [primitive] }));
    let first = g.json["nodes"].as_array().map_or(0, Vec::len);
    for i in 0..placements {
        g.push("nodes", json!({ "mesh": 0, "translation": [i as f32, 0.0, 0.0] }));
    }
    g.json["scenes"] = json!([{ "nodes": (first..first + placements).collect::<Vec<_>>() }]);
    g.json["scene"] = json!(0);
}

fn write(dir: &Path, name: &str, g: &Gltf) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, g.glb()).expect("written");
    path
}

/// `args` on `model` are refused in one line (exit 1) that contains each of `words`, within a few
/// seconds and at a small peak.
fn refused_at_once(model: &Path, args: &[&str], words: &[&str]) {
    // The program's CPU time (`common/cpu.rs`), which a busy machine does not stretch.
    let args = [&["--model", model.to_str().expect("utf-8")][..], args].concat();
    let ((status, kib, err), took, clock) = cpu::timed(cpu::children, || peak_kib(&args));
    let seconds = took.as_secs_f64();
    println!(
        "{} {args:?}: exit {:?}, peak {} MiB, {seconds:.1} s",
        model.display(),
        status.code(),
        kib / MIB
    );
    no_panic(&err);
    assert_eq!(status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    for word in words {
        assert!(err.contains(word), "{word:?} not in {err}");
    }
    assert!(kib < 100 * MIB, "peak {} MiB", kib / MIB);
    assert!(seconds < 10.0, "{seconds} s of {clock} time");
}

#[test]
fn a_mesh_placed_by_many_nodes_counts_once_for_each() {
    let dir = scratch("placements");
    // 4,096 vertices placed by 16 nodes: 65,536 vertices, loaded.
    let mut few = Gltf::new();
    placed(&mut few, 4096, 0, 16);
    let few = write(&dir, "few.glb", &few);
    let out = run(&["--model", few.to_str().expect("utf-8"), "--info"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // By 2,500 nodes: 10,240,000 vertices (1.3 GB once built), from a file of a few kilobytes.
    let mut many = Gltf::new();
    placed(&mut many, 4096, 0, 2500);
    let many = write(&dir, "many.glb", &many);
    assert!(std::fs::metadata(&many).expect("written").len() < 300_000);
    let out = dir.join("out.json");
    for args in [&["--info"][..], &["--dump", out.to_str().expect("utf-8")], &["--export-md5", "x.md5mesh"]] {
        refused_at_once(&many, args, &["10240000 vertices", "budget", "each node that places it"]);
    }
    assert!(!out.exists());
}

#[test]
fn primitives_sharing_one_accessor_count_it_each_time() {
    // Four primitives of one accessor of 2^24 vertices (no bytes in the file: zeros): 67 million.
    let dir = scratch("shared-accessor");
    let mut g = Gltf::new();
    let positions = zeros(&mut g, 1 << 24, "VEC3", Some(json!([0.0, 0.0, 0.0])));
    let primitive = json!({ "attributes": { "POSITION": positions } });
    g.push("meshes", json!({ "primitives": vec![primitive; 4] }));
    g.push("nodes", json!({ "mesh": 0 }));
    let model = write(&dir, "shared.glb", &g);
    assert!(std::fs::metadata(&model).expect("written").len() < 1000);
    refused_at_once(&model, &["--info"], &["67108864 vertices"]);
}

#[test]
fn budgets_each_within_their_limit_that_add_up_are_refused() {
    // Animation keys at their own budget (65,536 CUBICSPLINE rotation keys shared by 128 channels:
    // 2^23 keys x channels, 0.44 GB), morph displacements at theirs (4,096 vertices x 2,000
    // targets, counted to their budget of 2^23: 0.27 GB), and the mesh placed by 300 nodes (1.2
    // million vertices, 0.16 GB): each within its own limit, 0.87 GB together.
    let dir = scratch("adding-up");
    let mut g = Gltf::new();
    placed(&mut g, 4096, 2000, 300);
    let times = zeros(&mut g, 65536, "SCALAR", Some(json!([0.0])));
    let turns = zeros(&mut g, 3 * 65536, "VEC4", None);
    let sampler = json!({ "input": times, "output": turns, "interpolation": "CUBICSPLINE" });
    let channels: Vec<Value> =
        (0..128).map(|n| json!({ "sampler": 0, "target": { "node": n, "path": "rotation" } })).collect();
    g.push("animations", json!({ "channels": channels, "samplers": [sampler] }));
    let model = write(&dir, "adding.glb", &g);
    refused_at_once(&model, &["--info"], &["most of it 436207616 bytes of animation keys"]);
}

/// The article's scene exported as MD5 into `dir`: its `.md5mesh`.
fn md5_model(dir: &Path) -> PathBuf {
    let mesh = dir.join("arm.md5mesh");
    let out = program().args(["--export-md5", mesh.to_str().expect("utf-8")]).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    mesh
}

/// A file of `size` bytes that takes no room on the disk (sparse).
fn sparse(path: &Path, size: u64) {
    let file = std::fs::File::create(path).expect("created");
    file.set_len(size).expect("grown");
}

#[test]
fn an_md5_file_past_its_size_budget_is_refused_by_its_size() {
    let dir = scratch("md5-size");
    let mesh = md5_model(&dir);
    // A stray animation of 1.5 GiB beside the model: left out, with a note, never read.
    sparse(&dir.join("huge.md5anim"), 3 << 29);
    let started = Instant::now();
    let (status, kib, err) = peak_kib(&["--model", mesh.to_str().expect("utf-8"), "--dump", "-"]);
    println!("stray .md5anim: exit {:?}, peak {} MiB, {:?}", status.code(), kib / MIB, started.elapsed());
    assert!(status.success(), "{err}");
    assert!(err.contains("skipped the animation huge.md5anim: the file is 1610612736 bytes"), "{err}");
    assert!(kib < 100 * MIB, "peak {} MiB", kib / MIB);
    // A mesh of 1.5 GiB: refused by its size.
    let huge = dir.join("huge.md5mesh");
    sparse(&huge, 3 << 29);
    let out = run(&["--model", huge.to_str().expect("utf-8"), "--info"]);
    let line = fails_cleanly(&out, 1);
    assert!(line.contains("the file is 1610612736 bytes, past what is left of the model's budget"), "{line}");
    refused_at_once(&huge, &["--info"], &["1610612736 bytes"]);
}
