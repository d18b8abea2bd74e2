//! The skin: which bones move each vertex, and the blend that moves it (article 000, sections 2-1 and 2-3).
//!
//! Every mesh vertex keeps its **bind position** (where it was modelled, in mesh space) and up to four
//! **influences**: a joint and a weight, the weights summing to 1. That is the article's "skin info".
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
//! weight:
//!
//! ```text
//! skinned = Σ weight[i] * (world[bone of joint i] * offset[joint i]) * bind
//! ```
//!
//! A vertex at a joint, half on each bone, lands halfway between where each bone alone would put it:
//! the skin stretches smoothly across the joint instead of tearing. Why the weights must sum to 1:
//! with a sum of 0.9, a vertex on a bone that has not moved would land at 0.9 * bind, pulled a tenth
//! of the way towards the world's origin, wherever that is; `Skin::add_vertex` refuses such weights.
//!
//! `world * offset` does not depend on the vertex, so we multiply it once per joint per frame into a
//! **palette**, not once per vertex (the article points this saving out). The blend reads the bind
//! positions and writes a separate output (article 004): the palette maps *bind* positions, so
//! feeding last frame's result back in would move the mesh a second time, wrong from the second frame.
//!
//! A skin may also keep a **bind normal** per vertex, the direction the surface faced where it was
//! modelled; `normals.rs` moves it with the blend's own matrix.

use crate::skeleton::BoneId;
use glam::{Mat4, Vec3, Vec3A};
use std::fmt;

/// The most bones that may move one vertex (the article's `MAX_BONE_PER_VERTEX`; also what GPUs use).
pub const MAX_INFLUENCES: usize = 4;

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

/// One vertex of a skin, stored as the blend reads it.
///
/// The influences sit in four fixed slots; the slots past `count` hold joint 0 with weight 0, so the
/// blend can always run over all four without branching (a weight of 0 adds nothing).
/// `Vec3A` is a `Vec3` padded to 16 bytes so the CPU's SIMD registers load it in one go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkinVertex {
    /// Where the vertex was modelled, in mesh space. Read every frame, never written.
    pub bind: Vec3A,
    pub joints: [u16; MAX_INFLUENCES],
    pub weights: [f32; MAX_INFLUENCES],
    /// How many slots are in use (1 to 4).
    pub count: u8,
}

impl SkinVertex {
    /// The influences in use.
    pub fn influences(&self) -> impl Iterator<Item = Influence> + '_ {
        (0..self.count as usize)
            .map(|i| Influence { joint: self.joints[i] as JointId, weight: self.weights[i] })
    }
}

/// A validated skin: every vertex has 1 to 4 influences on existing joints, with weights summing to 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Skin {
    joints: Vec<Joint>,
    vertices: Vec<SkinVertex>,
    /// Each vertex's bind normal, a unit vector, or none at all (empty).
    normals: Vec<Vec3A>,
}

/// How far the weights of one vertex may sum away from 1.
pub const WEIGHT_SUM_TOLERANCE: f32 = 1e-4;

impl Skin {
    /// A skin over these joints, with no vertices yet.
    pub fn new(joints: Vec<Joint>) -> Self {
        Skin { joints, vertices: Vec::new(), normals: Vec::new() }
    }

    /// A skin from a table of (bind position, influences), as a modelling tool would export it.
    pub fn from_table(joints: Vec<Joint>, table: &[(Vec3, &[Influence])]) -> Result<Self, SkinError> {
        let mut skin = Skin::new(joints);
        for (bind, influences) in table {
            skin.add_vertex(*bind, influences)?;
        }
        Ok(skin)
    }

    /// Adds one vertex after checking its influences; the error names the vertex by its index.
    pub fn add_vertex(&mut self, bind: Vec3, influences: &[Influence]) -> Result<(), SkinError> {
        let vertex = self.vertices.len();
        let fail = |problem| Err(SkinError { vertex, problem });
        if influences.is_empty() {
            return fail(SkinProblem::NoInfluences);
        }
        if influences.len() > MAX_INFLUENCES {
            return fail(SkinProblem::TooManyInfluences(influences.len()));
        }
        let mut v = SkinVertex {
            bind: bind.into(),
            joints: [0; MAX_INFLUENCES],
            weights: [0.0; MAX_INFLUENCES],
            count: influences.len() as u8,
        };
        for (slot, influence) in influences.iter().enumerate() {
            if influence.joint >= self.joints.len() || influence.joint > u16::MAX as usize {
                return fail(SkinProblem::NoSuchJoint(influence.joint));
            }
            if !(influence.weight >= 0.0 && influence.weight.is_finite()) {
                return fail(SkinProblem::BadWeight(influence.weight));
            }
            v.joints[slot] = influence.joint as u16;
            v.weights[slot] = influence.weight;
        }
        let sum: f32 = v.weights.iter().sum();
        if (sum - 1.0).abs() > WEIGHT_SUM_TOLERANCE {
            return fail(SkinProblem::WeightsDoNotSumToOne(sum));
        }
        self.vertices.push(v);
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
        if units.len() != self.vertices.len() {
            let vertex = units.len().min(self.vertices.len());
            let problem = if units.len() < self.vertices.len() {
                SkinProblem::NoNormal
            } else {
                SkinProblem::NoSuchVertex
            };
            return Err(SkinError { vertex, problem });
        }
        self.normals = units;
        Ok(())
    }

    pub fn vertices(&self) -> &[SkinVertex] {
        &self.vertices
    }

    pub fn len(&self) -> usize {
        self.vertices.len()
    }

