//! The ground's flag (chapter 20): `--ground flat|slope:DEG|steps:HEIGHT`, the floor the feet find
//! under them. Read here into the method's [`Shape`]; which bones are the legs is known only once the
//! model is loaded (`show/reach/feet.rs`), and how deep a step is too (as deep as a leg is long).

use super::values::text;
use lexopt::Parser;
use skinning_method::ground::Shape;

/// A step's depth before the model says how long its legs are (`show/reach/feet.rs` sets it).
pub const DEPTH_UNKNOWN: f32 = 0.0;

/// Reads `--ground`'s value: the shape, or the one line that says what it must look like.
pub fn parse(parser: &mut Parser) -> Result<Shape, String> {
    let v = text(parser, "--ground", "flat|slope:DEG|steps:HEIGHT")?;
    shape(&v)
}

/// `flat`, `slope:DEG` (above -90 and below 90 degrees, rising towards the model's front) or
/// `steps:HEIGHT` (a finite height, not 0, in the model's units: below 0 the steps go down).
pub fn shape(v: &str) -> Result<Shape, String> {
    let number = |s: &str| s.trim().parse::<f32>().ok().filter(|x| x.is_finite());
    match v.trim().split_once(':') {
        None if v.trim() == "flat" => Ok(Shape::Flat),
        Some(("slope", deg)) => match number(deg) {
            Some(degrees) if degrees.abs() < 90.0 => Ok(Shape::Slope { degrees }),
            _ => Err(format!(
                "--ground slope:DEG wants the slope's angle in degrees, above -90 and below 90 (a wall \
                 cannot be stood on), like slope:12; not {v:?}"
            )),
        },
        Some(("steps", height)) => match number(height) {
            Some(height) if height != 0.0 => Ok(Shape::Steps { height, depth: DEPTH_UNKNOWN }),
            _ => Err(format!(
                "--ground steps:HEIGHT wants each step's height in the model's units, a finite number \
                 other than 0 (below 0 the steps go down), like steps:0.15; not {v:?}"
            )),
        },
        _ => Err(format!("--ground wants flat, slope:DEG or steps:HEIGHT, not {v:?}")),
    }
}

/// `--info` shows no pose, so it stands nothing on a ground.
pub fn check(ground: Option<Shape>, info: bool) -> Result<(), String> {
    match (ground, info) {
        (Some(_), true) => {
            Err("--info only prints what the file holds; --ground goes with a window, a picture or a dump"
                .into())
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::{DEPTH_UNKNOWN, shape};
    use skinning_method::ground::Shape;

    #[test]
    fn the_three_shapes_and_every_mistake_in_one_line() {
        assert_eq!(shape("flat"), Ok(Shape::Flat));
        assert_eq!(shape("slope:-12.5"), Ok(Shape::Slope { degrees: -12.5 }));
        assert_eq!(shape("steps:0.15"), Ok(Shape::Steps { height: 0.15, depth: DEPTH_UNKNOWN }));
        let cases = [
            ("slope:90", "below 90"),
            ("slope:-90", "above -90"),
            ("slope:NaN", "above -90"),
            ("slope:", "slope:DEG wants"),
            ("steps:0", "other than 0"),
            ("steps:inf", "a finite number"),
            ("steps:high", "steps:HEIGHT wants"),
            ("hills", "flat, slope:DEG or steps:HEIGHT"),
            ("flat:1", "flat, slope:DEG or steps:HEIGHT"),
        ];
        for (value, expected) in cases {
            let e = shape(value).expect_err(value);
            assert!(e.contains(expected) && !e.contains('\n'), "{value}: {e}");
        }
    }
}
