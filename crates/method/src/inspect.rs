//! One vertex under the magnifying glass: where each bone alone would put it, and the weighted sum.
//!
//! Linear blend skinning (`blend.rs`) is a weighted average of **candidate positions**. Each joint
//! that influences a vertex, alone, would carry the vertex rigidly to
//!
//! ```text
//! candidate[i]    = palette[joint i] * bind
//! contribution[i] = weight[i] * candidate[i]
//! skinned         = contribution[0] + contribution[1] + ...   (the weights sum to 1)
//! ```
//!
//! [`inspect`] works this out for one vertex, every influence of it, in the same order and with the
//! same arithmetic as [`Linear`]'s `position` (the four slots, then any extras), so its result is the
//! blend's, bit for bit. [`Report`] writes the numbers
//! as a table a learner can redo by hand (the demo's `V` key and `--inspect` print it). Nothing here
//! needs the vertices around it, so it also serves when the blend itself runs on the GPU: the
//! palette is the CPU's either way.
//!
//! Dual-quaternion skinning (`dual_quat.rs`) starts from the same candidates (one joint alone moves
//! the vertex rigidly either way) but blends the joints' motions, not these positions, so it lands
//! elsewhere; [`Inspection::with_dqs`] adds where, to set the two side by side.
//!
//! A vertex of a mesh with morph targets takes its shape before the skin moves it (`morph.rs`):
//! [`MorphTable`] sets out that sum first, and the skin's table starts from its result.

use crate::blend::{Linear, blend_vertex};
use crate::dual_quat::{DualQuat, DualQuats};
use crate::model::Model;
use crate::printable::printable;
use crate::skin::{JointId, SLOTS, Skin};
use glam::{Mat4, Vec3, Vec3A};
use std::fmt;

mod morphs;
mod xyz;
pub use morphs::MorphTable;
use xyz::Xyz;

/// What one influence does to the inspected vertex.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    pub joint: JointId,
    pub weight: f32,
    /// Where this joint alone would put the vertex: `palette[joint] * bind`.
    pub position: Vec3,
    /// `weight * position`: this joint's share of the result.
    pub contribution: Vec3,
}

/// How many candidates an inspection holds in place: the four slots and four extras, as many as
/// GPU skinning takes.
const IN_PLACE: usize = 8;

/// One vertex's blend, influence by influence. Up to `IN_PLACE` (8) influences it is held in place,
/// so inspecting allocates nothing (the program inspects a vertex every frame); a vertex with more
/// spills its candidates into a `Vec`.
#[derive(Clone, Debug, PartialEq)]
pub struct Inspection {
    pub vertex: usize,
    pub bind: Vec3,
    /// The first candidates, in place: `count` of them, if the vertex has at most [`IN_PLACE`]...
    in_place: [Candidate; IN_PLACE],
    count: usize,
    /// ...else all of them here (an empty `Vec` allocates nothing).
    spilled: Vec<Candidate>,
    /// The sum of the contributions: the skinned position.
    pub blended: Vec3,
    /// Where dual-quaternion skinning puts the vertex, if asked for ([`Inspection::with_dqs`]).
    pub dqs: Option<Vec3>,
}

impl Inspection {
    /// One candidate per influence, in the vertex's own order (its slots, then its extras).
    pub fn candidates(&self) -> &[Candidate] {
        if self.spilled.is_empty() { &self.in_place[..self.count] } else { &self.spilled }
    }

    /// The same vertex, with where dual quaternions put it too (`dual_quat::DualQuats`, from
    /// the frame's dual-quaternion palette and shared scale).
    pub fn with_dqs(
        self,
        skin: &Skin,
        positions: &[Vec3A],
        dq_palette: &[DualQuat],
        scale: f32,
    ) -> Inspection {
        let dqs = blend_vertex(skin, positions, &DualQuats { joints: dq_palette, scale }, self.vertex);
        Inspection { dqs: Some(dqs.into()), ..self }
    }
}

