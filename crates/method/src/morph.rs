//! Morph targets (blend shapes): a weighted sum of *shapes*, taken before the weighted sum of
//! *motions* that is skinning.
//!
//! Skinning moves a vertex by a weighted sum of motions: where each joint alone would carry it
//! (`skin.rs`). A face that frowns is not moved by a bone: the brow itself changes shape. A **morph
//! target** stores such a shape as a **displacement** of every vertex from where it was modelled,
//! and a **weight** says how much of it to take:
//!
//! ```text
//! morphed bind   = bind + Σ weight[k] * Δposition[k]
//! morphed normal = normalize(normal + Σ weight[k] * Δnormal[k])
//! ```
//!
//! At weight 0 a target is off, at 1 fully on; several add up (an angry brow and a surprised mouth
//! at once), and nothing asks the weights to sum to 1, since each adds its own change to one shape.
//!
//! **The order is fixed: the shapes first, then the skin** (glTF spec, "Morph Targets"; three.js does
//! the same). A displacement is an arrow drawn in the mesh's bind space, beside the bind position it
//! changes; the skin then moves the reshaped vertex as it would have moved the plain one, arrow and
//! all. Added after the skin, the arrow would keep pointing where it pointed in the bind pose: a
//! head that turns would leave its smile facing the old way (chapter 13 measures how far).
//!
//! A model's targets are kept beside it, not in it ([`MorphTargets`]): the core's model does not
//! know them, and a loader hands them over with it.
//!
//! In a frame (`frame.rs`) the morph is step 4, after the palette and before the blend: a stage the
//! frame is handed ([`Morph`], a `Reshape`), which the frame runs without naming it. It changes no
//! part of the model: it writes this frame's shape ([`Morphed`]: the positions and normals of
//! every vertex, the morphed ones displaced) into streams of its own, and the blend reads those
//! instead of the skin's bind positions and normals, beside the skin's influences, with the same
//! loop. The influences are never copied: a shape has nothing to do with them. A frame's weights
//! come from the mesh's defaults (a node's own weights, else its mesh's), the clip's weight
//! channels (`clip.rs`, asked of the frame's source by [`sample_weights`]), and the user
//! (`--morph`, the keys).

use crate::frame::Reshape;
use crate::frame::source::Source;
use crate::skeleton::BoneId;
use crate::skin::{Shape, Skin};
use glam::Vec3A;
use std::ops::Range;

/// One mesh's morph targets: the shapes that its run of the skin's vertices can take.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshMorph {
    /// The mesh's name (as its [`Part`](crate::model::Part) is named), for messages and `--morph`.
    pub name: String,
    /// The bone (a glTF node) that holds the mesh: its weights and its animation channels are this
    /// node's, so two nodes showing one mesh make two of these, with weights of their own.
    pub bone: BoneId,
    /// Which of the skin's vertices the targets reshape.
    pub vertices: Range<usize>,
    /// Each target's name, as a modelling tool wrote it (glTF: the mesh's `extras.targetNames`);
    /// empty where the file gave none.
    pub targets: Vec<String>,
    /// Each target's weight when no clip and no user sets it (glTF: the node's `weights`, else the
    /// mesh's, else 0).
    pub defaults: Vec<f32>,
    /// Where this mesh's weights are in a frame's weights ([`Morphed::weights`]): one per target.
    /// Given by [`number_weights`].
    pub weights: Range<usize>,
    /// The position displacements, vertex after vertex, each vertex's targets in order: target `k`
    /// of vertex `vertices.start + i` is `positions[i * targets.len() + k]`, so the sum over one
    /// vertex's targets reads neighbouring numbers.
    pub positions: Vec<Vec3A>,
    /// The normal displacements, in the same order; empty where no target gives any (the normals
    /// then stay as modelled) or the skin has no normals.
    pub normals: Vec<Vec3A>,
}

impl MeshMorph {
    /// How many targets the mesh has.
    pub fn target_count(&self) -> usize {
        self.targets.len()
    }

    /// Target `k` as messages name it: its name, or `target k` where it has none.
    pub fn target_label(&self, k: usize) -> String {
        match self.targets.get(k).map(String::as_str) {
            Some(name) if !name.is_empty() => name.to_string(),
            _ => format!("target {k}"),
        }
    }

