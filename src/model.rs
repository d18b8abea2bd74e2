//! A skinned model, and one frame of the method from start to finish.
//!
//! A [`Model`] is what a file would load: a skeleton, a skin whose joints carry their offsets, the
//! lines that draw the mesh (and its triangles, where it has faces), which vertices form which
//! mesh ([`Part`]), the morph targets of the meshes that have them ([`MeshMorph`]), and the looks
//! that skinning never changes (texture coordinates and materials, `material.rs`); it is made
//! piece by piece, each piece checked (`model/build.rs`). A [`Pose`] holds everything that changes
//! per frame, allocated once and refilled every frame in this order:
//!
//! 1. **animate**: the clip (or several, blended: `mixer.rs`) gives every bone its local
//!    translation, rotation and scale for this time (`trs`), and every morph target a weight
//!    ([`Pose::animate`]);
//! 2. **reach**: any chain that reaches for a target turns its rotations in `trs` there
//!    (`reach.rs`; the program and the dump run it, where the user asks for it);
//! 3. **matrices**: each bone's `trs` as a matrix, with its hand bend; the walk down the tree,
//!    `world = parent world * local`; the palette, `world * offset` once per joint;
//! 4. **morph**: a mesh with morph targets takes this frame's shape, `bind + Σ weight * Δ`, in the
//!    pose's copy of the skin (`morph.rs`); the blend reads that copy;
//! 5. **blend**: every vertex, `Σ weight * palette[joint] * bind`, over every influence;
//! 6. **normals**: every bind normal by the inverse transpose of that vertex's blended matrix, or,
//!    for a mesh that has none, each triangle's own normal from its skinned corners (`normals.rs`).
//!
//! Steps 5 and 6 have two methods ([`Method`]): linear blend skinning, the article's, above; or
//! dual-quaternion skinning (`dual_quat.rs`), which first turns each palette matrix into a dual
//! quaternion. `Pose::update` is the article's method; `Pose::update_with` takes either. Both
//! blend on the fast path (`lanes.rs`), steps 5 and 6 in one pass.

mod build;
mod error;
mod method;
mod part;

pub use error::ModelError;
pub use method::{Method, Palette};
pub use part::{Part, Up};

use crate::clip::Clip;
use crate::dual_quat::{DualQuat, NotRigid, blend_dqs_normals, compute_dq_palette};
use crate::lanes;
use crate::material::Materials;
use crate::morph::{MeshMorph, Morphed};
use crate::normals::{blend_normals, face_normals};
use crate::skeleton::{BoneId, Skeleton};
use crate::skin::{Skin, compute_palette};
use crate::transform::Trs;
use glam::{Mat4, Quat, Vec2, Vec3A};

/// A skeleton, the skin bound to it, and how to draw the mesh.
#[derive(Clone, Debug)]
pub struct Model {
    pub skeleton: Skeleton,
    pub skin: Skin,
    /// The mesh's outline as pairs of vertex indices: what the picture connects with lines.
    pub edges: Vec<[u32; 2]>,
    /// The mesh's faces as triples of vertex indices, counter-clockwise seen from the front (glTF's
    /// rule). Empty for a mesh that is only an outline, as the article's is.
    pub triangles: Vec<[u32; 3]>,
    /// The meshes, as runs of the skin's vertices in order: first every skinned one, then every
    /// rigid one. The article's scene is one skinned part; a glTF file has one per mesh and node.
    pub parts: Vec<Part>,
    /// The axis its numbers call up: the picture stands it up that way (`camera.rs`).
    pub up: Up,
    /// The morph targets of its meshes, each over its part's run of vertices (none for most).
    pub morphs: Vec<MeshMorph>,
    /// Each vertex's texture coordinates, or none: skinning never moves them (`material.rs`).
    pub texcoords: Vec<Vec2>,
    /// Its materials, and which triangles take each (`material.rs`); none for the article.
    pub materials: Materials,
}

impl Model {
    /// How many vertices belong to skinned parts: they come first, the rigid ones after.
    pub fn skinned_len(&self) -> usize {
        self.parts.iter().filter(|p| p.skinned).map(|p| p.vertices.len()).sum()
    }

    /// For every bone, whether it is a joint of the skin: the bones the picture draws. (In the
    /// article every bone is; a glTF file also has nodes that only place others.)
    pub fn joint_bones(&self) -> Vec<bool> {
        let mut is_joint = vec![false; self.skeleton.len()];
        for joint in self.skin.joints() {
            is_joint[joint.bone] = true;
        }
        is_joint
    }

