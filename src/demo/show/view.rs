//! What the picture shows: the camera, which layers are on, the weight view, and the words.

use crate::demo::cli::hide::Hidden;
use crate::demo::colors::{self, Colors};
use skinning::camera::Camera;
use skinning_method::model::Model;
use skinning_method::printable::{printable, quoted};
use skinning_method::skeleton::BoneId;

#[derive(Clone, Debug)]
pub struct View {
    pub camera: Camera,
    /// The camera `R` goes back to: the one that frames the whole animation.
    pub home: Camera,
    pub show_bind: bool,
    pub show_skinned: bool,
    pub show_bones: bool,
    /// The skinned mesh filled and lit (`L`, `--surface`), where it has triangles; else its lines.
    pub show_surface: bool,
    /// A short line along each skinned normal (`O`, `--normals`).
    pub show_normals: bool,
    /// The bone whose weights colour the skinned mesh, if the weight view is on.
    pub weight_bone: Option<BoneId>,
    /// The bones the weight view can show, by bone: those that move a vertex.
    weighted: Vec<bool>,
    /// Each bone's name as the corner line shows it (made printable once: a name is the file's).
    pub bone_names: Vec<String>,
    /// Words on the picture at all (`--no-text` turns them off).
    pub show_text: bool,
    /// Bone names beside the joints (`N`).
    pub show_names: bool,
    /// Which bones are drawn, by bone: the skin's joints. The others (a mesh's node, an armature)
    /// place things but are not bones of the character; a right-drag catches only drawn ones.
    pub drawn_bones: Vec<bool>,
}

/// The most joints whose names start on: the article's five read well, a real skeleton's two dozen
/// pile up on top of each other (`N` still shows them).
pub const NAMES_SHOWN_UP_TO: usize = 12;

impl View {
    pub fn new(camera: Camera, model: &Model, weight_bone: Option<BoneId>, show_text: bool) -> View {
        View {
            camera,
            home: camera,
            show_bind: true,
            show_skinned: true,
            show_bones: true,
            show_surface: false,
            show_normals: false,
            weight_bone,
            weighted: weighted_bones(model),
            bone_names: model.skeleton.bones().iter().map(|b| printable(&b.name).into_owned()).collect(),
            show_text,
            show_names: model.joint_bones().iter().filter(|&&joint| joint).count() <= NAMES_SHOWN_UP_TO,
            drawn_bones: model.joint_bones(),
        }
    }

    /// Starts without the layers `--hide` names; the keys bring them back.
    pub fn hide(&mut self, hidden: Hidden) {
        self.show_bind &= !hidden.bind;
        self.show_skinned &= !hidden.skinned;
        self.show_bones &= !hidden.bones;
        self.show_names &= !hidden.names;
    }

    /// Left-drag: turn the camera by the cursor's movement in pixels.
    pub fn orbit(&mut self, delta: glam::Vec2) {
        self.camera.orbit(-delta.x * 0.01, delta.y * 0.01);
    }

    /// Mouse wheel: `lines` notches, positive to come closer.
    pub fn zoom(&mut self, lines: f32) {
        self.camera.zoom_by(1.1f32.powf(lines));
    }

    /// The colours of the skinned mesh (`plain`, or by weight in the weight view) and of the bones
    /// (blue, the weight view's bone highlighted).
    pub fn colors(&self, model: &Model, plain: colors::Rgba) -> Colors {
        let skinned = match self.weight_bone {
            None => vec![plain; model.skin.len()],
            Some(bone) => weight_of_bone(model, bone).map(colors::weight_color).collect(),
        };
        let bones = (0..model.skeleton.len())
            .map(|b| if Some(b) == self.weight_bone { colors::HIGHLIGHT } else { colors::BLUE })
            .collect();
        Colors { skinned, bones, materials: self.weight_bone.is_none() }
    }

    /// The weight view's next bone: off, then every bone that moves a vertex in turn, then off
    /// again. Returns the line `W` prints: the bone, and how many vertices it moves.
    pub fn next_weight_bone(&mut self, model: &Model) -> String {
        let after = self.weight_bone.map_or(0, |b| b + 1);
        self.weight_bone = (after..self.weighted.len()).find(|&b| self.weighted[b]);
        let Some(bone) = self.weight_bone else { return "weights: off".into() };
        let moved = weight_of_bone(model, bone).filter(|&w| w > 0.0).count();
        format!(
            "weights: {} (bone {bone}) moves {moved} of {} vertices; dark 0 to bright 1",
            self.bone_names[bone],
            model.skin.len()
        )
    }
}

/// Whether every vertex of `model` was modelled at one point (a broken export, or a mesh scaled to
/// nothing): it then has no lines or faces to see, so its points are drawn, however many, to mark
/// where it is, and the camera frames its joints around it (`camera::framing_model`).
pub fn at_one_point(model: &Model) -> bool {
    let bind = model.skin.bind();
    !bind.is_empty() && bind.iter().all(|&p| p == bind[0])
}

/// How much `bone` moves each vertex: the weights of every joint on that bone, added up.
pub fn weight_of_bone(model: &Model, bone: BoneId) -> impl Iterator<Item = f32> + '_ {
    let skin = &model.skin;
    let joints = skin.joints();
    (0..skin.len()).map(move |v| {
        skin.influences(v).filter(|i| joints[i.joint].bone == bone).map(|i| i.weight).sum::<f32>()
    })
}

/// Which bones move a vertex: a joint of the skin with a weight above 0 on some vertex. (A joint
/// no vertex leans on, such as an IK target, and a node that is no joint move none.)
pub fn weighted_bones(model: &Model) -> Vec<bool> {
    let mut weighted = vec![false; model.skeleton.len()];
    let joints = model.skin.joints();
    for v in 0..model.skin.len() {
        let moving = model.skin.influences(v).filter(|i| i.weight > 0.0);
        moving.for_each(|i| weighted[joints[i.joint].bone] = true);
    }
    weighted
}

/// The bone `--weights` names (found as every flag finds a bone, `cli/names.rs`), if it moves a
/// vertex (else its weights are all 0: there is nothing to see).
pub fn find_bone(model: &Model, name: &str) -> Result<BoneId, String> {
    let names: Vec<&str> = model.skeleton.bones().iter().map(|b| b.name.as_str()).collect();
    let bone = crate::demo::cli::names::find("--weights", "bone", name, &names)?;
    if weighted_bones(model)[bone] {
        return Ok(bone);
    }
    let moving = weighted_bones(model);
    let shown: Vec<_> = names.iter().map(|n| printable(n)).collect();
    let nearest = crate::demo::cli::names::closest(name, &shown, (0..names.len()).filter(|&b| moving[b]));
    let nearest: Vec<String> = nearest.map(|b| format!("{} ({b})", shown[b])).collect();
    Err(match nearest.is_empty() {
        true => format!("--weights {}: no bone moves a vertex of this model", quoted(name)),
        false => format!(
            "--weights {}: bone {} moves no vertex, so its weights are all 0; the closest that do: {}",
            quoted(name),
            shown[bone],
            nearest.join(", ")
        ),
    })
}

#[cfg(test)]
mod tests;
