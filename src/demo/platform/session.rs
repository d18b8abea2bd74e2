//! A run of the demo, frame after frame: the clock that drives it, the `--stats` bookkeeping
//! (time per frame, allocations, the memory it holds: `memory.rs`), the frame cost the corner line shows, and the
//! vertex inspector's printed numbers. Shared by the window and the headless run.

use crate::demo::cli::choices::Skinning;
use crate::demo::cli::options::Options;
use crate::demo::draw::render;
use crate::demo::output::console;
use crate::demo::output::failure::Failure;
#[cfg(not(target_arch = "wasm32"))]
use crate::demo::platform::creep::Creep;
use crate::demo::platform::memory::MemoryWatch;
use crate::demo::show::finite::{self, Bound};
use crate::demo::show::state;
use crate::demo::show::threads;
use crate::demo::time::Instant;
use crate::demo::words::status::FrameCost;
use skinning_fast::alloc_count;
use skinning_fast::parallel::PARALLEL_FROM_VERTICES;
use std::time::Duration;

/// A demo being drawn frame after frame, and the bookkeeping around it: frame count, timing, stats.
pub struct Session {
    pub options: Options,
    pub demo: state::Demo,
    pub frames_drawn: u64,
    last_frame: Option<Instant>,
    started: Instant,
    stats: Stats,
    /// The CPU time of a frame, for the corner line.
    cost: FrameCost,
    /// How far the model's skinned positions can reach, to check each frame (`show/finite.rs`).
    bound: Bound,
    /// What the program holds after the warm-up and along the run (`memory.rs`), for `--stats`.
    memory: MemoryWatch,
    /// A creep made on purpose for the soak test (`creep.rs`); None unless it asks.
    #[cfg(not(target_arch = "wasm32"))]
    creep: Option<Creep>,
}

#[derive(Default)]
struct Stats {
    cpu_total: Duration,
    cpu_max: Duration,
    /// Heap allocations made while drawing the frames after the warm-up.
    steady_allocations: u64,
    /// The renderer draws on the CPU's cores, so the blend kept to one thread (`pick_threads`).
    one_thread_for_the_renderer: bool,
    /// The draws of the mesh that skinned the crowd's others on the GPU, the last frame.
    crowd_gpu_draws: usize,
}

/// Frames drawn before allocation counting starts: the first frames fill the driver's caches.
const WARM_UP_FRAMES: u64 = 3;

impl Session {
    pub fn new(options: Options, demo: state::Demo) -> Session {
        Session {
            bound: Bound::new(&demo.model, &demo.morph.targets),
            options,
            demo,
            frames_drawn: 0,
            last_frame: None,
            started: Instant::now(),
            stats: Stats::default(),
            cost: FrameCost::default(),
            memory: MemoryWatch::new(),
            #[cfg(not(target_arch = "wasm32"))]
            creep: None,
        }
    }

    /// Picks the threads that blend, once the OpenGL `renderer` (as `gl::version_string` names it)
    /// is known: `--threads`, else all the machine has, or one beside a renderer that draws on the
    /// CPU's cores (`threads.rs`). Call it on the thread that draws the frames.
    pub fn pick_threads(&mut self, renderer: &str) -> Result<(), Failure> {
        let busy = threads::renderer_uses_the_cores(renderer) && self.options.threads.is_none();
        let asked = &self.options;
        // A crowd's characters are jobs on the same threads: all its vertices count.
        let vertices = self.demo.model.skin.len() * self.options.crowd;
        self.demo.skinned.skinner.blender.threads =
            threads::blend_threads(asked.threads, asked.parallel_from, vertices, busy)
                .map_err(|e| Failure::new(1, e))?;
        // Said in `--stats` only where it changed the answer: a mesh big enough for all threads.
        let from = asked.parallel_from.unwrap_or(PARALLEL_FROM_VERTICES);
        self.stats.one_thread_for_the_renderer = busy && vertices >= from;
        Ok(())
    }

    /// The renderer could not skin on the GPU (`Renderer::gpu_refusal`): `G` says why from now on,
    /// and a run that asked for `--skinning gpu` or `both` ends here with that line (exit 3, a
    /// driver below what OpenGL promises, or textures too small for `--crowd`'s palettes). `--skinning cpu` draws as usual.
    pub fn refuse_gpu(&mut self, why: Option<&str>) -> Result<(), Failure> {
        let Some(why) = why else { return Ok(()) };
        self.demo.skinned.gpu_refused = Some(why.to_string());
        if self.demo.skinned.skinning != Skinning::Cpu {
            return Err(Failure::new(3, why));
        }
        Ok(())
    }

    /// Window or image size from `--size`, else 640x480.
    pub fn size(&self) -> (u32, u32) {
        self.options.size.unwrap_or((640, 480))
    }