    /// The mesh drawn as one closed loop, as the article draws it: vertex i to i + 1, the last to the first.
    pub fn line_loop(vertices: usize) -> Vec<[u32; 2]> {
        (0..vertices).map(|i| [i as u32, ((i + 1) % vertices) as u32]).collect()
    }
}

/// Everything one frame computes, kept between frames so no frame allocates.
#[derive(Clone, Debug)]
pub struct Pose {
    /// Every bone's local translation, rotation and scale, as the clip gives them (the animation
    /// systems' "local pose"): what a blend of clips or a reaching chain changes, before matrices.
    pub trs: Vec<Trs>,
    /// Local transform of every bone as a matrix: `trs`, then any hand bend.
    pub local: Vec<Mat4>,
    /// Extra rotation per bone in the bone's own space (article 003's mouse-dragged bones):
    /// `local * bend` turns the bone's space before the clip's local transform places it, so the bend
    /// rides along with whatever the clip does. Identity unless the user bends a bone by hand.
    pub bend: Vec<Quat>,
    /// World transform of every bone.
    pub world: Vec<Mat4>,
    /// `world * offset` of every joint of the skin.
    pub palette: Vec<Mat4>,
    /// The palette as unit dual quaternions, for [`Method::Dqs`] (see [`Pose::update_dq_palette`]).
    pub dq_palette: Vec<DualQuat>,
    /// The scale every palette matrix shares, factored out of `dq_palette` (1 for the article).
    pub dq_scale: f32,
    /// Step 4: this frame's morph weights, and the skin in this frame's shape that the blend reads
    /// (`morph.skin(&model.skin)`: the model's own where it has no morph targets).
    pub morph: Morphed,
    /// Blended position of every vertex.
    pub skinned: Vec<Vec3A>,
    /// Skinned normal of every vertex, in the order of `skinned`, where the skin has bind normals;
    /// empty where it has none.
    pub normals: Vec<Vec3A>,
    /// Where the skin has no normals: each triangle's own normal (flat normals), in the order of
    /// `Model::triangles`; empty where it has normals.
    pub face_normals: Vec<Vec3A>,
}

impl Pose {
    /// Buffers sized for `model`, holding its rest pose.
    pub fn new(model: &Model) -> Self {
        let bones = model.skeleton.len();
        let mut pose = Pose {
            trs: model.skeleton.bones().iter().map(|b| b.rest).collect(),
            local: model.skeleton.rest_locals(),
            bend: vec![Quat::IDENTITY; bones],
            world: vec![Mat4::IDENTITY; bones],
            palette: vec![Mat4::IDENTITY; model.skin.joints().len()],
            dq_palette: vec![DualQuat::IDENTITY; model.skin.joints().len()],
            dq_scale: 1.0,
            morph: Morphed::new(&model.skin, &model.morphs),
            skinned: vec![Vec3A::ZERO; model.skin.len()],
            normals: model.skin.normals().to_vec(),
            face_normals: match model.skin.normals() {
                [] => vec![Vec3A::ZERO; model.triangles.len()],
                _ => Vec::new(),
            },
        };
        pose.compute(model);
        pose
    }

    /// The whole method for one frame: the clip's pose and morph weights at `time`, then world,
    /// palette, morph, blend and normals.
    pub fn update(&mut self, model: &Model, clip: &Clip, time: f64) {
        self.update_palette(model, clip, time);
        self.morph.apply(&model.skin, &model.morphs);
        // Steps 5 and 6 in one pass, on the fast path (`lanes.rs`): the positions and the normals.
        lanes::blend(self.morph.skin(&model.skin), &self.palette, &mut self.skinned, &mut self.normals);
        self.update_face_normals(model);
    }

    /// Steps 1 and 3 only (no chain reaches): the bones, the palette and the morph weights, no
    /// morph and no blend. For when the blend runs elsewhere, as in GPU skinning, where the vertex
    /// shader morphs and blends with these; `skinned` is left as it was.
    pub fn update_palette(&mut self, model: &Model, clip: &Clip, time: f64) {
        self.animate(model, clip, time);
        self.palette_from_trs(model);
    }

    /// Step 1: the clip at `time` gives every bone its local pose (`trs`) and every morph target
    /// its weight. A reaching chain may change `trs` after this, before the matrices.
    pub fn animate(&mut self, model: &Model, clip: &Clip, time: f64) {
        clip.sample(&model.skeleton, time, &mut self.trs);
        clip.sample_weights(time, &model.morphs, &mut self.morph.weights);
    }

