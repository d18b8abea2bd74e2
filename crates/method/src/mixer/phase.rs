//! Phase sync: locomotion clips of different lengths, blended in step.
//!
//! The Fox's Walk lasts 0.708 s and its Run 1.158 s. Played at the same time `t`, each loops by its
//! own length: after a few steps the walk's left foot is down while the run's is up, and the blend
//! of the two puts the foot somewhere between, moving while it should stand. The feet slide.
//!
//! In step, both clips are at the same **phase**, the same fraction of their own cycle: a foot down
//! in one is down in the other. The blend's cycle lasts `T = Σ ŵᵢ dᵢ` (weights divided by their
//! sum, `dᵢ` each clip's length), between the walk's length and the run's as the weights move, and
//! each clip plays at speed `dᵢ / T`, so that it also takes `T` for one loop (ozz-animation's
//! blend sample). At phase `p` (in loops: 0.25 is a quarter of the way round) clip i is at time
//! `p dᵢ` of its own.
//!
//! With the weights fixed, `p = t / T`, a plain function of the time. When the weights move (a
//! crossfade, a key), `T` changes; `p = t / T` would then jump. [`Phase`] keeps the phase where it
//! is and changes its speed from there on, so the feet carry on where they were.

/// The cycle of clips of lengths `dᵢ` blended at weights `wᵢ`: `Σ wᵢ dᵢ / Σ wᵢ`, in seconds; 0
/// when every weight is 0.
pub fn cycle(weighted_lengths: impl IntoIterator<Item = (f32, f32)>) -> f64 {
    let (mut total, mut sum) = (0.0, 0.0);
    for (weight, length) in weighted_lengths {
        let weight = weight.max(0.0) as f64;
        total += weight;
        sum += weight * length as f64;
    }
    if total > 0.0 { sum / total } else { 0.0 }
}

/// Where the shared cycle is: a phase that moves on at one loop per `cycle` seconds of time, and
/// moves on from where it was when the cycle changes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Phase {
    /// The time the phase was last fixed (when the cycle last changed).
    at: f64,
    /// The phase then, in loops.
    phase: f64,
    /// The cycle's length since then, in seconds; 0 before the first call.
    cycle: f64,
}

impl Phase {
    /// No cycle yet: the first call starts at `time / cycle`, as if the cycle had always been so long.
    pub const START: Phase = Phase { at: 0.0, phase: 0.0, cycle: 0.0 };

    /// The phase at `time` (in loops) of a cycle that is now `cycle` seconds long; 0 for a cycle of
    /// no length (clips that do not move). Pure: at the speed of the cycle the phase was last fixed
    /// to ([`Phase::advance_to`]), which at the time it was fixed is the phase either way.
    pub fn at(&self, time: f64, cycle: f64) -> f64 {
        if cycle.is_nan() || cycle <= 0.0 {
            return 0.0;
        }
        match self.cycle > 0.0 {
            true => self.phase + (time - self.at) / self.cycle,
            false => time / cycle,
        }
    }

    /// Fixes the phase where it is at `time` if the cycle is now `cycle` seconds long, not what it
    /// was: the old speed up to now, the new one from now on. Nothing for a cycle of no length.
    pub fn advance_to(&mut self, time: f64, cycle: f64) {
        if cycle.is_nan() || cycle <= 0.0 || cycle == self.cycle {
            return;
        }
        self.phase = self.at(time, cycle);
        (self.at, self.cycle) = (time, cycle);
    }
}

impl Default for Phase {
    fn default() -> Self {
        Phase::START
    }
}

/// Where clip `length` seconds long is at `phase`: the same fraction of its own loop.
pub fn time_in_clip(phase: f64, length: f32) -> f64 {
    phase.rem_euclid(1.0) * length as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cycle_is_the_weighted_mean_of_the_lengths() {
        // The Fox's Walk and Run, half and half: (0.708 + 1.158) / 2.
        assert!((cycle([(0.5, 0.708), (0.5, 1.158)]) - 0.933).abs() < 1e-6);
        // Weights are divided by their sum; a weight of 0 leaves its clip out.
        assert!((cycle([(1.0, 2.0), (3.0, 4.0), (0.0, 100.0)]) - 3.5).abs() < 1e-9);
        assert_eq!(cycle([(0.0, 1.0)]), 0.0);
    }

    /// The phase at `time` after the phase is moved there, as the mixer asks it.
    fn step(phase: &mut Phase, time: f64, cycle: f64) -> f64 {
        phase.advance_to(time, cycle);
        phase.at(time, cycle)
    }

    #[test]
    fn with_fixed_weights_the_phase_is_time_over_cycle() {
        let mut phase = Phase::START;
        for time in [1.25, 0.0, 7.5, -2.0, 3.0] {
            assert!((step(&mut phase, time, 2.5) - time / 2.5).abs() < 1e-12, "at {time}");
        }
    }

    #[test]
    fn a_new_cycle_changes_the_speed_not_the_phase() {
        let mut phase = Phase::START;
        let before = step(&mut phase, 3.0, 1.0);
        assert_eq!(before, 3.0);
        // From t = 3 the cycle is twice as long: no jump, then half as fast.
        assert_eq!(step(&mut phase, 3.0, 2.0), 3.0);
        assert_eq!(step(&mut phase, 5.0, 2.0), 4.0);
        // Back to 1 s at t = 5: the phase goes on from 4.
        assert_eq!(step(&mut phase, 5.0, 1.0), 4.0);
        assert_eq!(step(&mut phase, 5.5, 1.0), 4.5);
    }

    #[test]
    fn clips_in_step_are_at_the_same_fraction_of_their_loops() {
        let (walk, run) = (0.708_f32, 1.158_f32);
        let mut phase = Phase::START;
        let cycle = cycle([(0.3, walk), (0.7, run)]);
        for frame in 0..200 {
            let p = step(&mut phase, frame as f64 / 60.0, cycle);
            let (tw, tr) = (time_in_clip(p, walk), time_in_clip(p, run));
            assert!((tw / walk as f64 - tr / run as f64).abs() < 1e-12, "frame {frame}: {tw} and {tr}");
            assert!(tw < walk as f64 && tr < run as f64);
        }
    }
}
