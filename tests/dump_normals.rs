//! The learner's check, for normals (chapter 8): every skinned normal in a `--dump` file, recomputed
//! from that file alone (each vertex's bind normal and influences, each frame's palette), with no
//! help from the library, in plain `f64` arithmetic as a script would do it. `tests/dump.rs` does
//! the same for the positions.

use common::{run, scratch};
use serde_json::Value;

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array().expect("an array").iter().map(|x| x.as_f64().expect("a number")).collect()
}

/// The 3x3 part of a column-major 4x4 matrix, as rows: `m3[row][column]`.
fn rows(m: &[f64]) -> [[f64; 3]; 3] {
    [0, 1, 2].map(|row| [0, 1, 2].map(|column| m[column * 4 + row]))
}

/// `m⁻ᵀ n` for a 3x3 matrix given by rows: the inverse by the adjugate over the determinant, as a
/// textbook writes it, then transposed.
fn inverse_transpose_times(m: [[f64; 3]; 3], n: [f64; 3]) -> [f64; 3] {
    let c = |r: usize, k: usize| {
        let (r1, r2, k1, k2) = ((r + 1) % 3, (r + 2) % 3, (k + 1) % 3, (k + 2) % 3);
        m[r1][k1] * m[r2][k2] - m[r1][k2] * m[r2][k1]
    };
    let det = m[0][0] * c(0, 0) + m[0][1] * c(0, 1) + m[0][2] * c(0, 2);
    // inverse[i][j] = cofactor[j][i] / det, so its transpose is cofactor[i][j] / det.
    [0, 1, 2].map(|i| (0..3).map(|j| c(i, j) / det * n[j]).sum())
}

fn unit(v: [f64; 3]) -> [f64; 3] {
    let length = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    v.map(|x| x / length)
}

/// The rotation of a unit quaternion [x, y, z, w] applied to v, by the textbook's rotation matrix.
fn rotate([x, y, z, w]: [f64; 4], v: [f64; 3]) -> [f64; 3] {
    let m = [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w), 2.0 * (x * z + y * w)],
        [2.0 * (x * y + z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w)],
        [2.0 * (x * z - y * w), 2.0 * (y * z + x * w), 1.0 - 2.0 * (x * x + y * y)],
    ];
    m.map(|row| row[0] * v[0] + row[1] * v[1] + row[2] * v[2])
}

/// Every skinned normal of `dump`, recomputed from its bind normals and palettes alone: for LBS the
/// inverse transpose of `Σ weight * palette[joint]` (its 3x3 part) times the bind normal, for DQS
/// the bind normal turned by the normalised sum of the joints' rotations; returns how many.
fn check_normals(name: &str, dump: &Value) -> usize {
    let vertices = dump["vertices"].as_array().expect("vertices");
    let dqs = dump["method"] == "dqs";
    let mut checked = 0;
    for frame in dump["frames"].as_array().expect("frames") {
        let normals: Vec<&Value> = [&frame["normals"], &frame["rigid_normals"]]
            .into_iter()
            .filter_map(|n| n.as_array())
            .flatten()
            .collect();
        assert_eq!(normals.len(), vertices.len(), "{name}: one skinned normal per vertex");
        for (v, (vertex, written)) in vertices.iter().zip(normals).enumerate() {
            let bind = numbers(&vertex["normal"]);
            let bind = [bind[0], bind[1], bind[2]];
            let influences = vertex["influences"].as_array().expect("influences");
            let expected = if dqs {
                // 1. Σ ±weight * real, each on the side of the first influence's; 2. normalise.
                let real =
                    |i: &Value| numbers(&frame["dq_palette"][i["joint"].as_u64().unwrap() as usize]["real"]);
                let first = real(&influences[0]);
                let mut sum = [0.0f64; 4];
                for influence in influences {
                    let q = real(influence);
                    let side = if (0..4).map(|k| q[k] * first[k]).sum::<f64>() < 0.0 { -1.0 } else { 1.0 };
                    let weight = side * influence["weight"].as_f64().unwrap();
                    (0..4).for_each(|k| sum[k] += weight * q[k]);
                }
                let length = sum.iter().map(|x| x * x).sum::<f64>().sqrt();
                rotate(sum.map(|x| x / length), bind)
            } else {
                let mut m = [[0.0f64; 3]; 3];
                for influence in influences {
                    let joint = influence["joint"].as_u64().unwrap() as usize;
                    let weight = influence["weight"].as_f64().unwrap();
                    let p = rows(&numbers(&frame["palette"][joint]));
                    (0..9).for_each(|k| m[k / 3][k % 3] += weight * p[k / 3][k % 3]);
                }
                unit(inverse_transpose_times(m, bind))
            };
            let written = numbers(written);
            for axis in 0..3 {
                let difference = (expected[axis] - written[axis]).abs();
                assert!(
                    difference <= 1e-5,
                    "{name} at {}: vertex {v}'s normal axis {axis} off by {difference:e}",
                    frame["time"]
                );
            }
            let length = written.iter().map(|x| x * x).sum::<f64>().sqrt();
            assert!((length - 1.0).abs() <= 1e-6, "{name}: vertex {v}'s normal is {length} long");
            checked += 1;
        }
    }
    checked
}

#[test]
fn every_skinned_normal_can_be_recomputed_from_the_dump_alone() {
    let dir = scratch("learners-normals");
    let mut checked = 0;
    for (clip, method) in ["seed", "bend", "twist"].into_iter().flat_map(|c| [(c, "lbs"), (c, "dqs")]) {
        let path = dir.join(format!("{clip}-{method}.json"));
        let args =
            ["--clip", clip, "--method", method, "--frames", "6", "--fixed-dt", "0.55", "--time", "0.2"];
        let out = run(&[&args[..], &["--dump", path.to_str().expect("utf-8")]].concat());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let dump: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("JSON");
        checked += check_normals(&format!("{clip} {method}"), &dump);
    }
    assert_eq!(checked, 6 * 6 * 13, "every vertex of every frame of every clip, both methods");

    // A glTF model whose joints stretch one axis more than the others, with a rigid part: the
    // inverse transpose is not the plain matrix there.
    let model = dir.join("stretched.gltf");
    std::fs::write(&model, common::fixture::build_with_normals().embedded()).expect("written");
    let path = dir.join("stretched.json");
    let args = [
        "--model",
        model.to_str().unwrap(),
        "--frames",
        "5",
        "--fixed-dt",
        "0.4",
        "--dump",
        path.to_str().unwrap(),
    ];
    let out = run(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let dump: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("JSON");
    assert!(
        dump["frames"][0]["rigid_normals"].as_array().is_some_and(|n| !n.is_empty()),
        "the prop's normals"
    );
    assert!(check_normals("stretched fixture", &dump) > 0);
}

#[test]
fn a_mesh_lit_with_flat_normals_dumps_none() {
    let dir = scratch("flat-normals");
    let model = dir.join("flat.gltf");
    std::fs::write(&model, common::fixture::build().embedded()).expect("written");
    let path = dir.join("flat.json");
    let out = run(&["--model", model.to_str().unwrap(), "--dump", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let dump: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("JSON");
    assert!(dump["vertices"][0].get("normal").is_none() && dump["frames"][0].get("normals").is_none());
    assert!(dump["frames"][0]["skinned"].as_array().is_some_and(|s| !s.is_empty()));
}
