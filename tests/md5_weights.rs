//! An MD5 vertex with six weights: every weight blends, so article 002's two formulas agree for it at
//! every frame, and `--export-md5` writes all six back.
//!
//! The model is written here. Six joints in a small tree, each turned its own way in the bind pose;
//! vertex 0 hangs on all six (biases 0.3, 0.2, 0.15, 0.15, 0.1, 0.1), each weight's position the
//! vertex taken into that joint's space, as an exporter writes it; vertices 1 and 2 have one and two
//! weights. The animation `swing` moves and turns every joint in each of its four frames. Seed
//! 002's first formula, `Σ bias · (joint.position + joint.orientation ⊗ weight.position)` with each
//! frame's joints, is worked out here in f64; the program's positions come from the article's
//! formula, the palette and the blend.

use common::quaternion::{conjugate, hamilton};
use skinning_formats::md5_export::export;
use skinning_formats::md5_import::load_from_str;
use skinning_method::frame::{ClipAt, Frame, Pose};

/// A joint placed in object space (or, in an animation frame, relative to its parent).
#[derive(Clone, Copy)]
struct Placed {
    position: [f64; 3],
    /// x y z as the file stores them; w = -sqrt(1 - x² - y² - z²).
    xyz: [f64; 3],
}

impl Placed {
    fn orientation(&self) -> [f64; 4] {
        let [x, y, z] = self.xyz;
        [x, y, z, -(1.0 - x * x - y * y - z * z).max(0.0).sqrt()]
    }
}

/// `q ⊗ v`: v turned by the unit quaternion q, as `q (v, 0) q*`.
fn rotate(q: [f64; 4], v: [f64; 3]) -> [f64; 3] {
    let [x, y, z, _] = hamilton(hamilton(q, [v[0], v[1], v[2], 0.0]), conjugate(q));
    [x, y, z]
}

/// Each joint's parent (-1 for the root).
const PARENTS: [i32; 6] = [-1, 0, 1, 0, 3, 0];

/// The bind pose, in object space.
const BIND: [Placed; 6] = [
    Placed { position: [0.0, 0.0, 0.0], xyz: [0.0, 0.0, 0.0] },
    Placed { position: [1.0, 0.0, 0.0], xyz: [0.0, 0.0, -0.6] },
    Placed { position: [1.0, 1.0, 0.0], xyz: [0.0, 0.0, 0.0] },
    Placed { position: [0.0, 0.0, 1.0], xyz: [0.5, 0.0, 0.0] },
    Placed { position: [0.0, 1.0, 1.0], xyz: [0.0, 0.3, 0.0] },
    Placed { position: [-1.0, 0.0, 0.0], xyz: [0.1, 0.2, 0.3] },
];

/// Vertex 0: on all six joints.
const BIASES: [f64; 6] = [0.3, 0.2, 0.15, 0.15, 0.1, 0.1];
const VERTEX: [f64; 3] = [0.2, 0.3, 0.4];

/// Each vertex's weights: (joint, bias, position in the joint's space).
fn weights() -> Vec<Vec<(usize, f64, [f64; 3])>> {
    // A weight's position is the vertex taken into its joint's space: the joint's turn undone.
    let into = |joint: usize, p: [f64; 3]| {
        let j = BIND[joint];
        rotate(conjugate(j.orientation()), [0, 1, 2].map(|i| p[i] - j.position[i]))
    };
    let v1 = [0.5, -0.2, 0.0];
    let v2 = [1.2, 0.4, 0.1];
    vec![
        (0..6).map(|j| (j, BIASES[j], into(j, VERTEX))).collect(),
        vec![(0, 1.0, into(0, v1))],
        vec![(0, 0.5, into(0, v2)), (1, 0.5, into(1, v2))],
    ]
}

fn triple(p: [f64; 3]) -> String {
    format!("( {:.9} {:.9} {:.9} )", p[0], p[1], p[2])
}

