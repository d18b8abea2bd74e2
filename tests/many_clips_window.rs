//! The keys of several clips at once in a real window (chapter 11): `K` and `J` move weight
//! between the clip that plays and the next, `Y` turns phase sync off and on, `F` crossfades, and
//! the corner line shows every layer on a row of its own. The demo runs on its own virtual X
//! display (Xvfb), `xdotool` presses the keys, `P` screenshots are read back (`tests/interaction.rs`
//! does the same for every other key).
//!
//! Needs `Xvfb` and `xdotool` plus Mesa; without them it says SKIPPED and passes, unless
//! `SKINNING_REQUIRE_GL` is set, as in CI.

use common::window::start;
use common::{Image, find_text, ink};

const W: u32 = 640;
/// Where the layers' rows are looked for: under the first corner line, which may take two rows
/// on a busy machine (its costs grow digits), so anywhere from the second row to the fifth.
const ROWS: std::ops::Range<i64> = 14..70;
/// Below the corner line and its rows: the picture itself.
const BELOW: u32 = 80;

fn same_picture(a: &Image, b: &Image) -> bool {
    let below = (BELOW * W * 4) as usize;
    a.rgba[below..] == b.rgba[below..]
}

fn shows(image: &Image, row: &str) -> bool {
    find_text(image, row, 1, (0..20, ROWS), ink).is_some()
}

#[test]
fn f_y_j_and_k_blend_the_clips_and_the_corner_line_shows_each_layer() {
    let args = ["--clip", "bend", "--time", "1", "--size", "640x480"];
    let Some(s) = start("many-clips", &args, &[]) else { return };
    // Paused, and back at --time: R.
    s.key("space");
    s.key("r");
    let base = s.shot();
    assert!(!shows(&base, "blend "), "one clip alone has no rows");

    // K: a tenth of the weight to the next clip, twist; the picture moves, two rows appear.
    s.key("k");
    let shot = s.shot();
    assert!(shows(&shot, "blend 0.90 bend  t 1.00 s  in step"), "no row for bend");
    assert!(shows(&shot, "blend 0.10 twist  t 1.00 s  in step"), "no row for twist");
    assert!(!same_picture(&shot, &base), "a tenth of twist did not move the arm");
    // Y: not in step (the article's clips share one length, so only the words change here).
    s.key("y");
    assert!(shows(&s.shot(), "blend 0.90 bend  t 1.00 s  not in step"));
    s.key("y");
    // J: the tenth back, bend at 1 and twist at 0 is bend exactly.
    s.key("j");
    let back = s.shot();
    assert!(shows(&back, "blend 1.00 bend  t 1.00 s  in step"));
    assert!(same_picture(&back, &base), "weights 1 and 0 should give bend's own pose");

    // 2 plays bend alone again; F fades to twist over half a second of animation time, which
    // moves only while the clock does: paused, step it with `.`.
    s.key("2");
    assert!(!shows(&s.shot(), "blend "));
    s.key("f");
    assert!(shows(&s.shot(), "fade to twist  0% of 0.5 s"));
    for _ in 0..15 {
        s.key("period");
    }
    let halfway = s.shot();
    assert!(shows(&halfway, "fade to twist  50% of 0.5 s"), "15 steps of 1/60 s: halfway");
    assert!(shows(&halfway, "blend 0.50 twist  t 1.25 s  in step"));
    for _ in 0..16 {
        s.key("period");
    }
    let over = s.shot();
    assert!(!shows(&over, "blend ") && !shows(&over, "fade to"), "the fade is over: twist alone");
    assert!(s.title().contains("clip twist"), "title: {}", s.title());

    // H: the keys list names the new keys.
    s.key("h");
    s.expect_line("crossfade to next clip");
}
