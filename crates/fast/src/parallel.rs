//! Every core for the blend.
//!
//! **Every vertex is independent.** `skinned[v]` reads vertex v's bind position and influences and
//! the palette, and writes one position: no vertex reads what another writes. So the blend splits
//! perfectly: cut the output into chunks, pair each chunk with the run of vertices it holds, and
//! let each thread blend a chunk, with the very loop one thread runs over a run of vertices (the
//! readable `blend::blend_run`, or the fast path's `Lanes::blend_run`), second pass included. The
//! palette is shared and read-only: every thread reads it at once, with no lock and no copy. Each
//! position comes out of the same arithmetic in the same order whichever thread computed it, so the
//! result is bit-identical to one thread's (`tests/parallel.rs` compares them with `==`); the fast
//! path's groups of eight give no exception, since a vertex's result does not depend on which group
//! it falls in, and [`BlendThreads::split`] cuts whole groups anyway. The normals split the same way.
//!
//! The threads come from [rayon](https://docs.rs/rayon): `par_chunks_mut` cuts the outputs (the
//! positions, zipped with the normals), `enumerate` gives each chunk its run of vertices, and
//! rayon's pool hands the chunks to its threads, each idle thread taking (stealing) work from a
//! busy one.
//!
//! **What it costs.** Handing work to another thread and waiting for it is not free: rayon's idle
//! threads spin a few tens of µs, then sleep, and waking one takes what one thread needs to blend
//! thousands of vertices or more (`cargo bench`'s crossover measures it: about 22 µs on the 2-core
//! virtual machine of `docs/14-every-core.md`, whose halted cores are slow to restart; after an
//! idle 2 ms, as between frames, 1.9 ms, because its kernel queues the woken thread on the busy
//! core). So small meshes stay on one thread: [`BlendThreads`] blends on all its threads only from
//! [`PARALLEL_FROM_VERTICES`] on. And the other threads need a free core: when
//! other programs keep every core busy, a woken thread waits for one, the calling thread meanwhile
//! does the work itself, and the blend is no faster than on one thread. `cargo bench` measures all
//! of this; `docs/14-every-core.md` has the figures.
//!
//! **Allocating nothing.** Work handed to a rayon pool from a thread outside it goes through a
//! queue that allocates a block every 63 hand-overs; work a pool's own thread hands out goes
//! through that thread's own queue, allocated once. So [`BlendThreads::new`] makes the calling
//! thread one of its pool's threads (rayon's `use_current_thread`), and has every thread take one
//! job at once, so that what a thread sets up on its first job is done before any frame. Blending
//! from that thread then allocates nothing, from the first frame on (`tests/parallel_allocations.rs`).

use crate::lanes::GROUP;
use glam::Vec3A;
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::ops::Range;

/// From how many vertices [`BlendThreads`] blends on all its threads; below it, one thread. The
/// figure is where two threads first beat one in the crossover run that set it (`cargo bench`,
/// commit de59c43, on the 2-core machine of `docs/14-every-core.md`): each blend after a 2 ms
/// pause, as between frames, two threads took 26.7 µs against one thread's 30.5 at 6,144 vertices,
/// and 21.4 against 20.7 at 4,096. Later runs on that machine found two threads ahead at none of
/// the sizes measured (chapter 14 says why). The figure is one machine's, not the method's:
/// `--parallel-from` changes it.
pub const PARALLEL_FROM_VERTICES: usize = 6000;

/// Pieces of work per thread: more than one, so that a thread slowed down by another program
/// leaves some of its share for the others to take.
const CHUNKS_PER_THREAD: usize = 4;

/// The threads that blend, and when they are worth it: one thread (no pool at all), or a rayon pool
/// of several, used for skins of [`PARALLEL_FROM_VERTICES`] vertices or more.
pub struct BlendThreads {
    /// None for one thread.
    pool: Option<ThreadPool>,
    from_vertices: usize,
}

impl BlendThreads {
    /// Everything on the calling thread, with no pool.
    pub fn one() -> BlendThreads {
        BlendThreads { pool: None, from_vertices: PARALLEL_FROM_VERTICES }
    }