    /// Step 3 for whatever pose is in `trs`: each bone's matrix `T * R * S` with its hand
    /// bend after it, then world transforms and the palette.
    pub fn palette_from_trs(&mut self, model: &Model) {
        for ((local, trs), bend) in self.local.iter_mut().zip(&self.trs).zip(&self.bend) {
            *local = trs.to_mat4() * Mat4::from_quat(*bend);
        }
        model.skeleton.compute_world(&self.local, &mut self.world);
        compute_palette(&self.world, model.skin.joints(), &mut self.palette);
    }

    /// Steps 3 to 6 for whatever pose is in `trs` (no hand bend): for writing a clip out frame by
    /// frame (`md5_export`).
    pub fn compute_from_trs(&mut self, model: &Model) {
        for (local, trs) in self.local.iter_mut().zip(&self.trs) {
            *local = trs.to_mat4();
        }
        self.compute(model);
    }

    /// The whole method for one frame, blending by `method` (`update` is this with [`Method::Lbs`]).
    ///
    /// DQS needs joints that only turn and move: if one does not, the error names it, the bones and
    /// the palette are this frame's, and `skinned` is left as it was.
    pub fn update_with(
        &mut self,
        model: &Model,
        clip: &Clip,
        time: f64,
        method: Method,
    ) -> Result<(), NotRigid> {
        self.update_palette(model, clip, time);
        self.blend_with(model, method)
    }

    /// Steps 4 to 6, blending by `method`, from the palette and the morph weights already there:
    /// the morph, then the blend and its normals in one pass (`lanes.rs`).
    pub fn blend_with(&mut self, model: &Model, method: Method) -> Result<(), NotRigid> {
        if method == Method::Dqs {
            self.update_dq_palette()?;
        }
        self.morph.apply(&model.skin, &model.morphs);
        let (skin, skinned, normals) = (self.morph.skin(&model.skin), &mut self.skinned, &mut self.normals);
        match method {
            Method::Lbs => lanes::blend(skin, &self.palette, skinned, normals),
            Method::Dqs => lanes::blend_dqs(skin, &self.dq_palette, self.dq_scale, skinned, normals),
        }
        self.update_face_normals(model);
        Ok(())
    }

    /// Step 6 alone, after the morph and a blend, by the readable loops: the skin's normals moved as
    /// `method` moves them (the inverse transpose of the blended matrix, or the blended rotation of
    /// dual quaternions; for DQS, as of the last `update_dq_palette`), or flat normals from the
    /// skinned triangles.
    pub fn update_normals(&mut self, model: &Model, method: Method) {
        let skin = self.morph.skin(&model.skin);
        match method {
            Method::Lbs => blend_normals(skin, &self.palette, &mut self.normals),
            Method::Dqs => blend_dqs_normals(skin, &self.dq_palette, &mut self.normals),
        }
        self.update_face_normals(model);
    }

    /// Flat normals, for a mesh with none of its own (otherwise `face_normals` is empty): each
    /// triangle's own, from its skinned corners.
    pub fn update_face_normals(&mut self, model: &Model) {
        if !self.face_normals.is_empty() {
            face_normals(&self.skinned, &model.triangles, &mut self.face_normals);
        }
    }

    /// The palette as dual quaternions, for DQS: once per joint, like the palette itself.
    pub fn update_dq_palette(&mut self) -> Result<(), NotRigid> {
        self.dq_scale = compute_dq_palette(&self.palette, &mut self.dq_palette)?;
        Ok(())
    }

    /// What `method`'s blend reads (for DQS, as of the last `update_dq_palette`).
    pub fn palette_for(&self, method: Method) -> Palette<'_> {
        match method {
            Method::Lbs => Palette::Lbs(&self.palette),
            Method::Dqs => Palette::Dqs { joints: &self.dq_palette, scale: self.dq_scale },
        }
    }

    /// Steps 3 to 6 for whatever pose is in `local`, and the morph weights in `morph`.
    pub fn compute(&mut self, model: &Model) {
        model.skeleton.compute_world(&self.local, &mut self.world);
        compute_palette(&self.world, model.skin.joints(), &mut self.palette);
        self.morph.apply(&model.skin, &model.morphs);
        lanes::blend(self.morph.skin(&model.skin), &self.palette, &mut self.skinned, &mut self.normals);
        self.update_face_normals(model);
    }

    /// Where the joint of `bone` is in the world: the origin of its space.
    pub fn joint(&self, bone: BoneId) -> glam::Vec3 {
        self.world[bone].w_axis.truncate()
    }
}
