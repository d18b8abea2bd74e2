//! Vertex weights as files have them, made into the article's strict skin info.
//!
//! A skinned glTF vertex names four joints in `JOINTS_0` and their weights in `WEIGHTS_0`; a fifth
//! to eighth come in `JOINTS_1` / `WEIGHTS_1`, and so on (spec, "Skinned Mesh Attributes").
//! Our [`Skin`](crate::skin::Skin) takes at most four influences whose weights sum to 1, and stays
//! strict about it. Files are looser, so here, on the way in:
//! - a weight of 0 is an unused slot and is dropped, whatever joint it names;
//! - beyond four influences, the four largest are kept (the others are usually tiny);
//! - weights are divided by their sum when it is off 1 by more than 2e-7 per weight: exporters
//!   round, and normalized u8 weights cannot sum to exactly 1. That tolerance is this program's
//!   own choice, near the glTF-Validator's (version 2.0.0-dev.3.10 passes one float weight of
//!   1 + 1.2e-7 and flags 1 + 3e-7). How many vertices needed it, and the worst sum, are reported
//!   once.
//!
//! What cannot be mended is an error naming the vertex: a negative, NaN or infinite weight, a
//! joint past the end of its skin, or weights that are all 0 (no joint would move the vertex).

use super::error::counted;
use crate::skin::{Influence, MAX_INFLUENCES};

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
    pub worst_sum: f32,
    /// Vertices that had more than four influences and kept the four largest.
    pub trimmed: usize,
}

/// How far from 1 a sum may be, per weight, before it is renormalised (our own choice; see above).
const SUM_SLACK_PER_WEIGHT: f32 = 2e-7;

/// The influences of vertex `v` from every set, ready for `Skin::add_vertex`: joint indices are
/// the skin's own (0 to `joint_count` - 1), at most four, weights summing to 1.
pub fn influences(
    sets: &[WeightSet],
    v: usize,
    joint_count: usize,
    mended: &mut Mended,
) -> Result<([Influence; MAX_INFLUENCES], usize), String> {
    let mut found: Vec<Influence> = Vec::with_capacity(4 * sets.len());
    for (s, set) in sets.iter().enumerate() {
        for (&joint, &weight) in set.joints[v].iter().zip(&set.weights[v]) {
            if !(weight >= 0.0 && weight.is_finite()) {
                return Err(format!("WEIGHTS_{s} holds {weight}; a weight must be a number >= 0"));
            }
            if weight == 0.0 {
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
    if found.len() > MAX_INFLUENCES {
        found.sort_by(|a, b| b.weight.total_cmp(&a.weight));
        found.truncate(MAX_INFLUENCES);
        mended.trimmed += 1;
    }
    let sum: f32 = found.iter().map(|i| i.weight).sum();
    if (sum - 1.0).abs() > SUM_SLACK_PER_WEIGHT * found.len() as f32 {
        for influence in &mut found {
            influence.weight /= sum;
        }
        if mended.renormalised == 0 || (sum - 1.0).abs() > (mended.worst_sum - 1.0).abs() {
            mended.worst_sum = sum;
        }
        mended.renormalised += 1;
    }
    let mut slots = [Influence { joint: 0, weight: 0.0 }; MAX_INFLUENCES];
    slots[..found.len()].copy_from_slice(&found);
    Ok((slots, found.len()))
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
        let (slots, n) = influences(&one([0, 1, 0, 0], [0.3, 0.27, 0.0, 0.0]), 0, 2, &mut mended).unwrap();
        assert_eq!(n, 2);
        assert!((slots[0].weight - 0.3 / 0.57).abs() < 1e-6);
        assert!((slots[0].weight + slots[1].weight - 1.0).abs() < 1e-6);
        assert_eq!(mended.renormalised, 1);
        assert!((mended.worst_sum - 0.57).abs() < 1e-6, "{}", mended.worst_sum);
        // Exact sums stay as they are.
        let (slots, _) = influences(&one([0, 1, 0, 0], [0.5, 0.5, 0.0, 0.0]), 0, 2, &mut mended).unwrap();
        assert_eq!(slots[0].weight, 0.5);
        assert_eq!(mended.renormalised, 1);
    }

    #[test]
    fn unused_slots_may_name_any_joint_but_used_ones_may_not() {
        let mut mended = Mended::default();
        assert!(influences(&one([0, 9, 0, 0], [1.0, 0.0, 0.0, 0.0]), 0, 2, &mut mended).is_ok());
        let err = influences(&one([0, 9, 0, 0], [0.5, 0.5, 0.0, 0.0]), 0, 2, &mut mended).unwrap_err();
        assert!(err.contains("joint 9"), "{err}");
        assert!(
            influences(&one([0; 4], [0.0; 4]), 0, 2, &mut mended).unwrap_err().contains("all its weights")
        );
        assert!(influences(&one([0; 4], [f32::NAN, 1.0, 0.0, 0.0]), 0, 2, &mut mended).is_err());
        assert!(influences(&one([0; 4], [-0.5, 1.5, 0.0, 0.0]), 0, 2, &mut mended).is_err());
    }

    #[test]
    fn more_than_four_keeps_the_four_largest() {
        let sets = vec![
            WeightSet { joints: vec![[0, 1, 2, 3]], weights: vec![[0.1, 0.3, 0.05, 0.2]] },
            WeightSet { joints: vec![[4, 5, 0, 0]], weights: vec![[0.25, 0.1, 0.0, 0.0]] },
        ];
        let mut mended = Mended::default();
        let (slots, n) = influences(&sets, 0, 6, &mut mended).unwrap();
        assert_eq!(n, 4);
        let mut kept: Vec<usize> = slots.iter().map(|i| i.joint).collect();
        kept.sort();
        // 0.3 (1), 0.25 (4), 0.2 (3), then 0.1 twice: the sort is stable, joint 0 came first.
        assert_eq!(kept, [0, 1, 3, 4]);
        assert_eq!(mended.trimmed, 1);
        assert!((slots.iter().map(|i| i.weight).sum::<f32>() - 1.0).abs() < 1e-6);
    }
}
