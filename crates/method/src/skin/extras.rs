//! A vertex's fifth and later influences, its **extras**: the table the skin keeps them in.
//!
//! A file may give a vertex any number of influences: glTF in sets of four (`JOINTS_0`, `JOINTS_1`,
//! ...), MD5 as a run of weights of any length. Few vertices have more than four, so widening every
//! vertex to the most any vertex has would make the whole mesh pay for a handful. Instead the skin
//! keeps them in one table beside the vertices, each entry a vertex, a joint and a weight, in
//! vertex order: most models have an empty table.
//!
//! The blend's main loop (`blend::blend_run`) blends every vertex by its four slots; then its
//! second pass (`blend::finish_extras`) blends each vertex with extras again, whole, its slots and
//! its extras, by the same method. A sum of positions could be finished by adding the extras'
//! terms, but what comes after the sum cannot: a normal needs the vertex's whole blended matrix
//! before its inverse transpose, and dual quaternions normalise their sum. So one rule serves
//! every method: the vertex again, every influence counted.
//!
//! A pass can run over any run of vertices: the whole skin, or one thread's chunk (`parallel.rs`).
//! [`Extras::of`] finds the run's extras by binary search, as the table is in vertex order.

use std::ops::Range;

/// One influence past a vertex's four slots: vertex `vertex` is moved by joint `joint` with `weight`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExtraInfluence {
    pub vertex: usize,
    /// The joint's index in the skin's joints.
    pub joint: usize,
    pub weight: f32,
}

/// Every extra of a skin, in vertex order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extras {
    table: Vec<ExtraInfluence>,
}

impl Extras {
    /// Adds an extra; its vertex must not come before the last one's.
    pub fn push(&mut self, extra: ExtraInfluence) {
        assert!(self.table.last().is_none_or(|last| last.vertex <= extra.vertex), "in vertex order");
        self.table.push(extra);
    }

    /// The extras of the vertices in `vertices`, in vertex order.
    pub fn of(&self, vertices: Range<usize>) -> &[ExtraInfluence] {
        let start = self.table.partition_point(|e| e.vertex < vertices.start);
        let end = start + self.table[start..].partition_point(|e| e.vertex < vertices.end);
        &self.table[start..end]
    }

    /// The extras of the vertices in `vertices`, vertex by vertex: each vertex that has any, with
    /// its own.
    pub fn by_vertex(&self, vertices: Range<usize>) -> impl Iterator<Item = (usize, &[ExtraInfluence])> {
        self.of(vertices).chunk_by(|a, b| a.vertex == b.vertex).map(|run| (run[0].vertex, run))
    }
}
