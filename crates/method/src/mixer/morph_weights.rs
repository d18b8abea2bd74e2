//! The mixer's morph weights (chapter 13): what [`Mixer::sample`] does for the bones, done for the
//! weights of the meshes' morph targets, one number per target.

use super::{Kind, Mixer, additive, weighted};
use crate::clip::Clip;
use crate::morph::{MeshMorph, sample_weights};

impl Mixer {
    /// The morph weights at the time [`Mixer::sample`] last set (call it first): one per target
    /// of every mesh of `morphs` into `out` (chapter 13), blended as the poses are. The blend
    /// layers' weights are averaged by the layers' weights (as three.js's mixer does), a masked
    /// layer's are laid over the meshes its bones hold, an additive layer's change from its
    /// reference's is added. Its two lists of room are made on the first call; no later one allocates.
    pub fn sample_weights(&mut self, clips: &[Clip], morphs: &[MeshMorph], out: &mut [f32]) {
        let (scratch, reference) = (&mut self.scratch, &mut self.reference);
        scratch.resize(out.len(), 0.0);
        reference.resize(out.len(), 0.0);
        let mut total = 0.0;
        for layer in self.layers.iter().filter(|l| l.kind == Kind::Blend) {
            sample_weights(&clips[layer.clip], layer.time as f64, morphs, scratch);
            total = weighted::accumulate_numbers(out, total, scratch, layer.weight);
        }
        if total <= 0.0 {
            // No weight at all: the meshes' own weights, as the rest pose for the bones.
            for m in morphs {
                out[m.weights.clone()].copy_from_slice(&m.defaults);
            }
        }
        for layer in self.layers.iter().filter(|l| l.kind != Kind::Blend) {
            let clip = &clips[layer.clip];
            sample_weights(clip, layer.time as f64, morphs, scratch);
            match &layer.kind {
                Kind::Masked(mask) => {
                    // A mesh's weights are its bone's: the mask lays them over where it holds the bone.
                    let s = layer.weight.clamp(0.0, 1.0);
                    for m in morphs.iter().filter(|m| mask.bones[m.bone]) {
                        for (o, v) in out[m.weights.clone()].iter_mut().zip(&scratch[m.weights.clone()]) {
                            *o += (v - *o) * s;
                        }
                    }
                }
                Kind::Additive { against, .. } => {
                    additive::reference_weights(clip, *against, clips, morphs, reference);
                    for ((o, m), r) in out.iter_mut().zip(scratch.iter()).zip(reference.iter()) {
                        *o += layer.weight * (m - r);
                    }
                }
                Kind::Blend => {}
            }
        }
    }
}
