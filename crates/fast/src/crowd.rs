//! A crowd: one model, many characters, each at its own moment of the clip.
//!
//! **What is shared, what is owned.** Every character is the same model: the skeleton, the skin
//! (bind positions, influences, offsets) and the clips are read by all of them, by reference, and
//! never copied. What differs between two characters is only where they are in the clip (a
//! `phase`, in seconds) and where they stand (a `place`, the translation a renderer puts in front of
//! their model-space positions). So a character owns one [`Pose`]: its local transforms, matrices,
//! palette, skinned positions and normals, everything `Pose::run` writes; and, for a model with
//! morph targets, its morph (`morph.rs`: `Morphed`, which its frames' step 4 fills by the clip's
//! weights). An extra character costs [`pose_bytes`] and [`morph_bytes`], and its `Character`
//! itself (`--crowd N --stats` prints it for a model).
//!
//! **Where the threads cut.** A character's frame reads the shared model and writes only its own
//! pose, so characters are independent, as vertices are in `parallel.rs`. The cut is therefore
//! between characters: each character's whole frame (sample, matrices, palette, blend) is one job,
//! run start to end on one thread by the lanes (`fast_path.rs`, on one thread), and rayon's pool
//! hands the jobs out. A big mesh is no longer cut into runs of vertices: with hundreds of
//! characters there is work enough for every thread without that, and a job that does a whole
//! character touches its palette and its outputs from one core only. Each character comes out bit
//! for bit as the same frame run alone (`tests/crowd.rs`).
//!
//! **Allocating nothing.** Every pose is allocated once, in [`Crowd::new`]; a frame refills them.
//! The jobs go out from one of the pool's own threads (`BlendThreads::new` makes the caller one), so
//! handing them out allocates nothing either (`tests/crowd_allocations.rs`).

use crate::fast_path::FastPath;
use crate::parallel::BlendThreads;
use glam::{Mat4, Quat, Vec2, Vec3, Vec3A};
use rayon::prelude::*;
use skinning_method::clip::Clip;
use skinning_method::frame::{Blending, Frame, Pose};
use skinning_method::model::Model;
use skinning_method::morph::{Morph, MorphTargets, Morphed};
use skinning_method::transform::Trs;
use std::mem::{size_of, size_of_val};

/// One member of the crowd: when and where it is, and the pose it owns.
pub struct Character {
    /// Seconds this character is ahead of the crowd's clock.
    pub phase: f64,
    /// Where it stands: its skinned positions are in the model's space, drawn moved by this.
    pub place: Vec3,
    /// Everything its frame computes (`frame.rs`), its own.
    pub pose: Pose,
    /// Its morph weights and its mesh's shape this frame (step 4), its own.
    pub morphed: Morphed,
}

/// How far each character's frame goes: what the CPU draws needs the blend (and the normals, for a
/// lit surface); what the GPU draws needs only the palette, which its vertex shader blends from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// Steps 1 to 4: the pose, the palette and the morph (the GPU path's CPU side).
    Palette,
    /// The blend too, positions only.
    Blend,
    /// The blend, positions and normals.
    BlendAndNormals,
}

/// Many characters of one model; the model itself is the caller's, lent to every frame.
pub struct Crowd {
    pub characters: Vec<Character>,
    /// How each character blends: the widest lanes, on the thread that runs its job.
    blend: FastPath,
    /// The model's morph targets, which every character's step 4 reads ([`Crowd::morphing`]).
    targets: MorphTargets,
}

impl Crowd {
    /// A character at each `(place, phase)`, each with a pose of its own for `model`.
    pub fn new(model: &Model, members: impl IntoIterator<Item = (Vec3, f64)>) -> Crowd {
        let characters = members
            .into_iter()
            .map(|(place, phase)| {
                let (pose, morphed) = (Pose::new(model), Morphed::new(&model.skin, &[]));
                Character { phase, place, pose, morphed }
            })
            .collect();
        Crowd { characters, blend: FastPath::new(), targets: MorphTargets::default() }
    }

    /// The same crowd, each character's frames morphing `model`'s `targets` (kept beside it:
    /// `morph.rs`: `MorphTargets`) by the clip's weights, as step 4.
    pub fn morphing(mut self, model: &Model, targets: &MorphTargets) -> Crowd {
        for character in &mut self.characters {
            character.morphed = Morphed::new(&model.skin, targets);
        }
        self.targets = targets.clone();
        self
    }

    /// `count` characters on a square grid on the model's ground, `spacing` apart ([`grid`],
    /// [`on_ground`]), their phases spread evenly over a clip of `duration` seconds ([`phase`]).
    pub fn on_grid(model: &Model, count: usize, spacing: f32, duration: f64) -> Crowd {
        let member = |i| (on_ground(model, grid(i, count), spacing), phase(i, count, duration));
        Crowd::new(model, (0..count).map(member))
    }

