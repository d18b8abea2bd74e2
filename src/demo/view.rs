//! What the picture shows: the camera, which layers are on, and the weight view.

use skinning::camera::Camera;
use skinning::model::Model;
use skinning::skeleton::BoneId;

#[derive(Clone, Debug)]
pub struct View {
    pub camera: Camera,
    /// The camera `R` goes back to: the one that frames the whole animation.
    pub home: Camera,
    pub show_bind: bool,
    pub show_skinned: bool,
    pub show_bones: bool,
    /// The bone whose weights colour the skinned mesh, if the weight view is on.
    pub weight_bone: Option<BoneId>,
}

impl View {
    pub fn new(camera: Camera, weight_bone: Option<BoneId>) -> View {
        View { camera, home: camera, show_bind: true, show_skinned: true, show_bones: true, weight_bone }
    }

    /// Left-drag: turn the camera by the cursor's movement in pixels.
    pub fn orbit(&mut self, delta: glam::Vec2) {
        self.camera.orbit(-delta.x * 0.01, delta.y * 0.01);
    }

    /// Mouse wheel: `lines` notches, positive to come closer.
    pub fn zoom(&mut self, lines: f32) {
        self.camera.zoom_by(1.1f32.powf(lines));
    }

    /// The weight view's next bone: off, then every bone that moves the skin in turn, then off again.
    pub fn next_weight_bone(&mut self, model: &Model) {
        let moves_skin = |b: BoneId| model.skin.joints().iter().any(|j| j.bone == b);
        let after = self.weight_bone.map_or(0, |b| b + 1);
        self.weight_bone = (after..model.skeleton.len()).find(|&b| moves_skin(b));
    }
}

/// How much `bone` moves each vertex: the weights of every joint on that bone, added up.
pub fn weight_of_bone(model: &Model, bone: BoneId) -> impl Iterator<Item = f32> + '_ {
    let joints = model.skin.joints();
    model
        .skin
        .vertices()
        .iter()
        .map(move |v| v.influences().filter(|i| joints[i.joint].bone == bone).map(|i| i.weight).sum::<f32>())
}
