//! The `skinning` program around the library: command line, window or offscreen context, drawing.
//!
//! `run` reads the command line and picks one of three roads: `--dump` (numbers only, no OpenGL,
//! unless `--skinning gpu` asks the vertex shader for them), `--headless` (offscreen through EGL) or
//! a window. Windowed and headless share everything below the context: the [`state::Demo`] that
//! runs the method each frame and the [`render::Renderer`] that draws it.

pub mod alloc;
pub mod cli;
pub mod gl;
pub mod gpu_skin;
pub mod headless;
pub mod render;
pub mod state;
pub mod window;

use cli::{Command, Options, Skinning};
use std::fmt;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Why the program stops early: one line for the user and the exit code.
///
/// Codes: 1 something failed while running, 2 the command line is wrong, 3 this machine lacks a
/// display, EGL or a recent enough OpenGL.
#[derive(Debug)]
pub struct Failure {
    pub code: u8,
    pub message: String,
}

impl Failure {
    pub fn new(code: u8, message: impl Into<String>) -> Failure {
        Failure { code, message: message.into() }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The whole program; returns the process exit code.
pub fn main() -> ExitCode {
    // Every expected failure is a `Failure`. Should a bug panic anyway, say so in one line, with
    // where, instead of a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let place = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        eprintln!("skinning: internal error{place}: {message}; please report it");
    }));
    match run(std::env::args_os().skip(1)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("skinning: {failure}");
            ExitCode::from(failure.code)
        }
    }
}