    /// Advances the clock and runs the method for this frame, then draws it with `renderer`.
    /// Fails if the frame's numbers overflow (as the dump would refuse them), or if the
    /// inspector's numbers cannot be printed (see `console`).
    pub fn draw_frame(
        &mut self,
        renderer: &mut render::Renderer,
        width: u32,
        height: u32,
        scale: f64,
    ) -> Result<(), Failure> {
        #[cfg(not(target_arch = "wasm32"))]
        if self.frames_drawn == 0 {
            self.creep = Creep::from_env().map_err(|why| Failure::new(2, why))?;
        }
        let now = Instant::now();
        let allocations_before = alloc_count::count();
        if self.frames_drawn > 0 {
            // --fixed-dt makes every run land on the same times; otherwise follow the wall clock.
            let dt = match (self.options.fixed_dt, self.last_frame) {
                (Some(dt), _) => dt,
                (None, Some(last)) => now.duration_since(last).as_secs_f64(),
                (None, None) => 0.0,
            };
            self.demo.clock.advance(dt);
        }
        self.last_frame = Some(now);
        self.demo.status.frame = self.cost.shown();
        self.demo.update();
        self.check_numbers()?;
        if let Some(reason) = self.demo.skinned.fallback.take() {
            console::say(&format!("{reason}; switching to it"));
        }
        if let Some(colors) = self.demo.take_colors() {
            renderer.set_colors(&colors);
        }
        renderer.draw(&self.demo.scene(width, height, scale), width, height);
        self.stats.crowd_gpu_draws = renderer.crowd_gpu_draws;
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(creep) = &mut self.creep {
            creep.once_a_frame(renderer.gl());
        }
        if self.demo.skinned.skinning != Skinning::Cpu
            && let Some(note) = renderer.gpu.as_mut().and_then(|gpu| gpu.morph.note.take())
        {
            console::say(&format!("note: {note}"));
        }
        self.stats.cpu_total += self.demo.status.cpu;
        self.stats.cpu_max = self.stats.cpu_max.max(self.demo.status.cpu);
        if self.frames_drawn >= WARM_UP_FRAMES {
            self.stats.steady_allocations += alloc_count::count() - allocations_before;
        }
        self.frames_drawn += 1;
        self.cost.add(now.elapsed(), Instant::now());
        // The inspector's numbers: in a window whenever they are due, headless for the last frame.
        // Printing allocates, so it comes after the counted part of the frame.
        let report = if self.options.headless {
            self.finished().then(|| self.demo.report()).flatten()
        } else {
            self.demo.take_report()
        };
        if let Some(report) = report {
            console::show(&report)?;
        }
        // Reading memory allocates, so it happens here, outside the counted part of a frame.
        if self.options.stats {
            self.memory.after_frame(self.frames_drawn, self.options.frames, renderer);
        }
        Ok(())
    }

    /// The frame `Demo::update` last made refused, in one line, if the dump would refuse it: a
    /// number past 32-bit floats (`show/finite.rs`).
    pub fn check_numbers(&mut self) -> Result<(), Failure> {
        match finite::overflow(&mut self.demo, &self.bound, self.frames_drawn) {
            Some(overflow) => Err(Failure::new(1, overflow.to_string())),
            None => Ok(()),
        }
    }

    /// True once `--frames N` frames are drawn.
    pub fn finished(&self) -> bool {
        self.options.frames.is_some_and(|n| self.frames_drawn >= n)
    }

    /// A window closed (Escape, or by the window manager) before `--frames N` were drawn never took
    /// the screenshot the command line asked for: that is a failure, and says so.
    pub fn check_screenshot_taken(&self) -> Result<(), Failure> {
        match (&self.options.screenshot, self.options.frames) {
            (Some(path), Some(frames)) if !self.finished() => Err(Failure::new(
                1,
                format!(
                    "the window was closed after {} of {frames} frames: no screenshot was taken, {} was not written",
                    self.frames_drawn,
                    path.display()
                ),
            )),
            _ => Ok(()),
        }
    }

    /// Prints the `--stats` line, if asked for.
    pub fn print_stats(&self) -> Result<(), Failure> {
        if !self.options.stats || self.frames_drawn == 0 {
            return Ok(());
        }
        let mean = self.stats.cpu_total.as_secs_f64() / self.frames_drawn as f64 * 1e6;
        let fps = self.frames_drawn as f64 / self.started.elapsed().as_secs_f64();
        let allocations = if self.frames_drawn > WARM_UP_FRAMES {
            let n = self.stats.steady_allocations;
            format!("{n} allocations drawing frames {}..{}", WARM_UP_FRAMES + 1, self.frames_drawn)
        } else {
            "too few frames to count allocations".to_string()
        };
        let memory = self.memory.describe(self.frames_drawn);
        // A crowd's characters blend on the same threads: all their vertices together.
        let vertices = self.demo.model.skin.len() * self.options.crowd;
        // Who blended the skin at the end (`G` may have moved it to the GPU on the way).
        let threads = match self.demo.skinned.skinner.blender.threads.used_for(vertices) {
            _ if self.demo.skinned.skinning == Skinning::Gpu => {
                format!("blend on the GPU ({vertices} vertices)")
            }
            1 if self.stats.one_thread_for_the_renderer => {
                format!("blend on 1 thread ({vertices} vertices; the renderer draws on the other cores)")
            }
            1 => format!("blend on 1 thread ({vertices} vertices)"),
            n => format!("blend on {n} threads ({vertices} vertices)"),
        };
        if let Some(crowd) = &self.demo.crowd {
            let draws = match self.stats.crowd_gpu_draws {
                0 => String::new(),
                n => format!("; the GPU skinned the others in {n} instanced draw(s) of the mesh a frame"),
            };
            console::show(&format!("{}{draws}", crowd.describe()))?;
        }
        // The final animation time to the nanosecond, so a check can compare it with start +
        // (frames - 1) * dt, without the float sums' last digits (2.9000000000000012).
        console::show(&format!(
            "stats: {} frames, pose+blend mean {:.2} µs max {:.2} µs, {:.0} frames/s, {threads}, {}, {}, final time {} s",
            self.frames_drawn,
            mean,
            self.stats.cpu_max.as_secs_f64() * 1e6,
            fps,
            allocations,
            memory,
            to_the_nanosecond(self.demo.clock.time)
        ))
    }
}

/// `seconds` rounded to the nanosecond, written without trailing zeros: 2.9, 0.012266383.
fn to_the_nanosecond(seconds: f64) -> String {
    let text = format!("{seconds:.9}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}
