//! The skin: which bones move each vertex, and by how much (article 000, section 2-1).
//!
//! Every mesh vertex has its **bind position** (where it was modelled, in mesh space) and its
//! **influences**: a joint and a weight each, the weights summing to 1. That is the article's "skin
//! info". The skin keeps them apart, as two streams of one vertex after another (ozz-animation's
//! skinning job reads them so): the positions ([`Skin::bind`]) and the influences
//! ([`Skin::vertex_influences`]). The blend reads a positions stream and the influences; a later
//! stage that reshapes the mesh (chapter 13) hands it another positions stream and leaves the
//! influences alone. Four influences of a vertex sit in its **slots**; a vertex that has more (a
//! file may give any number) keeps the fifth and later beside the others, as the skin's **extras**.
//!
//! A skin's **joints** are the bones it uses, each with its **offset** (see `skeleton.rs`): to move a
//! vertex with one bone, take it into the bone's space with the offset, then out to the world with
//! the bone's current world transform: `world[bone] * offset * bind`. In the bind pose
//! `world[bone] * offset` is the identity, so the vertex stays put; when the bone moves, the vertex
//! moves rigidly with it. In the article every bone is a joint, joint i is bone i, and the offset is
//! computed from the bone tree. A glTF file lists its joints and gives their offsets, and two skins
//! may share a bone with different offsets: that is why an influence names a joint, not a bone.
//!
//! **Linear blend skinning** moves a vertex with several bones at once and averages the results by
//! weight: `blend.rs` has the loop. Its first step is here, [`compute_palette`]: `world * offset`
//! does not depend on the vertex, so it is multiplied once per joint per frame into a **palette**.
//!
//! **Why four slots.** The article caps a vertex at `MAX_BONE_PER_VERTEX` bones, and GPUs read a
//! vertex's joints and weights as one `vec4` each: four. Most vertices of most models need no more.
//! The blend's main loop reads the four slots of every vertex, then a second pass blends again the
//! few vertices that have extras (`blend.rs`: `finish_extras`; their table is `skin/extras.rs`).
//! Every influence counts, and the main loop stays the article's.
//!
//! A skin may also keep a **bind normal** per vertex, the direction the surface faced where it was
//! modelled: a third stream, which a later lesson (chapter 8) moves with the blend's own matrix.
//! What the blend moves, positions and normals, is a [`Shape`].

mod error;
mod extras;

pub use error::{SkinError, SkinProblem};
pub use extras::ExtraInfluence;

use crate::skeleton::BoneId;
use extras::Extras;
use glam::{Mat4, Vec3, Vec3A};
use std::ops::Range;

/// The influences a vertex holds itself: the article's `MAX_BONE_PER_VERTEX`, and what a GPU reads
/// as one `vec4` of joints and one of weights. A vertex with more keeps the rest as extras.
pub const SLOTS: usize = 4;

/// One bone a skin uses, with the offset that takes bind-pose mesh space into that bone's space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Joint {
    pub bone: BoneId,
    pub offset: Mat4,
}

/// Index of a joint in [`Skin::joints`] (for the article's scene, joint i is bone i).
pub type JointId = usize;

/// How much one joint moves one vertex.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Influence {
    pub joint: JointId,
    pub weight: f32,
}

/// One vertex's influences, stored as the blend reads them; its position is in another stream.
///
/// The influences sit in four fixed slots; the slots a vertex does not use hold joint 0 with weight
/// 0, so the blend can always run over all four without branching (a weight of 0 adds nothing). A
/// vertex with more than four fills the four slots with its first four and keeps the rest as the
/// skin's extras. 24 bytes, all of them read by the blend: how many slots are in use is kept
/// beside ([`Skin::slots_used`]), for the tools that ask.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VertexInfluences {
    pub joints: [u16; SLOTS],
    pub weights: [f32; SLOTS],
}