fn run(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<(), Failure> {
    let options = match cli::parse(args).map_err(|e| Failure::new(2, e))? {
        Command::Help => {
            print!("{}", cli::HELP);
            return Ok(());
        }
        Command::Run(options) => options,
    };
    let demo = state::Demo::new(&options).map_err(|e| Failure::new(2, e))?;
    if let Some(path) = &options.dump {
        let dt = options.fixed_dt.unwrap_or(1.0 / 60.0);
        let frames = options.frames.unwrap_or(1);
        let (model, clip, start) = (&demo.model, demo.clip(), options.time);
        return match options.skinning {
            // The GPU's skinned positions, read back from the vertex shader: for checking it.
            Skinning::Gpu => headless::dump_gpu(path, model, clip, start, dt, frames),
            // The command line refuses `--dump --skinning both`: a dump holds one set of positions.
            Skinning::Cpu | Skinning::Both => write_atomically(path, |file| {
                skinning::dump::write_dump(file, model, clip, start, dt, frames)
            }),
        };
    }
    let session = Session::new(options, demo);
    if session.options.headless { headless::run(session) } else { window::run(session) }
}

/// A demo being drawn frame after frame, and the bookkeeping around it: frame count, timing, stats.
pub struct Session {
    pub options: Options,
    pub demo: state::Demo,
    pub frames_drawn: u64,
    last_frame: Option<Instant>,
    started: Instant,
    stats: Stats,
}

#[derive(Default)]
struct Stats {
    cpu_total: Duration,
    cpu_max: Duration,
    /// Heap allocations made while drawing the frames after the warm-up.
    steady_allocations: u64,
    /// Resident memory in KiB after the warm-up and after the last frame: a leak shows as growth,
    /// including one inside the GL driver, which the allocation count cannot see.
    resident_warm: Option<u64>,
    resident_last: Option<u64>,
}

/// Frames drawn before allocation counting starts: the first frames fill the driver's caches.
const WARM_UP_FRAMES: u64 = 3;
/// Frames drawn before resident memory is taken as settled: Mesa's software renderer grows by about
/// 10 MB over the first hundred frames (threads, scene buffers), then stays within a MB or so.
const RESIDENT_WARM_UP_FRAMES: u64 = 500;

impl Session {
    pub fn new(options: Options, demo: state::Demo) -> Session {
        Session {
            options,
            demo,
            frames_drawn: 0,
            last_frame: None,
            started: Instant::now(),
            stats: Stats::default(),
        }
    }

    /// Window or image size from `--size`, else 640x480.
    pub fn size(&self) -> (u32, u32) {
        self.options.size.unwrap_or((640, 480))
    }

    /// Advances the clock and runs the method for this frame, then draws it with `renderer`.
    pub fn draw_frame(&mut self, renderer: &mut render::Renderer, width: u32, height: u32, scale: f64) {
        let now = Instant::now();
        let allocations_before = alloc::count();
        if self.frames_drawn > 0 {
            // --fixed-dt makes every run land on the same times; otherwise follow the wall clock.
            let dt = match (self.options.fixed_dt, self.last_frame) {
                (Some(dt), _) => dt,
                (None, Some(last)) => now.duration_since(last).as_secs_f64(),
                (None, None) => 0.0,
            };
            self.demo.advance(dt);
        }
        self.last_frame = Some(now);
        self.demo.update();
        if let Some(colors) = self.demo.take_colors() {
            renderer.set_colors(&colors);
        }
        renderer.draw(&self.demo.frame(width, height, scale), width, height);
        self.stats.cpu_total += self.demo.last_cpu;
        self.stats.cpu_max = self.stats.cpu_max.max(self.demo.last_cpu);
        if self.frames_drawn >= WARM_UP_FRAMES {
            self.stats.steady_allocations += alloc::count() - allocations_before;
        }
        self.frames_drawn += 1;
        // Reading resident memory allocates, so it happens here, outside the counted part of a frame.
        if self.options.stats && self.frames_drawn == RESIDENT_WARM_UP_FRAMES {
            self.stats.resident_warm = resident_kib();
        }
        if self.options.stats && self.finished() {
            self.stats.resident_last = resident_kib();
        }
    }

    /// True once `--frames N` frames are drawn.
    pub fn finished(&self) -> bool {
        self.options.frames.is_some_and(|n| self.frames_drawn >= n)
    }

    /// Prints the `--stats` line, if asked for.
    pub fn print_stats(&self) {
        if !self.options.stats || self.frames_drawn == 0 {
            return;
        }
        let mean = self.stats.cpu_total.as_secs_f64() / self.frames_drawn as f64 * 1e6;
        let fps = self.frames_drawn as f64 / self.started.elapsed().as_secs_f64();
        let allocations = if self.frames_drawn > WARM_UP_FRAMES {
            let n = self.stats.steady_allocations;
            format!("{n} allocations drawing frames {}..{}", WARM_UP_FRAMES + 1, self.frames_drawn)
        } else {
            "too few frames to count allocations".to_string()
        };
        let frames = self.frames_drawn;
        let resident = match (self.stats.resident_warm, self.stats.resident_last.or_else(resident_kib)) {
            (Some(warm), Some(last)) => {
                format!(
                    "resident {warm} KiB at frame {RESIDENT_WARM_UP_FRAMES}, {last} KiB at frame {frames}"
                )
            }
            (None, Some(last)) => format!("resident {last} KiB at frame {frames}"),
            (_, None) => "resident memory unknown".to_string(),
        };
        // The final animation time in full, so a check can compare it with start + (frames - 1) * dt.
        println!(
            "stats: {} frames, pose+blend mean {:.2} µs max {:.2} µs, {:.0} frames/s, {}, {}, final time {} s",
            self.frames_drawn,
            mean,
            self.stats.cpu_max.as_secs_f64() * 1e6,
            fps,
            allocations,
            resident,
            self.demo.time
        );
    }
}

/// This process's resident memory in KiB, from Linux's /proc/self/status (None elsewhere).
fn resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Saves RGBA pixels (top row first) as a PNG.
pub fn save_png(path: &Path, width: u32, height: u32, rgba: &[u8]) -> Result<(), Failure> {
    write_atomically(path, |file| {
        let mut encoder = png::Encoder::new(file, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(std::io::Error::other)?;
        writer.write_image_data(rgba).map_err(std::io::Error::other)?;
        writer.finish().map_err(std::io::Error::other)
    })
}

/// Writes a file through a temporary one beside it, so a failure never leaves half a file behind.
fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<(), Failure> {
    let fail = |e: std::io::Error| {
        Failure::new(1, format!("cannot write {}: {e} (is the folder there and writable?)", path.display()))
    };
    let name = path.file_name().ok_or_else(|| fail(std::io::Error::other("not a file name")))?;
    let mut temporary = path.to_path_buf();
    temporary.set_file_name(format!(".{}.{}.partial", name.to_string_lossy(), std::process::id()));
    let result = std::fs::File::create(&temporary).and_then(|file| {
        let mut out = std::io::BufWriter::new(file);
        write(&mut out)?;
        out.flush()?;
        drop(out);
        std::fs::rename(&temporary, path)
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result.map_err(fail)
}
