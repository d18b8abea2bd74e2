//! What a chain turns on a real rig. The chain `--reach END` makes is END's parent and grandparent;
//! on the article's arm that is the elbow and the shoulder, but a rig from Blender or Mixamo has
//! bones that are not limbs: a root or hips that carry the whole body, control bones (an IK target,
//! a pole) that move no vertex themselves, a foot hung under a control bone instead of under its
//! shin. A chain that turns such a bone lays the character down or tips its body over.
//!
//! The bones that move the mesh form trees of their own: each such bone hangs under the nearest
//! one above it that moves the mesh too. A bone at the top of such a tree (the hips, the article's
//! root), or above one, **carries a body**: turning it turns a whole tree. So a chain is looked at
//! before it runs ([`Rig::note`]): if a bone it turns moves no vertex itself (a control bone, the
//! armature), or carries a body, a note says so and names a chain nearby that turns only bones that move the mesh and carry no
//! body, ending at END or at the nearest joint that has one (`--reach START..END`). The chain is
//! still solved as asked: the user may mean it.

use crate::demo::show::view::weighted_bones;
use glam::Vec3;
use skinning_method::model::Model;
use skinning_method::printable::printable;
use skinning_method::reach::Reach;
use skinning_method::skeleton::{BoneId, Skeleton};

/// Which bones of a model move the mesh, which carry a body, and where each joint rests.
pub struct Rig {
    /// Some vertex has a weight on the bone's joint.
    moving: Vec<bool>,
    /// The bone is at the top of a tree of the mesh's bones, or above one (see the module's comment).
    carries_body: Vec<bool>,
    /// Each bone's joint in the rest pose.
    rest: Vec<Vec3>,
}

/// The bones above `bone`, its parent first.
fn ancestors(skeleton: &Skeleton, bone: BoneId) -> impl Iterator<Item = BoneId> + '_ {
    std::iter::successors(skeleton.bone(bone).parent, |&b| skeleton.bone(b).parent)
}

impl Rig {
    pub fn new(model: &Model) -> Rig {
        let skeleton = &model.skeleton;
        let moving = weighted_bones(model);
        // The tops of the trees, bones that move the mesh with none above them that does: they and
        // every bone above them carry a body.
        let mut carries_body = vec![false; skeleton.len()];
        for top in (0..skeleton.len()).filter(|&b| moving[b] && !ancestors(skeleton, b).any(|a| moving[a])) {
            carries_body[top] = true;
            ancestors(skeleton, top).for_each(|a| carries_body[a] = true);
        }
        let rest = skeleton.rest_world().iter().map(|m| m.w_axis.truncate()).collect();
        Rig { moving, carries_body, rest }
    }

    /// The note on `chain` (asked for as `--reach asked`), if it turns a bone that carries a body
    /// or one that moves no vertex; None for a chain of limbs.
    pub fn note(&self, skeleton: &Skeleton, chain: &Reach, asked: &str) -> Option<String> {
        let turning = &chain.bones()[..chain.bones().len() - 1];
        let name = |b: BoneId| printable(&skeleton.bone(b).name).into_owned();
        // The bones picked, and whether there are several (for the verb).
        let names = |pick: &dyn Fn(BoneId) -> bool| {
            let picked: Vec<String> = turning.iter().copied().filter(|&b| pick(b)).map(name).collect();
            (!picked.is_empty()).then(|| (picked.join(", "), picked.len() > 1))
        };
        let idle = names(&|b| !self.moving[b]).map(|(n, several)| match several {
            true => format!("{n} move no vertex: control bones, which turn all under them as one"),
            false => format!("{n} moves no vertex: a control bone, which turns all under it as one"),
        });
        let body = names(&|b| self.moving[b] && self.carries_body[b]).map(|(n, several)| match several {
            true => format!("{n} carry the body, which turns with them"),
            false => format!("{n} carries the body, which turns with it"),
        });
        let why: Vec<String> = idle.into_iter().chain(body).collect();
        if why.is_empty() {
            return None;
        }
        let nearby = match self.nearby(skeleton, chain.end(), turning.len()) {
            Some((start, end)) => {
                format!(
                    "; a chain nearby that bends only the mesh's bones: --reach {}..{}",
                    name(start),
                    name(end)
                )
            }
            None => String::new(),
        };
        Some(format!("--reach {}: of the bones it turns, {}{nearby}", printable(asked), why.join(", and ")))
    }

    /// The chain nearest `end` that turns 1 to `wanted` bones, each moving the mesh and none carrying
    /// a body: its start and end. The nearest end first, then the longest chain.
    fn nearby(&self, skeleton: &Skeleton, end: BoneId, wanted: usize) -> Option<(BoneId, BoneId)> {
        let usable = |b: BoneId| self.moving[b] && !self.carries_body[b];
        let chains = (0..skeleton.len()).filter(|&e| self.moving[e]).filter_map(|e| {
            let turning = ancestors(skeleton, e).take(wanted).take_while(|&b| usable(b)).count();
            let start = ancestors(skeleton, e).nth(turning.checked_sub(1)?)?;
            Some((self.rest[e].distance(self.rest[end]), wanted - turning, start, e))
        });
        let nearest = chains.min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))?;
        Some((nearest.2, nearest.3))
    }
}
