//! Compressed glTF (`crates/formats/src/gltf_import/draco.rs`, `meshopt.rs`) from files someone
//! damaged or made to ask for much: the Draco and meshopt fixtures of `tests/compressed/` with
//! their streams broken, cut short, or their declared sizes raised. Each is refused in one line
//! naming the primitive or buffer view and its extension, with no panic (but a stream with noise
//! in it, which may still decode: then it loads, with no panic); what the streams would decode to
//! is refused before it is made (peak memory measured, not guessed).

use super::support::{fails_cleanly, no_panic, peak_kib, run, scratch};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A fixture's JSON and binary chunk.
fn parts(name: &str) -> (Value, Vec<u8>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/compressed").join(name);
    let bytes = std::fs::read(&path).expect("the fixture");
    let chunk = |at: usize| {
        let length = u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as usize;
        (at + 8 + length, bytes[at + 8..at + 8 + length].to_vec())
    };
    let (next, json) = chunk(12);
    (serde_json::from_slice(&json).expect("JSON"), chunk(next).1)
}

/// A `.glb` of `json` and `bin`, each chunk padded to 4 bytes as the spec asks.
fn glb(json: &Value, bin: &[u8]) -> Vec<u8> {
    let mut text = serde_json::to_vec(json).expect("JSON");
    text.resize(text.len().next_multiple_of(4), b' ');
    let mut bin = bin.to_vec();
    bin.resize(bin.len().next_multiple_of(4), 0);
    let mut out = Vec::new();
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&((12 + 8 + text.len() + 8 + bin.len()) as u32).to_le_bytes());
    for (kind, data) in [(b"JSON", &text), (b"BIN\0", &bin)] {
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
    }
    out
}

fn write(dir: &Path, name: &str, json: &Value, bin: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, glb(json, bin)).expect("written");
    path
}

/// `--info` on `path`: refused in one line, which is returned.
fn refused(path: &Path) -> String {
    let line = fails_cleanly(&run(&["--model", path.to_str().expect("utf-8"), "--info"]), 1);
    println!("{}: {line}", path.display());
    line
}

/// Where the Draco stream lies in the binary chunk: (byteOffset, byteLength) of its view.
fn draco_stream(json: &Value) -> (usize, usize) {
    let view = json["meshes"][0]["primitives"][0]["extensions"]["KHR_draco_mesh_compression"]["bufferView"]
        .as_u64()
        .expect("a Draco primitive");
    let view = &json["bufferViews"][view as usize];
    (
        view["byteOffset"].as_u64().unwrap_or(0) as usize,
        view["byteLength"].as_u64().expect("a length") as usize,
    )
}

#[test]
fn a_damaged_draco_stream_is_refused_in_one_line() {
    let dir = scratch("draco-damaged");
    let (json, bin) = parts("t-pose-draco.glb");
    let (start, length) = draco_stream(&json);
    // Its first bytes (the `DRACO` header) overwritten; its second half gone.
    let mut header = bin.clone();
    header[start..start + 8].fill(0xff);
    let mut cut = bin.clone();
    cut[start + length / 2..start + length].fill(0);
    for (name, bin) in [("header.glb", header), ("cut.glb", cut)] {
        let line = refused(&write(&dir, name, &json, &bin));
        assert!(line.contains("mesh #0 \"body\" primitive 0 (KHR_draco_mesh_compression)"), "{name}: {line}");
        assert!(line.contains("damaged"), "{name}: {line}");
    }
    // Noise in the middle may still decode (to other numbers): then it loads, else it is refused.
    let mut noise = bin.clone();
    (start + length / 3..start + length / 3 + 64).for_each(|i| noise[i] = (i * 151 % 251) as u8);
    let out = run(&["--model", write(&dir, "noise.glb", &json, &noise).to_str().expect("utf-8"), "--info"]);
    // Noise may still decode to some mesh: then it loads and is described, without a panic.
    if !out.status.success() {
        fails_cleanly(&out, 1);
    } else {
        no_panic(&String::from_utf8_lossy(&out.stderr));
        assert!(!out.stdout.is_empty(), "loaded, and --info said nothing");
    }
}