/// The candidates and the blend of `vertex` with this frame's `palette` (one matrix per joint),
/// from its place in `positions` (the blend's positions stream: `frame.rs`: `Posed::shape`).
pub fn inspect(skin: &Skin, positions: &[Vec3A], palette: &[Mat4], vertex: usize) -> Inspection {
    assert_eq!(palette.len(), skin.joints().len(), "one palette matrix per joint");
    let (v, bind) = (&skin.vertex_influences()[vertex], positions[vertex]);
    let unused = Candidate { joint: 0, weight: 0.0, position: Vec3::ZERO, contribution: Vec3::ZERO };
    let (mut in_place, mut count, mut spilled) = ([unused; IN_PLACE], 0, Vec::new());
    // As in `blend`: all four slots, in `Vec3A`; an unused slot adds weight 0 times a point.
    let mut sum = Vec3A::ZERO;
    let mut add = |joint: JointId, weight: f32, in_use: bool| {
        let position = palette[joint].transform_point3a(bind);
        let contribution = weight * position;
        sum += contribution;
        if in_use {
            let (position, contribution) = (position.into(), contribution.into());
            let candidate = Candidate { joint, weight, position, contribution };
            if count < IN_PLACE {
                in_place[count] = candidate;
            } else {
                if spilled.is_empty() {
                    spilled.extend_from_slice(&in_place);
                }
                spilled.push(candidate);
            }
            count += 1;
        }
    };
    let used = skin.slots_used()[vertex] as usize;
    for i in 0..SLOTS {
        add(v.joints[i] as JointId, v.weights[i], i < used);
    }
    // Then, as in the blend's second pass, the vertex's fifth and later influences, if it has any.
    for extra in skin.extras_of(vertex..vertex + 1) {
        add(extra.joint, extra.weight, true);
    }
    let (bind, blended) = (bind.into(), sum.into());
    Inspection { vertex, bind, in_place, count, spilled, blended, dqs: None }
}

/// Where `vertex` is skinned with `palette` from its place in `positions`: the blend of one vertex
/// (for picking one on screen).
pub fn skinned_position(skin: &Skin, positions: &[Vec3A], palette: &[Mat4], vertex: usize) -> Vec3 {
    blend_vertex(skin, positions, &Linear(palette), vertex).into()
}

/// An [`Inspection`] as a table: per influence the bone's name, the joint, the weight, the
/// candidate and the contribution; then their sum, the skinned position. Numbers are rounded to
/// [`Report::DECIMALS`] places, so a sum redone from the printed lines may differ in the last place.
pub struct Report<'a> {
    pub inspection: &'a Inspection,
    pub model: &'a Model,
}

impl Report<'_> {
    pub const DECIMALS: usize = xyz::DECIMALS;

    /// The bone's name as it may be printed (control characters escaped: it is the file's).
    fn bone_name(&self, joint: JointId) -> std::borrow::Cow<'_, str> {
        printable(&self.model.skeleton.bone(self.model.skin.joints()[joint].bone).name)
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let i = self.inspection;
        let n = i.candidates().len();
        let plural = if n == 1 { "" } else { "s" };
        writeln!(f, "vertex {}: bind {}, {n} influence{plural}", i.vertex, Xyz(i.bind))?;
        // Columns as wide as their widest entry, so the numbers line up whatever the model's size.
        const CANDIDATE: &str = "candidate = palette[joint] * bind";
        let names = i.candidates().iter().map(|c| self.bone_name(c.joint).len());
        let name_width = names.max().unwrap_or(0).max("bone".len());
        let points = i.candidates().iter().flat_map(|c| [c.position, c.contribution]);
        let point_width = points.chain([i.blended]).map(|p| Xyz(p).to_string().len()).max().unwrap_or(0);
        let candidate_width = point_width.max(CANDIDATE.len());
        writeln!(
            f,
            "  {:<name_width$}  joint  weight  {CANDIDATE:<candidate_width$}  weight * candidate",
            "bone"
        )?;
        for c in i.candidates() {
            let name = self.bone_name(c.joint);
            let joint = c.joint;
            let d = Self::DECIMALS;
            let candidate = Xyz(c.position).to_string();
            writeln!(
                f,
                "  {name:<name_width$}  {joint:>5}  {:>6.d$}  {candidate:<candidate_width$}  {}",
                c.weight,
                Xyz(c.contribution)
            )?;
        }
        // The sum sits under the contributions.
        let label_width = name_width + 2 + 5 + 2 + 6 + 2 + candidate_width;
        let sum =
            if i.dqs.is_some() { "sum = linear blend skinning (lbs)" } else { "sum = skinned position" };
        writeln!(f, "  {sum:<label_width$}  {}", Xyz(i.blended))?;
        if let Some(dqs) = i.dqs {
            // Not a sum of the lines above: dual quaternions blend the joints' motions.
            writeln!(f, "  {:<label_width$}  {}", "dual quaternion skinning (dqs)", Xyz(dqs))?;
        }
        Ok(())
    }
}
