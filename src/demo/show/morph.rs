//! The morph targets as the demo shows them (`morph.rs` is the method): the model's targets, kept
//! beside it, the weights the user holds over the clip's, from `--morph` and the keys, the target
//! the keys change, and the morph that every frame's step 4 fills (`Morphed`: this frame's weights
//! and shape). `T` picks the
//! next target (all of the model's, mesh after mesh, then none), `U` and `I` lower and raise its
//! weight by [`STEP`], from 0 to 1, and hold it there; `R` goes back to the command line's. The
//! corner line names the picked target and its weight this frame.

use crate::demo::cli::morph::{MorphSetting, resolve};
use skinning_method::model::Model;
use skinning_method::morph::{Held, Morph, MorphTargets, Morphed};
use skinning_method::printable::printable;

/// How much `U` and `I` change a weight.
pub const STEP: f32 = 0.1;

/// The longest a target's name is shown in the corner line, in characters.
const LABEL_CHARS: usize = 40;

/// The model's morph targets, the user's morph weights and the target the keys change.
pub struct MorphControl {
    /// The model's morph targets (none for most).
    pub targets: MorphTargets,
    /// The weights held by the command line (`--morph`), where `R` comes back to.
    start: Vec<Held>,
    /// The weights held now: over the clip's, every frame.
    pub held: Vec<Held>,
    /// The target `T` picked (its place in a frame's weights), if any.
    pub picked: Option<usize>,
    /// Each weight's name, `MESH:TARGET`, made printable once, so the corner line allocates nothing.
    labels: Vec<String>,
    /// This frame's weights and the mesh's shape they give, which the blend reads (step 4).
    pub morphed: Morphed,
}

impl MorphControl {
    /// The weights `settings` hold on `model`'s morph `targets`; a setting that names nothing is the
    /// one-line error.
    pub fn new(
        model: &Model,
        targets: MorphTargets,
        settings: &[MorphSetting],
    ) -> Result<MorphControl, String> {
        let start = resolve(model, &targets, settings)?;
        let mut labels = Vec::new();
        for m in targets.iter() {
            for k in 0..m.target_count() {
                let label = format!("{}:{}", printable(&m.name), printable(&m.target_label(k)));
                labels.push(label.chars().take(LABEL_CHARS).collect());
            }
        }
        let mut held = Vec::with_capacity(labels.len() + start.len());
        held.extend_from_slice(&start);
        let morphed = Morphed::new(&model.skin, &targets);
        Ok(MorphControl { targets, start, held, picked: None, labels, morphed })
    }

