//! `--crowd N` in the program: N Foxes appear in the picture, seen from above on their grid, apart
//! (from above by default, where there is more than one row),
//! whether the CPU blends them or the GPU skins them from their palettes (every palette in one
//! texture, one instanced draw for the whole crowd), the same picture either way; and `--stats`
//! says what each extra character owns, that the GPU drew the others in one draw of the mesh, and
//! that the crowd's steady frames allocate nothing.

use common::{Image, run_gl, sample_model, scratch};

/// How many separate shapes the picture holds: groups of touching pixels (diagonals too) unlike
/// the background (the top-left corner's colour), of `at_least` pixels each.
fn shapes(image: &Image, at_least: usize) -> usize {
    let (w, h) = (image.width as i64, image.height as i64);
    let background = image.pixel(0, 0).expect("a pixel");
    let differs =
        |x, y| image.pixel(x, y).is_some_and(|p| p.iter().zip(background).any(|(a, b)| a.abs_diff(b) > 24));
    let mut seen = vec![false; (w * h) as usize];
    let mut count = 0;
    for start in 0..w * h {
        if seen[start as usize] || !differs(start % w, start / w) {
            continue;
        }
        let (mut stack, mut size) = (vec![start], 0);
        seen[start as usize] = true;
        while let Some(at) = stack.pop() {
            size += 1;
            for (dx, dy) in (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (dx, dy))) {
                let (x, y) = (at % w + dx, at / w + dy);
                let next = y * w + x;
                if (0..w).contains(&x) && (0..h).contains(&y) && !seen[next as usize] && differs(x, y) {
                    seen[next as usize] = true;
                    stack.push(next);
                }
            }
        }
        count += usize::from(size >= at_least);
    }
    count
}

#[test]
fn without_camera_a_crowd_is_seen_from_above_every_row_in_sight() {
    // At eye level, the grid's first row hid the rows behind it (`show/crowd.rs`: `FROM_ABOVE`).
    let Some(fox) = sample_model("Fox.glb") else { return };
    let dir = scratch("crowd-from-above");
    for crowd in ["2", "9"] {
        let png = dir.join(format!("crowd-{crowd}.png"));
        let args = [
            "--model",
            fox.to_str().expect("utf-8"),
            "--crowd",
            crowd,
            "--hide",
            "bind,bones",
            "--no-text",
            "--size",
            "480x320",
            "--headless",
            "--screenshot",
            png.to_str().expect("utf-8"),
        ];
        let Some(_) = run_gl(&args) else { return };
        let found = shapes(&Image::load(&png), 30);
        assert_eq!(found.to_string(), crowd, "--crowd {crowd}: {found} Foxes seen apart");
    }
}

#[test]
fn n_foxes_appear_from_above_on_the_cpu_and_the_gpu() {
    let Some(fox) = sample_model("Fox.glb") else { return };
    let dir = scratch("crowd-picture");
    // 100 on the GPU: 99 others, past the ten palettes the uniform block would hold, in one draw;
    // at 640x480, so each Fox from above is one shape of 30 pixels or more.
    let runs = [("1", "cpu"), ("4", "cpu"), ("9", "cpu"), ("4", "gpu"), ("25", "gpu"), ("25", "cpu")];
    let big = [("100", "gpu"), ("100", "cpu")];
    for (crowd, skinning) in runs.into_iter().chain(big) {
        let png = dir.join(format!("crowd-{crowd}-{skinning}.png"));
        let size = if crowd == "100" { "640x480" } else { "320x240" };
        let args = [
            "--model",
            fox.to_str().expect("utf-8"),
            "--crowd",
            crowd,
            "--skinning",
            skinning,
            "--camera",
            "0,89",
            "--hide",
            "bind,bones",
            "--no-text",
            "--size",
            size,
            "--headless",
            "--frames",
            "2",
            "--fixed-dt",
            "0.02",
            "--screenshot",
            png.to_str().expect("utf-8"),
        ];
        let Some(_) = run_gl(&args) else { return };
        let found = shapes(&Image::load(&png), 30);
        assert_eq!(found.to_string(), crowd, "--crowd {crowd} --skinning {skinning}: {found} Foxes seen");
    }
    // The GPU's instanced crowd stands where the CPU's does, pose for pose: the pictures agree
    // within a shade, but for a few pixels along edges where the two blends may round apart.
    for (crowd, most) in [(25, 20), (100, 80)] {
        let [cpu, gpu] = ["cpu", "gpu"].map(|s| Image::load(&dir.join(format!("crowd-{crowd}-{s}.png"))));
        let differ = cpu
            .rgba
            .chunks(4)
            .zip(gpu.rgba.chunks(4))
            .filter(|(a, b)| a.iter().zip(*b).any(|(x, y)| x.abs_diff(*y) > 24))
            .count();
        assert!(
            differ < most,
            "--crowd {crowd}: {differ} pixels differ between the CPU's crowd and the GPU's"
        );
    }
}

