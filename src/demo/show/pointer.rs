//! The left mouse button does two things: a drag orbits the camera, a click picks a vertex. A click
//! is a press and a release with the cursor never more than [`CLICK_SLOP`] pixels from where it
//! went down; past that it is a drag, and the camera follows from the press on, so no movement is
//! lost. Until then nothing turns, so a click never nudges the camera.

use glam::Vec2;

/// How far (in pixels at scale 1) the cursor may wander during a click.
pub const CLICK_SLOP: f32 = 4.0;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LeftButton {
    /// Where the button went down, while it is down.
    down_at: Option<Vec2>,
    dragging: bool,
}

impl LeftButton {
    pub fn press(&mut self, at: Vec2) {
        *self = LeftButton { down_at: Some(at), dragging: false };
    }

    /// The cursor moved from `from` to `to`: how far to orbit, if this is a drag.
    pub fn moved(&mut self, from: Vec2, to: Vec2, slop: f32) -> Option<Vec2> {
        let down_at = self.down_at?;
        if self.dragging {
            return Some(to - from);
        }
        // Still a click unless the cursor has gone past the slop; then orbit from the press on.
        self.dragging = to.distance(down_at) > slop;
        self.dragging.then_some(to - down_at)
    }

    /// The button came up: was it a click?
    pub fn release(&mut self) -> bool {
        let click = self.down_at.is_some() && !self.dragging;
        *self = LeftButton::default();
        click
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_wobble_is_a_click_and_does_not_orbit() {
        let mut b = LeftButton::default();
        b.press(Vec2::new(100.0, 100.0));
        assert_eq!(b.moved(Vec2::new(100.0, 100.0), Vec2::new(102.0, 101.0), CLICK_SLOP), None);
        assert_eq!(b.moved(Vec2::new(102.0, 101.0), Vec2::new(99.0, 98.0), CLICK_SLOP), None);
        assert!(b.release());
    }

    #[test]
    fn past_the_slop_it_is_a_drag_that_loses_no_movement() {
        let mut b = LeftButton::default();
        b.press(Vec2::new(100.0, 100.0));
        assert_eq!(b.moved(Vec2::new(100.0, 100.0), Vec2::new(103.0, 100.0), CLICK_SLOP), None);
        // Past 4 pixels: the whole way from the press, then step by step.
        let first = b.moved(Vec2::new(103.0, 100.0), Vec2::new(110.0, 100.0), CLICK_SLOP);
        assert_eq!(first, Some(Vec2::new(10.0, 0.0)));
        let next = b.moved(Vec2::new(110.0, 100.0), Vec2::new(111.0, 102.0), CLICK_SLOP);
        assert_eq!(next, Some(Vec2::new(1.0, 2.0)));
        assert!(!b.release(), "a drag is not a click");
        // Moving with the button up does nothing.
        assert_eq!(b.moved(Vec2::ZERO, Vec2::new(50.0, 0.0), CLICK_SLOP), None);
    }
}
