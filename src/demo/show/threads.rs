//! Who blends on the CPU: one thread, or all the machine has (`parallel.rs`). All of them pay from
//! `PARALLEL_FROM_VERTICES` vertices on, when their cores are free. One thing here takes the cores:
//! a software renderer, which draws every frame with a thread per core (`Session::pick_threads`
//! asks once the renderer is known).

use skinning::parallel::{BlendThreads, PARALLEL_FROM_VERTICES};

/// The threads that blend a skin of `vertices` vertices: `threads` of them (`--threads`) from `from`
/// vertices on (`--parallel-from`; default `PARALLEL_FROM_VERTICES`). Without `--threads`, all the
/// machine has, unless the picture is drawn by a renderer that itself draws with every core:
/// beside Mesa's llvmpipe, two threads took 357 to 728 µs a frame for the pose + blend of a
/// 28,672-vertex model where one took 161 to 184 (the other core was busy drawing). Call it on the thread that will blend: that thread
/// becomes one of them.
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
