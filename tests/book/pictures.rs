//! The book's pictures are what their commands draw today. `main.rs` checks that each picture's
//! caption gives the command `docs/pictures.sh` runs, and that every picture in `docs/` is one a
//! page shows; here the script runs again, headless, with the debug program `cargo test` built,
//! into a scratch folder, and each picture it draws is compared with the committed one. A picture
//! not redrawn after a change of the program (a colour, a camera, a model's look) fails.
//!
//! Two pictures drawn by the same command agree pixel for pixel but for llvmpipe's rounding: no
//! channel apart by more than [`ROUNDING`]. The one part that changes from run to run is the
//! corner's status line, which times the frame (`... 910.5 µs  frame 2.05 ms`): in a picture with
//! words (no `--no-text`), its rows are left out of the comparison: the rows of words, [`LINE`]
//! pixels each from [`MARGIN`] down, up to the last of the first [`STATUS_LINES`] that differs (the
//! status line wraps onto a second row in a narrow picture, where its timings may land). Every row
//! below counts. So a picture whose first two rows of words alone went stale would pass here.
//!
//! Without `SKINNING_MODELS` most pictures cannot be drawn and the test says SKIPPED, as it does
//! on a machine without OpenGL, unless `SKINNING_REQUIRE_MODELS` or `SKINNING_REQUIRE_GL` is set.

use crate::markdown::root;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The most a channel of a redrawn picture may differ from the committed one's.
const ROUNDING: u8 = 2;
/// Where the words start from the top, and how far apart their rows are (`src/demo/words/labels.rs`:
/// `MARGIN` and `LINE`, at scale 1 as headless pictures are drawn).
const MARGIN: usize = 6;
const LINE: usize = 12;
/// The status line's rows at most: one, and a second where a narrow picture wraps it.
const STATUS_LINES: usize = 2;

/// An RGBA picture.
pub struct Picture {
    pub width: usize,
    pub height: usize,
    pub rgba: Vec<u8>,
}

fn decode(path: &Path) -> Result<Picture, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().map_err(|e| format!("{}: {e}", path.display()))?;
    let mut bytes = vec![0; reader.output_buffer_size().ok_or("too large a picture")?];
    let info = reader.next_frame(&mut bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let channels = info.color_type.samples();
    let (width, height) = (info.width as usize, info.height as usize);
    let mut rgba = Vec::with_capacity(width * height * 4);
    for pixel in bytes[..info.buffer_size()].chunks_exact(channels) {
        match channels {
            4 => rgba.extend_from_slice(pixel),
            3 => rgba.extend_from_slice(&[pixel[0], pixel[1], pixel[2], 255]),
            _ => return Err(format!("{}: {channels} channels, not RGB", path.display())),
        }
    }
    Ok(Picture { width, height, rgba })
}

/// Whether row `y` of two pictures of one size differs past the rounding.
fn row_differs(a: &Picture, b: &Picture, y: usize) -> bool {
    let row = y * a.width * 4..(y + 1) * a.width * 4;
    a.rgba[row.clone()].iter().zip(&b.rgba[row]).any(|(p, q)| p.abs_diff(*q) > ROUNDING)
}

/// Whether `drawn` is `committed` again; with `words`, leaving out the status line's rows.
pub fn compare(committed: &Picture, drawn: &Picture, words: bool) -> Result<(), String> {
    if (committed.width, committed.height) != (drawn.width, drawn.height) {
        return Err(format!(
            "{}x{} committed, {}x{} drawn",
            committed.width, committed.height, drawn.width, drawn.height
        ));
    }
    // The status line's rows: up to the last of its first rows of words that differs.
    let mut first = 0;
    if words {
        for line in 0..STATUS_LINES {
            let rows = MARGIN + line * LINE..MARGIN + (line + 1) * LINE;
            let rows = if line == 0 { 0..rows.end } else { rows };
            if rows.clone().any(|y| y < drawn.height && row_differs(committed, drawn, y)) {
                first = rows.end.min(drawn.height);
            }
        }
    }
    let differ: Vec<usize> = (first..drawn.height).filter(|&y| row_differs(committed, drawn, y)).collect();
    let pixels = differ
        .iter()
        .map(|&y| {
            let row = |p: &Picture| p.rgba[y * p.width * 4..(y + 1) * p.width * 4].to_vec();
            let (a, b) = (row(committed), row(drawn));
            a.chunks(4)
                .zip(b.chunks(4))
                .filter(|(p, q)| p.iter().zip(*q).any(|(x, y)| x.abs_diff(*y) > ROUNDING))
                .count()
        })
        .sum::<usize>();
    match (differ.first(), differ.last()) {
        (Some(top), Some(bottom)) => {
            Err(format!("{pixels} pixels differ, in rows {top} to {bottom} (compared from row {first})"))
        }
        _ => Ok(()),
    }
}

