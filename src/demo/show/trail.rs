//! A bone's trail (`--trail BONE`): where its joint has been over the last [`TRAIL_FRAMES`]
//! frames, oldest first, drawn as one line (`draw/trail.rs`).
//!
//! Chapter 11 draws a hind foot of the Fox with it, its Walk and Run blended in step and out of
//! step. In step, the blend repeats itself every cycle, and the foot goes round one closed loop
//! again and again; out of step, each loop lands somewhere else, and the planted stretch of the
//! loop (the foot on the ground) smears. A frame adds its joint only if the animation time moved,
//! so a paused picture keeps its trail. Made once, full size: a frame allocates nothing.

use glam::Vec3;
use skinning_method::model::Model;
use skinning_method::skeleton::BoneId;

/// How many frames a trail keeps: 4 s at 120 frames a second, 8 s at 60.
pub const TRAIL_FRAMES: usize = 480;

/// The joint's last positions, and when the last one was taken.
pub struct Trail {
    bone: Option<BoneId>,
    /// Oldest first; at most [`TRAIL_FRAMES`].
    points: Vec<Vec3>,
    last_time: Option<f64>,
}

impl Trail {
    /// The trail of the bone `name` names (a name, else an index), or none.
    pub fn new(model: &Model, name: Option<&str>) -> Result<Trail, String> {
        let bone = match name {
            Some(name) => Some(find(model, name)?),
            None => None,
        };
        let capacity = if bone.is_some() { TRAIL_FRAMES } else { 0 };
        Ok(Trail { bone, points: Vec::with_capacity(capacity), last_time: None })
    }

    /// Adds the bone's joint from this frame's `joints` (one per bone) at animation time `time`,
    /// unless the time has not moved since the last one; past [`TRAIL_FRAMES`], the oldest goes.
    pub fn record(&mut self, joints: &[Vec3], time: f64) {
        let Some(bone) = self.bone else { return };
        if self.last_time == Some(time) {
            return;
        }
        self.last_time = Some(time);
        if self.points.len() == TRAIL_FRAMES {
            self.points.copy_within(1.., 0);
            self.points.pop();
        }
        self.points.push(joints[bone]);
    }

    /// The trail so far, oldest first; None without `--trail`.
    pub fn points(&self) -> Option<&[Vec3]> {
        self.bone.map(|_| &self.points[..])
    }
}

/// The bone `name` names, found as every flag finds a bone (`cli/names.rs`).
fn find(model: &Model, name: &str) -> Result<BoneId, String> {
    let names: Vec<&str> = model.skeleton.bones().iter().map(|b| b.name.as_str()).collect();
    crate::demo::cli::names::find("--trail", "bone", name, &names)
}

#[cfg(test)]
mod tests {
    use super::*;
    use skinning_method::scene;

    fn joints(x: f32) -> Vec<Vec3> {
        vec![Vec3::new(x, 0.0, 0.0); 5]
    }

    #[test]
    fn a_trail_keeps_the_joint_oldest_first_and_only_when_time_moves() {
        let model = scene::article().expect("the article's scene");
        let mut trail = Trail::new(&model, Some("bone31")).expect("a bone");
        trail.record(&joints(1.0), 0.0);
        trail.record(&joints(2.0), 0.0);
        trail.record(&joints(3.0), 0.5);
        let xs: Vec<f32> = trail.points().expect("a trail").iter().map(|p| p.x).collect();
        assert_eq!(xs, [1.0, 3.0]);
        let capacity = trail.points.capacity();
        for k in 0..2 * TRAIL_FRAMES {
            trail.record(&joints(k as f32), 1.0 + k as f64);
        }
        let points = trail.points().expect("a trail");
        assert_eq!(points.len(), TRAIL_FRAMES);
        assert_eq!(
            (points[0].x, points[TRAIL_FRAMES - 1].x),
            (TRAIL_FRAMES as f32, (2 * TRAIL_FRAMES - 1) as f32)
        );
        assert_eq!(trail.points.capacity(), capacity, "a full trail moves its points, it does not grow");
    }

    #[test]
    fn the_help_says_how_long_a_trail_is() {
        let help: Vec<&str> = crate::demo::cli::help::HELP.split_whitespace().collect();
        assert!(help.join(" ").contains(&format!("over the last {TRAIL_FRAMES} frames")));
    }

    #[test]
    fn no_trail_without_the_flag_and_a_wrong_bone_lists_the_bones() {
        let model = scene::article().expect("the article's scene");
        let mut none = Trail::new(&model, None).expect("no trail");
        none.record(&joints(1.0), 0.0);
        assert_eq!(none.points(), None);
        assert!(Trail::new(&model, Some("3")).is_ok(), "an index names a bone");
        let refused = Trail::new(&model, Some("bone9")).err().unwrap_or_default();
        assert_eq!(
            refused,
            "unknown bone \"bone9\" for --trail: choose one of root, bone1, bone2, bone31, bone32 (or an index, 0 to 4)"
        );
    }
}
