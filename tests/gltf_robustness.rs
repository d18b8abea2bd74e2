//! Thousands of damaged files: every one loads or fails with an error; none panics, none hangs,
//! each takes well under a second.
//!
//! The damage is deterministic (xorshift from fixed seeds), made from the test's own fixture (as a
//! `.gltf` with an embedded buffer and as a `.glb`) and, when `SKINNING_MODELS` is set, from the
//! SimpleSkin and Fox samples: random bit flips, truncations, bytes flipped inside the binary data
//! only (so the JSON stays readable and the accessors' data is what breaks), JSON numbers replaced
//! by edge values (0, -1, 2^32, 1e39...) or by their neighbours (an index one past the end), and
//! JSON keys deleted. The library is called in-process under `catch_unwind`, on a worker thread
//! watched for hangs; some of the files also go through the program.

use common::damage::{gather, judge, through_the_program};
use common::gltf_build::XorShift;
use common::{fixture, sample_model, scratch};
use serde_json::{Value, json};
use skinning_formats::gltf_import::load_from_slice;
use std::time::Instant;

/// A file to damage: JSON (`.gltf`, buffers embedded) or a `.glb` split into its two chunks.
enum Original {
    Json(Value),
    Glb { json: Value, bin: Vec<u8> },
}

impl Original {
    fn from_bytes(bytes: &[u8]) -> Original {
        if !bytes.starts_with(b"glTF") {
            return Original::Json(serde_json::from_slice(bytes).unwrap());
        }
        let length = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let json_len = length(12);
        let json = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
        let bin = bytes[20 + json_len + 8..20 + json_len + 8 + length(20 + json_len)].to_vec();
        Original::Glb { json, bin }
    }

    fn json(&self) -> &Value {
        match self {
            Original::Json(json) | Original::Glb { json, .. } => json,
        }
    }

    /// The file with `json` and `bin` in place of its own.
    fn write(&self, json: &Value, bin: Option<&[u8]>) -> Vec<u8> {
        match self {
            Original::Json(_) => serde_json::to_vec(json).unwrap(),
            Original::Glb { bin: own, .. } => glb(json, bin.unwrap_or(own)),
        }
    }
}

fn glb(json: &Value, bin: &[u8]) -> Vec<u8> {
    let mut json = serde_json::to_vec(json).unwrap();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut out = b"glTF".to_vec();
    for word in [2, total as u32, json.len() as u32] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(bin);
    out
}

/// Calls `f` on the `k`-th value (in document order) that `pick` accepts; returns how many there are.
fn visit(
    value: &mut Value,
    pick: &impl Fn(&Value) -> bool,
    k: &mut usize,
    f: &mut impl FnMut(&mut Value),
) -> usize {
    let mut seen = 0;
    if pick(value) {
        if *k == 0 {
            f(value);
        }
        *k = k.wrapping_sub(1);
        seen += 1;
    }
    match value {
        Value::Array(items) => items.iter_mut().map(|v| visit(v, pick, k, f)).sum::<usize>() + seen,
        Value::Object(map) => map.values_mut().map(|v| visit(v, pick, k, f)).sum::<usize>() + seen,
        _ => seen,
    }
}

/// How many values `pick` accepts.
fn count(json: &Value, pick: &impl Fn(&Value) -> bool) -> usize {
    let mut none = usize::MAX;
    visit(&mut json.clone(), pick, &mut none, &mut |_| {})
}

const EDGE_NUMBERS: [f64; 14] =
    [0.0, 1.0, -1.0, 2.0, 3.0, 255.0, 65535.0, 2147483648.0, 4294967297.0, 1e9, 1e20, -1e20, 1e39, 0.5];

