//! Every core for the blend.
//!
//! **Every vertex is independent.** `skinned[v]` reads vertex v's bind position and influences and
//! the palette, and writes one position: no vertex reads what another writes. So the blend splits
//! perfectly: cut the output into chunks, pair each chunk with the vertices it holds, and let each
//! thread blend a chunk, with the very loop one thread runs (`skin::blend_vertices`). The palette
//! is shared and read-only: every thread reads it at once, with no lock and no copy. Each position
//! comes out of the same arithmetic in the same order whichever thread computed it, so the result
//! is bit-identical to [`crate::skin::blend`]'s (`tests/parallel.rs` compares them with `==`). The
//! skinned normals split the same way (`normals.rs`: each one reads its own vertex and bind normal).
//! A vertex with more than four influences is no exception: each thread runs the second pass over
//! the extras of its own chunk (`skin::blend_extras`, which starts at the chunk's first vertex).
//! The fast path (`lanes.rs`), which the program runs ([`blend_lanes_parallel`]), splits the same
//! way, its second pass included: a vertex's result does not depend on which group of eight it
//! falls in, so any cut gives the same bits, and [`BlendThreads`] cuts whole groups.
//!
//! The threads come from [rayon](https://docs.rs/rayon): `par_chunks_mut` cuts the output,
//! `par_chunks` the vertices, `zip` pairs them, and rayon's pool hands the pairs to its threads,
//! each idle thread taking (stealing) work from a busy one.
//!
//! **What it costs.** Handing work to another thread and waiting for it is not free: rayon's idle
//! threads spin a few tens of µs, then sleep, and waking one takes what one thread needs to blend
//! thousands of vertices or more (`cargo bench`'s crossover measures it: about 28 µs on the 2-core
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

use crate::dual_quat::{
    DualQuat, blend_dqs_extra_normals, blend_dqs_extras, blend_dqs_normal_vertices, blend_dqs_vertices,
};
use crate::lanes::{self, Lanes};
use crate::normals::{blend_extra_normals, blend_normal_vertices};
use crate::skin::{Skin, blend_extras, blend_vertices};
use glam::{Mat4, Vec3A};
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::ops::Range;

/// Linear blend skinning on every thread of the current rayon pool, `chunk` vertices at a time:
/// the same result as [`crate::skin::blend`], bit for bit.
pub fn blend_parallel(skin: &Skin, palette: &[Mat4], skinned: &mut [Vec3A], chunk: usize) {
    assert_eq!(palette.len(), skin.joints().len(), "one palette matrix per joint");
    assert_eq!(skinned.len(), skin.len(), "one output position per vertex");
    // Each pair is a chunk of the output and the vertices it holds; any thread may take any pair.
    // Chunk `c` starts at vertex `c * chunk`, where its extras start.
    skinned.par_chunks_mut(chunk).zip(skin.vertices().par_chunks(chunk)).enumerate().for_each(
        |(c, (out, vertices))| {
            blend_vertices(vertices, palette, out);
            blend_extras(skin, c * chunk, palette, out);
        },
    );
}

/// The fast path (`lanes.rs`) on every thread, as [`blend_parallel`]: positions, and normals where
/// `normals` is not empty; the same result as [`crate::lanes::blend`], bit for bit.
pub fn blend_lanes_parallel(
    skin: &Skin,
    palette: &[Mat4],
    skinned: &mut [Vec3A],
    normals: &mut [Vec3A],
    chunk: usize,
) {
    let lanes = Lanes::best();
    in_chunks(skin, skinned, normals, chunk, |run, out, normals| {
        lanes.blend_vertices(skin, run, palette, out, normals)
    });
}

/// Dual-quaternion skinning on the fast path on every thread, as [`blend_lanes_parallel`]: the same
/// result as [`crate::lanes::blend_dqs`], bit for bit.
pub fn blend_dqs_lanes_parallel(
    skin: &Skin,
    dq_palette: (&[DualQuat], f32),
    skinned: &mut [Vec3A],
    normals: &mut [Vec3A],
    chunk: usize,
) {
    let lanes = Lanes::best();
    in_chunks(skin, skinned, normals, chunk, |run, out, normals| {
        lanes.blend_dqs_vertices(skin, run, dq_palette, out, normals)
    });
}

/// Cuts the outputs (positions, and normals unless empty) into chunks of `chunk` vertices and
/// hands each to `blend` with the run of vertices it holds, on every thread.
fn in_chunks(
    skin: &Skin,
    skinned: &mut [Vec3A],
    normals: &mut [Vec3A],
    chunk: usize,
    blend: impl Fn(Range<usize>, &mut [Vec3A], &mut [Vec3A]) + Sync,
) {
    assert_eq!(skinned.len(), skin.len(), "one output position per vertex");
    // Chunk `c` holds vertices `c * chunk` on.
    let run = |c: usize, out: &[Vec3A]| c * chunk..c * chunk + out.len();
    if normals.is_empty() {
        skinned.par_chunks_mut(chunk).enumerate().for_each(|(c, out)| blend(run(c, out), out, &mut []));
    } else {
        assert_eq!(normals.len(), skin.normals().len(), "one output normal per bind normal");
        (skinned.par_chunks_mut(chunk).zip(normals.par_chunks_mut(chunk)))
            .enumerate()
            .for_each(|(c, (out, normals))| blend(run(c, out), out, normals));
    }
}

