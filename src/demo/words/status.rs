//! The corner line: what is playing and what it costs, written on the picture itself (screenshots
//! and Wayland windows show no title bar).
//!
//! It changes every frame (the time), so it is written into the same `String` each frame: `write!`
//! into a string with room to spare allocates nothing. The frame cost is averaged over half a second
//! ([`FrameCost`]), so its digits can be read while they change. The window's title shows the frame
//! rate, counted the same way ([`Fps`]).

use crate::demo::time::Instant;
use std::fmt::Write;
use std::time::Duration;

/// Room for the corner line; it is about 75 characters.
pub const CAPACITY: usize = 160;

/// The corner line, kept between frames, and the costs it shows.
pub struct Status {
    /// The line itself, rewritten by every update in the same memory.
    pub line: String,
    /// CPU time of the last pose + blend.
    pub cpu: Duration,
    /// The same, averaged over half a second, as the corner line shows it: a browser's clock
    /// ticks in steps of 100 µs, so one frame's time is 0 or 100 µs there, and only an average
    /// of many says how long it takes.
    pub cpu_average: FrameCost,
    /// A frame's CPU time, averaged ([`FrameCost`]; the session measures it).
    pub frame: Option<Duration>,
}

impl Status {
    pub fn new() -> Status {
        Status {
            line: String::with_capacity(CAPACITY),
            cpu: Duration::ZERO,
            cpu_average: FrameCost::default(),
            frame: None,
        }
    }
}

impl Status {
    /// This frame's pose + blend took `cpu`: kept, and added to the average.
    pub fn measured(&mut self, cpu: Duration) {
        self.cpu = cpu;
        self.cpu_average.add(cpu, Instant::now());
    }
}

impl Default for Status {
    fn default() -> Self {
        Status::new()
    }
}

/// What the corner line says.
pub struct StatusLine<'a> {
    pub clip: &'a str,
    /// The weight view's bone, if it is on.
    pub weights: Option<&'a str>,
    /// The clip's own time (wrapped into its loop).
    pub time: f32,
    pub speed: f64,
    pub paused: bool,
    /// The blend method: `lbs` (linear blend skinning), `dqs` (dual quaternions) or `lbs+dqs`.
    pub method: &'a str,
    /// Where the mesh is skinned: `cpu`, `gpu` or `both`.
    pub skinning: &'a str,
    /// What the CPU does per frame for the method (`pose+blend`, or `pose` when the GPU blends),
    /// and how long it took (averaged: [`Status::cpu_average`]).
    pub cpu_work: &'a str,
    pub cpu: Duration,
    /// The CPU time of a whole frame, averaged; None until one is measured.
    pub frame: Option<Duration>,
    /// The morph target `T` picked (`MESH:TARGET`), and its weight this frame.
    pub morph: Option<(&'a str, f32)>,
}

/// Writes `line` into `out`, replacing what was there.
pub fn write_status(out: &mut String, line: &StatusLine) {
    out.clear();
    // Writing into a String cannot fail; with room to spare it does not allocate either.
    let _ = write!(out, "clip {}  t {:.2} s  {}x", line.clip, line.time, line.speed);
    if line.paused {
        let _ = write!(out, "  paused");
    }
    if let Some(bone) = line.weights {
        let _ = write!(out, "  weights {bone}");
    }
    let _ =
        write!(out, "  {} on {}  {} {:.1} µs", line.method, line.skinning, line.cpu_work, micros(line.cpu));
    if let Some(frame) = line.frame {
        let _ = write!(out, "  frame {:.2} ms", frame.as_secs_f64() * 1e3);
    }
    if let Some((target, weight)) = line.morph {
        let _ = write!(out, "  morph {target} {weight:.2}");
    }
}

