//! No word covers another: on a crowded chain of 33 bones, on the Fox (24 joints) and the robot
//! (58), every bone name is drawn whole near its joint or left out, read back from the batch's
//! pixels against the font's own rows; the inspector's labels keep clear of each other and of
//! the names.

use super::*;
use skinning::camera::framing_model;
use skinning_method::frame::Pose;

/// The lit (not shadow) points of `labels` in `color`, as whole pixels.
fn lit_pixels(labels: &Labels, color: Rgba) -> std::collections::HashSet<(i32, i32)> {
    let b = labels.batch();
    (b.points().iter().zip(b.colors()))
        .filter(|(_, c)| **c == color)
        .map(|(p, _)| (p[0].floor() as i32, p[1].floor() as i32))
        .collect()
}

/// Where `text` is drawn whole and untouched among `lit` (scale 1): a top-left corner near
/// `around` (within `reach` pixels) where every pixel of its glyphs is lit exactly as the font
/// has it, and no other pixel of its box; the font's own rows, not the program's placement. A
/// pixel in `claimed` belongs to a longer word found before ("LegR" inside "UpperLegR").
fn found_whole(
    text: &str,
    lit: &std::collections::HashSet<(i32, i32)>,
    claimed: &std::collections::HashSet<(i32, i32)>,
    around: Vec2,
    reach: i32,
) -> Option<(i32, i32)> {
    let bits: Vec<(i32, i32, bool)> = (text.chars().enumerate())
        .flat_map(|(column, c)| {
            let rows = crate::demo::words::font::glyph(c);
            (0..8).flat_map(move |row| {
                (0..8).map(move |bit| (column as i32 * 8 + bit, row, rows[row as usize] & (1 << bit) != 0))
            })
        })
        .collect();
    let &(first_x, first_y, _) = bits.iter().find(|b| b.2)?;
    let (cx, cy) = (around.x as i32, around.y as i32);
    // Every lit pixel near `around` could be the text's first lit pixel.
    lit.iter()
        .map(|&(x, y)| (x - first_x, y - first_y))
        .filter(|&(x, y)| (x - cx).abs() <= reach && (y - cy).abs() <= reach)
        .find(|&(x, y)| {
            let free = |&(dx, dy, _): &(i32, i32, bool)| !claimed.contains(&(x + dx, y + dy));
            bits.iter().all(|&(dx, dy, on)| lit.contains(&(x + dx, y + dy)) == on) && bits.iter().all(free)
        })
}

/// Composes `model`'s names at its rest pose, seen as the program frames `clips`, 640 x 480, and
/// checks that no word covers another: every name is drawn whole near its joint or not at all,
/// and nothing else is lit but the corner line. Returns how many names are drawn of how many.
fn names_read_whole(model: &Model, clips: &[skinning_method::clip::Clip], status: &str) -> (usize, usize) {
    let view_projection = framing_model(model, clips).view_projection(640, 480);
    let pose = Pose::new(model);
    let joints: Vec<Vec3> = (0..model.skeleton.len()).map(|b| pose.joint(b)).collect();
    let mut labels = Labels::new(model);
    labels.compose(
        &Words { status, names: true, scale: 1.0 },
        Some(&joints),
        None,
        view_projection,
        (640, 480),
    );
    let lit = lit_pixels(&labels, TEXT);
    let mut explained = std::collections::HashSet::new();
    let explain = |explained: &mut std::collections::HashSet<_>, text: &str, (x, y): (i32, i32)| {
        for dx in 0..8 * text.chars().count() as i32 {
            (0..8).for_each(|dy| _ = explained.insert((x + dx, y + dy)));
        }
    };
    let corner = found_whole(status, &lit, &explained, Vec2::new(6.0, 6.0), 0).expect("the corner line");
    explain(&mut explained, status, corner);
    let joint_bones = model.joint_bones();
    let mut named: Vec<usize> = (0..model.skeleton.len()).filter(|&b| joint_bones[b]).collect();
    // The longest names first, so that a shorter one is never found inside a longer one.
    named.sort_by_key(|&b| std::cmp::Reverse(labels.bone_names[b].chars().count()));
    let mut drawn = 0;
    for &b in &named {
        let at = to_pixels(view_projection, joints[b], (640, 480)).expect("in front of the camera");
        let name = &labels.bone_names[b];
        // Within a name's length and two lines of its joint.
        let reach = 8 * name.chars().count() as i32 + 30;
        if let Some(corner) = found_whole(name, &lit, &explained, at, reach) {
            drawn += 1;
            explain(&mut explained, name, corner);
        }
    }
    let stray: Vec<_> = lit.iter().filter(|p| !explained.contains(p)).collect();
    assert!(stray.is_empty(), "{} lit pixels belong to no whole word, e.g. {:?}", stray.len(), stray.first());
    (drawn, named.len())
}

