//! Bending a bone by hand (article 003): right-drag around a joint turns that bone about the view
//! axis, on top of whatever the clip does to it.
//!
//! The cursor's angle around the joint on screen, compared with where the drag started, is the angle
//! to turn. The turn happens about the view axis in the world, but it is stored in the bone's own
//! space (`Pose::bend`), so it rides along as the clip keeps moving the bone.

use glam::{Quat, Vec2, Vec3};
use skinning::camera::Camera;
use skinning::model::Pose;
use skinning::skeleton::BoneId;

/// A right-drag in progress.
#[derive(Clone, Copy, Debug)]
pub struct BendDrag {
    pub bone: BoneId,
    /// The joint on screen, and the cursor's angle around it when the drag started.
    pivot: Vec2,
    start_angle: f32,
    /// The bone's hand bend, and its rotation in the world, when the drag started.
    start_bend: Quat,
    start_world: Quat,
    /// The view axis, pointing at the viewer.
    axis: Vec3,
}

impl BendDrag {
    /// The right button went down at `cursor`: catch the bone whose joint (among `joints`, world
    /// positions by bone, those with `drawn` set: the ones on screen) is nearest on screen, if one
    /// is within `reach` pixels.
    pub fn start(
        cursor: Vec2,
        joints: &[Vec3],
        drawn: &[bool],
        camera: &Camera,
        size: (u32, u32),
        reach: f32,
        pose: &Pose,
    ) -> Option<BendDrag> {
        let (w, h) = size;
        let (bone, pivot, _) = (0..joints.len())
            .filter(|&b| drawn[b])
            .map(|b| (b, camera.project(joints[b], w, h)))
            .map(|(b, p)| (b, p, p.distance(cursor)))
            .filter(|&(_, _, d)| d <= reach)
            .min_by(|a, b| a.2.total_cmp(&b.2))?;
        let (_, world_rotation, _) = pose.world[bone].to_scale_rotation_translation();
        Some(BendDrag {
            bone,
            pivot,
            start_angle: screen_angle(cursor - pivot),
            start_bend: pose.bend[bone],
            start_world: world_rotation,
            axis: -camera.forward(),
        })
    }

    /// The bone's hand bend with the cursor at `cursor`; None too close to the joint to tell an angle.
    pub fn bend_at(&self, cursor: Vec2) -> Option<Quat> {
        let offset = cursor - self.pivot;
        if offset.length() < 2.0 {
            return None;
        }
        let angle = screen_angle(offset) - self.start_angle;
        // A world rotation R applied after the bone's world rotation W equals W * (W⁻¹ R W).
        let axis_in_bone = self.start_world.inverse() * self.axis;
        Some(self.start_bend * Quat::from_axis_angle(axis_in_bone, angle))
    }
}

/// The angle of a screen-space offset, counter-clockwise as seen by the viewer (screen y points down).
fn screen_angle(offset: Vec2) -> f32 {
    (-offset.y).atan2(offset.x)
}
