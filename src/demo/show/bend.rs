//! Bending a bone by hand (article 003): right-drag near a joint turns that bone about the view
//! axis, on top of whatever the clip does to it.
//!
//! The bone is a lever held at its far end: its child's joint on screen (the farthest, if it has
//! several), or, for a bone without children, a point that carries on its parent's direction. That
//! end follows the pointer: the turn is the change of the end's angle around the joint as the
//! pointer moves it. So dragging up lifts the bone's far end, on whichever side of the joint the
//! drag began. The turn happens about the view axis in the world, but it is stored in the bone's
//! own space (`Pose::bend`), so it rides along as the clip keeps moving the bone.

use glam::{Quat, Vec2, Vec3};
use skinning::camera::Camera;
use skinning_method::frame::Pose;
use skinning_method::skeleton::{BoneId, Skeleton};

/// The shortest lever on screen, in pixels: a bone drawn shorter turns as if it were this long, so
/// a small move of the pointer is a small turn.
const SHORTEST_LEVER: f32 = 40.0;

/// A right-drag in progress.
#[derive(Clone, Copy, Debug)]
pub struct BendDrag {
    pub bone: BoneId,
    /// The joint on screen, the pointer where the drag started, and the lever's end then.
    pivot: Vec2,
    start_cursor: Vec2,
    lever: Vec2,
    /// The bone's hand bend, and its rotation in the world, when the drag started.
    start_bend: Quat,
    start_world: Quat,
    /// The view axis, pointing at the viewer.
    axis: Vec3,
}

impl BendDrag {
    /// The right button went down at `cursor`: catch the bone whose joint in `pose` (among those
    /// with `drawn` set: the ones on screen) is nearest on screen, if one is within `reach` pixels.
    pub fn start(
        cursor: Vec2,
        drawn: &[bool],
        skeleton: &Skeleton,
        camera: &Camera,
        size: (u32, u32),
        reach: f32,
        pose: &Pose,
    ) -> Option<BendDrag> {
        let (w, h) = size;
        let on_screen = |b: BoneId| camera.project(pose.joint(b), w, h);
        let (bone, pivot, _) = (0..skeleton.len())
            .filter(|&b| drawn[b])
            .map(|b| (b, on_screen(b)))
            .map(|(b, p)| (b, p, p.distance(cursor)))
            .filter(|&(_, _, d)| d <= reach)
            .min_by(|a, b| a.2.total_cmp(&b.2))?;
        // The far end: the farthest child's joint; else on along the parent's direction; else (a
        // lone bone) where the pointer went down, as a dial turned by its handle.
        let children = (0..skeleton.len()).filter(|&b| skeleton.bone(b).parent == Some(bone));
        let farthest = children.map(on_screen).max_by(|a, b| a.distance(pivot).total_cmp(&b.distance(pivot)));
        let end = match (farthest, skeleton.bone(bone).parent) {
            (Some(child), _) if child.distance(pivot) >= 1.0 => child,
            (_, Some(parent)) if on_screen(parent).distance(pivot) >= 1.0 => 2.0 * pivot - on_screen(parent),
            _ => cursor,
        };
        let length = end.distance(pivot);
        let direction = if length > 0.0 { (end - pivot) / length } else { Vec2::X };
        let (_, world_rotation, _) = pose.world[bone].to_scale_rotation_translation();
        Some(BendDrag {
            bone,
            pivot,
            start_cursor: cursor,
            lever: pivot + direction * length.max(SHORTEST_LEVER),
            start_bend: pose.bend[bone],
            start_world: world_rotation,
            axis: -camera.forward(),
        })
    }

    /// The bone's hand bend with the pointer at `cursor`; None while the lever's end is too close
    /// to the joint to tell an angle.
    pub fn bend_at(&self, cursor: Vec2) -> Option<Quat> {
        let end = self.lever + (cursor - self.start_cursor);
        if end.distance(self.pivot) < 2.0 {
            return None;
        }
        let angle = screen_angle(end - self.pivot) - screen_angle(self.lever - self.pivot);
        // A world rotation R applied after the bone's world rotation W equals W * (W⁻¹ R W).
        let axis_in_bone = self.start_world.inverse() * self.axis;
        Some(self.start_bend * Quat::from_axis_angle(axis_in_bone, angle))
    }
}

/// The angle of a screen-space offset, counter-clockwise as seen by the viewer (screen y points down).
fn screen_angle(offset: Vec2) -> f32 {
    (-offset.y).atan2(offset.x)
}

#[cfg(test)]
mod tests;
