//! A glTF export writes what a file shares once: one sampler that moves 128 nodes loads as 128
//! channels (the method keeps a channel per bone), and went out as 128 copies of its keys. Now
//! channels with the same keys share their accessors, and those of one animation one sampler
//! (`crates/formats/src/gltf_export/buffer.rs`), so the file comes out about the size it came in.

use super::arm::{arm, text, write};
use super::support::{peak_kib, run, stderr};
use glam::Quat;
use serde_json::{Value, json};

/// The JSON chunk of a `.glb`.
fn glb_json(bytes: &[u8]) -> Value {
    let length = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
    serde_json::from_slice(&bytes[20..20 + length]).expect("JSON")
}

#[test]
fn a_sampler_shared_by_many_channels_is_written_once() {
    let mut g = arm();
    // 128 more bones under the root, all turned by one sampler of 4,096 CUBICSPLINE keys.
    let keys = 4096;
    let times: Vec<f32> = (0..keys).map(|k| k as f32 / 30.0).collect();
    let mut values = Vec::with_capacity(3 * keys * 4);
    for k in 0..keys {
        let q = Quat::from_rotation_z(k as f32 * 0.01).to_array();
        values.extend([0.0; 4]); // in-tangent
        values.extend(q);
        values.extend([0.0; 4]); // out-tangent
    }
    let input = g.floats(&times, "SCALAR");
    let output = g.floats(&values, "VEC4");
    let first = g.json["nodes"].as_array().expect("nodes").len();
    for i in 0..128 {
        g.push("nodes", json!({ "name": format!("n{i}"), "translation": [0.0, i as f32 * 0.01, 0.0] }));
    }
    g.json["nodes"][0]["children"] = json!((1..2).chain(first..first + 128).collect::<Vec<_>>());
    let channels: Vec<Value> = (first..first + 128)
        .map(|node| json!({ "sampler": 0, "target": { "node": node, "path": "rotation" } }))
        .collect();
    let sampler = json!({ "input": input, "output": output, "interpolation": "CUBICSPLINE" });
    g.json["animations"] = json!([{ "name": "spin", "channels": channels, "samplers": [sampler] }]);
    let model = write("export-sharing", "spin.glb", &g.glb());
    let size = std::fs::metadata(&model).expect("written").len();
    let out = model.with_file_name("out.glb");
    let (status, kib, err) = peak_kib(&["--model", text(&model), "--export-gltf", text(&out)]);
    assert!(status.success(), "{err}");
    let written = std::fs::read(&out).expect("the export");
    println!("{size} bytes in, {} bytes out, peak {} MiB", written.len(), kib / 1024);
    assert!((written.len() as u64) < 2 * size, "{} bytes out of {size} in", written.len());
    let json = glb_json(&written);
    let spin = &json["animations"][0];
    assert_eq!(spin["channels"].as_array().expect("channels").len(), 128);
    assert_eq!(spin["samplers"].as_array().expect("samplers").len(), 1);
    // It loads back, the same clip.
    let info = run(&["--model", text(&out), "--info"]);
    assert!(info.status.success(), "{}", stderr(&info));
    assert!(String::from_utf8_lossy(&info.stdout).contains("spin"));
}
