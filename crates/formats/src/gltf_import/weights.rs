//! Vertex weights as files have them, made into the article's strict skin info.
//!
//! A skinned glTF vertex names four joints in `JOINTS_0` and their weights in `WEIGHTS_0`; a fifth
//! to eighth come in `JOINTS_1` / `WEIGHTS_1`, and so on (spec, "Skinned Mesh Attributes"). Every
//! set is read and every influence kept: the [`Skin`](skinning_method::skin::Skin) holds four in a vertex's
//! slots and the rest beside them (`skin/extras.rs`), and blends them all. It wants weights that
//! sum to 1, and stays strict about it. Files are looser, so here, on the way in:
//! - a weight of 0 is an unused slot and is dropped, whatever joint it names (one past the end of
//!   the skin breaks a rule, glTF-Validator's "JOINTS index out of bounds", and is counted for a
//!   note: it moves nothing either way);
//! - weights are divided by their sum when it is off 1 by more than 2e-7 per weight: exporters
//!   round, and normalized u8 weights cannot sum to exactly 1. That tolerance is this program's
//!   own choice, near the glTF-Validator's (version 2.0.0-dev.3.10 passes one float weight of
//!   1 + 1.2e-7 and flags 1 + 3e-7). How many vertices needed it, and the worst sum, are reported
//!   once. The sum is taken in 64-bit floats: weights of 3e38 are finite, and their 32-bit sum is
//!   not (dividing by it made every weight 0);
//! - a `JOINTS_n` without its `WEIGHTS_n` (or the other way round) past the first pair says which
//!   joints but not how much: it is left out, with a note, and so is every set after it.
//!
//! A primitive with neither JOINTS_0 nor WEIGHTS_0 ties no vertex to a joint, even on a node with
//! a skin: `meshes.rs` draws it rigidly with its node, as three.js does.
//!
//! What cannot be mended is an error naming the vertex: a negative, NaN or infinite weight, a
//! joint past the end of its skin, or weights that are all 0 (no joint would move the vertex).

use super::accessors::{read_floats, read_indices};
use super::error::{ImportError, counted};
use gltf::mesh::Semantic;
use skinning_method::skin::Influence;

/// One `JOINTS_n` attribute and its `WEIGHTS_n`, one entry per vertex.
pub struct WeightSet {
    pub joints: Vec<[u32; 4]>,
    pub weights: Vec<[f32; 4]>,
}

/// What was mended, over all vertices: said once after loading.
#[derive(Debug, Default)]
pub struct Mended {
    /// Vertices whose weights were divided by their sum.
    pub renormalised: usize,
    /// The sum furthest from 1 among them.
    pub worst_sum: f64,
    /// Vertices that name a joint past the end of their skin with weight 0.
    pub zero_past_end: usize,
    /// Primitives with a `JOINTS_n` or `WEIGHTS_n` whose other half is missing: how many, and the
    /// first one's attribute and mesh.
    pub unpaired: usize,
    pub first_unpaired: Option<(String, String)>,
}

impl Mended {
    /// What was mended, one note per kind, to be said once.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        let vertices = |n: usize| counted(n, "vertex", "vertices");
        if self.renormalised > 0 {
            // Shown as the 32-bit number it is near, unless it is past them.
            let worst = match self.worst_sum as f32 {
                w if w.is_finite() => w.to_string(),
                _ => format!("{:.3e}", self.worst_sum),
            };
            let n = vertices(self.renormalised);
            notes.push(format!("renormalised the weights of {n} that did not sum to 1 (worst sum {worst})"));
        }
        if let Some((attribute, mesh)) = &self.first_unpaired {
            let missing = other_half(attribute);
            let n = counted(self.unpaired, "primitive", "primitives");
            notes.push(format!(
                "left out {attribute} of {n} (mesh {mesh}{}): it has no {missing} to go with it (glTF: they \
                 come in pairs), so its vertices keep the influences of the sets before it",
                if self.unpaired > 1 { " and others" } else { "" }
            ));
        }
        if self.zero_past_end > 0 {
            let (verb, whose) = if self.zero_past_end == 1 { ("names", "its") } else { ("name", "their") };
            notes.push(format!(
                "{} {verb} a joint past the end of {whose} skin with weight 0 (glTF: every JOINTS value \
                 is one of the skin's joints); a weight of 0 moves nothing, so it was left out",
                vertices(self.zero_past_end)
            ));
        }
        notes
    }
}