    pub fn is_empty(&self) -> bool {
        self.vertices.is_empty()
    }

    /// The joints the influences refer to: one palette matrix each.
    pub fn joints(&self) -> &[Joint] {
        &self.joints
    }

    /// Every vertex's bind normal, or nothing for a skin without normals.
    pub fn normals(&self) -> &[Vec3A] {
        &self.normals
    }

    /// Every influence of vertex `vertex`: what an exporter writes or a tool shows. (The blend reads
    /// the four slots of [`SkinVertex`] directly.)
    pub fn influences(&self, vertex: usize) -> impl Iterator<Item = Influence> + '_ {
        self.vertices[vertex].influences()
    }

    /// The bind positions, as plain `Vec3`s.
    pub fn bind_positions(&self) -> impl Iterator<Item = Vec3> + '_ {
        self.vertices.iter().map(|v| Vec3::from(v.bind))
    }

    /// Vertex `vertex`'s bind position and normal (if the skin has normals), to be rewritten: only
    /// a pose's copy of the skin is, by morph targets, every frame (`morph.rs`). The influences stay
    /// as they were checked.
    pub fn shape_mut(&mut self, vertex: usize) -> (&mut Vec3A, Option<&mut Vec3A>) {
        (&mut self.vertices[vertex].bind, self.normals.get_mut(vertex))
    }
}

/// A vertex whose skin info is not usable, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct SkinError {
    /// Index of the offending vertex.
    pub vertex: usize,
    pub problem: SkinProblem,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SkinProblem {
    NoInfluences,
    TooManyInfluences(usize),
    NoSuchJoint(JointId),
    /// Negative, infinite or NaN.
    BadWeight(f32),
    WeightsDoNotSumToOne(f32),
    /// Not a direction: zero, infinite or NaN.
    BadNormal(Vec3),
    /// The skin has normals, but none for this vertex.
    NoNormal,
    /// A normal given for a vertex past the last one.
    NoSuchVertex,
}

impl fmt::Display for SkinError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "vertex {}: {}", self.vertex, self.problem)
    }
}

impl fmt::Display for SkinProblem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SkinProblem::NoInfluences => write!(f, "no bone influences it"),
            SkinProblem::TooManyInfluences(n) => {
                write!(f, "{n} influences, at most {MAX_INFLUENCES} allowed")
            }
            SkinProblem::NoSuchJoint(j) => write!(f, "influenced by joint #{j}, which does not exist"),
            SkinProblem::BadWeight(w) => write!(f, "weight {w} is not a finite number >= 0"),
            SkinProblem::WeightsDoNotSumToOne(s) => write!(f, "weights sum to {s}, not 1"),
            SkinProblem::BadNormal(n) => write!(f, "normal ({}, {}, {}) is not a direction", n.x, n.y, n.z),
            SkinProblem::NoNormal => write!(f, "it has no normal, but the vertices before it have"),
            SkinProblem::NoSuchVertex => write!(f, "a normal is given for it, but there is no such vertex"),
        }
    }
}

impl std::error::Error for SkinError {}

/// `palette[j] = world[bone of j] * offset[j]`: mesh space to bone space to world, once per joint
/// per frame.
pub fn compute_palette(world: &[Mat4], joints: &[Joint], palette: &mut [Mat4]) {
    assert_eq!(joints.len(), palette.len(), "one palette matrix per joint");
    for (palette, joint) in palette.iter_mut().zip(joints) {
        *palette = world[joint.bone] * joint.offset;
    }
}

/// Linear blend skinning: `skinned[v] = Σ weight * palette[joint] * bind[v]` (the article's `BlendVertex`).
///
/// Reads the bind positions and writes `skinned`; allocates nothing. `shaders/skinning.vert` is the
/// same loop, run by the GPU (the demo's `--skinning gpu`).
///
/// This plain loop is also the fast one (`cargo bench` measures it; the figures are in
/// `docs/14-every-core.md`): about 5 ns a vertex, about 5x faster than multiplying `world * offset`
/// per influence, and at a million vertices under 2x the time of a bare copy of the same memory.
/// What makes it fast is the palette, and data the CPU can take in whole: a `Mat4` column and a
/// `Vec3A` are each one 16-byte SIMD register, so moving a point by a matrix is three multiplies and
/// three adds, and the four fixed slots make a loop without branches. Blending the four matrices
/// before transforming, an `Affine3A` palette, or skipping unused slots measured no faster, within
/// a few percent of it (`benches/variants.rs`).
pub fn blend(skin: &Skin, palette: &[Mat4], skinned: &mut [Vec3A]) {
    assert_eq!(palette.len(), skin.joints().len(), "one palette matrix per joint");
    assert_eq!(skinned.len(), skin.len(), "one output position per vertex");
    blend_vertices(skin.vertices(), palette, skinned);
}

/// The blend's loop itself, over any run of vertices and their outputs: `out[i]` gets `vertices[i]`
/// blended. [`blend`] runs it over the whole skin; `parallel.rs` runs it over chunks, one per thread.
pub fn blend_vertices(vertices: &[SkinVertex], palette: &[Mat4], out: &mut [Vec3A]) {
    assert_eq!(vertices.len(), out.len(), "one output position per vertex");
    for (v, out) in vertices.iter().zip(out.iter_mut()) {
        // Where each bone alone would put the vertex, weighted; unused slots have weight 0.
        let mut sum = Vec3A::ZERO;
        for i in 0..MAX_INFLUENCES {
            let matrix = &palette[v.joints[i] as usize];
            sum += v.weights[i] * matrix.transform_point3a(v.bind);
        }
        *out = sum;
    }
}