    /// `threads` threads (1 is [`BlendThreads::one`]): the calling thread and `threads - 1` more.
    ///
    /// The calling thread joins the pool for good (rayon cannot take it out again), so blend from
    /// this thread, and make one `BlendThreads` per thread at most: a second one is refused.
    pub fn new(threads: usize) -> Result<BlendThreads, String> {
        if threads <= 1 {
            return Ok(BlendThreads::one());
        }
        let pool = ThreadPoolBuilder::new()
            .num_threads(threads)
            .use_current_thread()
            .thread_name(|i| format!("blend-{i}"))
            .build()
            .map_err(|e| format!("cannot start {threads} threads to blend: {e}"))?;
        // Every thread runs one job now, so what a thread sets up the first time it takes work
        // (crossbeam's per-thread record of what it is reading, which allocates) is done here and
        // not in the middle of some later frame.
        pool.broadcast(|_| ());
        Ok(BlendThreads { pool: Some(pool), from_vertices: PARALLEL_FROM_VERTICES })
    }

    /// The threads for a skin of `vertices` vertices: `threads` of them if it has `from_vertices`
    /// or more, else one, and then no pool at all (no thread waits for work that never comes).
    pub fn for_skin(threads: usize, from_vertices: usize, vertices: usize) -> Result<BlendThreads, String> {
        let threads =
            if vertices >= from_vertices { BlendThreads::new(threads)? } else { BlendThreads::one() };
        Ok(threads.parallel_from(from_vertices))
    }

    /// Blend on all threads from `vertices` vertices on, instead of [`PARALLEL_FROM_VERTICES`]
    /// (0: always, which tests use to run the parallel road on a small skin).
    pub fn parallel_from(mut self, vertices: usize) -> BlendThreads {
        self.from_vertices = vertices;
        self
    }

    /// The pool, if there is one (for measuring it: `benches/crossover.rs`).
    pub fn pool(&self) -> Option<&ThreadPool> {
        self.pool.as_ref()
    }

    /// How many threads the pool has (1 without one).
    pub fn count(&self) -> usize {
        self.pool.as_ref().map_or(1, |pool| pool.current_num_threads())
    }

    /// How many threads blend a skin of `vertices` vertices: all of them, or 1 below the threshold.
    pub fn used_for(&self, vertices: usize) -> usize {
        if vertices >= self.from_vertices { self.count() } else { 1 }
    }

    /// The pool and the chunk size for a skin of `vertices` vertices, if it is blended in parallel.
    fn parallel(&self, vertices: usize) -> Option<(&ThreadPool, usize)> {
        let pool = self.pool.as_ref().filter(|_| vertices >= self.from_vertices)?;
        // A multiple of the fast path's eight lanes: every chunk but the last is whole groups.
        let chunk =
            vertices.div_ceil(pool.current_num_threads() * CHUNKS_PER_THREAD).max(1).next_multiple_of(GROUP);
        Some((pool, chunk))
    }

    /// Runs `blend` over all `vertices` of a skin and its outputs (positions, and normals unless
    /// empty): on all threads if the skin is big enough, cut into chunks of whole groups of the
    /// fast path's lanes, each chunk with the run of vertices it holds; else whole, on this thread.
    /// Any `blend` that gives a vertex the same result whatever run it falls in gives the same
    /// result either way, bit for bit.
    pub fn split(
        &self,
        vertices: usize,
        positions: &mut [Vec3A],
        normals: &mut [Vec3A],
        blend: impl Fn(Range<usize>, &mut [Vec3A], &mut [Vec3A]) + Sync,
    ) {
        assert_eq!(positions.len(), vertices, "one output position per vertex");
        match self.parallel(vertices) {
            Some((pool, chunk)) => pool.install(|| in_chunks(positions, normals, chunk, &blend)),
            None => blend(0..vertices, positions, normals),
        }
    }
}

/// Cuts the outputs (positions, and normals unless empty) into chunks of `chunk` vertices and
/// hands each to `blend` with the run of vertices it holds, on every thread of the current pool.
/// Each pair is a chunk of the output and the vertices it holds; any thread may take any pair.
fn in_chunks(
    positions: &mut [Vec3A],
    normals: &mut [Vec3A],
    chunk: usize,
    blend: &(impl Fn(Range<usize>, &mut [Vec3A], &mut [Vec3A]) + Sync),
) {
    // Chunk `c` holds vertices `c * chunk` on.
    let run = |c: usize, out: &[Vec3A]| c * chunk..c * chunk + out.len();
    if normals.is_empty() {
        positions.par_chunks_mut(chunk).enumerate().for_each(|(c, out)| blend(run(c, out), out, &mut []));
    } else {
        assert_eq!(normals.len(), positions.len(), "one output normal per vertex");
        (positions.par_chunks_mut(chunk).zip(normals.par_chunks_mut(chunk)))
            .enumerate()
            .for_each(|(c, (out, normals))| blend(run(c, out), out, normals));
    }
}