    /// One frame of every character: `clip` at `time` plus its phase, as far as `work` says. On
    /// `threads`' pool, one job per character, when the crowd's vertices together reach the
    /// threads' threshold (`BlendThreads::used_for`); else one after the other on this thread.
    pub fn run(&mut self, model: &Model, clip: &Clip, time: f64, work: Work, threads: &BlendThreads) {
        let targets = &self.targets[..];
        let one = |character: &mut Character| {
            // Every character's frame is lent the one fast path (`&FastPath` blends as it does).
            let mut by = &self.blend;
            let blending = match work {
                Work::Palette => Blending::Palette,
                Work::Blend => Blending::Skin { by: &mut by, normals: false },
                Work::BlendAndNormals => Blending::Skin { by: &mut by, normals: true },
            };
            let mut morph = Morph { targets, held: &[], morphed: &mut character.morphed };
            let reshape = Some(&mut morph as _);
            let frame = Frame { blending, reshape, ..Frame::new(clip, time + character.phase) };
            let _linear_blending_takes_any_palette = character.pose.run(model, frame);
        };
        let vertices = self.characters.len() * model.skin.len();
        match threads.pool().filter(|_| threads.used_for(vertices) > 1) {
            Some(pool) => pool.install(|| self.characters.par_iter_mut().for_each(one)),
            None => self.characters.iter_mut().for_each(one),
        }
    }

    /// The heap memory the crowd's characters own, all together (the model is not counted: it is
    /// the caller's, shared).
    pub fn bytes(&self) -> usize {
        let each = |c: &Character| size_of::<Character>() + pose_bytes(&c.pose) + morph_bytes(&c.morphed);
        self.characters.iter().map(each).sum()
    }
}

/// Where the `i`th of `count` characters stands on a square grid as wide as it is deep (the last
/// row may be short), centred on the origin, in steps of one: x across, y from back to front.
pub fn grid(i: usize, count: usize) -> Vec2 {
    let count = count.max(1);
    let side = count.isqrt() + usize::from(count.isqrt().pow(2) < count);
    let rows = count.div_ceil(side);
    let centre = |n: usize| (n as f32 - 1.0) / 2.0;
    Vec2::new((i % side) as f32 - centre(side), (i / side) as f32 - centre(rows))
}

/// A spot of the [`grid`] on `model`'s ground, `spacing` apart: across is the model's left (its up
/// crossed with its front, `Axes::left`), and each row stands one step further to its front.
pub fn on_ground(model: &Model, spot: Vec2, spacing: f32) -> Vec3 {
    let (up, front) = (model.axes.up().vector(), model.axes.front().vector());
    (up.cross(front) * spot.x + front * spot.y) * spacing
}

/// The `i`th of `count` characters' phase: spread evenly over one loop of a `duration`-second clip,
/// so that no two are in step (the first at 0).
pub fn phase(i: usize, count: usize, duration: f64) -> f64 {
    duration * i as f64 / count.max(1) as f64
}

/// The heap memory one pose owns: every buffer `Pose::new` sized for its model (their capacity,
/// the bytes the allocator gave), which is what each character past the first adds.
pub fn pose_bytes(pose: &Pose) -> usize {
    fn bytes<T>(v: &Vec<T>) -> usize {
        v.capacity() * size_of::<T>()
    }
    let matrices = bytes::<Mat4>(&pose.local_matrices) + bytes(&pose.world) + bytes(&pose.palette);
    let bones = bytes::<Trs>(&pose.local) + bytes::<Quat>(&pose.bend);
    let vertices = bytes::<Vec3A>(&pose.skinned) + bytes(&pose.normals);
    matrices + bones + vertices
}

/// The heap memory one character's morph owns (`Morphed::new`): for a model with morph targets,
/// the weights and this frame's shape (made whole by `to_vec`); nothing for one without.
pub fn morph_bytes(morphed: &Morphed) -> usize {
    let shape = morphed.reshaped().map_or(0, |s| size_of_val(s.positions) + size_of_val(s.normals));
    morphed.weights.capacity() * size_of::<f32>() + shape
}

/// The spacing of a crowd of `model`: its longest extent on the ground (across or along its front)
/// in the bind pose, and half that again between neighbours, so that swinging limbs do not touch.
pub fn spacing(model: &Model) -> f32 {
    let up = model.axes.up().vector();
    let longest = [model.axes.front().vector(), up.cross(model.axes.front().vector())].map(|axis| {
        let along = model.skin.bind_positions().map(|p| p.dot(axis));
        let (low, high) = along.fold((f32::MAX, f32::MIN), |(l, h), x| (l.min(x), h.max(x)));
        (high - low).max(0.0)
    });
    (longest[0].max(longest[1]) * 1.5).max(f32::EPSILON)
}
