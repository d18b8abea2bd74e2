//! `--ground` draws the ground the feet stand on (chapter 20, `src/demo/show/ground_lines.rs`), in
//! the floor grid's grey-blue (`draw/floor_grid.rs`: `FLOOR`): on the T-posed rig, whose feet stand
//! at the bottom of the picture, the lines lie under its hips, a slope's lines are not the steps'
//! lines, and without `--ground` nothing is drawn in that colour.
//!
//! These need an EGL driver (Mesa's software one will do). Without one they say so and pass, unless
//! `SKINNING_REQUIRE_GL` is set, as it is in CI.

use common::{Image, run_gl, scratch};

const W: i64 = 400;
const H: i64 = 300;

/// The floor's grey-blue, [0.3, 0.32, 0.4]: (77, 82, 102) give or take rounding.
fn floor_blue([r, g, b]: [u8; 3]) -> bool {
    r.abs_diff(77) <= 3 && g.abs_diff(82) <= 3 && b.abs_diff(102) <= 3
}

/// The rig at rest (its clip at 0 s), the screen's words off, on `ground` if any.
fn draw(dir: &std::path::Path, name: &str, ground: &[&str]) -> Option<Image> {
    let path = dir.join(name);
    let mut args = vec!["tests/t-pose.gltf", "--headless", "--frames", "1", "--no-text", "--size", "400x300"];
    args.extend(["--screenshot", path.to_str().expect("utf-8")]);
    args.extend_from_slice(ground);
    run_gl(&args)?;
    Some(Image::load(&path))
}

/// Every pixel of the floor's colour, as (x, y).
fn floor_pixels(image: &Image) -> Vec<(i64, i64)> {
    let all = (0..H).flat_map(|y| (0..W).map(move |x| (x, y)));
    all.filter(|&(x, y)| image.pixel(x, y).is_some_and(floor_blue)).collect()
}

#[test]
fn the_ground_is_drawn_under_the_feet_and_only_with_ground() {
    let dir = scratch("ground-drawn");
    let Some(steps) = draw(&dir, "steps.png", &["--ground", "steps:0.1"]) else { return };
    let Some(slope) = draw(&dir, "slope.png", &["--ground", "slope:15"]) else { return };
    let Some(none) = draw(&dir, "none.png", &[]) else { return };
    let (on_steps, on_slope) = (floor_pixels(&steps), floor_pixels(&slope));
    assert!(on_steps.len() > 400, "steps:0.1 drew {} pixels of the floor's colour", on_steps.len());
    assert!(on_slope.len() > 400, "slope:15 drew {} pixels of the floor's colour", on_slope.len());
    // The rig is framed whole, its hips at about the middle: the ground is under them.
    let above = on_steps.iter().filter(|&&(_, y)| y < H / 2).count();
    assert_eq!(above, 0, "{above} of the steps' pixels are above the middle of the picture");
    let above = on_slope.iter().filter(|&&(_, y)| y < H / 2).count();
    assert_eq!(above, 0, "{above} of the slope's pixels are above the middle of the picture");
    assert_ne!(on_steps, on_slope, "a slope's lines are drawn where the steps' are");
    assert_eq!(floor_pixels(&none).len(), 0, "the floor's colour is drawn without --ground");
}
