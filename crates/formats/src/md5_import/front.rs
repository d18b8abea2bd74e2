//! Which way an MD5 character faces, found from its skeleton: its toes lie ahead of its ankles.
//!
//! An MD5 file does not say. id's tools stand a character along +z facing +x; Blender stands it
//! along +z too but faces it along -y, and an MD5 file written from Blender keeps Blender's numbers
//! (the classic "Bob with lamp": toes at y = -5.3, ankles at y = +1.6). Taken for id's, such a
//! character is shown from its side, and exported sideways.
//!
//! The rule: the feet. In the bind pose, the joints in the lowest [`FEET`] of the skeleton's height
//! that lie below their parent are its feet and toes (a quadruped's paws too). The bone from each
//! one's parent down to it, flattened onto the ground, points the way that foot points: forward,
//! for a toe from its ankle. Summed over
//! the feet, a left and a right foot splayed apart cancel sideways, and the sum points ahead. The
//! front is the axis along the ground (±x or ±y) nearest that sum, when the sum is clear: from two
//! feet or more, at least [`CLEAR`] of the flattened bones' lengths together, its larger part at
//! least twice the other. Otherwise the feet do not say (a snake, an arm, a prop), and id's +x
//! stands.
//!
//! **As it plays.** id's own models need not face their front in the bind pose: the hellknight's
//! feet point along -y there, and each of its clips turns the whole body to +x through its `origin`
//! joint. What a viewer shows is the clip, so the same rule is run on the first clip's first
//! frame ([`played`]); where the feet there clearly point another way than in the bind pose, the
//! clip decides, and one note names both.
//!
//! A file this program wrote says so in its `commandline`, and its front is +x (the exporter
//! turns every model so): that is taken as it is ([`written_here`]), so that a model the feet
//! would misjudge comes back from a round trip facing the way it was shown.

use super::mesh_file::FileJoint;
use glam::{Vec2, Vec3};
use skinning_method::clip::Clip;
use skinning_method::frame::Pose;
use skinning_method::model::{Axis, Model};
use skinning_method::printable::quoted;

/// How high above the lowest joint a foot may be, as a part of the skeleton's height.
pub const FEET: f32 = 0.2;

/// How much of the feet's flattened bones must point one way for the way to count.
pub const CLEAR: f32 = 0.5;

/// The front an MD5 model was given, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Front {
    pub axis: Axis,
    /// True: found from the feet. False: id's +x, as the feet do not say.
    pub from_feet: bool,
    /// The feet's flattened bones summed (x, y), and their lengths summed: what the rule weighed.
    pub sum: Vec2,
    pub length: f32,
    /// Where the first clip turns the body away from the bind pose's front: that clip's name, and
    /// the front of the bind pose (`axis` is then the clip's).
    pub turned_by: Option<(String, Axis)>,
    /// This program wrote the file, and it writes a model's front as id's +x: that is taken,
    /// whatever the feet say (a round trip comes back facing the way it was shown).
    pub written_here: bool,
}

impl Front {
    /// Why the model faces its front, in words for `--info` and a note.
    pub fn why(&self) -> String {
        if self.written_here {
            return "this program wrote it, and writes a model's front as id's +x".to_string();
        }
        match (&self.turned_by, self.from_feet) {
            (Some((clip, bind)), _) => format!(
                "its feet point along {bind} in the bind pose, and its first clip, {}, turns them to {}, \
                 toes ahead of ankles",
                quoted(clip),
                self.axis
            ),
            (None, true) => format!("its feet point along {}, toes ahead of ankles", self.axis),
            (None, false) => "id's +x: its feet do not say which way it faces".to_string(),
        }
    }

    /// The loader's note about the front, where there is something to say: a clip turns the body,
    /// or it faces another way than id's +x. `--front` silences it (it says the front itself).
    pub fn note(&self) -> Option<String> {
        match &self.turned_by {
            Some((clip, bind)) => Some(format!(
                "it faces {bind} in its bind pose, {} as its first clip, {}, plays: shown and exported \
                 facing forward as it plays; --front AXIS says otherwise",
                self.axis,
                quoted(clip),
            )),
            None => (self.axis != Axis::PosX).then(|| {
                format!(
                    "it faces {}, not +x as id's models do ({}): shown and exported facing forward; \
                     --front AXIS says otherwise",
                    self.axis,
                    self.why()
                )
            }),
        }
    }
}

/// The front of a file this program wrote: id's +x, as its exporter turns every model's front.
pub fn written_here() -> Front {
    Front {
        axis: Axis::PosX,
        from_feet: false,
        sum: Vec2::ZERO,
        length: 0.0,
        turned_by: None,
        written_here: true,
    }
}

