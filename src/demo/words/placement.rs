//! Where a label may go so that it covers no other: the corner line, the inspector's sum and its
//! labels, and the bone names, on a character of sixty joints as on the article's five.
//!
//! Labels are placed one at a time, the most important first (the corner line, then the inspector,
//! then the names from the root down the tree, so a body's names win over its fingers'). Each has a
//! few spots near what it names, in the order it prefers them (a name: right of its joint, else
//! left, else a line above or below...). It takes the first spot where its box stays inside the
//! picture and crosses no box placed before; where none is free, it is left out. A box is the
//! label's letters and their shadow, one font pixel right and down, and one more pixel of room, so
//! two labels never touch.
//!
//! Pure: no OpenGL. The boxes of a frame live in a `Vec` allocated once ([`Placement::with_room`]),
//! so placing a frame's labels allocates nothing.

use super::font::GLYPH;
use glam::Vec2;

/// The boxes taken this frame, in window pixels.
pub struct Placement {
    /// Each box's top-left and bottom-right corners.
    taken: Vec<(Vec2, Vec2)>,
    /// The picture's size.
    size: Vec2,
}

impl Placement {
    /// Room for `labels` boxes a frame.
    pub fn with_room(labels: usize) -> Placement {
        Placement { taken: Vec::with_capacity(labels), size: Vec2::ZERO }
    }

    /// A new frame, `size` pixels: nothing is taken.
    pub fn clear(&mut self, size: (u32, u32)) {
        self.taken.clear();
        self.size = Vec2::new(size.0 as f32, size.1 as f32);
    }

    /// Takes the box of `chars` characters at `top_left` wherever it is: for the words that have
    /// one place (the corner line, the inspector's sum).
    pub fn take(&mut self, top_left: Vec2, chars: usize, scale: f32) {
        self.taken.push(label_box(top_left, chars, scale));
    }

    /// The first of `spots` (top-left corners) where a label of `chars` characters fits, which it
    /// then takes; None where none does.
    pub fn first_free(&mut self, spots: &[Vec2], chars: usize, scale: f32) -> Option<Vec2> {
        let spot = spots.iter().copied().find(|&spot| {
            let (min, max) = label_box(spot, chars, scale);
            let inside = min.cmpge(Vec2::ZERO).all() && max.cmple(self.size).all();
            inside && self.taken.iter().all(|&(a, b)| !crosses((min, max), (a, b)))
        })?;
        self.take(spot, chars, scale);
        Some(spot)
    }

    /// The boxes taken so far, top-left and bottom-right corners.
    #[cfg(test)]
    pub fn taken(&self) -> &[(Vec2, Vec2)] {
        &self.taken
    }
}

/// The box a label of `chars` characters at `top_left` covers: its letters as `TextBatch::add`
/// draws them (the corner rounded to a whole pixel), their shadow one font pixel right and down,
/// and one pixel more of room.
pub fn label_box(top_left: Vec2, chars: usize, scale: f32) -> (Vec2, Vec2) {
    let s = scale.round().max(1.0);
    let min = top_left.round();
    (min, min + Vec2::new(chars as f32 * GLYPH * s, GLYPH * s) + s + 1.0)
}

/// Whether two boxes share any pixel.
fn crosses((a_min, a_max): (Vec2, Vec2), (b_min, b_max): (Vec2, Vec2)) -> bool {
    a_min.x < b_max.x && b_min.x < a_max.x && a_min.y < b_max.y && b_min.y < a_max.y
}

/// Where a bone's name of `chars` characters may start, best first: right of its joint, centred on
/// it vertically; left of it; those a line higher and lower; centred above it; centred below it.
pub fn name_spots(joint: Vec2, chars: usize, scale: f32) -> [Vec2; 8] {
    let width = chars as f32 * GLYPH * scale;
    let gap = 6.0 * scale;
    let line = 1.5 * GLYPH * scale;
    let right = joint.x + gap;
    let left = joint.x - gap - width;
    // The name's top, for its middle to be the joint's; its left, for its centre to be.
    let middle = joint.y - GLYPH / 2.0 * scale;
    let centred = joint.x - width / 2.0;
    [
        Vec2::new(right, middle),
        Vec2::new(left, middle),
        Vec2::new(right, middle - line),
        Vec2::new(right, middle + line),
        Vec2::new(left, middle - line),
        Vec2::new(left, middle + line),
        Vec2::new(centred, joint.y - gap - GLYPH * scale),
        Vec2::new(centred, joint.y + gap),
    ]
}

/// Where an inspector's label may start, best first: `beside` (its place on the side away from the
/// blend), then a line and two lines higher and lower, then the same on the other side of its
/// point, `chars` characters wide, `gap` from the point.
pub fn beside_spots(point: Vec2, beside: Vec2, chars: usize, gap: f32, scale: f32) -> [Vec2; 10] {
    let line = 1.5 * GLYPH * scale;
    let other_x = match beside.x < point.x {
        true => point.x + gap,
        false => point.x - gap - chars as f32 * GLYPH * scale,
    };
    let at = |x: f32, lines: f32| Vec2::new(x, beside.y + lines * line);
    [
        at(beside.x, 0.0),
        at(beside.x, -1.0),
        at(beside.x, 1.0),
        at(beside.x, -2.0),
        at(beside.x, 2.0),
        at(other_x, 0.0),
        at(other_x, -1.0),
        at(other_x, 1.0),
        at(other_x, -2.0),
        at(other_x, 2.0),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_takes_the_first_free_spot_inside_the_picture_or_none() {
        let mut placed = Placement::with_room(8);
        placed.clear((200, 100));
        // "abc" at (10, 10): 24 x 8 letters, their shadow and a pixel: (10, 10) to (36, 20).
        assert_eq!(label_box(Vec2::new(10.0, 10.0), 3, 1.0), (Vec2::new(10.0, 10.0), Vec2::new(36.0, 20.0)));
        placed.take(Vec2::new(10.0, 10.0), 3, 1.0);
        // On it, touching its room, or off the picture: the next spot, just clear of it.
        let spots =
            [Vec2::new(20.0, 15.0), Vec2::new(35.0, 10.0), Vec2::new(190.0, 50.0), Vec2::new(36.0, 10.0)];
        assert_eq!(placed.first_free(&spots, 3, 1.0), Some(Vec2::new(36.0, 10.0)));
        // Now (36, 10) is taken too: nothing of these fits.
        assert_eq!(placed.first_free(&spots, 3, 1.0), None);
        assert_eq!(placed.taken().len(), 2);
        // A new frame starts empty.
        placed.clear((200, 100));
        assert_eq!(placed.first_free(&spots, 3, 1.0), Some(Vec2::new(20.0, 15.0)));
    }

    #[test]
    fn a_name_prefers_the_right_of_its_joint_then_the_left() {
        let joint = Vec2::new(100.0, 50.0);
        let spots = name_spots(joint, 4, 1.0);
        // Right: 6 pixels from the joint, centred on it; left: ending 6 pixels before it.
        assert_eq!(spots[0], Vec2::new(106.0, 46.0));
        assert_eq!(spots[1], Vec2::new(62.0, 46.0));
        // Every spot keeps the joint itself clear of the letters.
        for spot in spots {
            let (min, max) = label_box(spot, 4, 1.0);
            assert!(!(min.x..max.x).contains(&joint.x) || !(min.y..max.y).contains(&joint.y), "{spot}");
        }
    }
}