    /// The displacements of the run's vertex `i`, one per target.
    pub fn displacements(&self, i: usize) -> &[Vec3A] {
        let n = self.targets.len();
        &self.positions[i * n..(i + 1) * n]
    }

    /// The longest displacement target `k` gives any vertex: how far it can move the mesh. Measured
    /// in 64-bit floats: the length of (0, 3e38, 0) squares 3e38, past what 32-bit floats hold.
    pub fn reach(&self, k: usize) -> f64 {
        let n = self.targets.len();
        let length = |d: &Vec3A| d.as_dvec3().length();
        self.positions.iter().skip(k).step_by(n.max(1)).map(length).fold(0.0, f64::max)
    }
}

/// A model's morph targets: every mesh's [`MeshMorph`], each checked against the skin and given
/// its place in a frame's weights ([`MorphTargets::new`]). The core's model does not hold them: a
/// loader hands them over beside it (`gltf_import.rs`: `Imported::morphs`), and whoever keeps the
/// model keeps them. Read as a slice of meshes; none for most models ([`MorphTargets::default`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MorphTargets(Vec<MeshMorph>);

impl MorphTargets {
    /// `meshes`' targets on a skin of `skin_len` vertices, each mesh checked and numbered
    /// ([`number_weights`]); the error says which mesh does not fit, and how.
    pub fn new(mut meshes: Vec<MeshMorph>, skin_len: usize) -> Result<MorphTargets, String> {
        number_weights(&mut meshes, skin_len)?;
        Ok(MorphTargets(meshes))
    }
}

impl std::ops::Deref for MorphTargets {
    type Target = [MeshMorph];

    fn deref(&self) -> &[MeshMorph] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a MorphTargets {
    type Item = &'a MeshMorph;
    type IntoIter = std::slice::Iter<'a, MeshMorph>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// Gives each mesh its place in a frame's weights, one after the other, after checking that its
/// numbers fit: a run of the `vertices` the skin has, and a displacement per vertex and target.
/// Returns how many weights a frame has in all.
pub fn number_weights(morphs: &mut [MeshMorph], vertices: usize) -> Result<usize, String> {
    let mut next = 0;
    for m in morphs.iter_mut() {
        let (n, run) = (m.targets.len(), m.vertices.len());
        let problem = if m.vertices.end > vertices || m.vertices.start > m.vertices.end {
            Some(format!("its vertices {:?} are not the skin's 0..{vertices}", m.vertices))
        } else if m.defaults.len() != n {
            Some(format!("{} default weights for {n} targets", m.defaults.len()))
        } else if m.positions.len() != run * n {
            Some(format!("{} displacements for {run} vertices of {n} targets", m.positions.len()))
        } else if !m.normals.is_empty() && m.normals.len() != run * n {
            Some(format!("{} normal displacements for {run} vertices of {n} targets", m.normals.len()))
        } else {
            None
        };
        if let Some(problem) = problem {
            return Err(format!("the morph targets of mesh {:?}: {problem}", m.name));
        }
        m.weights = next..next + n;
        next += n;
    }
    Ok(next)
}

/// `bind + Σ weight[k] * Δ[k]`: one vertex's bind position in this frame's shape. A target at
/// weight 0 adds nothing and is skipped, so with every weight 0 the vertex is exactly where it
/// was modelled.
pub fn morph_position(bind: Vec3A, weights: &[f32], displacements: &[Vec3A]) -> Vec3A {
    let mut shaped = bind;
    for (&weight, &displacement) in weights.iter().zip(displacements) {
        if weight != 0.0 {
            shaped += weight * displacement;
        }
    }
    shaped
}

/// `normalize(normal + Σ weight[k] * Δ[k])`: one vertex's bind normal in this frame's shape; the
/// normal as it was where the targets change it by nothing (or would turn it to nothing).
pub fn morph_normal(normal: Vec3A, weights: &[f32], displacements: &[Vec3A]) -> Vec3A {
    let change = morph_position(Vec3A::ZERO, weights, displacements);
    if change == Vec3A::ZERO { normal } else { (normal + change).try_normalize().unwrap_or(normal) }
}

/// The morph weights `source` gives at `time`, for every mesh of `morphs`, into `weights` (one per
/// target, at each mesh's place): the numbers the track of the mesh's bone moves besides the bone
/// (`frame/source.rs`: `Source::numbers`; a clip's are its weight channels, `clip.rs`:
/// `Track::weights`), each mesh's defaults where none moves them. A blend of several clips averages
/// them by the clips' own weights, as it averages their poses (`mixer/pose.rs`). Allocates nothing.
pub fn sample_weights(source: &dyn Source, time: f64, morphs: &[MeshMorph], weights: &mut [f32]) {
    for m in morphs {
        source.numbers(m.bone, time, &m.defaults, &mut weights[m.weights.clone()]);
    }
}

/// A weight held by the user over whatever the clip says (`--morph`, the program's keys): which of
/// a frame's weights ([`MeshMorph::weights`]), and its value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Held {
    pub weight: usize,
    pub value: f32,
}

/// What step 4 keeps between frames, for one pose: this frame's morph weights, and the shape they
/// give the mesh. Made once per pose, kept beside it by its owner; a frame allocates nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct Morphed {
    /// Every target's weight this frame, mesh after mesh ([`MeshMorph::weights`] says where).
    pub weights: Vec<f32>,
    /// Every vertex's position in this frame's shape (the morphed ones displaced, the others at
    /// their bind positions); empty for a model without morph targets, whose blend reads the
    /// skin's bind positions themselves.
    positions: Vec<Vec3A>,
    /// The same for the normals; empty too where the skin has none.
    normals: Vec<Vec3A>,
}

