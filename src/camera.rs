//! Looking at the model: a camera that orbits a point and keeps the whole model in view.
//!
//! Nothing here is about skinning; it is the few lines of math any 3D viewer needs, kept out of the
//! way. The camera looks at the centre of a box around the skinned mesh, found by sampling each
//! clip it frames 64 times with linear blending ([`framing_model`]; a pose between two samples,
//! or a dual-quaternion blend, may reach a little past it), from just far enough that the box fits
//! both the window's width and its height. That keeps the model in the middle, filling it, at any
//! window shape. Orbiting turns the camera about that centre; zooming moves it closer or further.
//! At yaw 0 and pitch 0 the camera looks down -z with +y up, as in the article, so the model lies
//! flat in the picture, and a glTF character shows its front: glTF's front faces +z (the spec's
//! "Coordinate System and Units"). Other tools give their characters other axes: id's stand along
//! +z facing +x, Blender's along +z facing -y (`model::Axes` says why). A model whose numbers
//! have other axes than glTF's is first turned into glTF's (`Axes::turn_to_gltf`), in the view only:
//! its numbers stay its own.

use glam::{Mat4, Quat, Vec2, Vec3, Vec4Swizzles};
use skinning_method::frame::{Frame, Pose};
use skinning_method::model::Axes;

/// Vertical field of view.
const FOV_Y: f32 = 40.0 * std::f32::consts::PI / 180.0;
/// The model's box fills this fraction of the window's width or height, whichever is tighter.
const FILL: f32 = 0.85;

/// An orbiting camera.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// The point the camera turns around and looks at.
    pub target: Vec3,
    /// Half the size of a box around `target` that holds the whole model.
    pub extent: Vec3,
    /// Turn about the vertical axis, in radians.
    pub yaw: f32,
    /// Tilt up or down, in radians, kept short of straight up or down.
    pub pitch: f32,
    /// 1 frames the model; 2 is twice as close.
    pub zoom: f32,
    /// The yaw and the pitch the distance is fitted for: the home view's ([`Camera::start_at`]).
    /// Orbiting keeps the distance.
    pub fit_yaw: f32,
    pub fit_pitch: f32,
    /// The turn from the model's numbers to the view's, glTF's axes (+y up, the front towards +z):
    /// identity for a model in glTF's axes (`Axes::turn_to_gltf`). `target`, `extent` and the eye
    /// are in the turned space.
    pub upright: Quat,
}

impl Camera {
    /// A camera that frames every one of `points`.
    pub fn framing(points: impl IntoIterator<Item = Vec3>) -> Camera {
        Camera::framing_axes(points, Axes::GLTF)
    }

    /// A camera that frames every one of `points` of a model whose numbers have the axes `axes`,
    /// standing it up and looking at its front.
    pub fn framing_axes(points: impl IntoIterator<Item = Vec3>, axes: Axes) -> Camera {
        let upright = axes.turn_to_gltf();
        let points = points.into_iter().map(|p| upright * p);
        let mut min = Vec3::splat(f32::INFINITY);
        let mut max = Vec3::splat(f32::NEG_INFINITY);
        for p in points {
            min = min.min(p);
            max = max.max(p);
        }
        if !(min.is_finite() && max.is_finite()) {
            return Camera {
                target: Vec3::ZERO,
                extent: Vec3::ONE,
                yaw: 0.0,
                pitch: 0.0,
                zoom: 1.0,
                fit_yaw: 0.0,
                fit_pitch: 0.0,
                upright,
            };
        }
        // Keep the box from being flat, so it still shows from the side; a box that is one point
        // (a mesh squashed to a dot) gets one unit across, so the camera stands somewhere.
        let size = (max - min).max_element();
        let extent = match size > 0.0 {
            true => ((max - min) / 2.0).max(Vec3::splat(0.05 * size)),
            false => Vec3::splat(0.5),
        };
        let target = (min + max) / 2.0;
        Camera { target, extent, yaw: 0.0, pitch: 0.0, zoom: 1.0, fit_yaw: 0.0, fit_pitch: 0.0, upright }
    }

    /// Turns the camera by the given angles (radians).
    pub fn orbit(&mut self, yaw: f32, pitch: f32) {
        let limit = 89f32.to_radians();
        self.yaw += yaw;
        self.pitch = (self.pitch + pitch).clamp(-limit, limit);
    }

    /// `--camera`'s start: turned by `yaw` and `pitch` (degrees), the distance fitted to the box
    /// as seen from there (a long model seen from its side needs more room than from its end), then
    /// zoomed by `zoom`.
    pub fn start_at(&mut self, yaw: f32, pitch: f32, zoom: f32) {
        self.orbit(yaw.to_radians(), pitch.to_radians());
        (self.fit_yaw, self.fit_pitch) = (self.yaw, self.pitch);
        self.zoom_by(zoom);
    }

    /// Moves closer (`factor` > 1) or further away, within sensible limits.
    pub fn zoom_by(&mut self, factor: f32) {
        self.zoom = (self.zoom * factor).clamp(0.2, 20.0);
    }

