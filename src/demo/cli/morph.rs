//! `--morph NODE:TARGET=WEIGHT`: a morph target's weight, held over whatever the clip says, for
//! pictures and dumps (`morph.rs` is the method). Given more than once, each holds its own.
//!
//! NODE is the node that holds the mesh (by name or index), or the mesh's name; TARGET is the target's name (the
//! mesh's `extras.targetNames`, as Blender and three.js write them) or its index. A name may hold
//! `:` (the last one splits). Each mistake is one line, with the choices.

use skinning_method::model::Model;
use skinning_method::morph::{Held, MeshMorph};
use skinning_method::printable::{printable, quoted};

/// One `--morph`, as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct MorphSetting {
    pub mesh: String,
    pub target: String,
    pub weight: f32,
}

/// Reads `NODE:TARGET=WEIGHT`.
pub fn parse_morph(v: &str) -> Result<MorphSetting, String> {
    let shape = || {
        format!(
            "--morph wants NODE:TARGET=WEIGHT, like Head_4:Surprised=1 (the weight a finite number), \
             not {v:?}"
        )
    };
    let (left, weight) = v.rsplit_once('=').ok_or_else(shape)?;
    let (mesh, target) = left.rsplit_once(':').ok_or_else(shape)?;
    let weight = weight.trim().parse::<f32>().ok().filter(|w| w.is_finite()).ok_or_else(shape)?;
    if mesh.is_empty() || target.is_empty() {
        return Err(shape());
    }
    Ok(MorphSetting { mesh: mesh.to_string(), target: target.to_string(), weight })
}

/// The weights `settings` hold, found in `model`; one line for the first that names nothing.
pub fn resolve(model: &Model, settings: &[MorphSetting]) -> Result<Vec<Held>, String> {
    let mut held = Vec::new();
    for s in settings {
        for (m, k) in find(model, s)? {
            held.push(Held { weight: model.morphs[m].weights.start + k, value: s.weight });
        }
    }
    Ok(held)
}

/// The meshes `s` names (a node may hold a mesh in two parts, a mesh may hang on two nodes), each
/// with the target it names.
fn find(model: &Model, s: &MorphSetting) -> Result<Vec<(usize, usize)>, String> {
    let morphs = &model.morphs;
    let asked = format!("--morph {}:{}", printable(&s.mesh), printable(&s.target));
    if morphs.is_empty() {
        return Err(format!("{asked}: this model has no morph targets"));
    }
    let node = |m: &MeshMorph| model.skeleton.bone(m.bone).name.as_str();
    let by_index = s.mesh.parse::<usize>().ok();
    let named = |m: &MeshMorph| {
        by_index == Some(m.bone)
            || [node(m), m.name.as_str()].iter().any(|n| *n == s.mesh || printable(n) == s.mesh)
    };
    let meshes: Vec<usize> = (0..morphs.len()).filter(|&i| named(&morphs[i])).collect();
    let Some(&first) = meshes.first() else {
        let mut choices: Vec<String> = Vec::new();
        for m in morphs {
            for name in [node(m), m.name.as_str()] {
                let name = printable(name).into_owned();
                if !choices.contains(&name) {
                    choices.push(name);
                }
            }
        }
        return Err(format!(
            "{asked}: no mesh with morph targets is named {}: choose one of {} (a node that holds \
             one, by name or index, or its mesh)",
            quoted(&s.mesh),
            choices.join(", ")
        ));
    };
    let m = &morphs[first];
    let by_name =
        (0..m.target_count()).find(|&k| m.targets[k] == s.target || printable(&m.targets[k]) == s.target);
    let by_index = s.target.parse::<usize>().ok().filter(|&k| k < m.target_count());
    let Some(k) = by_name.or(by_index) else {
        let labels: Vec<String> =
            (0..m.target_count()).map(|k| printable(&m.target_label(k)).into_owned()).collect();
        return Err(format!(
            "{asked}: mesh {} has no target {}: choose one of {} (or 0 to {})",
            quoted(&m.name),
            quoted(&s.target),
            labels.join(", "),
            m.target_count() - 1
        ));
    };
    Ok(meshes.into_iter().filter(|&i| k < morphs[i].target_count()).map(|i| (i, k)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setting_is_node_target_and_a_finite_weight() {
        let setting = |mesh: &str, target: &str, weight| MorphSetting {
            mesh: mesh.into(),
            target: target.into(),
            weight,
        };
        assert_eq!(parse_morph("Head_4:Surprised=1"), Ok(setting("Head_4", "Surprised", 1.0)));
        assert_eq!(parse_morph("mixamorig:Head:0=-0.5"), Ok(setting("mixamorig:Head", "0", -0.5)));
        for bad in
            ["Head_4:Surprised", "Head_4=1", ":Surprised=1", "Head_4:=1", "a:b=nan", "a:b=1e40", "a:b=x"]
        {
            assert!(parse_morph(bad).unwrap_err().starts_with("--morph wants NODE:TARGET=WEIGHT"), "{bad}");
        }
    }
}