#[test]
fn a_damaged_meshopt_stream_is_refused_in_one_line() {
    let dir = scratch("meshopt-damaged");
    let (json, bin) = parts("t-pose-meshopt.glb");
    // Every view's stream in turn: its header byte (the codec and its version) wrong, or its
    // length cut to a third.
    let views = json["bufferViews"].as_array().expect("views").len();
    let compressed = (0..views).filter(|&v| !json["bufferViews"][v]["extensions"].is_null());
    for v in compressed {
        let place = format!("buffer view {v} (EXT_meshopt_compression)");
        let extension = &json["bufferViews"][v]["extensions"]["EXT_meshopt_compression"];
        let start = extension["byteOffset"].as_u64().unwrap_or(0) as usize;
        let mut header = bin.clone();
        header[start] ^= 0x5f;
        let line = refused(&write(&dir, &format!("header-{v}.glb"), &json, &header));
        assert!(line.contains(&place) && line.contains("cannot be decoded"), "{line}");
        let mut cut = json.clone();
        let length = extension["byteLength"].as_u64().expect("a length");
        cut["bufferViews"][v]["extensions"]["EXT_meshopt_compression"]["byteLength"] = (length / 3).into();
        let line = refused(&write(&dir, &format!("cut-{v}.glb"), &cut, &bin));
        assert!(line.contains(&place), "{line}");
    }
}

/// `path`, loaded with `--info`: refused in one line naming the budget, at a peak under 64 MiB.
fn refused_within_budget(path: &Path) -> String {
    let (status, kib, err) = peak_kib(&["--model", path.to_str().expect("utf-8"), "--info"]);
    no_panic(&err);
    println!("{}: exit {:?}, peak {} MiB: {err}", path.display(), status.code(), kib / 1024);
    assert_eq!(status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("would pass the model's budget of 268435456"), "{err}");
    assert!(kib < 64 * 1024, "peak {kib} KiB");
    err
}

#[test]
fn what_compressed_streams_would_decode_to_is_spent_from_the_budget_before_decoding() {
    let dir = scratch("compressed-budget");
    // meshopt: a fallback buffer of 1 TiB, which would be made before any view is decoded.
    let (mut json, bin) = parts("t-pose-meshopt.glb");
    json["buffers"][1]["byteLength"] = (1u64 << 40).into();
    let err = refused_within_budget(&write(&dir, "huge-fallback.glb", &json, &bin));
    assert!(
        err.contains("buffer 1: its meshopt-compressed data is too large to load: 1099511627776 bytes"),
        "{err}"
    );
    // Draco: its accessors declaring 16 million vertices each (some 900 MB); the stream is the file's.
    let (mut json, bin) = parts("t-pose-draco.glb");
    let primitive = json["meshes"][0]["primitives"][0].clone();
    for (_, accessor) in primitive["attributes"].as_object().expect("attributes") {
        json["accessors"][accessor.as_u64().expect("an index") as usize]["count"] = (1u64 << 24).into();
    }
    let err = refused_within_budget(&write(&dir, "huge-draco.glb", &json, &bin));
    assert!(err.contains("(KHR_draco_mesh_compression): its Draco data is too large to load"), "{err}");
}

/// A Draco stream that decodes to more points than its accessors declare is stopped by the
/// decoder's limits, set from those accessors, or refused when the counts differ: never used.
#[test]
fn a_draco_stream_that_decodes_to_other_counts_than_its_accessors_is_refused() {
    let dir = scratch("draco-counts");
    let (json, bin) = parts("t-pose-draco.glb");
    let position = json["meshes"][0]["primitives"][0]["attributes"]["POSITION"].as_u64().expect("POSITION");
    let decoded = json["accessors"][position as usize]["count"].as_u64().expect("a count");
    // Fewer and more than the stream decodes to.
    for count in [decoded / 2, decoded * 2] {
        let mut json = json.clone();
        json["accessors"][position as usize]["count"] = count.into();
        let line = refused(&write(&dir, &format!("count-{count}.glb"), &json, &bin));
        assert!(line.contains("(KHR_draco_mesh_compression)") && line.contains("damaged"), "{line}");
    }
}

/// Draco data drawn as points (a point cloud) is refused, naming what is decoded instead.
#[test]
fn draco_points_are_refused_as_not_triangles() {
    let dir = scratch("draco-points");
    let (mut json, bin) = parts("t-pose-draco.glb");
    json["meshes"][0]["primitives"][0]["mode"] = 0.into();
    let line = refused(&write(&dir, "points.glb", &json, &bin));
    assert!(line.contains("(KHR_draco_mesh_compression): its Draco data is not triangles"), "{line}");
}