fn mesh() -> String {
    let mut text = String::from("MD5Version 10\ncommandline \"\"\nnumJoints 6\nnumMeshes 1\n\njoints {\n");
    for (j, (placed, parent)) in BIND.iter().zip(PARENTS).enumerate() {
        text += &format!("\t\"j{j}\"\t{parent} {} {}\n", triple(placed.position), triple(placed.xyz));
    }
    text += "}\n\nmesh {\n\tshader \"six\"\n\tnumverts 3\n";
    let weights = weights();
    let mut first = 0;
    for (v, w) in weights.iter().enumerate() {
        text += &format!("\tvert {v} ( 0 0 ) {first} {}\n", w.len());
        first += w.len();
    }
    text += &format!("\tnumtris 1\n\ttri 0 0 2 1\n\tnumweights {first}\n");
    for (i, (joint, bias, position)) in weights.iter().flatten().enumerate() {
        text += &format!("\tweight {i} {joint} {bias} {}\n", triple(*position));
    }
    text + "}\n"
}

const FRAMES: usize = 4;
const RATE: f64 = 10.0;

/// Joint j in frame k, relative to its parent (a root's in object space): it moves and turns a
/// little more each frame.
fn local(j: usize, k: usize) -> Placed {
    let (j, k) = (j as f64, k as f64);
    let bind = BIND[j as usize];
    let parent_relative = match PARENTS[j as usize] {
        -1 => bind.position,
        p => {
            let parent = BIND[p as usize];
            let apart = [0, 1, 2].map(|i| bind.position[i] - parent.position[i]);
            rotate(conjugate(parent.orientation()), apart)
        }
    };
    Placed {
        position: [0, 1, 2].map(|i| parent_relative[i] + 0.05 * k * (i as f64 + 1.0 - j * 0.2)),
        xyz: [0.1 * k - 0.05 * j, 0.08 * k * (j - 2.0) / 3.0, 0.12 * k + 0.03 * j],
    }
}

fn anim() -> String {
    let mut text = format!(
        "MD5Version 10\ncommandline \"\"\nnumFrames {FRAMES}\nnumJoints 6\nframeRate {RATE}\n\
         numAnimatedComponents 36\n\nhierarchy {{\n"
    );
    for (j, parent) in PARENTS.iter().enumerate() {
        text += &format!("\t\"j{j}\"\t{parent} 63 {}\n", 6 * j);
    }
    text += "}\n\nbounds {\n";
    text += &"\t( -3 -3 -3 ) ( 3 3 3 )\n".repeat(FRAMES);
    text += "}\n\nbaseframe {\n";
    text += &"\t( 0 0 0 ) ( 0 0 0 )\n".repeat(6);
    text += "}\n";
    for k in 0..FRAMES {
        text += &format!("\nframe {k} {{\n");
        for j in 0..6 {
            let l = local(j, k);
            let [x, y, z] = l.position;
            let [qx, qy, qz] = l.xyz;
            text += &format!("\t{x:.9} {y:.9} {z:.9} {qx:.9} {qy:.9} {qz:.9}\n");
        }
        text += "}\n";
    }
    text
}

/// Frame k's joints in object space: a root's are its own, a child's its parent's with its own
/// added, `position = parent + parent ⊗ local`, `orientation = parent · local`.
fn animated(k: usize) -> Vec<([f64; 3], [f64; 4])> {
    let mut out: Vec<([f64; 3], [f64; 4])> = Vec::new();
    for (j, parent) in PARENTS.into_iter().enumerate() {
        let l = local(j, k);
        out.push(match parent {
            -1 => (l.position, l.orientation()),
            p => {
                let (position, orientation) = out[p as usize];
                let moved = rotate(orientation, l.position);
                ([0, 1, 2].map(|i| position[i] + moved[i]), hamilton(orientation, l.orientation()))
            }
        });
    }
    out
}

/// Seed 002's first formula: `Σ bias · (joint.position + joint.orientation ⊗ weight.position)`.
fn first_formula(joints: &[([f64; 3], [f64; 4])], weights: &[(usize, f64, [f64; 3])]) -> [f64; 3] {
    let mut sum = [0.0; 3];
    for &(joint, bias, position) in weights {
        let turned = rotate(joints[joint].1, position);
        for i in 0..3 {
            sum[i] += bias * (joints[joint].0[i] + turned[i]);
        }
    }
    sum
}