/// The window title: the same facts, with the frames per second (some desktops show the title).
pub fn title(line: &StatusLine, fps: f64) -> String {
    format!(
        "skinning | clip {} | t {:.2} s | {}x{} | {} skinning, {} | {:.0} fps | {} {:.1} µs",
        line.clip,
        line.time,
        line.speed,
        if line.paused { " paused" } else { "" },
        line.skinning,
        line.method,
        fps,
        line.cpu_work,
        micros(line.cpu),
    )
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// The CPU time of a frame (the method, the words, the OpenGL calls; not the wait for the screen),
/// averaged over half a second of frames.
#[derive(Default)]
pub struct FrameCost {
    sum: Duration,
    frames: u32,
    since: Option<Instant>,
    average: Option<Duration>,
    last: Option<Duration>,
}

/// How often the average is renewed.
pub const AVERAGE_OVER: Duration = Duration::from_millis(500);

impl FrameCost {
    /// One frame took `cost`; `now` is when it ended.
    pub fn add(&mut self, cost: Duration, now: Instant) {
        let since = *self.since.get_or_insert(now);
        self.sum += cost;
        self.frames += 1;
        self.last = Some(cost);
        if now.duration_since(since) >= AVERAGE_OVER {
            self.average = Some(self.sum / self.frames);
            (self.sum, self.frames, self.since) = (Duration::ZERO, 0, Some(now));
        }
    }

    /// The last average; before the first half second, the last frame's cost.
    pub fn shown(&self) -> Option<Duration> {
        self.average.or(self.last)
    }
}

/// Frames per second over the last half second, for the window's title.
#[derive(Default)]
pub struct Fps {
    since: Option<Instant>,
    frames: u32,
    /// The last rate measured; 0 before the first half second.
    pub rate: f64,
}

impl Fps {
    /// A frame was shown.
    pub fn tick(&mut self) {
        let since = *self.since.get_or_insert_with(Instant::now);
        self.frames += 1;
        let elapsed = since.elapsed().as_secs_f64();
        if elapsed >= AVERAGE_OVER.as_secs_f64() {
            self.rate = self.frames as f64 / elapsed;
            self.frames = 0;
            self.since = Some(Instant::now());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line() -> StatusLine<'static> {
        StatusLine {
            clip: "bend",
            weights: None,
            time: 1.234,
            speed: 0.5,
            paused: true,
            method: "lbs",
            skinning: "gpu",
            cpu_work: "pose",
            cpu: Duration::from_nanos(1430),
            frame: Some(Duration::from_micros(420)),
            morph: None,
        }
    }

    #[test]
    fn the_line_says_clip_time_speed_pause_method_place_and_cost() {
        let mut out = String::with_capacity(CAPACITY);
        write_status(&mut out, &line());
        assert_eq!(out, "clip bend  t 1.23 s  0.5x  paused  lbs on gpu  pose 1.4 µs  frame 0.42 ms");
        write_status(&mut out, &StatusLine { paused: false, frame: None, ..line() });
        assert_eq!(out, "clip bend  t 1.23 s  0.5x  lbs on gpu  pose 1.4 µs");
        write_status(&mut out, &StatusLine { frame: None, morph: Some(("Head_4:Surprised", 0.7)), ..line() });
        assert!(out.ends_with("pose 1.4 µs  morph Head_4:Surprised 0.70"), "{out}");
        write_status(&mut out, &StatusLine { weights: Some("bone2"), frame: None, ..line() });
        assert_eq!(out, "clip bend  t 1.23 s  0.5x  paused  weights bone2  lbs on gpu  pose 1.4 µs");
    }

    #[test]
    fn rewriting_the_line_keeps_its_memory() {
        let mut out = String::with_capacity(CAPACITY);
        let before = (out.capacity(), out.as_ptr());
        for i in 0..100 {
            write_status(&mut out, &StatusLine { time: i as f32 * 0.37, ..line() });
        }
        assert_eq!((out.capacity(), out.as_ptr()), before, "the line moved or grew");
    }

    #[test]
    fn the_cost_is_the_average_of_the_last_half_second() {
        let mut cost = FrameCost::default();
        let start = Instant::now();
        assert_eq!(cost.shown(), None);
        cost.add(Duration::from_micros(100), start);
        assert_eq!(cost.shown(), Some(Duration::from_micros(100)), "the first frame, until an average");
        for i in 1..=10 {
            // Frames of 200 µs every 60 ms: by 600 ms the window of 500 ms is over.
            cost.add(Duration::from_micros(200), start + Duration::from_millis(60 * i));
        }
        // The first window held the frames from 0 to 540 ms: one of 100 µs and nine of 200.
        assert_eq!(cost.shown(), Some(Duration::from_micros(190)));
    }

    #[test]
    fn an_average_sees_below_a_coarse_clocks_step() {
        // A browser's clock: a 12.5 µs pose+blend reads 100 µs one frame in eight, 0 the others.
        let mut cost = FrameCost::default();
        let start = Instant::now();
        for i in 0..=64u32 {
            let read = if i % 8 == 7 { Duration::from_micros(100) } else { Duration::ZERO };
            cost.add(read, start + Duration::from_millis(8 * u64::from(i)));
        }
        let mut out = String::with_capacity(CAPACITY);
        write_status(&mut out, &StatusLine { cpu: cost.shown().expect("an average"), ..line() });
        assert!(out.contains("pose 12.5 µs"), "{out}");
    }
}
