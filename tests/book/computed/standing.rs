//! The figures of chapter 20 worked out again: the least drop of the hips by the quadratic, held
//! against `ground::drop_to_reach`; a slope's height and normal, by `Ground`; and what is planted.

use super::format::fixed;
use super::{Facts, Work};
use glam::Vec3;
use skinning_method::ground::{Ground, PLANTED, Shape, drop_to_reach};
use skinning_method::reach::bend_rule::Facing;

pub const COMPUTED: [Work; 3] = [("20-drop", drop), ("20-slope", slope), ("20-planted", planted)];

/// A hip 0.95 over the floor with a leg of 0.87, its ankle wanted 0.02 under the floor and 0.3
/// ahead: the drop by hand, `d = -along - √(length² - across²)`, and by the library.
fn drop() -> Facts {
    let (along, across, length) = (-0.97f64, 0.3f64, 0.87f64);
    let room = (length * length - across * across).sqrt();
    let by_hand = -along - room;
    let library = drop_to_reach(Vec3::new(0.0, along as f32, across as f32), Vec3::Y, length as f32) as f64;
    assert!((by_hand - library).abs() < 1e-5, "{by_hand} {library}");
    Ok(vec![
        format!("√({}² - {}²) = {}", fixed(length, 2), fixed(across, 1), fixed(room, 4)),
        format!("d = {} - {} = {}", fixed(-along, 2), fixed(room, 4), fixed(by_hand, 4)),
    ])
}

/// Exercise 1: a slope of 12° rising to the front, at a foot 0.5 ahead: its height and normal.
fn slope() -> Facts {
    let ground = Ground { shape: Shape::Slope { degrees: 12.0 }, facing: Facing::GLTF };
    let at = Vec3::new(0.0, 0.0, 0.5);
    let (height, normal) = (ground.height(at) as f64, ground.normal(at));
    assert!((height - 0.5 * 12f64.to_radians().tan()).abs() < 1e-6);
    Ok(vec![
        format!("0.5 · tan 12° = {}", fixed(height, 4)),
        format!(
            "({}, {}, {})",
            fixed(normal.x as f64, 4),
            fixed(normal.y as f64, 4),
            fixed(normal.z as f64, 4)
        ),
    ])
}

/// Exercise 2: on a leg of 0.87, up to what lift a foot is planted.
fn planted() -> Facts {
    let margin = PLANTED as f64 * 0.87;
    Ok(vec![format!("{} · 0.87 = {}", fixed(PLANTED as f64, 2), fixed(margin, 4))])
}
