//! What the program holds, watched over a run: the `--stats` figures that show a creep.
//!
//! Three measures, from the program's own to the machine's:
//!
//! - **heap held**: bytes the program allocated and did not free (`alloc_count::held_bytes`).
//!   After the warm-up it does not move; a kept allocation or a growing buffer moves it.
//! - **GL objects**: live buffers and textures (`draw/gl_objects.rs`). The same at the end as after
//!   the warm-up; a texture or buffer made every frame and never deleted adds one each frame.
//! - **resident memory**: what the kernel counts for the process, the driver's memory included.
//!   Mesa's software renderer grows by a few megabytes now and then, more on a busy machine, so one
//!   difference between two frames says little. A leak rises all the time, so the second half of
//!   the run is cut in eighths and `--stats` gives the slowest eighth's rise: a leak shows in every
//!   eighth, a driver's one-off step in one.
//!
//! Reading these allocates (resident memory) or asks the driver many questions (GL objects), so it
//! happens between frames, at a few frames only: after the warm-up and along the second half.

use crate::demo::draw::render::Renderer;
use skinning_fast::alloc_count;

/// Frames drawn before the program's memory is taken as settled: Mesa's software renderer grows by
/// about 10 MB over the first hundred frames (threads, scene buffers), then stays within a MB or so.
pub const MEMORY_WARM_UP_FRAMES: u64 = 500;

/// The figures at one frame.
#[derive(Clone, Copy)]
struct Reading {
    frame: u64,
    heap_bytes: u64,
    gl_objects: Option<u32>,
    resident_kib: Option<u64>,
}

/// Readings after the warm-up and at the ends of the second half's eighths.
#[derive(Default)]
pub struct MemoryWatch {
    warm: Option<Reading>,
    /// At frames N/2, 5N/8, 6N/8, 7N/8 and N of a run of N frames (`--frames`).
    second_half: Vec<Reading>,
    last: Option<Reading>,
}

impl MemoryWatch {
    /// Makes room for the readings, before the frames that are counted.
    pub fn new() -> MemoryWatch {
        MemoryWatch { second_half: Vec::with_capacity(5), ..MemoryWatch::default() }
    }

    /// After frame `drawn` (1-based) of `total` (None: until the window closes).
    pub fn after_frame(&mut self, drawn: u64, total: Option<u64>, renderer: &Renderer) {
        let in_second_half = total
            .is_some_and(|n| n >= 2 * MEMORY_WARM_UP_FRAMES && (0..=4).any(|k| drawn == n / 2 + k * n / 8));
        let last = total == Some(drawn);
        if drawn != MEMORY_WARM_UP_FRAMES && !in_second_half && !last {
            return;
        }
        let reading = Reading {
            frame: drawn,
            heap_bytes: alloc_count::held_bytes(),
            gl_objects: renderer.gl_objects(),
            resident_kib: resident_kib(),
        };
        if drawn == MEMORY_WARM_UP_FRAMES {
            self.warm = Some(reading);
        }
        if in_second_half {
            self.second_half.push(reading);
        }
        if last {
            self.last = Some(reading);
        }
    }

    /// The slowest rise of resident memory over the second half's eighths, in KiB per 1,000 frames.
    fn slowest_rise(&self) -> Option<f64> {
        if self.second_half.len() != 5 {
            return None;
        }
        let rises = self.second_half.windows(2).map(|pair| {
            let kib = pair[1].resident_kib? as f64 - pair[0].resident_kib? as f64;
            Some(kib / (pair[1].frame - pair[0].frame) as f64 * 1000.0)
        });
        rises.collect::<Option<Vec<f64>>>()?.into_iter().reduce(f64::min)
    }

    /// The `--stats` line's part on memory, `drawn` frames in. For a window closed by hand (no
    /// `--frames`) the last figures are read now, without the GL objects (the context is gone).
    pub fn describe(&self, drawn: u64) -> String {
        let last = self.last.unwrap_or(Reading {
            frame: drawn,
            heap_bytes: alloc_count::held_bytes(),
            gl_objects: None,
            resident_kib: resident_kib(),
        });
        let warm = self.warm.filter(|warm| warm.frame < last.frame);
        let at = |figure: String, warm_figure: Option<String>| match warm_figure {
            Some(before) => {
                format!("{before} at frame {MEMORY_WARM_UP_FRAMES} and {figure} at frame {}", last.frame)
            }
            None => format!("{figure} at frame {}", last.frame),
        };
        let bytes = |n: u64| format!("{n} bytes");
        let mut parts =
            vec![format!("heap held {}", at(bytes(last.heap_bytes), warm.map(|w| bytes(w.heap_bytes))))];
        if let Some(objects) = last.gl_objects {
            let before = warm.and_then(|w| w.gl_objects).map(|n| n.to_string());
            parts.push(format!("GL objects {}", at(objects.to_string(), before)));
        }
        parts.push(match (warm.and_then(|w| w.resident_kib), last.resident_kib) {
            (Some(before), Some(after)) => {
                format!(
                    "resident {before} KiB at frame {MEMORY_WARM_UP_FRAMES}, {after} KiB at frame {}",
                    last.frame
                )
            }
            (None, Some(after)) => format!("resident {after} KiB at frame {}", last.frame),
            (_, None) => "resident memory unknown".to_string(),
        });
        if let Some(rise) = self.slowest_rise() {
            parts.push(format!("the second half's slowest eighth rose {rise:+.1} KiB per 1000 frames"));
        }
        parts.join(", ")
    }
}

/// This process's resident memory in KiB, from Linux's /proc/self/status (None elsewhere).
fn resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
