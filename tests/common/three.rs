//! three.js as a second opinion: `tests/three/skinned.mjs` loads a model in three.js (npm `three`),
//! plays clips on its `AnimationMixer`, sets morph weights, and prints where every vertex is. The
//! tests set that beside what the program computes for the same request.
//!
//! It needs Node.js and the npm package `three` in `target/npm`, installed as `.ci/run` does:
//! `npm install --prefix target/npm three`. Without them a test says SKIPPED and passes, unless
//! `SKINNING_REQUIRE_THREE` is set (as in CI), where it fails instead.

use glam::Vec3;
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The `node_modules` folder that holds three.js, if this machine can run it.
pub fn three() -> Option<PathBuf> {
    let modules = super::top().join("target/npm/node_modules");
    let node = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let why = match (node, modules.join("three/package.json").is_file()) {
        (true, true) => return Some(modules),
        (false, _) => "node is not installed".to_string(),
        (true, false) => format!("{} has no three", modules.display()),
    };
    if std::env::var_os("SKINNING_REQUIRE_THREE").is_some() {
        panic!("SKINNING_REQUIRE_THREE is set but three.js cannot run: {why}");
    }
    eprintln!("SKIPPED ({why}; run `npm install --prefix target/npm three`)");
    None
}

/// One glTF primitive as three.js drew it: its node, mesh and primitive index, whether it is
/// skinned, and every vertex's position in the scene's space, in the file's order.
#[derive(Debug)]
pub struct ThreeMesh {
    pub node: usize,
    pub mesh: usize,
    pub primitive: usize,
    pub skinned: bool,
    pub positions: Vec<Vec3>,
}

/// What three.js makes of `request` (see `tests/three/skinned.mjs` for its fields).
pub fn three_positions(modules: &Path, request: &Value) -> Vec<ThreeMesh> {
    let script = super::top().join("tests/three/skinned.mjs");
    let mut child = Command::new("node")
        .arg(script)
        .env("NODE_PATH", modules)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node runs");
    child.stdin.take().expect("a pipe").write_all(request.to_string().as_bytes()).expect("node reads");
    let out = child.wait_with_output().expect("node ends");
    assert!(out.status.success(), "three.js failed on {request}: {}", String::from_utf8_lossy(&out.stderr));
    let answer: Value = serde_json::from_slice(&out.stdout).expect("three.js prints JSON");
    let index = |v: &Value| v.as_u64().expect("an index") as usize;
    answer["meshes"]
        .as_array()
        .expect("a list of meshes")
        .iter()
        .map(|m| ThreeMesh {
            node: index(&m["node"]),
            mesh: index(&m["mesh"]),
            primitive: index(&m["primitive"]),
            skinned: m["skinned"].as_bool().expect("skinned or not"),
            positions: m["positions"]
                .as_array()
                .expect("positions")
                .iter()
                .map(|p| {
                    let c = |i: usize| p[i].as_f64().expect("a number") as f32;
                    Vec3::new(c(0), c(1), c(2))
                })
                .collect(),
        })
        .collect()
}

/// One mesh of the program's dump (`"meshes"`): its node, and its run of vertices.
#[derive(Clone, Debug)]
pub struct DumpPart {
    pub name: String,
    pub bone: usize,
    pub first: usize,
    pub count: usize,
    pub skinned: bool,
}

/// The parts a dump lists, in order.
pub fn dump_parts(dump: &Value) -> Vec<DumpPart> {
    dump["meshes"]
        .as_array()
        .expect("a dump lists its meshes")
        .iter()
        .map(|m| DumpPart {
            name: m["name"].as_str().unwrap_or_default().to_string(),
            bone: m["bone"].as_u64().expect("a mesh's node") as usize,
            first: m["first"].as_u64().expect("a first vertex") as usize,
            count: m["count"].as_u64().expect("a count") as usize,
            skinned: m["skinned"].as_bool().expect("skinned or not"),
        })
        .collect()
}

/// three.js's positions for `part`: its node's primitives of the same kind (skinned or rigid), in
/// primitive order, joined as the program joins them.
pub fn three_part(meshes: &[ThreeMesh], part: &DumpPart) -> Vec<Vec3> {
    let mut mine: Vec<&ThreeMesh> =
        meshes.iter().filter(|m| m.node == part.bone && m.skinned == part.skinned).collect();
    mine.sort_by_key(|m| m.primitive);
    let positions: Vec<Vec3> = mine.iter().flat_map(|m| m.positions.iter().copied()).collect();
    assert_eq!(
        positions.len(),
        part.count,
        "mesh {} (node {}): three.js has another vertex count",
        part.name,
        part.bone
    );
    positions
}

/// A frame's positions from a dump, every vertex in the model's order: the skinned ones, then the
/// rigid ones.
pub fn dump_positions(frame: &Value) -> Vec<Vec3> {
    let points = |key: &str| -> Vec<Vec3> {
        frame[key]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|p| {
                        let c = |i: usize| p[i].as_f64().expect("a number") as f32;
                        Vec3::new(c(0), c(1), c(2))
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut all = points("skinned");
    all.extend(points("rigid"));
    all
}

/// The diagonal of the box around `points`: the model's size, for tolerances.
pub fn size(points: &[Vec3]) -> f32 {
    let (min, max) =
        points.iter().fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    (max - min).length()
}