#[test]
fn no_name_covers_another_on_a_crowded_chain_of_33_bones() {
    // 33 bones along a line, 17 pixels apart on screen: names of 5 and 6 letters cannot all sit
    // on the right of their joints.
    let model = skinning_fast::synthetic::tube(33, 66, 8);
    let clips = [skinning_fast::synthetic::wave()];
    let (drawn, named) = names_read_whole(&model, &clips, "clip wave  t 0.00 s  1x");
    println!("the 33-bone chain: {drawn} of {named} names drawn, each whole");
    assert_eq!(named, 33);
    assert!(drawn >= 12, "only {drawn} of {named} names drawn");
}

/// A sample model from `SKINNING_MODELS`, if it is there (or a failure, with
/// `SKINNING_REQUIRE_MODELS`).
fn sample(name: &str) -> Option<skinning_formats::gltf_import::Imported> {
    let Some(dir) = std::env::var_os("SKINNING_MODELS") else {
        assert!(std::env::var_os("SKINNING_REQUIRE_MODELS").is_none(), "SKINNING_MODELS is not set");
        eprintln!("SKIPPED (set SKINNING_MODELS=/path/to/shared/assets to test with {name})");
        return None;
    };
    Some(
        skinning_formats::gltf_import::load(&std::path::Path::new(&dir).join(name))
            .expect("the sample loads"),
    )
}

#[test]
fn no_name_covers_another_on_the_fox_and_the_robot() {
    for (file, joints, least) in [("Fox.glb", 24, 12), ("RobotExpressive.glb", 58, 25)] {
        let Some(imported) = sample(file) else { return };
        let clips = &imported.clips[..1];
        let (drawn, named) = names_read_whole(&imported.model, clips, "clip one  t 0.00 s  1x");
        println!("{file}: {drawn} of {named} names drawn, each whole");
        assert_eq!(named, joints, "{file}'s joints");
        assert!(drawn >= least, "{file}: only {drawn} of {named} names drawn");
    }
}

#[test]
fn the_inspectors_labels_and_the_names_cover_none_of_each_other() {
    // Every vertex of the article inspected, at every tenth of a second of the twist, names on and
    // dual quaternions' label too: no two boxes cross, and no pixel is lit by two words.
    let model = skinning_method::scene::article().expect("the article's scene");
    let clips = skinning_method::scene::clips().expect("the article's clips");
    let view_projection = framing_model(&model, &clips).view_projection(640, 480);
    let mut labels = Labels::new(&model);
    let mut pose = Pose::new(&model);
    let (mut left_out, mut words) = (0, 0);
    for tenth in 0..30 {
        pose.update(&model, &clips[2], tenth as f64 / 10.0);
        let joints: Vec<Vec3> = (0..model.skeleton.len()).map(|b| pose.joint(b)).collect();
        for vertex in 0..model.skin.len() {
            let mut inspection =
                skinning_method::inspect::inspect(&model.skin, model.skin.bind(), &pose.palette, vertex);
            inspection.dqs = Some(inspection.blended + Vec3::new(0.01, 0.0, 0.0));
            let status = "clip twist  t 0.00 s  1x  lbs+dqs on cpu";
            let words_on = Words { status, names: true, scale: 1.0 };
            labels.compose(&words_on, Some(&joints), Some(&inspection), view_projection, (640, 480));
            let taken = labels.placement.taken();
            for (i, a) in taken.iter().enumerate() {
                for b in &taken[i + 1..] {
                    let crosses = a.0.x < b.1.x && b.0.x < a.1.x && a.0.y < b.1.y && b.0.y < a.1.y;
                    assert!(!crosses, "vertex {vertex} at {tenth}/10 s: {a:?} crosses {b:?}");
                }
            }
            let b = labels.batch();
            let lit: Vec<(i32, i32)> = (b.points().iter().zip(b.colors()))
                .filter(|(_, c)| **c != crate::demo::words::font::SHADOW)
                .map(|(p, _)| (p[0].floor() as i32, p[1].floor() as i32))
                .collect();
            let once: std::collections::HashSet<_> = lit.iter().collect();
            assert_eq!(once.len(), lit.len(), "vertex {vertex} at {tenth}/10 s: a pixel lit twice");
            // The corner line, the sum, the candidates' labels, dqs and five names, when all fit.
            let expected = 2 + inspection.candidates().len() + 1 + 5;
            left_out += expected - taken.len();
            words += expected;
        }
    }
    println!("{left_out} of {words} words left out to keep the rest clear");
    assert!(left_out * 10 < words, "{left_out} of {words} words left out");
}
