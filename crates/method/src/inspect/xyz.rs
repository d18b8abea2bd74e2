//! How the inspector's tables write a point: `(x, y, z)`, each number rounded to the same places
//! and right-aligned, so the columns of the skin's table (`inspect.rs`) and of the morph's
//! (`inspect/morphs.rs`) line up.

use glam::Vec3;
use std::fmt;

/// How many decimal places the tables print.
pub const DECIMALS: usize = 4;

/// A point as `(x, y, z)`, each rounded to [`DECIMALS`] places and right-aligned.
pub struct Xyz(pub Vec3);

impl fmt::Display for Xyz {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let d = DECIMALS;
        let w = d + 3; // a sign, a digit, the point
        write!(f, "({:>w$.d$}, {:>w$.d$}, {:>w$.d$})", self.0.x, self.0.y, self.0.z)
    }
}
