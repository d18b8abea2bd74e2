//! Which frames a dump simulates ([`Frames`]).

/// The frames a dump simulates: the first at `start`, then every `dt` seconds, `count` of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frames {
    pub start: f64,
    pub dt: f64,
    pub count: u64,
}

impl Frames {
    /// The time of frame `f`, from the frame number rather than by adding `dt` up, so frame 10,000
    /// is exactly where it should be.
    pub fn time(&self, f: u64) -> f64 {
        self.start + self.dt * f as f64
    }
}