/// Whether `name` is set, as CI sets `SKINNING_REQUIRE_GL` and `SKINNING_REQUIRE_MODELS`.
fn required(name: &str) -> bool {
    std::env::var_os(name).is_some()
}

/// The pictures `docs/pictures.sh` draws, and whether each has words (drawn without `--no-text`).
fn drawn() -> Vec<(String, bool)> {
    crate::script_pictures()
        .into_iter()
        .map(|(name, args)| (name, !args.iter().any(|a| a == "--no-text")))
        .collect()
}

#[test]
fn every_picture_is_what_its_command_draws_today() {
    if std::env::var_os("SKINNING_MODELS").is_none() {
        assert!(
            !required("SKINNING_REQUIRE_MODELS"),
            "SKINNING_REQUIRE_MODELS is set, SKINNING_MODELS is not"
        );
        println!("SKIPPED: the pictures need the sample models (SKINNING_MODELS)");
        return;
    }
    let out: PathBuf = std::env::temp_dir().join(format!("skinning-book-pictures-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let started = Instant::now();
    let run = Command::new("bash")
        .arg(root().join("docs/pictures.sh"))
        .arg(&out)
        .env("SKINNING_BIN", env!("CARGO_BIN_EXE_skinning"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("bash runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    if run.status.code() == Some(3) && !required("SKINNING_REQUIRE_GL") {
        let _ = std::fs::remove_dir_all(&out);
        println!("SKIPPED: no OpenGL here: {}", stderr.lines().last().unwrap_or_default());
        return;
    }
    assert!(run.status.success(), "docs/pictures.sh failed ({}):\n{stderr}", run.status);
    println!("docs/pictures.sh drew the pictures in {:.1} s", started.elapsed().as_secs_f64());
    let mut problems = Vec::new();
    let pictures = drawn();
    for (name, words) in &pictures {
        let compared = decode(&root().join("docs").join(name))
            .and_then(|committed| compare(&committed, &decode(&out.join(name))?, *words));
        if let Err(why) = compared {
            problems.push(format!("docs/{name}: {why}: redraw it with docs/pictures.sh"));
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    crate::check("pictures that are not what their commands draw", problems);
    assert!(pictures.len() >= 10, "only {} pictures in docs/pictures.sh", pictures.len());
}

#[test]
fn the_picture_comparison_catches_what_it_is_for() {
    let blank = Picture { width: 40, height: 60, rgba: vec![20; 40 * 60 * 4] };
    let with = |changes: &[(usize, usize, u8)]| {
        let mut p = Picture { width: 40, height: 60, rgba: blank.rgba.clone() };
        for &(x, y, by) in changes {
            p.rgba[(y * 40 + x) * 4] += by;
        }
        p
    };
    assert!(compare(&blank, &with(&[]), false).is_ok());
    // llvmpipe's rounding passes; one pixel more apart fails, anywhere in a picture without words.
    assert!(compare(&blank, &with(&[(3, 50, ROUNDING)]), false).is_ok());
    assert!(compare(&blank, &with(&[(3, 50, ROUNDING + 1)]), false).is_err());
    assert!(compare(&blank, &with(&[(3, 8, ROUNDING + 1)]), false).is_err());
    // With words: the status line's rows, one or two of them, are left out; a row below is not.
    assert!(compare(&blank, &with(&[(3, 8, 9)]), true).is_ok());
    assert!(compare(&blank, &with(&[(3, 8, 9), (30, 20, 9)]), true).is_ok());
    assert!(compare(&blank, &with(&[(3, 8, 9), (30, 20, 9), (5, 31, 9)]), true).is_err());
    // The status line may wrap: its second row alone differs.
    assert!(compare(&blank, &with(&[(30, 20, 9)]), true).is_ok());
    assert!(compare(&blank, &with(&[(30, 20, 9), (2, 40, 3)]), true).is_err());
    let small = Picture { width: 40, height: 50, rgba: vec![20; 40 * 50 * 4] };
    assert!(compare(&blank, &small, false).is_err());
}