/// What the blend moves, one entry per vertex, in the mesh's bind space: the positions and, where
/// the mesh has them, the normals (else empty). The skin's own ([`Skin::shape`]), or the mesh
/// reshaped for this frame by a later stage (chapter 13), which never touches the influences.
/// `Vec3A` is a `Vec3` padded to 16 bytes so the CPU's SIMD registers load it in one go.
#[derive(Clone, Copy, Debug)]
pub struct Shape<'a> {
    pub positions: &'a [Vec3A],
    pub normals: &'a [Vec3A],
}

/// A validated skin: every vertex has one or more influences on existing joints, with weights
/// summing to 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Skin {
    joints: Vec<Joint>,
    /// Where each vertex was modelled, in mesh space. Read every frame, never written.
    bind: Vec<Vec3A>,
    /// Each vertex's four slots.
    influences: Vec<VertexInfluences>,
    /// How many of each vertex's slots are in use (1 to 4; 4 for a vertex with extras).
    slots_used: Vec<u8>,
    /// The fifth and later influences of the vertices that have more than four, in vertex order.
    extras: Extras,
    /// Each vertex's bind normal, a unit vector, or none at all (empty).
    normals: Vec<Vec3A>,
}

/// How far the weights of one vertex may sum away from 1.
pub const WEIGHT_SUM_TOLERANCE: f32 = 1e-4;

impl Skin {
    /// A skin over these joints, with no vertices yet.
    pub fn new(joints: Vec<Joint>) -> Self {
        Skin {
            joints,
            bind: Vec::new(),
            influences: Vec::new(),
            slots_used: Vec::new(),
            extras: Extras::default(),
            normals: Vec::new(),
        }
    }

    /// A skin from a table of (bind position, influences), as a modelling tool would export it.
    pub fn from_table(joints: Vec<Joint>, table: &[(Vec3, &[Influence])]) -> Result<Self, SkinError> {
        let mut skin = Skin::new(joints);
        for (bind, influences) in table {
            skin.add_vertex(*bind, influences)?;
        }
        Ok(skin)
    }

    /// Adds one vertex after checking its influences, as many as it has: the first four go into
    /// its slots, the rest into the extras. The error names the vertex by its index.
    pub fn add_vertex(&mut self, bind: Vec3, influences: &[Influence]) -> Result<(), SkinError> {
        let vertex = self.influences.len();
        let fail = |problem| Err(SkinError { vertex, problem });
        if influences.is_empty() {
            return fail(SkinProblem::NoInfluences);
        }
        for influence in influences {
            if influence.joint >= self.joints.len() || influence.joint > u16::MAX as usize {
                return fail(SkinProblem::NoSuchJoint(influence.joint));
            }
            if !(influence.weight >= 0.0 && influence.weight.is_finite()) {
                return fail(SkinProblem::BadWeight(influence.weight));
            }
        }
        let sum: f32 = influences.iter().map(|i| i.weight).sum();
        if (sum - 1.0).abs() > WEIGHT_SUM_TOLERANCE {
            return fail(SkinProblem::WeightsDoNotSumToOne(sum));
        }
        let (slots, extras) = influences.split_at(influences.len().min(SLOTS));
        let mut v = VertexInfluences { joints: [0; SLOTS], weights: [0.0; SLOTS] };
        for (slot, influence) in slots.iter().enumerate() {
            v.joints[slot] = influence.joint as u16;
            v.weights[slot] = influence.weight;
        }
        self.bind.push(bind.into());
        self.influences.push(v);
        self.slots_used.push(slots.len() as u8);
        for i in extras {
            self.extras.push(ExtraInfluence { vertex, joint: i.joint, weight: i.weight });
        }
        Ok(())
    }