/// Whether a primitive ties its vertices to joints: it has JOINTS_0 or WEIGHTS_0 (it needs both;
/// `weight_sets` says so when one is missing).
pub fn has_skin_data(primitive: &gltf::Primitive) -> bool {
    primitive.get(&Semantic::Joints(0)).is_some() || primitive.get(&Semantic::Weights(0)).is_some()
}

/// Every JOINTS_n / WEIGHTS_n pair of a primitive, n = 0, 1, ... while both are there, each one
/// entry per vertex; `mesh` names the primitive in messages. A later set with one half missing is
/// left out, and counted in `mended` for a note.
pub fn weight_sets(
    primitive: &gltf::Primitive,
    buffers: &[Vec<u8>],
    mesh: &str,
    vertices: usize,
    mended: &mut Mended,
) -> Result<Vec<WeightSet>, ImportError> {
    let mut sets = Vec::new();
    for n in 0.. {
        let (Some(j), Some(w)) = (primitive.get(&Semantic::Joints(n)), primitive.get(&Semantic::Weights(n)))
        else {
            break;
        };
        let joints = read_indices::<4>(&j, buffers, &format!("JOINTS_{n} of mesh {}", mesh))?;
        let weights = read_floats::<4>(&w, buffers, &format!("WEIGHTS_{n} of mesh {}", mesh))?;
        if joints.len() != vertices || weights.len() != vertices {
            let problem = format!(
                "JOINTS_{n} has {}, WEIGHTS_{n} {} entries for {vertices} vertices; they must match",
                joints.len(),
                weights.len()
            );
            return Err(ImportError::Mesh { mesh: mesh.to_string(), problem });
        }
        sets.push(WeightSet { joints, weights });
    }
    if sets.is_empty() {
        let problem = "its node has a skin, and it has JOINTS_0 or WEIGHTS_0 without the other; \
                       give it both"
            .into();
        return Err(ImportError::Mesh { mesh: mesh.to_string(), problem });
    }
    if let Some(attribute) = unpaired(primitive, sets.len()) {
        mended.unpaired += 1;
        mended.first_unpaired.get_or_insert_with(|| (attribute, mesh.to_string()));
    }
    Ok(sets)
}

/// The first `JOINTS_n` or `WEIGHTS_n` of `primitive` from set `first` on (the sets read stop
/// there), if it has any: left out for want of its other half.
fn unpaired(primitive: &gltf::Primitive, first: usize) -> Option<String> {
    let left = primitive.attributes().filter_map(|(semantic, _)| match semantic {
        Semantic::Joints(n) if n as usize >= first => Some((n, "JOINTS")),
        Semantic::Weights(n) if n as usize >= first => Some((n, "WEIGHTS")),
        _ => None,
    });
    left.min().map(|(n, kind)| format!("{kind}_{n}"))
}

/// `JOINTS_1` for `WEIGHTS_1`, and the other way round.
fn other_half(attribute: &str) -> String {
    match attribute.strip_prefix("JOINTS_") {
        Some(n) => format!("WEIGHTS_{n}"),
        None => attribute.replacen("WEIGHTS_", "JOINTS_", 1),
    }
}

/// How far from 1 a sum may be, per weight, before it is renormalised (our own choice; see above).
const SUM_SLACK_PER_WEIGHT: f32 = 2e-7;

