//! The blend: one loop over the vertices, and a method that says where one vertex goes.
//!
//! Linear blend skinning (the article's, article 000 section 2-3) moves a vertex by the weighted
//! average of where each of its joints alone would put it:
//!
//! ```text
//! skinned = Σ weight[i] * palette[joint i] * bind        palette[j] = world[bone of j] * offset[j]
//! ```
//!
//! `world * offset` does not depend on the vertex, so it is multiplied once per joint per frame
//! into the **palette** (`skin.rs`: `compute_palette`), not once per vertex (the article points this
//! saving out). The blend reads the bind positions and writes a separate output (article 004): the
//! palette maps *bind* positions, so feeding last frame's result back in would move the mesh a
//! second time, wrong from the second frame.
//!
//! A vertex at a joint, half on each bone, lands halfway between where each bone alone would put
//! it: the skin stretches smoothly across the joint instead of tearing. Why the weights must sum to
//! 1: with a sum of 0.9, a vertex on a bone that has not moved would land at 0.9 * bind, pulled a
//! tenth of the way towards the world's origin; `Skin::add_vertex` refuses such weights.
//!
//! **One loop, any method.** What a later way of skinning changes (dual quaternions, chapter 7)
//! is only what happens to one vertex: the [`Blend`] trait says it. [`Linear`] is the article's.
//! The loop over the vertices is written once, [`blend_run`], for any method and any run of
//! vertices (the whole skin, or one thread's share).
//!
//! **Two streams in, one out.** The loop reads a stream of positions and the skin's influences
//! (`skin.rs`), side by side, vertex after vertex: the bind positions as the skin keeps them
//! (`Skin::bind`), or the same mesh reshaped for this frame before the blend (chapter 13), with the
//! same influences. It writes the skinned positions into a third.
//!
//! **Every influence, in two passes.** Four influences sit in a vertex's slots, and the main loop
//! reads those: the same four reads for every vertex, no branch. A vertex with more (a file may give
//! any number) keeps the rest as the skin's extras (`skin/extras.rs`), and a second pass
//! ([`finish_extras`]) blends each such vertex again, whole, slots and extras. That rule lives here
//! and only here: the fast path (`skinning-fast`) runs its own main loop, then this same pass.
//!
//! Reads the positions and the influences, writes the output, allocates nothing.
//! `shaders/skinning.vert` is the same sum, run by the GPU (chapter 6).

use crate::skin::{ExtraInfluence, SLOTS, Skin, VertexInfluences};
use glam::{Mat4, Vec3A};
use std::ops::Range;

/// A skinning method: where one vertex goes, given its position before the blend and its influences.
///
/// `extras` are the vertex's fifth and later influences: empty in the main loop, the vertex's own
/// in the second pass. Implemented by [`Linear`] (linear blend skinning), and by the later lessons'
/// other ways (dual quaternions).
pub trait Blend: Sync {
    /// How many joints the method's palette holds: one entry per joint of the skin.
    fn joints(&self) -> usize;
    /// Where the vertex at `bind` goes, by its slots `v` then `extras`.
    fn position(&self, v: &VertexInfluences, extras: &[ExtraInfluence], bind: Vec3A) -> Vec3A;
}

/// Linear blend skinning: a palette of one matrix per joint, `world * offset`.
#[derive(Clone, Copy, Debug)]
pub struct Linear<'a>(pub &'a [Mat4]);

impl Blend for Linear<'_> {
    fn joints(&self) -> usize {
        self.0.len()
    }

    /// `Σ weight * palette[joint] * bind`: the four slots (an unused slot weighs 0 and adds
    /// nothing), then the extras, in that order.
    fn position(&self, v: &VertexInfluences, extras: &[ExtraInfluence], bind: Vec3A) -> Vec3A {
        let palette = self.0;
        let mut sum = Vec3A::ZERO;
        for i in 0..SLOTS {
            // Where this joint alone would put the vertex, weighted.
            sum += v.weights[i] * palette[v.joints[i] as usize].transform_point3a(bind);
        }
        for extra in extras {
            sum += extra.weight * palette[extra.joint].transform_point3a(bind);
        }
        sum
    }
}

/// The blend of a run of the skin's vertices by `method`: `positions[i]` gets vertex
/// `vertices.start + i`, moved from where `bind` (one position per vertex of the skin: its bind
/// positions, or this frame's shape) has it. Every influence counts: the main loop over the
/// slots, then [`finish_extras`].
///
/// # Panics
/// If the method's palette has not one entry per joint, `bind` not one position per vertex, or
/// the output's length is not the run's.
pub fn blend_run(
    skin: &Skin,
    bind: &[Vec3A],
    method: &impl Blend,
    vertices: Range<usize>,
    positions: &mut [Vec3A],
) {
    assert_eq!(method.joints(), skin.joints().len(), "one palette entry per joint");
    assert_eq!(bind.len(), skin.len(), "one position per vertex in");
    let (run, bind_run) = (&skin.vertex_influences()[vertices.clone()], &bind[vertices.clone()]);
    assert_eq!(run.len(), positions.len(), "one output position per vertex");
    // The main loop: every vertex by its four slots.
    for ((v, &p), out) in run.iter().zip(bind_run).zip(positions.iter_mut()) {
        *out = method.position(v, &[], p);
    }
    finish_extras(skin, bind, method, vertices.start, positions);
}

/// The second pass: each vertex of `first..first + positions.len()` that has extras, blended
/// again whole, its slots and its extras, from its position in `bind`.
///
/// Why whole, and not the extras' terms added to the main loop's result: a linear sum could be
/// finished that way, but what later lessons do after the sum cannot (a normal needs the whole
/// blended matrix before its inverse transpose, a dual-quaternion sum is normalised). Redone in the
/// main loop's order, a linear position comes out bit for bit as the sum finished would. Does
/// nothing for a run without extras.
pub fn finish_extras(
    skin: &Skin,
    bind: &[Vec3A],
    method: &impl Blend,
    first: usize,
    positions: &mut [Vec3A],
) {
    for (vertex, extras) in skin.extras_by_vertex(first..first + positions.len()) {
        let v = &skin.vertex_influences()[vertex];
        positions[vertex - first] = method.position(v, extras, bind[vertex]);
    }
}

/// Where `method` puts one vertex of the skin from its position in `bind`, every influence
/// counted: bit for bit what [`blend_run`] writes for it (the vertex inspector shows it).
pub fn blend_vertex(skin: &Skin, bind: &[Vec3A], method: &impl Blend, vertex: usize) -> Vec3A {
    let v = &skin.vertex_influences()[vertex];
    method.position(v, skin.extras_of(vertex..vertex + 1), bind[vertex])
}

/// Linear blend skinning of the whole skin from its bind positions: the article's `BlendVertex`
/// over every vertex. What the book's second chapter runs by hand.
pub fn blend(skin: &Skin, palette: &[Mat4], skinned: &mut [Vec3A]) {
    blend_run(skin, skin.bind(), &Linear(palette), 0..skin.len(), skinned);
}