    /// Step 4 of this frame as a stage (`morph.rs`: `Morph`): the targets, the weights held now,
    /// and the morph it fills.
    pub fn stage(&mut self) -> Morph<'_> {
        Morph { targets: &self.targets, held: &self.held, morphed: &mut self.morphed }
    }

    /// `T`: the next target, or none after the last.
    pub fn next(&mut self) -> Result<(), String> {
        if self.labels.is_empty() {
            return Err("this model has no morph targets (T, U and I change their weights)".into());
        }
        let next = self.picked.map_or(0, |k| k + 1);
        self.picked = (next < self.labels.len()).then_some(next);
        Ok(())
    }

    /// `U` (`up` false) or `I`: the picked target's weight, from what it is this frame, one
    /// [`STEP`] down or up within 0 to 1, held there.
    pub fn change(&mut self, up: bool) -> Result<(), String> {
        let Some(k) = self.picked else {
            let why =
                if self.labels.is_empty() { "this model has no morph targets" } else { "press T first" };
            return Err(format!("U and I change the weight of the morph target T picks: {why}"));
        };
        let step = if up { STEP } else { -STEP };
        // Rounded to the step, so ten presses go from 0 to exactly 1.
        let value = ((self.morphed.weights[k] + step) / STEP).round() * STEP;
        let value = value.clamp(0.0, 1.0);
        match self.held.iter_mut().find(|h| h.weight == k) {
            Some(held) => held.value = value,
            None => self.held.push(Held { weight: k, value }),
        }
        Ok(())
    }

    /// `R`: back to the weights the command line held.
    pub fn reset(&mut self) {
        self.held.clear();
        self.held.extend_from_slice(&self.start);
    }

    /// What the corner line says of the picked target: its name and its weight this frame.
    pub fn status(&self) -> Option<(&str, f32)> {
        let k = self.picked?;
        Some((&self.labels[k], self.morphed.weights[k]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::cli::options::Options;
    use crate::demo::show::state::{Demo, Reply};
    use glam::Vec3A;
    use skinning_method::morph::MeshMorph;
    use skinning_method::skin::Skin;

    /// The article's arm with one target, `lift`, moving vertex 12 by 1 along z.
    fn lifting_arm(settings: &[&str]) -> Result<Demo, String> {
        let model = skinning_method::scene::article().expect("the article's scene");
        let mut positions = vec![Vec3A::ZERO; model.skin.len()];
        positions[12] = Vec3A::Z;
        let lift = MeshMorph {
            name: "mesh".into(),
            bone: 0,
            vertices: 0..model.skin.len(),
            targets: vec!["lift".into()],
            defaults: vec![0.0],
            weights: 0..0,
            positions,
            normals: Vec::new(),
        };
        let targets = MorphTargets::new(vec![lift], model.skin.len()).expect("it fits");
        let clips = skinning_method::scene::clips().expect("the article's clips");
        let morphs = settings.iter().map(|s| crate::demo::cli::morph::parse_morph(s).unwrap()).collect();
        Demo::with_morphs(model, targets, clips, &Options { morphs, ..Options::default() })
    }

    #[test]
    fn the_keys_and_the_command_line_hold_a_weight_and_the_mesh_takes_its_shape() {
        let mut d = lifting_arm(&[]).unwrap();
        let before = d.pose.skinned[12];
        assert_eq!(
            d.key("u"),
            Reply::Refused("U and I change the weight of the morph target T picks: press T first".into())
        );
        assert_eq!((d.key("t"), d.key("i"), d.key("I")), (Reply::Changed, Reply::Changed, Reply::Changed));
        assert!((d.morph.morphed.weights[0] - 0.2).abs() < 1e-6);
        assert!(d.status.line.ends_with("morph mesh:lift 0.20"), "{}", d.status.line);
        // The arm's palette moves the lifted vertex as it moves the others: 0.2 along the palette's z.
        let moved = d.pose.skinned[12] - before;
        let z = d.pose.palette[d.model.skin.vertex_influences()[12].joints[0] as usize]
            .transform_vector3a(Vec3A::Z);
        assert!(moved.abs_diff_eq(0.2 * z, 1e-5), "{moved}");
        // R lets go: back to the clip's weight, 0.
        d.key("r");
        assert_eq!((d.morph.morphed.weights[0], d.pose.skinned[12]), (0.0, before));
        // --morph holds one from the start, and R comes back to it.
        let mut d = lifting_arm(&["0:lift=0.5"]).unwrap();
        assert_eq!(d.morph.morphed.weights[0], 0.5);
        d.key("t");
        d.key("u");
        d.key("r");
        assert_eq!(d.morph.morphed.weights[0], 0.5);
        assert!(lifting_arm(&["mesh:smile=1"]).err().unwrap().contains("the only one is lift (or 0)"));
    }

    fn control(targets: usize) -> MorphControl {
        let labels = (0..targets).map(|k| format!("face:{k}")).collect();
        let (start, morphed) =
            (vec![Held { weight: 0, value: 0.5 }], Morphed::new(&Skin::new(Vec::new()), &[]));
        MorphControl {
            targets: MorphTargets::default(),
            start,
            held: Vec::new(),
            picked: None,
            labels,
            morphed,
        }
    }

    #[test]
    fn t_cycles_through_the_targets_then_none() {
        let mut c = control(2);
        let seen: Vec<Option<usize>> = (0..4).map(|_| c.next().map(|()| c.picked).unwrap()).collect();
        assert_eq!(seen, [Some(0), Some(1), None, Some(0)]);
        assert!(control(0).next().is_err());
    }

    #[test]
    fn u_and_i_step_the_picked_weight_within_0_and_1_and_hold_it() {
        let mut c = control(2);
        c.morphed.weights = vec![0.0, 0.0];
        assert!(c.change(true).unwrap_err().contains("press T first"));
        c.next().unwrap();
        c.next().unwrap();
        c.morphed.weights[1] = 0.95;
        c.change(true).unwrap();
        assert_eq!(c.held, [Held { weight: 1, value: 1.0 }]);
        c.morphed.weights[1] = 1.0;
        c.change(true).unwrap();
        assert_eq!(c.held, [Held { weight: 1, value: 1.0 }], "no higher than 1");
        c.morphed.weights[1] = 0.3;
        c.change(false).unwrap();
        assert!((c.held[0].value - 0.2).abs() < 1e-6, "{:?}", c.held);
        assert_eq!(c.status(), Some(("face:1", 0.3)));
        c.reset();
        assert_eq!(c.held, [Held { weight: 0, value: 0.5 }], "R: the command line's again");
    }
}
