//! What the picture shows: the camera, which layers are on, the weight view, and the words.

use crate::demo::draw::colors::{self, Colors};
use skinning::camera::Camera;
use skinning::model::Model;
use skinning::printable::{printable, quoted};
use skinning::skeleton::BoneId;

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
            show_text,
            show_names: model.joint_bones().iter().filter(|&&joint| joint).count() <= NAMES_SHOWN_UP_TO,
            drawn_bones: model.joint_bones(),
        }
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

    /// The weight view's next bone: off, then every bone that moves the skin in turn, then off again.
    pub fn next_weight_bone(&mut self, model: &Model) {
        let moves_skin = |b: BoneId| model.skin.joints().iter().any(|j| j.bone == b);
        let after = self.weight_bone.map_or(0, |b| b + 1);
        self.weight_bone = (after..model.skeleton.len()).find(|&b| moves_skin(b));
    }
}

/// Whether every vertex of `model` was modelled at one point (a broken export, or a mesh scaled to
/// nothing): it then has no lines or faces to see, so its points are drawn, however many, to mark
/// where it is, and the camera frames its joints around it (`camera::framing_model`).
pub fn at_one_point(model: &Model) -> bool {
    let vertices = model.skin.vertices();
    !vertices.is_empty() && vertices.iter().all(|v| v.bind == vertices[0].bind)
}

/// How much `bone` moves each vertex: the weights of every joint on that bone, added up.
pub fn weight_of_bone(model: &Model, bone: BoneId) -> impl Iterator<Item = f32> + '_ {
    let (skin, joints) = (&model.skin, model.skin.joints());
    (0..skin.len()).map(move |v| {
        skin.influences(v).filter(|i| joints[i.joint].bone == bone).map(|i| i.weight).sum::<f32>()
    })
}

/// The bone `--weights` names, by name or by index.
pub fn find_bone(model: &Model, name: &str) -> Result<BoneId, String> {
    let by_index = name.parse::<usize>().ok().filter(|&i| i < model.skeleton.len());
    by_index.or_else(|| model.skeleton.find(name)).ok_or_else(|| {
        let names: Vec<_> = model.skeleton.bones().iter().map(|b| printable(&b.name)).collect();
        let name = quoted(name);
        match &names[..] {
            [only] => format!("unknown bone {name} for --weights: the only one is {only} (or 0)"),
            _ => format!(
                "unknown bone {name} for --weights: choose one of {} (or 0 to {})",
                names.join(", "),
                names.len() - 1
            ),
        }
    })
}
