//! The program on a web page, in a real browser (headless Chromium drawing WebGL2 on SwiftShader):
//! the same pictures as the desktop's, the same one-line errors, a model handed to the page opens,
//! and keys and the mouse change what is drawn. The page is built by `web/build.sh` and driven by
//! `tests/web/drive.mjs`; what this needs, and when it says SKIPPED, is `common/web.rs`'s.

mod common;

use common::web::{Web, page, web};
use common::{Class, Image, run_gl, sample_model};
use serde_json::json;
use std::path::{Path, PathBuf};

/// How many pixels of `class` a picture has, and where their centre is.
fn layer(image: &Image, class: Class) -> (usize, f32, f32) {
    let (mut n, mut x, mut y) = (0, 0.0, 0.0);
    for (i, p) in image.rgba.chunks_exact(4).enumerate() {
        if common::classify([p[0], p[1], p[2]]) == Some(class) {
            n += 1;
            x += (i % image.width as usize) as f32;
            y += (i / image.width as usize) as f32;
        }
    }
    (n, x / n.max(1) as f32, y / n.max(1) as f32)
}

/// The page's picture draws each of `classes` as the desktop's does: about as many pixels (a
/// renderer's lines differ by a pixel here and there), centred within 3 pixels of the same place.
fn same_layers(page: &Image, desktop: &Image, classes: &[Class]) {
    assert_eq!((page.width, page.height), (desktop.width, desktop.height), "the pictures' sizes");
    for &class in classes {
        let (n, x, y) = layer(page, class);
        let (m, u, v) = layer(desktop, class);
        assert!(m > 50, "the desktop's picture has almost no {class:?} ({m} pixels)");
        let near = (n as f32 - m as f32).abs() <= 0.25 * m as f32;
        let here = (x - u).hypot(y - v) <= 3.0;
        assert!(
            near && here,
            "{class:?}: the page has {n} pixels about ({x:.1}, {y:.1}), the desktop {m} about ({u:.1}, {v:.1})"
        );
    }
}

/// The desktop's `--headless` picture for `flags`, run in `dir`; None without OpenGL here.
fn desktop_picture(dir: &Path, flags: &str) -> Option<Image> {
    let shot = dir.join("desktop.png");
    let mut args: Vec<&str> = flags.split_whitespace().collect();
    let shot_name = shot.to_str().expect("a UTF-8 path");
    args.extend(["--headless", "--frames", "1", "--screenshot", shot_name]);
    run_gl(&args)?;
    Some(Image::load(&shot))
}

fn shot(web: &Web, name: &str) -> PathBuf {
    web.dir.join(name)
}

#[test]
fn the_articles_scene_draws_its_three_layers_where_the_desktop_does() {
    let Some(web) = web() else { return };
    let flags = "--clip bend --time 1.5";
    let Some(desktop) = desktop_picture(&common::scratch("web-article"), flags) else { return };
    let picture = shot(web, "article.png");
    web.drive(json!([
        {"open": page(&format!("{flags} --fixed-dt 0 --frames 1"))},
        {"frames": 1},
        {"shot": picture},
    ]));
    same_layers(&Image::load(&picture), &desktop, &[Class::Red, Class::Green, Class::Blue]);
}

#[test]
fn a_fox_fetched_beside_the_page_draws_its_three_layers_where_the_desktop_does() {
    let (Some(web), Some(fox)) = (web(), sample_model("Fox.glb")) else { return };
    web.put("Fox.glb", &std::fs::read(&fox).expect("the Fox reads"));
    let flags = "--model Fox.glb --animation Walk --time 0.5 --surface off";
    let dir = common::scratch("web-fox");
    std::fs::copy(&fox, dir.join("Fox.glb")).expect("a copy of the Fox");
    let absolute = flags.replace("Fox.glb", dir.join("Fox.glb").to_str().expect("UTF-8"));
    let Some(desktop) = desktop_picture(&dir, &absolute) else { return };
    let picture = shot(web, "fox.png");
    let said = web.drive(json!([
        {"open": page(&format!("{flags} --fixed-dt 0 --frames 1"))},
        {"frames": 1},
        {"shot": picture},
    ]));
    eprintln!("the Fox's first frame came {} ms after the page was opened", said[1]["opened_ms"]);
    same_layers(&Image::load(&picture), &desktop, &[Class::Red, Class::Green, Class::Blue]);
}

