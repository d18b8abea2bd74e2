//! `--morph NODE:TARGET=WEIGHT`: a morph target's weight, held over whatever the clip says, for
//! pictures and dumps (`morph.rs` is the method). Given more than once, each holds its own.
//!
//! NODE is the node that holds the mesh (by name or index), or the mesh's name; TARGET is the target's name (the
//! mesh's `extras.targetNames`, as Blender and three.js write them) or its index. A name may hold
//! `:` (the last one splits). Each mistake is one line, with the choices.

use super::names;
use skinning_method::model::Model;
use skinning_method::morph::{Held, MeshMorph};
use skinning_method::printable::printable;

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

/// The weights `settings` hold, found among `model`'s morph `targets`; one line for the first that
/// names nothing.
pub fn resolve(model: &Model, targets: &[MeshMorph], settings: &[MorphSetting]) -> Result<Vec<Held>, String> {
    let mut held = Vec::new();
    for s in settings {
        if !(0.0..=1.0).contains(&s.weight) {
            crate::demo::output::console::note_once(&format!(
                "--morph {}:{}={}: a morph weight goes from 0 (the mesh as modelled) to 1 (the target's \
                 shape); {} moves the mesh outside that, which can look broken",
                printable(&s.mesh),
                printable(&s.target),
                s.weight,
                s.weight
            ));
        }
        for (m, k) in find(model, targets, s)? {
            held.push(Held { weight: targets[m].weights.start + k, value: s.weight });
        }
    }
    Ok(held)
}

/// The meshes `s` names (a node may hold a mesh in two parts, a mesh may hang on two nodes), each
/// with the target it names: the node by its index, else a node's or a mesh's name, and the target
/// by its name or index, found as every flag finds a name (`names.rs`).
fn find(model: &Model, morphs: &[MeshMorph], s: &MorphSetting) -> Result<Vec<(usize, usize)>, String> {
    if morphs.is_empty() {
        return Err(format!(
            "--morph {}:{}: this model has no morph targets",
            printable(&s.mesh),
            printable(&s.target)
        ));
    }
    let node = |m: &MeshMorph| model.skeleton.bone(m.bone).name.as_str();
    // Each name once: a node and its mesh are often named alike.
    let mut names: Vec<&str> = Vec::new();
    for name in morphs.iter().flat_map(|m| [node(m), m.name.as_str()]) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let by_index = s.mesh.trim().parse::<usize>().ok();
    let meshes: Vec<usize> =
        match (0..morphs.len()).filter(|&i| by_index == Some(morphs[i].bone)).collect::<Vec<_>>() {
            nodes if !nodes.is_empty() => nodes,
            _ => {
                let name = names[names::find_named("--morph", "mesh with morph targets", &s.mesh, &names)?];
                (0..morphs.len()).filter(|&i| node(&morphs[i]) == name || morphs[i].name == name).collect()
            }
        };
    let m = &morphs[meshes[0]];
    let labels: Vec<String> = (0..m.target_count()).map(|k| m.target_label(k)).collect();
    let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
    let k = names::find("--morph", &format!("target of {}", printable(&m.name)), &s.target, &labels)?;
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
