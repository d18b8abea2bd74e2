//! Big model files. One that is not glTF is refused from its first bytes, however big, without
//! being read; a valid `.glb` is read once, its binary chunk straight into the buffer it becomes.

use super::arm::{moves_as_the_spec_says, text, write};
use super::support::{Folder, has_tool, no_panic, program, scratch, skip};
use common::cpu;
use common::gltf_build::Gltf;
use serde_json::json;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::ExitStatus;
use std::time::Duration;

/// Runs the program with `args` (in `dir`, with at most `limit` bytes of address space) and
/// returns its exit status, standard error, and peak resident memory in KiB as `/usr/bin/time`
/// counts it. (The kernel's count for a child of this test would not do: a child starts as a
/// copy of this test, and its peak includes the test's own memory.) None if `time` is missing.
pub fn peak(dir: &Path, args: &[&str], limit: Option<u64>) -> Option<(ExitStatus, String, i64)> {
    if !has_tool("/usr/bin/time") {
        skip("/usr/bin/time is not installed (Debian: apt-get install time)");
        return None;
    }
    let report = dir.join("peak.txt");
    let mut command = std::process::Command::new("/usr/bin/time");
    command.args(["-f", "%M", "-o", text(&report)]).arg(program().get_program()).args(args).current_dir(dir);
    if let Some(limit) = limit {
        // SAFETY: between fork and exec only `setrlimit`, which is async-signal-safe, runs.
        unsafe {
            command.pre_exec(move || {
                let limit = libc::rlimit { rlim_cur: limit, rlim_max: limit };
                libc::setrlimit(libc::RLIMIT_AS, &limit);
                Ok(())
            });
        }
    }
    let out = command.stdout(std::process::Stdio::null()).output().expect("time runs");
    let kib = std::fs::read_to_string(&report).expect("time's report");
    std::fs::remove_file(&report).expect("remove the report");
    let kib = kib.lines().last().and_then(|l| l.trim().parse().ok()).expect("a number of KiB");
    Some((out.status, String::from_utf8_lossy(&out.stderr).into_owned(), kib))
}

/// 1 GiB of zeros named `.glb`, written sparse (no disk is used), refused in one line under a
/// 512 MiB address-space limit, at once (held to 5 s of CPU time), with a peak of a few MiB: the program
/// looks at the first bytes (neither `glTF` nor `{`) before reading on. It used to read the file
/// whole first (1,053,252 KiB at its peak), and under this limit it could not.
#[test]
fn a_gigabyte_of_zeros_is_refused_from_its_first_bytes() {
    let dir = scratch("zeros");
    let path = dir.join("zeros.glb");
    std::fs::File::create(&path).and_then(|f| f.set_len(1 << 30)).expect("a sparse file");
    let before = Folder::of(&dir);
    let args = ["--model", text(&path), "--dump", "dump.json"];
    // The program's CPU time (`common/cpu.rs`), which a busy machine does not stretch.
    let (measured, took, clock) = cpu::timed(cpu::children, || peak(&dir, &args, Some(512 << 20)));
    let Some((status, err, peak)) = measured else { return };
    no_panic(&err);
    assert_eq!((status.code(), err.lines().count()), (Some(1), 1), "{status}: {err}");
    assert!(err.contains("not a glTF 2.0 file (it is neither JSON nor a .glb)"), "{err}");
    assert!(peak < 64 << 10, "peak {peak} KiB for a file it should not read");
    assert!(took < Duration::from_secs(5), "{took:?} of {clock} time");
    before.unchanged(&dir);
}

/// A `.glb` of a `side` x `side` grid of vertices skinned to the arm's two joints, in triangles.
fn grid(side: u32) -> Gltf {
    let mut g = Gltf::new();
    let n = side as f32;
    let mut positions = Vec::new();
    let mut weights = Vec::new();
    for y in 0..side {
        for x in 0..side {
            positions.extend([x as f32 / n, y as f32 / n, 0.0]);
            let a = x as f32 / (n - 1.0);
            weights.extend([1.0 - a, a, 0.0, 0.0]);
        }
    }
    let mut indices = Vec::new();
    for y in 0..side - 1 {
        for x in 0..side - 1 {
            let i = y * side + x;
            indices.extend([i, i + 1, i + side, i + 1, i + side + 1, i + side]);
        }
    }
    let attributes = json!({
        "POSITION": g.floats(&positions, "VEC3"),
        "JOINTS_0": g.ints(&[0, 1, 0, 0].repeat((side * side) as usize), "VEC4", 5121, false),
        "WEIGHTS_0": g.floats(&weights, "VEC4"),
    });
    let indices = g.ints(&indices, "SCALAR", 5125, false);
    g.push("nodes", json!({ "name": "root", "children": [1] }));
    g.push("nodes", json!({ "name": "arm", "translation": [1.0, 0.0, 0.0] }));
    g.push("nodes", json!({ "name": "body", "mesh": 0, "skin": 0 }));
    g.json["scenes"] = json!([{ "nodes": [0, 2] }]);
    let mut ibm = glam::Mat4::IDENTITY.to_cols_array().to_vec();
    ibm.extend(glam::Mat4::from_translation(-glam::Vec3::X).to_cols_array());
    let ibm = g.floats(&ibm, "MAT4");
    g.push("skins", json!({ "joints": [0, 1], "inverseBindMatrices": ibm }));
    g.push("meshes", json!({ "primitives": [{ "attributes": attributes, "indices": indices }] }));
    g
}

/// What a valid `.glb` costs beyond a tiny one, measured against its size (360,000 vertices and
/// 717,602 triangles, 20 MB). The file is read once, its binary chunk straight into its buffer,
/// and the numbers decoded from it are freed once the skin holds them. What is left at the peak:
/// the model itself (48 bytes a vertex, and its faces and edges, 1.7 times a file like this one,
/// whose vertices carry nothing this program leaves out), the file's numbers while the meshes are
/// read, and one primitive's index list. It measured 3.5 times the file; it was 4.9.
#[test]
fn a_valid_glb_is_read_once() {
    let dir = scratch("big-glb");
    let (small, big) = (dir.join("small.glb"), dir.join("big.glb"));
    std::fs::write(&small, grid(8).glb()).expect("write");
    let bytes = grid(600).glb();
    std::fs::write(&big, &bytes).expect("write");
    drop(bytes);
    let size = std::fs::metadata(&big).expect("written").len() as f64;
    let kib = |path: &Path| {
        let (status, err, kib) = peak(&dir, &["--model", text(path), "--info"], None)?;
        assert!(status.success(), "{err}");
        Some(kib)
    };
    let (Some(big_kib), Some(small_kib)) = (kib(&big), kib(&small)) else { return };
    let growth = (big_kib - small_kib) as f64 * 1024.0;
    let ratio = growth / size;
    println!("a {size} byte .glb: peak memory grew by {ratio:.2} times its size");
    // 4.9 before: the whole file in memory, then its binary chunk copied out of it, then the
    // decoded numbers and the edges' growth room beside the model.
    assert!(ratio < 4.0, "peak grew by {ratio:.2} times the file");
    // The .glb road gives the spec's positions: the arm, as a .glb.
    let arm = write("big-glb-arm", "arm.glb", &super::arm::arm().glb());
    moves_as_the_spec_says(&arm, &[]);
}