/// The front as `clip` plays: its first frame's joints (of `model`, whose bone `i` is file joint
/// `i`) through the feet rule. Where that clearly says another axis than `bind`, the bind pose's
/// front, the clip's; else `bind`.
pub fn played(bind: Front, joints: &[FileJoint], model: &Model, clip: Option<&Clip>) -> Front {
    let Some(clip) = clip else { return bind };
    let mut pose = Pose::new(model);
    pose.update(model, clip, 0.0);
    let posed: Vec<FileJoint> =
        (joints.iter().enumerate()).map(|(b, j)| FileJoint { position: pose.joint(b), ..*j }).collect();
    let playing = front(&posed);
    match playing.from_feet && playing.axis != bind.axis {
        true => Front { turned_by: Some((clip.name.clone(), bind.axis)), ..playing },
        false => bind,
    }
}

/// The front of a skeleton standing along +z, from its bind-pose joints.
pub fn front(joints: &[FileJoint]) -> Front {
    let heights = joints.iter().map(|j| j.position.z);
    let (low, high) = heights.fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), z| (l.min(z), h.max(z)));
    let ground = low + FEET * (high - low);
    let (mut sum, mut length, mut feet) = (Vec2::ZERO, 0.0, 0);
    for joint in joints.iter().filter(|j| j.position.z <= ground) {
        let Some(parent) = joint.parent.and_then(|p| joints.get(p)) else { continue };
        // A bone that does not go down to it (an arm lying flat, a root on the ground) is no foot.
        if joint.position.z >= parent.position.z {
            continue;
        }
        let flat: Vec2 = (joint.position - parent.position).truncate();
        if flat.is_finite() && flat != Vec2::ZERO {
            sum += flat;
            length += flat.length();
            feet += 1;
        }
    }
    let unknown =
        Front { axis: Axis::PosX, from_feet: false, sum, length, turned_by: None, written_here: false };
    let (along, across) = if sum.x.abs() >= sum.y.abs() { (sum.x, sum.y) } else { (sum.y, sum.x) };
    if !(feet >= 2 && sum.length() >= CLEAR * length && along.abs() >= 2.0 * across.abs()) {
        return unknown;
    }
    let way = if sum.x.abs() >= sum.y.abs() {
        Vec3::new(along.signum(), 0.0, 0.0)
    } else {
        Vec3::new(0.0, along.signum(), 0.0)
    };
    match Axis::of(way) {
        Some(axis) => Front { axis, from_feet: true, ..unknown },
        None => unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    /// A biped's legs facing `ahead` (a unit vector along the ground), z up: hips at 10, knees at 5,
    /// ankles at 1.6 a little behind, toes on the ground ahead, the feet splayed apart.
    fn biped(ahead: Vec3) -> Vec<(String, Option<usize>, Vec3)> {
        let side = Vec3::Z.cross(ahead);
        let mut joints = vec![("hips".to_string(), None, Vec3::new(0.0, 0.0, 10.0))];
        for (name, s) in [("left", 1.0), ("right", -1.0)] {
            let hip = joints.len();
            joints.push((format!("{name} thigh"), Some(0), s * side + Vec3::Z * 9.0));
            joints.push((format!("{name} knee"), Some(hip), s * side + Vec3::Z * 5.0 + ahead * 0.3));
            let ankle = s * side + Vec3::Z * 1.6 - ahead * 0.5;
            joints.push((format!("{name} ankle"), Some(hip + 1), ankle));
            // Toes 5.3 ahead, splayed out by 1.
            joints.push((
                format!("{name} toe"),
                Some(hip + 2),
                ankle + ahead * 5.3 + s * side - Vec3::Z * 1.6,
            ));
        }
        joints
    }

    fn front_of(joints: &[(String, Option<usize>, Vec3)]) -> Front {
        let file: Vec<FileJoint> = joints
            .iter()
            .map(|(name, parent, position)| FileJoint {
                name,
                parent: *parent,
                position: *position,
                orientation: Quat::IDENTITY,
            })
            .collect();
        front(&file)
    }

    #[test]
    fn the_toes_say_which_way_a_biped_faces_on_both_conventions() {
        for (ahead, axis) in [(Vec3::X, Axis::PosX), (Vec3::NEG_Y, Axis::NegY), (Vec3::Y, Axis::PosY)] {
            let found = front_of(&biped(ahead));
            assert_eq!((found.axis, found.from_feet), (axis, true), "{ahead}: {found:?}");
        }
    }

    #[test]
    fn without_feet_ids_front_stands() {
        // The article's arm as it is written in id's axes: along +y, its last bone a fork, one
        // end 0.1 up, the other 0.1 down. One bone going down is one foot, and one says nothing.
        let arm = vec![
            ("root".to_string(), None, Vec3::ZERO),
            ("bone1".to_string(), Some(0), Vec3::new(0.0, 0.2, 0.0)),
            ("bone2".to_string(), Some(1), Vec3::new(0.0, 0.4, 0.0)),
            ("bone31".to_string(), Some(2), Vec3::new(0.0, 0.6, 0.1)),
            ("bone32".to_string(), Some(2), Vec3::new(0.0, 0.6, -0.1)),
        ];
        let found = front_of(&arm);
        assert_eq!((found.axis, found.from_feet), (Axis::PosX, false), "{found:?}");
        assert!(!front_of(&[]).from_feet);
        assert!(found.why().contains("do not say"));
    }
}