/// One damaged copy of `original`.
fn mutate(original: &Original, bytes: &[u8], rng: &mut XorShift) -> Vec<u8> {
    match rng.below(6) {
        // Bit flips anywhere.
        0 => {
            let mut out = bytes.to_vec();
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(out.len());
                out[at] ^= 1 << rng.below(8);
            }
            out
        }
        // Cut short.
        1 => bytes[..rng.below(bytes.len())].to_vec(),
        // A JSON number replaced by an edge value or by a neighbour of itself.
        2 | 3 => {
            let mut json = original.json().clone();
            let is_number = |v: &Value| v.is_number();
            let n = count(&json, &is_number);
            let mut k = rng.below(n);
            let choice = rng.below(EDGE_NUMBERS.len() + 3);
            visit(&mut json, &is_number, &mut k, &mut |v| {
                let x = v.as_f64().unwrap_or(0.0);
                *v = match choice.checked_sub(EDGE_NUMBERS.len()) {
                    Some(0) => json!(x + 1.0),
                    Some(1) => json!(x - 1.0),
                    Some(_) => json!(x * 2.0),
                    None => json!(EDGE_NUMBERS[choice]),
                };
            });
            original.write(&json, None)
        }
        // A JSON key deleted.
        4 => {
            let mut json = original.json().clone();
            let is_object = |v: &Value| v.as_object().is_some_and(|m| !m.is_empty());
            let mut k = rng.below(count(&json, &is_object));
            let drop = rng.next_number() as usize;
            visit(&mut json, &is_object, &mut k, &mut |v| {
                let map = v.as_object_mut().unwrap();
                let key = map.keys().nth(drop % map.len()).unwrap().clone();
                map.remove(&key);
            });
            original.write(&json, None)
        }
        // Bytes of the binary data changed, the JSON left whole (.glb only; else a bit flip).
        _ => match original {
            Original::Glb { json, bin } => {
                let mut bin = bin.clone();
                for _ in 0..1 + rng.below(16) {
                    let at = rng.below(bin.len());
                    bin[at] = rng.next_number() as u8;
                }
                original.write(json, Some(&bin))
            }
            Original::Json(_) => {
                let mut out = bytes.to_vec();
                let at = rng.below(out.len());
                out[at] ^= 0x20;
                out
            }
        },
    }
}

/// (name, bytes, how many damaged copies).
fn fixtures() -> Vec<(String, Vec<u8>, usize)> {
    let built = fixture::build();
    let mut files = vec![
        ("built.gltf".to_string(), built.embedded(), 2500),
        ("built.glb".to_string(), built.glb(), 2500),
    ];
    for (name, copies) in [("SimpleSkin.gltf", 1500), ("Fox.glb", 500)] {
        if let Some(path) = sample_model(name) {
            files.push((name.to_string(), std::fs::read(path).unwrap(), copies));
        }
    }
    files
}

#[test]
fn thousands_of_damaged_files_load_or_fail_cleanly() {
    let started = Instant::now();
    let (tried, loaded, failures) = gather(|progress| {
        for (name, bytes, copies) in fixtures() {
            let original = Original::from_bytes(&bytes);
            let mut rng = XorShift(0x9E37_79B9_7F4A_7C15 ^ bytes.len() as u64);
            for i in 0..copies {
                let damaged = mutate(&original, &bytes, &mut rng);
                let load = || load_from_slice(&damaged, None).map(|_| ());
                // Kept for reproducing: `skinning --model` on it shows the same panic.
                let keep = || {
                    let kept = std::env::temp_dir().join(format!("skinning-panic-{name}-{i}"));
                    let _ = std::fs::write(&kept, &damaged);
                    kept.display().to_string()
                };
                if progress.send(judge(&format!("{name} copy {i}"), load, keep)).is_err() {
                    return;
                }
            }
        }
    });
    println!(
        "{tried} damaged files in {:.1?}: {loaded} loaded, {} refused with an error, {} failures",
        started.elapsed(),
        tried - loaded - failures.len(),
        failures.len()
    );
    assert!(tried >= 5000, "only {tried} files tried");
    assert!(failures.is_empty(), "{} of {tried}: {:#?}", failures.len(), &failures[..failures.len().min(20)]);
}

#[test]
fn damaged_files_through_the_program_exit_0_or_1_with_one_line() {
    let dir = scratch("damaged");
    let out = dir.join("dump.json");
    let built = fixture::build();
    let original = Original::from_bytes(&built.glb());
    let bytes = built.glb();
    let mut rng = XorShift(42);
    let (mut loaded, mut refused) = (0, 0);
    for i in 0..40 {
        let path = dir.join(format!("damaged{i}.glb"));
        std::fs::write(&path, mutate(&original, &bytes, &mut rng)).unwrap();
        match through_the_program(&path, &out, &format!("copy {i}")) {
            true => loaded += 1,
            false => refused += 1,
        }
    }
    println!("through the program: {loaded} loaded, {refused} refused");
    assert!(loaded > 0 && refused > 0, "the damage should both pass and fail ({loaded}, {refused})");
}