/// The influences of vertex `v` from every set, in set order, ready for `Skin::add_vertex`: joint
/// indices are the skin's own (0 to `joint_count` - 1), as many as have a weight above 0, weights
/// summing to 1.
pub fn influences(
    sets: &[WeightSet],
    v: usize,
    joint_count: usize,
    mended: &mut Mended,
) -> Result<Vec<Influence>, String> {
    let mut found: Vec<Influence> = Vec::with_capacity(4 * sets.len());
    let mut past_end = false;
    for (s, set) in sets.iter().enumerate() {
        for (&joint, &weight) in set.joints[v].iter().zip(&set.weights[v]) {
            if !(weight >= 0.0 && weight.is_finite()) {
                return Err(format!("WEIGHTS_{s} holds {weight}; a weight must be a number >= 0"));
            }
            if weight == 0.0 {
                past_end |= joint as usize >= joint_count;
                continue;
            }
            if joint as usize >= joint_count {
                let range = match joint_count {
                    1 => "joint 0 only".to_string(),
                    n => format!("0 to {}", n - 1),
                };
                return Err(format!(
                    "JOINTS_{s} names joint {joint}, but its skin has {} ({range})",
                    counted(joint_count, "joint", "joints")
                ));
            }
            found.push(Influence { joint: joint as usize, weight });
        }
    }
    if found.is_empty() {
        return Err("all its weights are 0, so no joint moves it".into());
    }
    mended.zero_past_end += usize::from(past_end);
    // The file's own sum, all influences counted, in 64-bit floats (which no 32-bit weights
    // overflow): off 1 by more than rounding, it is said, and the weights are divided by it.
    let sum: f64 = found.iter().map(|i| f64::from(i.weight)).sum();
    if (sum - 1.0).abs() > f64::from(SUM_SLACK_PER_WEIGHT) * found.len() as f64 {
        if mended.renormalised == 0 || (sum - 1.0).abs() > (mended.worst_sum - 1.0).abs() {
            mended.worst_sum = sum;
        }
        mended.renormalised += 1;
        for influence in &mut found {
            influence.weight = (f64::from(influence.weight) / sum) as f32;
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(joints: [u32; 4], weights: [f32; 4]) -> Vec<WeightSet> {
        vec![WeightSet { joints: vec![joints], weights: vec![weights] }]
    }

    #[test]
    fn sloppy_sums_are_renormalised_and_counted() {
        let mut mended = Mended::default();
        let slots = influences(&one([0, 1, 0, 0], [0.3, 0.27, 0.0, 0.0]), 0, 2, &mut mended).unwrap();
        assert_eq!(slots.len(), 2);
        assert!((slots[0].weight - 0.3 / 0.57).abs() < 1e-6);
        assert!((slots[0].weight + slots[1].weight - 1.0).abs() < 1e-6);
        assert_eq!(mended.renormalised, 1);
        assert!((mended.worst_sum - 0.57).abs() < 1e-6, "{}", mended.worst_sum);
        // Exact sums stay as they are.
        let slots = influences(&one([0, 1, 0, 0], [0.5, 0.5, 0.0, 0.0]), 0, 2, &mut mended).unwrap();
        assert_eq!(slots[0].weight, 0.5);
        assert_eq!(mended.renormalised, 1);
    }

    #[test]
    fn weights_near_the_float_limit_are_divided_by_their_sum_all_the_same() {
        let mut mended = Mended::default();
        let slots = influences(&one([0, 1, 0, 0], [3e38, 3e38, 0.0, 0.0]), 0, 2, &mut mended).unwrap();
        assert_eq!((slots[0].weight, slots[1].weight), (0.5, 0.5));
        assert_eq!(
            mended.notes(),
            ["renormalised the weights of 1 vertex that did not sum to 1 (worst sum 6.000e38)"]
        );
    }

    #[test]
    fn unused_slots_may_name_any_joint_but_used_ones_may_not() {
        let mut mended = Mended::default();
        assert!(influences(&one([0, 9, 0, 0], [1.0, 0.0, 0.0, 0.0]), 0, 2, &mut mended).is_ok());
        assert_eq!(mended.zero_past_end, 1, "counted for the note");
        let err = influences(&one([0, 9, 0, 0], [0.5, 0.5, 0.0, 0.0]), 0, 2, &mut mended).unwrap_err();
        assert!(err.contains("joint 9"), "{err}");
        assert!(
            influences(&one([0; 4], [0.0; 4]), 0, 2, &mut mended).unwrap_err().contains("all its weights")
        );
        assert!(influences(&one([0; 4], [f32::NAN, 1.0, 0.0, 0.0]), 0, 2, &mut mended).is_err());
        assert!(influences(&one([0; 4], [-0.5, 1.5, 0.0, 0.0]), 0, 2, &mut mended).is_err());
    }

    #[test]
    fn every_set_is_read_and_every_influence_kept_in_set_order() {
        let sets = vec![
            WeightSet { joints: vec![[0, 1, 2, 3]], weights: vec![[0.1, 0.3, 0.05, 0.2]] },
            WeightSet { joints: vec![[4, 5, 0, 0]], weights: vec![[0.25, 0.1, 0.0, 0.0]] },
        ];
        let mut mended = Mended::default();
        let found = influences(&sets, 0, 6, &mut mended).unwrap();
        let pairs: Vec<(usize, f32)> = found.iter().map(|i| (i.joint, i.weight)).collect();
        // Six influences, as the file gives them; the two unused slots of the second set dropped.
        assert_eq!(pairs, [(0, 0.1), (1, 0.3), (2, 0.05), (3, 0.2), (4, 0.25), (5, 0.1)]);
        // They sum to 1 as they are: nothing mended, nothing to say.
        assert_eq!(mended.renormalised, 0);
        assert!(mended.notes().is_empty(), "{:?}", mended.notes());
    }
}