    /// Gives every vertex a bind normal: any finite direction other than zero, stored at unit
    /// length (a file's normals should be unit already; a little off is mended). On error the skin
    /// keeps the normals it had.
    pub fn set_normals(&mut self, normals: &[Vec3]) -> Result<(), SkinError> {
        let units: Vec<Vec3A> = normals
            .iter()
            .enumerate()
            .map(|(vertex, n)| {
                n.try_normalize()
                    .map(Vec3A::from)
                    .ok_or(SkinError { vertex, problem: SkinProblem::BadNormal(*n) })
            })
            .collect::<Result<_, _>>()?;
        if units.len() != self.influences.len() {
            let vertex = units.len().min(self.influences.len());
            let problem = if units.len() < self.influences.len() {
                SkinProblem::NoNormal
            } else {
                SkinProblem::NoSuchVertex
            };
            return Err(SkinError { vertex, problem });
        }
        self.normals = units;
        Ok(())
    }

    /// The positions stream: every vertex's bind position, as the blend reads it.
    pub fn bind(&self) -> &[Vec3A] {
        &self.bind
    }

    /// The influences stream: every vertex's four slots, as the blend reads them.
    pub fn vertex_influences(&self) -> &[VertexInfluences] {
        &self.influences
    }

    /// How many slots each vertex uses, one entry per vertex (1 to 4): what a tool shows. The blend
    /// never asks, as an unused slot weighs 0.
    pub fn slots_used(&self) -> &[u8] {
        &self.slots_used
    }

    /// The skin's own shape, as it was modelled: its bind positions and bind normals.
    pub fn shape(&self) -> Shape<'_> {
        Shape { positions: &self.bind, normals: &self.normals }
    }

    pub fn len(&self) -> usize {
        self.influences.len()
    }

    pub fn is_empty(&self) -> bool {
        self.influences.is_empty()
    }

    /// The joints the influences refer to: one palette matrix each.
    pub fn joints(&self) -> &[Joint] {
        &self.joints
    }

    /// Every vertex's bind normal, or nothing for a skin without normals.
    pub fn normals(&self) -> &[Vec3A] {
        &self.normals
    }

    /// Every influence of vertex `vertex`, its slots then its extras, in the order they were given:
    /// what an exporter writes or a tool shows. (The blend reads the slots and the extras directly.)
    pub fn influences(&self, vertex: usize) -> impl Iterator<Item = Influence> + '_ {
        let (v, used) = (&self.influences[vertex], self.slots_used[vertex] as usize);
        let slots = (0..used).map(|i| Influence { joint: v.joints[i] as JointId, weight: v.weights[i] });
        let extras = self.extras.of(vertex..vertex + 1).iter();
        slots.chain(extras.map(|e| Influence { joint: e.joint, weight: e.weight }))
    }

    /// The extras of the vertices in `vertices` (`skin/extras.rs`), in vertex order: empty for most
    /// models, and for every vertex with four influences or fewer.
    pub fn extras_of(&self, vertices: Range<usize>) -> &[ExtraInfluence] {
        self.extras.of(vertices)
    }

    /// The same, vertex by vertex: each vertex in `vertices` that has extras, with its own.
    pub fn extras_by_vertex(
        &self,
        vertices: Range<usize>,
    ) -> impl Iterator<Item = (usize, &[ExtraInfluence])> {
        self.extras.by_vertex(vertices)
    }

    /// The most influences any one vertex has (0 for a skin without vertices; 4 or fewer for most).
    pub fn most_influences(&self) -> usize {
        let slots = self.slots_used.iter().max().map_or(0, |&used| used as usize);
        let extras = self.extras_by_vertex(0..self.len()).map(|(_, extras)| extras.len()).max();
        extras.map_or(slots, |extras| SLOTS + extras)
    }

    /// The bind positions, as plain `Vec3`s.
    pub fn bind_positions(&self) -> impl Iterator<Item = Vec3> + '_ {
        self.bind.iter().map(|&p| Vec3::from(p))
    }
}

/// `palette[j] = world[bone of j] * offset[j]`: mesh space to bone space to world, once per joint
/// per frame.
pub fn compute_palette(world: &[Mat4], joints: &[Joint], palette: &mut [Mat4]) {
    assert_eq!(joints.len(), palette.len(), "one palette matrix per joint");
    for (palette, joint) in palette.iter_mut().zip(joints) {
        *palette = world[joint.bone] * joint.offset;
    }
}