/// Dual-quaternion skinning on every thread, as [`blend_parallel`]: the same result as
/// [`crate::dual_quat::blend_dqs`], bit for bit.
pub fn blend_dqs_parallel(
    skin: &Skin,
    dq_palette: &[DualQuat],
    scale: f32,
    skinned: &mut [Vec3A],
    chunk: usize,
) {
    assert_eq!(dq_palette.len(), skin.joints().len(), "one dual quaternion per joint");
    assert_eq!(skinned.len(), skin.len(), "one output position per vertex");
    skinned.par_chunks_mut(chunk).zip(skin.vertices().par_chunks(chunk)).enumerate().for_each(
        |(c, (out, vertices))| {
            blend_dqs_vertices(vertices, dq_palette, scale, out);
            blend_dqs_extras(skin, c * chunk, dq_palette, scale, out);
        },
    );
}

/// The skinned normals (`normals::blend_normals`) on every thread, as [`blend_parallel`]: each
/// chunk of outputs with its vertices and their bind normals; the same result, bit for bit.
pub fn blend_normals_parallel(skin: &Skin, palette: &[Mat4], normals: &mut [Vec3A], chunk: usize) {
    assert_eq!(normals.len(), skin.normals().len(), "one output normal per bind normal");
    normals
        .par_chunks_mut(chunk)
        .zip(skin.vertices().par_chunks(chunk).zip(skin.normals().par_chunks(chunk)))
        .enumerate()
        .for_each(|(c, (out, (vertices, bind)))| {
            blend_normal_vertices(vertices, bind, palette, out);
            blend_extra_normals(skin, c * chunk, palette, out);
        });
}

/// The DQS normals (`dual_quat::blend_dqs_normals`) on every thread, as [`blend_normals_parallel`].
pub fn blend_dqs_normals_parallel(skin: &Skin, dq_palette: &[DualQuat], normals: &mut [Vec3A], chunk: usize) {
    assert_eq!(normals.len(), skin.normals().len(), "one output normal per bind normal");
    normals
        .par_chunks_mut(chunk)
        .zip(skin.vertices().par_chunks(chunk).zip(skin.normals().par_chunks(chunk)))
        .enumerate()
        .for_each(|(c, (out, (vertices, bind)))| {
            blend_dqs_normal_vertices(vertices, bind, dq_palette, out);
            blend_dqs_extra_normals(skin, c * chunk, dq_palette, out);
        });
}

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
        let chunk = vertices
            .div_ceil(pool.current_num_threads() * CHUNKS_PER_THREAD)
            .max(1)
            .next_multiple_of(lanes::GROUP);
        Some((pool, chunk))
    }

    /// [`crate::skin::blend`], on all threads if the skin is big enough: the same result either way.
    pub fn blend(&self, skin: &Skin, palette: &[Mat4], skinned: &mut [Vec3A]) {
        match self.parallel(skin.len()) {
            Some((pool, chunk)) => pool.install(|| blend_parallel(skin, palette, skinned, chunk)),
            None => crate::skin::blend(skin, palette, skinned),
        }
    }

    /// [`crate::lanes::blend`], the fast path, on all threads if the skin is big enough: the
    /// positions, and the normals unless `normals` is empty.
    pub fn blend_lanes(&self, skin: &Skin, palette: &[Mat4], skinned: &mut [Vec3A], normals: &mut [Vec3A]) {
        match self.parallel(skin.len()) {
            Some((pool, chunk)) => {
                pool.install(|| blend_lanes_parallel(skin, palette, skinned, normals, chunk))
            }
            None => lanes::blend(skin, palette, skinned, normals),
        }
    }

    /// [`crate::lanes::blend_dqs`], dual quaternions on the fast path, on all threads if the skin is
    /// big enough: the positions, and the normals unless `normals` is empty.
    pub fn blend_dqs_lanes(
        &self,
        skin: &Skin,
        dq_palette: (&[DualQuat], f32),
        skinned: &mut [Vec3A],
        normals: &mut [Vec3A],
    ) {
        match self.parallel(skin.len()) {
            Some((pool, chunk)) => {
                pool.install(|| blend_dqs_lanes_parallel(skin, dq_palette, skinned, normals, chunk))
            }
            None => lanes::blend_dqs(skin, dq_palette.0, dq_palette.1, skinned, normals),
        }
    }

    /// [`crate::dual_quat::blend_dqs`], on all threads if the skin is big enough.
    pub fn blend_dqs(&self, skin: &Skin, dq_palette: &[DualQuat], scale: f32, skinned: &mut [Vec3A]) {
        match self.parallel(skin.len()) {
            Some((pool, chunk)) => {
                pool.install(|| blend_dqs_parallel(skin, dq_palette, scale, skinned, chunk))
            }
            None => crate::dual_quat::blend_dqs(skin, dq_palette, scale, skinned),
        }
    }

    /// [`crate::normals::blend_normals`], on all threads if the skin is big enough.
    pub fn blend_normals(&self, skin: &Skin, palette: &[Mat4], normals: &mut [Vec3A]) {
        match self.parallel(skin.len()).filter(|_| !normals.is_empty()) {
            Some((pool, chunk)) => pool.install(|| blend_normals_parallel(skin, palette, normals, chunk)),
            None => crate::normals::blend_normals(skin, palette, normals),
        }
    }

    /// [`crate::dual_quat::blend_dqs_normals`], on all threads if the skin is big enough.
    pub fn blend_dqs_normals(&self, skin: &Skin, dq_palette: &[DualQuat], normals: &mut [Vec3A]) {
        match self.parallel(skin.len()).filter(|_| !normals.is_empty()) {
            Some((pool, chunk)) => {
                pool.install(|| blend_dqs_normals_parallel(skin, dq_palette, normals, chunk))
            }
            None => crate::dual_quat::blend_dqs_normals(skin, dq_palette, normals),
        }
    }
}
