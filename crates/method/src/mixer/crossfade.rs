//! Crossfade: a switch of clips that is a blend that moves.
//!
//! Switching from one clip straight to another jumps from one pose to the next in a frame. A
//! crossfade plays both for a while instead: over the fade time the outgoing clip's weight falls
//! linearly to 0 while the incoming one's rises to 1 (three.js's `crossFadeTo`, Bevy's
//! transitions). Every frame of it is an ordinary weighted blend (`weighted.rs`). A fade may start
//! from a blend already under way: every outgoing weight falls from where it was, the incoming one
//! rises from where it was, and the weights keep their sum, `Σ fromᵢ (1 − s) + from_in + (1 −
//! from_in) s = 1` when they start at 1.
//!
//! The mixer steps its own crossfade ([`Fading`], `Mixer::crossfade_to`): each `Mixer::advance_to`
//! sets the weights for the time it is given, before the mixer poses, and at the end the clip faded to
//! plays alone. So a crossfade depends on the times advanced to and nothing else: the program's window,
//! its `--dump` and a test that samples the same times get the same poses.

/// A crossfade that started at `start` (the animation's time) and lasts `seconds`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crossfade {
    pub start: f64,
    pub seconds: f64,
}

impl Crossfade {
    /// How far the fade is at `time`: 0 at its start, 1 from its end on (at once for a fade of no
    /// length). A time before the start (the clock scrubbed back) is 0.
    pub fn progress(&self, time: f64) -> f32 {
        if self.seconds.is_nan() || self.seconds <= 0.0 {
            return 1.0;
        }
        ((time - self.start) / self.seconds).clamp(0.0, 1.0) as f32
    }

    /// Whether the fade is over at `time`.
    pub fn is_over(&self, time: f64) -> bool {
        self.progress(time) >= 1.0
    }
}

/// A crossfade under way in a mixer, to the blend layer of clip `target`, with every layer's
/// weight when it started (their shares of the blend, so they start summing to 1).
#[derive(Clone, Debug, PartialEq)]
pub struct Fading {
    pub crossfade: Crossfade,
    /// The clip faded to, by its index among the clips.
    pub target: usize,
    /// Each layer's weight when the fade started, in the mixer's order (0 for a layer that is not
    /// a blend layer: its weight is its own).
    pub from: Vec<f32>,
}

impl Fading {
    /// The weight at `time` of the mixer's layer `i`, a blend layer of clip `clip`: rising to 1 for
    /// the clip faded to, falling to 0 for every other.
    pub fn weight(&self, i: usize, clip: usize, time: f64) -> f32 {
        let s = self.crossfade.progress(time);
        if clip == self.target { fading_in(self.from[i], s) } else { fading_out(self.from[i], s) }
    }
}

/// The weight of an outgoing layer that started the fade at `from`, at `progress` s.
pub fn fading_out(from: f32, progress: f32) -> f32 {
    from * (1.0 - progress)
}

/// The weight of the incoming layer that started the fade at `from`, at `progress` s.
pub fn fading_in(from: f32, progress: f32) -> f32 {
    from + (1.0 - from) * progress
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_move_linearly_and_keep_their_sum() {
        let fade = Crossfade { start: 2.0, seconds: 0.5 };
        assert_eq!(fade.progress(1.0), 0.0);
        assert_eq!(fade.progress(2.0), 0.0);
        assert_eq!(fade.progress(2.25), 0.5);
        assert_eq!(fade.progress(2.5), 1.0);
        assert_eq!(fade.progress(9.0), 1.0);
        assert!(!fade.is_over(2.4) && fade.is_over(2.5));
        // From a blend of 0.6 and 0.4 towards the second clip: 0.6 -> 0, 0.4 -> 1.
        for step in 0..=10 {
            let s = step as f32 / 10.0;
            let (out, into) = (fading_out(0.6, s), fading_in(0.4, s));
            assert!((out - 0.6 * (1.0 - s)).abs() < 1e-6 && (into - (0.4 + 0.6 * s)).abs() < 1e-6);
            assert!((out + into - 1.0).abs() < 1e-6, "at {s}: {out} + {into}");
        }
    }

    #[test]
    fn a_fade_of_no_length_is_over_at_once() {
        let fade = Crossfade { start: 1.0, seconds: 0.0 };
        assert_eq!(fade.progress(0.0), 1.0);
        assert!(fade.is_over(1.0));
    }
}