/// What the desktop says of `name` in `dir`: its one line, `skinning: ` first.
fn desktop_line(dir: &Path, name: &str) -> String {
    let out = common::program().args(["--model", name, "--info"]).current_dir(dir).output().expect("it runs");
    assert_eq!(out.status.code(), Some(1), "{name} is refused");
    String::from_utf8_lossy(&out.stderr).trim().to_string()
}

#[test]
fn a_bad_file_gets_the_desktops_one_line_on_the_page() {
    let Some(web) = web() else { return };
    // A .glb whose header promises more than the file holds.
    let bad = web.put("bad.glb", b"glTF\x02\0\0\0\xff\0\0\0JSON");
    let line = desktop_line(&web.dir, "bad.glb");
    assert!(line.starts_with("skinning: bad.glb: ") && !line.contains('\n'), "{line}");
    let said = web.drive(json!([{"open": page("--model bad.glb")}, {"failure": true}]));
    assert_eq!(said[1], line.as_str(), "the page's failure");
    // The same file handed to a page that shows the article: the same line, and the article stays.
    let said = web.drive(json!([
        {"open": "index.html"},
        {"frames": 1},
        {"upload": [bad]},
        {"said": line},
        {"eval": "document.body.dataset.model"},
    ]));
    assert_eq!(said[4], "", "the article is still shown");
}

#[test]
fn a_model_given_to_the_file_input_opens() {
    let (Some(web), Some(fox)) = (web(), sample_model("Fox.glb")) else { return };
    let (before, after) = (shot(web, "before-upload.png"), shot(web, "after-upload.png"));
    web.drive(json!([
        {"open": page("--fixed-dt 0")},
        {"frames": 2},
        {"shot": before},
        {"upload": [fox]},
        {"model": "Fox.glb"},
        {"frames": 3},
        {"shot": after},
    ]));
    let (article, opened) = (Image::load(&before), Image::load(&after));
    // The Fox's lit surface covers far more of the picture than the article's lines.
    let drawn = |image: &Image| image.rgba.chunks_exact(4).filter(|p| p[0] > 60 || p[1] > 60).count();
    assert!(
        drawn(&opened) > 4 * drawn(&article),
        "{} pixels drawn, {} before",
        drawn(&opened),
        drawn(&article)
    );
    assert!(layer(&opened, Class::Blue).0 > 50, "the Fox's bones are drawn");
}

#[test]
fn a_key_and_a_drag_change_what_is_drawn() {
    let Some(web) = web() else { return };
    let shots: Vec<PathBuf> =
        ["keys-0.png", "keys-1.png", "keys-2.png"].iter().map(|n| shot(web, n)).collect();
    web.drive(json!([
        {"open": page("--clip bend --time 1.5 --fixed-dt 0")},
        {"frames": 3},
        {"shot": shots[0]},
        {"key": "s"},
        {"more": 3},
        {"shot": shots[1]},
        {"drag": [320, 240, 420, 260]},
        {"more": 3},
        {"shot": shots[2]},
    ]));
    let [shown, hidden, turned] = [0, 1, 2].map(|i| Image::load(&shots[i]));
    // S hides the skeleton: its blue lines go.
    let (bones, after) = (layer(&shown, Class::Blue).0, layer(&hidden, Class::Blue).0);
    assert!(bones > 100 && after < bones / 10, "blue pixels: {bones} shown, {after} after S");
    // A left drag orbits the camera: the bind mesh is seen from elsewhere.
    let ((_, x0, y0), (_, x1, y1)) = (layer(&hidden, Class::Green), layer(&turned, Class::Green));
    assert!((x1 - x0).hypot(y1 - y0) > 5.0, "the bind mesh stayed at ({x0:.1}, {y0:.1})");
}

#[test]
fn the_fox_on_the_page_says_its_stats_after_its_frames() {
    let (Some(web), Some(fox)) = (web(), sample_model("Fox.glb")) else { return };
    web.put("Fox.glb", &std::fs::read(&fox).expect("the Fox reads"));
    let said = web.drive(json!([
        {"open": page("--model Fox.glb --animation Walk --frames 240 --stats")},
        {"frames": 1},
        {"said": "stats: 240 frames"},
        {"eval": "document.title"},
    ]));
    let stats =
        said[2].as_str().and_then(|s| s.lines().find(|l| l.starts_with("stats:"))).expect("a stats line");
    eprintln!("the Fox on the page: first frame {} ms after opening; {stats}", said[1]["opened_ms"]);
    assert!(stats.contains("blend on 1 thread (1728 vertices)"), "{stats}");
    // The page's title is the window's: the clip and the frame rate.
    assert!(said[3].as_str().is_some_and(|t| t.contains("Walk")), "title {}", said[3]);
}
