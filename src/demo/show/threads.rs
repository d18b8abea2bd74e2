//! Who blends on the CPU: one thread, or all the machine has (`parallel.rs`), from
//! `PARALLEL_FROM_VERTICES` vertices on (`--parallel-from`: where more threads start to pay depends
//! on the machine, see `docs/14-every-core.md`). One thing here takes the cores: a software
//! renderer, which draws every frame with a thread per core (`Session::pick_threads` asks once the
//! renderer is known).

use skinning_fast::parallel::{BlendThreads, PARALLEL_FROM_VERTICES};

/// The threads that blend a skin of `vertices` vertices: `threads` of them (`--threads`) from `from`
/// vertices on (`--parallel-from`; default `PARALLEL_FROM_VERTICES`). Without `--threads`, all the
/// machine has, unless the picture is drawn by a renderer that itself draws with every core (Mesa's
/// llvmpipe or softpipe): the blend's other threads then wait for a core (beside llvmpipe on a
/// 2-core machine, a 28,672-vertex model blended slower on two threads than on one, see
/// `docs/14-every-core.md`). Call it on the thread that will blend: that thread becomes one of them.
pub fn blend_threads(
    threads: Option<usize>,
    from: Option<usize>,
    vertices: usize,
    renderer_uses_the_cores: bool,
) -> Result<BlendThreads, String> {
    let all = || {
        if renderer_uses_the_cores { 1 } else { std::thread::available_parallelism().map_or(1, |n| n.get()) }
    };
    BlendThreads::for_skin(threads.unwrap_or_else(all), from.unwrap_or(PARALLEL_FROM_VERTICES), vertices)
}

/// Whether an OpenGL renderer (its `GL_RENDERER` name) draws on the CPU's cores: Mesa's software
/// renderers do, with one thread per core.
pub fn renderer_uses_the_cores(renderer: &str) -> bool {
    ["llvmpipe", "softpipe"].iter().any(|name| renderer.contains(name))
}