    /// Where the camera is, in the turned space (see `upright`).
    pub fn eye(&self, aspect: f32) -> Vec3 {
        let direction =
            Vec3::new(self.pitch.cos() * self.yaw.sin(), self.pitch.sin(), self.pitch.cos() * self.yaw.cos());
        self.target + direction * self.distance(aspect)
    }

    /// Where the camera is in the model's own numbers, where its skinned positions are: the place
    /// of the light that the lit surface gets (for a Z-up model, [`Camera::eye`] turned back).
    pub fn eye_in_model(&self, aspect: f32) -> Vec3 {
        self.upright.inverse() * self.eye(aspect)
    }

    /// How far from the target the box just fits the window's width and height, seen from the home
    /// view (`fit_yaw`, `fit_pitch`). Orbiting keeps this distance, so turning the model never moves
    /// it closer or further.
    fn distance(&self, aspect: f32) -> f32 {
        let tan_y = (FOV_Y / 2.0).tan();
        // The home view's axes: across the screen, up the screen, and from the target to the eye.
        let (yaw, pitch) = (self.fit_yaw, self.fit_pitch);
        let right = Vec3::new(yaw.cos(), 0.0, -yaw.sin());
        let up = Vec3::new(-pitch.sin() * yaw.sin(), pitch.cos(), -pitch.sin() * yaw.cos());
        let back = Vec3::new(pitch.cos() * yaw.sin(), pitch.sin(), pitch.cos() * yaw.cos());
        // The box's half width, half height and half depth along them (x, y and z at yaw 0, pitch 0).
        let across = |axis: Vec3| axis.abs().dot(self.extent);
        let (width, height, depth) = (across(right), across(up), across(back));
        let fit = (width / (tan_y * aspect)).max(height / tan_y) / FILL;
        // Step back by the depth too, so the nearest points do not grow out of the frame.
        (fit + depth) / self.zoom
    }

    /// Radius of a sphere around the target that holds the model's box.
    pub fn radius(&self) -> f32 {
        self.extent.length()
    }

    /// World space to clip space for a viewport of `width` x `height` pixels.
    pub fn view_projection(&self, width: u32, height: u32) -> Mat4 {
        let aspect = width.max(1) as f32 / height.max(1) as f32;
        let eye = self.eye(aspect);
        let view = glam::camera::rh::view::look_at_mat4(eye, self.target, Vec3::Y);
        let distance = eye.distance(self.target);
        let near = (distance - 2.0 * self.radius()).max(distance * 0.01);
        let far = distance + 2.0 * self.radius();
        glam::camera::rh::proj::opengl::perspective(FOV_Y, aspect, near, far)
            * view
            * Mat4::from_quat(self.upright)
    }

    /// The pixel `point` lands on, counted from the top-left corner of the viewport.
    pub fn project(&self, point: Vec3, width: u32, height: u32) -> Vec2 {
        let clip = self.view_projection(width, height) * point.extend(1.0);
        let ndc = clip.xy() / clip.w;
        Vec2::new((ndc.x + 1.0) / 2.0 * width as f32, (1.0 - ndc.y) / 2.0 * height as f32)
    }

    /// The direction the camera looks, in the model's own numbers.
    pub fn forward(&self) -> Vec3 {
        self.upright.inverse() * (self.target - self.eye(1.0)).normalize()
    }
}

/// A camera that frames the skinned mesh of `model` in every pose of `clips`, each sampled at 64
/// times (the program passes the clip that plays, or the article's three together). Only the mesh:
/// a joint or a node far from it (a root left at the origin, an IK pole target, an empty node,
/// the skinned mesh's own node, whose transform glTF ignores) would otherwise shrink the model to
/// a dot, and the bind pose is drawn where it was modelled, beside the skin or behind it. A mesh
/// whose vertices never leave one point has no size to frame: then its joints are framed with it,
/// so they show. It looks at the model's front (see `Axes::turn_to_gltf`); any size works, the model's own
/// units are kept.
pub fn framing_model(model: &skinning_method::model::Model, clips: &[skinning_method::clip::Clip]) -> Camera {
    let mut pose = Pose::new(model);
    let is_joint = model.joint_bones();
    let (mut mesh, mut joints) = (Bounds::default(), Bounds::default());
    for clip in clips {
        for i in 0..64 {
            // Steps 1 to 5: where the mesh goes (its shape, then the blend); its normals do not move it.
            let time = clip.duration as f64 * i as f64 / 64.0;
            let _linear_blending_takes_any_palette = pose.run(model, Frame::new(clip, time));
            pose.skinned.iter().for_each(|&p| mesh.add(p.into()));
            (0..model.skeleton.len()).filter(|&b| is_joint[b]).for_each(|b| joints.add(pose.joint(b)));
        }
    }
    let mut points = mesh.corners();
    if !(mesh.max - mesh.min).cmpgt(Vec3::ZERO).any() {
        points.extend(joints.corners());
    }
    Camera::framing_axes(points.into_iter().filter(|p| p.is_finite()), model.axes)
}

