//! Numbers written as the book writes them, so that a fact worked out here can be found in a
//! passage as it is.

use glam::Vec3;

/// `x` to `places` decimals, trailing zeros dropped: 0.30 is "0.3", 2.0 is "2", -0.0 is "0".
pub fn short(x: f64, places: usize) -> String {
    let text = format!("{x:.places$}");
    let text = if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.') } else { &text };
    if text == "-0" { "0".into() } else { text.to_string() }
}

/// `x` to exactly `places` decimals, -0 written 0.
pub fn fixed(x: f64, places: usize) -> String {
    let text = format!("{x:.places$}");
    if text.trim_start_matches('-').chars().all(|c| c == '0' || c == '.') {
        text.replace('-', "")
    } else {
        text
    }
}

/// A point as `(x, y, z)`, each [`short`].
pub fn point(p: Vec3, places: usize) -> String {
    format!("({}, {}, {})", short(p.x as f64, places), short(p.y as f64, places), short(p.z as f64, places))
}

/// A point as `(x, y, z)`, each [`fixed`].
pub fn point_fixed(p: Vec3, places: usize) -> String {
    format!("({}, {}, {})", fixed(p.x as f64, places), fixed(p.y as f64, places), fixed(p.z as f64, places))
}

/// Names as a sentence lists them: `a`, `a and b`, `a, b and c`.
pub fn listed(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[test]
fn numbers_are_written_as_the_book_writes_them() {
    assert_eq!(
        (short(0.30000001, 4), short(2.0, 3), short(-0.00001, 4)),
        ("0.3".into(), "2".into(), "0".into())
    );
    assert_eq!((fixed(-0.00001, 4), fixed(0.5, 2)), ("0.0000".into(), "0.50".into()));
    assert_eq!(point(Vec3::new(0.3, -0.1, 0.0), 4), "(0.3, -0.1, 0)");
    assert_eq!(listed(&["a", "b", "c"]), "a, b and c");
}