#[test]
fn stats_say_what_an_extra_character_owns_and_steady_frames_allocate_nothing() {
    let Some(fox) = sample_model("Fox.glb") else { return };
    let args = [
        "--model",
        fox.to_str().expect("utf-8"),
        "--crowd",
        "20",
        "--size",
        "64x48",
        "--headless",
        "--frames",
        "8",
        "--fixed-dt",
        "0.02",
        "--stats",
    ];
    let Some(out) = run_gl(&args) else { return };
    let text = String::from_utf8_lossy(&out.stdout);
    let crowd = text.lines().find(|l| l.starts_with("crowd: ")).unwrap_or_else(|| panic!("{text}"));
    // The Fox's pose: 1,728 positions of 16 bytes (27,648), and 6,720 bytes for its 27 bones (two
    // matrices of 64, a TRS of 48 and a bend of 16 each) and its 24 joints' palette (64 each):
    // 34,368 bytes. No normals: the Fox has none to skin, and whoever draws it finds each
    // triangle's own.
    assert!(
        crowd.starts_with("crowd: 20 characters, one job each; each past the first owns its pose, 33.6 KiB"),
        "{crowd}"
    );
    assert!(crowd.contains("(the 19 others 0.6 MiB)") && crowd.contains("is shared, not copied"), "{crowd}");
    let stats = text.lines().find(|l| l.starts_with("stats: ")).unwrap_or_else(|| panic!("{text}"));
    assert!(stats.contains(" 0 allocations drawing frames 4..8"), "{stats}");
}

#[test]
fn the_gpu_draws_a_crowd_of_100_in_one_draw_of_the_mesh_and_steady_frames_allocate_nothing() {
    let Some(fox) = sample_model("Fox.glb") else { return };
    // Lines (one draw of the mesh's edges for the 99 others), then the lit surface (the Fox's one
    // material's triangles, once for all of them).
    for look in [&["--surface", "off"][..], &["--surface", "on"]] {
        let mut args = vec![
            "--model",
            fox.to_str().expect("utf-8"),
            "--crowd",
            "100",
            "--skinning",
            "gpu",
            "--size",
            "64x48",
            "--headless",
            "--frames",
            "8",
            "--fixed-dt",
            "0.02",
            "--stats",
        ];
        args.extend_from_slice(look);
        let Some(out) = run_gl(&args) else { return };
        let text = String::from_utf8_lossy(&out.stdout);
        let crowd = text.lines().find(|l| l.starts_with("crowd: ")).unwrap_or_else(|| panic!("{text}"));
        assert!(
            crowd.ends_with("; the GPU skinned the others in 1 instanced draw(s) of the mesh a frame"),
            "{look:?}: {crowd}"
        );
        let stats = text.lines().find(|l| l.starts_with("stats: ")).unwrap_or_else(|| panic!("{text}"));
        assert!(stats.contains(" 0 allocations drawing frames 4..8"), "{look:?}: {stats}");
    }
}