/// The program's positions at every frame of the first clip, against the first formula.
fn agrees_at_every_frame(imported: &skinning_formats::md5_import::Imported) -> f64 {
    let (model, clip) = (&imported.model, &imported.clips[0]);
    let mut pose = Pose::new(model);
    let mut worst = 0.0f64;
    for k in 0..FRAMES {
        // Frame k itself, the last one too (a clip's time wraps at its end).
        pose.run(model, Frame::new(&ClipAt(clip), k as f64 / RATE))
            .expect("linear blending takes any palette");
        for (v, weights) in weights().iter().enumerate() {
            let first = first_formula(&animated(k), weights);
            let got = pose.skinned[v];
            let apart = [got.x, got.y, got.z]
                .iter()
                .zip(first)
                .map(|(&g, f)| (g as f64 - f).abs())
                .fold(0.0, f64::max);
            assert!(
                apart <= 1e-5,
                "frame {k}, vertex {v}: the program has {got}, the first formula {first:?}"
            );
            worst = worst.max(apart);
        }
    }
    worst
}

#[test]
fn a_vertex_with_six_weights_blends_where_seed_002s_formula_puts_it_at_every_frame() {
    let imported = load_from_str(&mesh(), &[("swing", &anim())]).expect("the six-weight model loads");
    assert!(imported.notes.is_empty(), "nothing mended, nothing left out: {:?}", imported.notes);
    let skin = &imported.model.skin;
    let six: Vec<(usize, f32)> = skin.influences(0).map(|i| (i.joint, i.weight)).collect();
    let biases: Vec<(usize, f32)> = (0..6).map(|j| (j, BIASES[j] as f32)).collect();
    assert_eq!(six.len(), 6, "every weight is an influence: {six:?}");
    for ((j, w), (bj, b)) in six.iter().zip(&biases) {
        assert!(j == bj && (w - b).abs() < 1e-6, "{six:?} vs the biases {biases:?}");
    }
    let worst = agrees_at_every_frame(&imported);
    // What keeping only the four largest biases (renormalised) did to the same vertex: each kept
    // weight still moves the vertex as it should, but the two left out no longer pull.
    let mut four = weights()[0].clone();
    four.sort_by(|a, b| b.1.total_cmp(&a.1));
    four.truncate(4);
    let kept: f64 = four.iter().map(|w| w.1).sum();
    let four: Vec<_> = four.into_iter().map(|(j, b, p)| (j, b / kept, p)).collect();
    let old = (0..FRAMES)
        .map(|k| {
            let (all, four) =
                (first_formula(&animated(k), &weights()[0]), first_formula(&animated(k), &four));
            (0..3).map(|i| (all[i] - four[i]).powi(2)).sum::<f64>().sqrt()
        })
        .fold(0.0, f64::max);
    println!(
        "six weights: the article's formula within {worst:.1e} of article 002's at each of {FRAMES} frames; \
         the four largest alone put vertex 0 up to {old:.4} from it"
    );
    assert!(old > 1e-2, "the frames move the six joints apart ({old})");
    // The file's weights agree about where each vertex is: the spread is float rounding.
    let spread = skinning_formats::md5_import::spread(&imported.model, &imported.stored);
    assert!(spread.relative() < 1e-6, "spread {}", spread.relative());
}

#[test]
fn export_md5_writes_every_weight_back() {
    let imported = load_from_str(&mesh(), &[("swing", &anim())]).expect("loads");
    let files = export(&imported.model, &imported.looks, &imported.clips[..1]).expect("exports");
    // Vertex 0 names a run of six weights.
    assert!(files.mesh.contains("\tvert 0 ( 0 0 ) 0 6\n"), "{}", files.mesh);
    let (name, text) = &files.animations[0];
    let again = load_from_str(&files.mesh, &[(name, text)]).expect("the export loads");
    assert_eq!(again.model.skin.influences(0).count(), 6);
    agrees_at_every_frame(&again);
}
