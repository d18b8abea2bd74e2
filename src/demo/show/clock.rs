//! The animation clock: what time the clip is at, how fast it runs, whether it is paused.
//!
//! The time is an `f64` of seconds, moved only by what the user asks: forward by real time times
//! the speed, forward or back by a step or a scrub, and back to where it started (`--time`) by `R`.
//! The clip wraps it into its own loop when it samples, a time below 0 too. Hours of running lose
//! no precision.

/// A step of `.` and `,`: one frame at 60 frames a second.
pub const STEP: f64 = 1.0 / 60.0;
/// A step of `[` and `]`.
pub const SCRUB: f64 = 0.1;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Animation time in seconds.
    pub time: f64,
    /// Where `R` takes the time back to (`--time`).
    pub start: f64,
    /// 1 is real time; from 0.125 to 8.
    pub speed: f64,
    pub paused: bool,
}

impl Clock {
    pub fn new(start: f64) -> Clock {
        Clock { time: start, start, speed: 1.0, paused: false }
    }

    /// Moves the animation on by `dt` seconds of real time (nothing while paused).
    pub fn advance(&mut self, dt: f64) {
        if !self.paused {
            self.time += dt * self.speed;
        }
    }

    /// One frame forward (`forward`) or back, only while paused: stepping a running clip means nothing.
    pub fn step(&mut self, forward: bool) {
        if self.paused {
            self.time += if forward { STEP } else { -STEP };
        }
    }

    pub fn scrub(&mut self, forward: bool) {
        self.time += if forward { SCRUB } else { -SCRUB };
    }

    pub fn faster(&mut self) {
        self.speed = (self.speed * 2.0).min(8.0);
    }

    pub fn slower(&mut self) {
        self.speed = (self.speed / 2.0).max(0.125);
    }

    /// Back to `--time` at normal speed (a pause stays as it is).
    pub fn reset(&mut self) {
        self.time = self.start;
        self.speed = 1.0;
    }
}