impl Morphed {
    /// The weights at their defaults, and (for a model with targets) the skin's shape to reshape.
    pub fn new(skin: &Skin, morphs: &[MeshMorph]) -> Morphed {
        let mut morphed = Morphed { weights: Vec::new(), positions: Vec::new(), normals: Vec::new() };
        if !morphs.is_empty() {
            morphed.weights = morphs.iter().flat_map(|m| m.defaults.iter().copied()).collect();
            morphed.positions = skin.bind().to_vec();
            morphed.normals = skin.normals().to_vec();
        }
        morphed
    }

    /// The shape the blend reads: the skin's own, or this frame's for a model with morph targets.
    pub fn shape<'a>(&'a self, skin: &'a Skin) -> Shape<'a> {
        self.reshaped().unwrap_or(skin.shape())
    }

    /// This frame's shape, for a model with morph targets; None for one without.
    pub fn reshaped(&self) -> Option<Shape<'_>> {
        let shape = Shape { positions: &self.positions, normals: &self.normals };
        (!self.positions.is_empty()).then_some(shape)
    }

    /// Sets the `held` weights over those the clip gave.
    pub fn hold(&mut self, held: &[Held]) {
        for h in held {
            self.weights[h.weight] = h.value;
        }
    }

    /// Step 4: each morphed vertex's position and normal, from the `skin`'s bind ones (never
    /// changed) and this frame's weights, into the shape the blend reads.
    pub fn apply(&mut self, skin: &Skin, morphs: &[MeshMorph]) {
        for m in morphs {
            let weights = &self.weights[m.weights.clone()];
            let n = m.targets.len();
            for (i, v) in m.vertices.clone().enumerate() {
                self.positions[v] = morph_position(skin.bind()[v], weights, m.displacements(i));
                if let (Some(normal), Some(&base)) = (self.normals.get_mut(v), skin.normals().get(v))
                    && !m.normals.is_empty()
                {
                    *normal = morph_normal(base, weights, &m.normals[i * n..(i + 1) * n]);
                }
            }
        }
    }
}

/// Step 4 as a stage of the frame (`frame.rs`: `Frame::reshape`): the mesh's morph targets, the
/// weights the user holds over the source's, and the pose's morph they fill, kept by whoever keeps
/// the pose ([`Morphed::new`]). Made afresh for each frame; it borrows everything and allocates
/// nothing.
pub struct Morph<'a> {
    pub targets: &'a [MeshMorph],
    pub held: &'a [Held],
    pub morphed: &'a mut Morphed,
}

impl Reshape for Morph<'_> {
    /// The source's weights at `time` ([`sample_weights`]), the held ones over them, and the shape
    /// they give ([`Morphed::apply`]): the skin's own for a model without targets.
    fn reshape<'s>(&'s mut self, skin: &'s Skin, source: &dyn Source, time: f64) -> Shape<'s> {
        sample_weights(source, time, self.targets, &mut self.morphed.weights);
        self.morphed.hold(self.held);
        self.morphed.apply(skin, self.targets);
        self.morphed.shape(skin)
    }
}
