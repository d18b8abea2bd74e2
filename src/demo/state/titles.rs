//! What the demo says about itself: the window title, and the corner line drawn on the picture
//! (`status.rs` writes it), rewritten by every update.

use super::super::cli::Skinning;
use super::super::status::{self, StatusLine};
use super::Demo;

impl Demo {
    /// What the CPU computes per frame for the method.
    fn cpu_work(&self) -> &'static str {
        if self.skinning == Skinning::Gpu { "pose" } else { "pose+blend" }
    }

    /// Rewrites the corner line, in the same memory.
    pub(super) fn write_status(&mut self) {
        let clip = &self.clips[self.clip];
        let line = StatusLine {
            clip: &clip.name,
            time: clip.wrap(self.clock.time),
            speed: self.clock.speed,
            paused: self.clock.paused,
            method: self.method.name(),
            skinning: self.skinning.name(),
            cpu_work: self.cpu_work(),
            cpu: self.last_cpu,
            frame: self.frame_cost,
        };
        status::write_status(&mut self.status, &line);
    }

    /// The window title: what is playing and what it costs. The time is the clip's own (wrapped).
    pub fn title(&self, fps: f64) -> String {
        let cpu_work = self.cpu_work();
        format!(
            "skinning | clip {} | t {:.2} s | {}x{} | {} skinning, {} | {:.0} fps | {cpu_work} {:.1} µs",
            self.clip().name,
            self.clip().wrap(self.clock.time),
            self.clock.speed,
            if self.clock.paused { " paused" } else { "" },
            self.skinning.name(),
            self.method.name(),
            fps,
            self.last_cpu.as_secs_f64() * 1e6,
        )
    }
}