/// The smallest box holding every point added to it.
struct Bounds {
    min: Vec3,
    max: Vec3,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds { min: Vec3::INFINITY, max: Vec3::NEG_INFINITY }
    }
}

impl Bounds {
    fn add(&mut self, p: Vec3) {
        self.min = self.min.min(p);
        self.max = self.max.max(p);
    }

    /// The box's eight corners, which a turned view (`Camera::upright`) frames as the box itself.
    fn corners(&self) -> Vec<Vec3> {
        let (a, b) = (self.min, self.max);
        (0..8)
            .map(|i| Vec3::new([a.x, b.x][i & 1], [a.y, b.y][(i >> 1) & 1], [a.z, b.z][(i >> 2) & 1]))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skinning_method::model::Axis;

    /// The corners of a box from `min` to `max`.
    fn corners(min: Vec3, max: Vec3) -> Vec<Vec3> {
        (0..8)
            .map(|i| {
                Vec3::new(
                    if i & 1 == 0 { min.x } else { max.x },
                    if i & 2 == 0 { min.y } else { max.y },
                    if i & 4 == 0 { min.z } else { max.z },
                )
            })
            .collect()
    }

    #[test]
    fn any_size_fills_the_same_part_of_the_picture() {
        // A fox-like box, long along z, at 1 unit and at 200 units, away from the origin.
        let small = corners(Vec3::new(-0.2, 0.0, -0.6), Vec3::new(0.2, 0.7, 0.6));
        let large: Vec<Vec3> = small.iter().map(|&p| p * 200.0 + Vec3::new(50.0, 0.0, -30.0)).collect();
        let (a, b) = (Camera::framing(small.clone()), Camera::framing(large.clone()));
        for (p, q) in small.iter().zip(&large) {
            let (pa, pb) = (a.project(*p, 640, 480), b.project(*q, 640, 480));
            assert!(pa.distance(pb) < 0.01, "{pa} vs {pb}");
            assert!(pa.x > 0.0 && pa.x < 640.0 && pa.y > 0.0 && pa.y < 480.0, "{pa} is off the picture");
        }
    }

    #[test]
    fn a_z_up_model_stands_up_in_the_picture_its_left_on_the_right() {
        // A post 2 tall along +z, with a knob towards +y at its top: id's axes, where +y is the
        // character's left, which a camera at its front sees on the right.
        let points = [Vec3::ZERO, Vec3::new(0.0, 0.0, 2.0), Vec3::new(0.0, 0.5, 2.0)];
        let camera = Camera::framing_axes(points, Axes::ID);
        let [foot, top, knob] = points.map(|p| camera.project(p, 640, 480));
        // Up in the numbers is up on the screen (pixel y grows downwards).
        assert!(top.y < foot.y - 200.0, "{foot} {top}");
        assert!((top.x - foot.x).abs() < 1.0 && knob.x > top.x + 50.0, "{top} {knob}");
        // The camera's direction comes back in the model's numbers: level, so no z in it.
        assert!(camera.forward().z.abs() < 1e-6, "{}", camera.forward());
    }

    #[test]
    fn the_camera_looks_at_the_front_of_either_kind_of_character() {
        // A fox-like box, long along its front: glTF's front is +z, id's +x, Blender's -y (up +y,
        // +z and +z).
        let gltf = corners(Vec3::new(-0.2, 0.0, -0.6), Vec3::new(0.2, 0.7, 0.6));
        let id = corners(Vec3::new(-0.6, -0.2, 0.0), Vec3::new(0.6, 0.2, 0.7));
        let blender = corners(Vec3::new(-0.2, -0.6, 0.0), Vec3::new(0.2, 0.6, 0.7));
        let blenders = Axes::new(Axis::PosZ, Axis::NegY).expect("across each other");
        let kinds = [(gltf, Axes::GLTF, Vec3::Z), (id, Axes::ID, Vec3::X), (blender, blenders, Vec3::NEG_Y)];
        for (points, up, front) in kinds {
            let camera = Camera::framing_axes(points.clone(), up);
            // It looks along -front, so the nose comes nearest and the tail sits behind it.
            assert!(camera.forward().abs_diff_eq(-front, 1e-6), "{up:?}: {}", camera.forward());
            // The eye and the box's centre in the model's own numbers.
            let eye = camera.upright.inverse() * camera.eye(640.0 / 480.0);
            let centre = camera.upright.inverse() * camera.target;
            let (nose, tail) = (centre + front * 0.6, centre - front * 0.6);
            assert!(eye.distance(nose) < eye.distance(tail), "{up:?}");
            // All of it in the picture.
            for p in &points {
                let at = camera.project(*p, 640, 480);
                assert!(at.x > 0.0 && at.x < 640.0 && at.y > 0.0 && at.y < 480.0, "{up:?}: {at} is off");
            }
        }
    }
}
