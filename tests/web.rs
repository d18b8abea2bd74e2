//! The program on a web page, in a real browser (headless Chromium drawing WebGL2 on SwiftShader):
//! pictures like the desktop's, each layer's pixels about as many and centred where they are (a crowd skinned on the GPU too), the same one-line errors, a model handed to the page opens,
//! and keys and the mouse change what is drawn. The page is built by `web/build.sh` and driven by
//! `tests/web/drive.mjs`; what this needs, and when it says SKIPPED, is `common/web.rs`'s.

use common::web::{Web, layer, page, same_layers, web};
use common::{Class, Image, run_gl, sample_model};
use serde_json::json;
use std::path::{Path, PathBuf};

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

#[test]
fn a_crowd_skinned_on_the_gpu_draws_on_the_page_where_the_desktop_does() {
    // 25 Foxes: the 24 others' palettes in WebGL2's float texture, read by texelFetch, one draw.
    let (Some(web), Some(fox)) = (web(), sample_model("Fox.glb")) else { return };
    web.put("Fox.glb", &std::fs::read(&fox).expect("the Fox reads"));
    let flags = "--model Fox.glb --animation Walk --time 0.5 --surface off --skinning gpu --crowd 25 \
                 --hide bind,bones --size 320x240";
    let dir = common::scratch("web-crowd");
    std::fs::copy(&fox, dir.join("Fox.glb")).expect("a copy of the Fox");
    let absolute = flags.replace("Fox.glb", dir.join("Fox.glb").to_str().expect("UTF-8"));
    let Some(desktop) = desktop_picture(&dir, &absolute) else { return };
    let picture = shot(web, "crowd.png");
    web.drive(json!([
        {"open": page(&format!("{flags} --fixed-dt 0 --frames 1"))},
        {"frames": 1},
        {"shot": picture},
    ]));
    same_layers(&Image::load(&picture), &desktop, &[Class::Red]);
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
    // On a page whose own model failed, a model handed over opens, and the failure is over.
    web.put("empty.glb", b"");
    let said = web.drive(json!([
        {"open": page("--model empty.glb")},
        {"failure": true},
        {"upload": [fox]},
        {"model": "Fox.glb"},
        {"frames": 1},
        {"eval": "document.body.dataset.failure"},
    ]));
    assert_eq!(said[5], "", "the failure {} stays", said[1]);
}

#[test]
fn a_key_a_drag_and_a_finger_change_what_is_drawn() {
    let Some(web) = web() else { return };
    let names = ["keys-0.png", "keys-1.png", "keys-2.png", "keys-3.png"];
    let shots: Vec<PathBuf> = names.iter().map(|n| shot(web, n)).collect();
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
        {"swipe": [320, 240, 320, 160]},
        {"more": 3},
        {"shot": shots[3]},
    ]));
    let [shown, hidden, turned, swiped] = [0, 1, 2, 3].map(|i| Image::load(&shots[i]));
    // S hides the skeleton: its blue lines go.
    let (bones, after) = (layer(&shown, Class::Blue).0, layer(&hidden, Class::Blue).0);
    assert!(bones > 100 && after < bones / 10, "blue pixels: {bones} shown, {after} after S");
    // A left drag orbits the camera: the bind mesh is seen from elsewhere.
    let ((_, x0, y0), (_, x1, y1)) = (layer(&hidden, Class::Green), layer(&turned, Class::Green));
    assert!((x1 - x0).hypot(y1 - y0) > 5.0, "the bind mesh stayed at ({x0:.1}, {y0:.1})");
    // A finger drags as the left button does: up, the camera tilts.
    let (_, x2, y2) = layer(&swiped, Class::Green);
    assert!((x2 - x1).hypot(y2 - y1) > 5.0, "the bind mesh stayed at ({x1:.1}, {y1:.1}) under a finger");
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
    // The load is timed as on the desktop (the page said no load line before).
    let text = said[2].as_str().unwrap_or_default();
    let load = text.lines().find(|l| l.starts_with("load: Fox.glb in ")).expect("a load line");
    assert!(load.ends_with(" ms (1728 vertices)"), "{load}");
    // The page's title is the window's: the clip and the frame rate.
    assert!(said[3].as_str().is_some_and(|t| t.contains("Walk")), "title {}", said[3]);
}

#[test]
fn the_page_takes_relaxed_simd_where_the_browser_has_it_and_draws_the_same() {
    // Chromium has had relaxed-simd since version 114: the page loads relaxed/, unless told plain.
    let (Some(web), Some(fox)) = (web(), sample_model("Fox.glb")) else { return };
    web.put("Fox.glb", &std::fs::read(&fox).expect("the Fox reads"));
    let flags = page("--model Fox.glb --animation Walk --time 0.5 --surface off --fixed-dt 0 --frames 1");
    let mut pictures = Vec::new();
    for (address, build) in [(flags.clone(), "relaxed-simd"), (format!("{flags}&simd=plain"), "simd128")] {
        let picture = shot(web, &format!("fox-{build}.png"));
        let said = web.drive(json!([
            {"open": address},
            {"frames": 1},
            {"shot": picture},
            {"eval": "document.body.dataset.build"},
        ]));
        assert_eq!(said[3], build, "the build the page loaded from {address}");
        pictures.push(Image::load(&picture));
    }
    same_layers(&pictures[0], &pictures[1], &[Class::Red, Class::Green, Class::Blue]);
}

#[test]
fn what_the_desktop_writes_the_page_hands_over_as_a_download() {
    let Some(web) = web() else { return };
    let dir = common::scratch("web-dump");
    let flags = ["--clip", "seed", "--frames", "5", "--fixed-dt", "0.25"];
    let out = common::program().args(["--dump", "poses.json"]).args(flags).current_dir(&dir).output();
    assert!(out.expect("it runs").status.success(), "the desktop's dump");
    let dumped = std::fs::read_to_string(dir.join("poses.json")).expect("the desktop's dump reads");
    let said = web.drive(json!([
        {"open": page(&format!("--dump poses.json {}", flags.join(" ")))},
        {"link": "poses.json"},
        {"open": page("--frames 2 --screenshot shot.png")},
        {"link": "shot.png"},
        {"open": page("--export-md5 arm/arm.md5mesh")},
        {"failure": true},
    ]));
    assert_eq!(said[1]["text"], dumped.as_str(), "the page's dump is the desktop's, number for number");
    assert!(said[3]["bytes"].as_u64().is_some_and(|n| n > 1000), "a screenshot: {}", said[3]);
    assert!(
        said[5].as_str().is_some_and(|l| l.starts_with("skinning: --export-md5 writes a folder")),
        "{}",
        said[5]
    );
}

#[test]
fn an_md5_model_plays_the_animations_its_folder_lists() {
    let (Some(web), Some(fox)) = (web(), sample_model("Fox.glb")) else { return };
    let export = common::program()
        .args([
            "--model".as_ref(),
            fox.as_os_str(),
            "--export-md5".as_ref(),
            web.dir.join("fox-md5/fox.md5mesh").as_os_str(),
        ])
        .output()
        .expect("it runs");
    assert!(export.status.success(), "{}", String::from_utf8_lossy(&export.stderr));
    let info =
        common::program().args(["--model", "fox-md5/fox.md5mesh", "--info"]).current_dir(&web.dir).output();
    let info = String::from_utf8_lossy(&info.expect("it runs").stdout).trim().to_string();
    assert!(info.contains("Walk"), "{info}");
    let said = web.drive(json!([{"open": page("--model fox-md5/fox.md5mesh --info")}, {"said": "Walk"}]));
    assert!(
        said[1].as_str().is_some_and(|s| s.contains(&info)),
        "the page said {}, the desktop {info}",
        said[1]
    );
}

#[test]
fn a_gltf_with_its_buffer_in_a_file_beside_it_draws_as_its_glb_does() {
    let (Some(web), Some(fox)) = (web(), sample_model("Fox.glb")) else { return };
    // The Fox's .glb as a .gltf and a .bin: its JSON chunk names the BIN chunk's bytes as a file.
    let glb = std::fs::read(&fox).expect("the Fox reads");
    web.put("Fox.glb", &glb);
    let chunk =
        |at: usize| (u32::from_le_bytes(glb[at..at + 4].try_into().expect("4 bytes")) as usize, at + 8);
    let (json_length, json_at) = chunk(12);
    let (bin_length, bin_at) = chunk(json_at + json_length);
    let mut json: serde_json::Value =
        serde_json::from_slice(&glb[json_at..json_at + json_length]).expect("JSON");
    json["buffers"][0]["uri"] = "fox%20body.bin".into();
    std::fs::create_dir_all(web.dir.join("split")).expect("a folder");
    web.put("split/fox.gltf", json.to_string().as_bytes());
    web.put("split/fox body.bin", &glb[bin_at..bin_at + bin_length]);
    let flags = "--animation Walk --time 0.5 --surface off --fixed-dt 0 --frames 1";
    let (split, whole) = (shot(web, "split.png"), shot(web, "whole.png"));
    web.drive(json!([
        {"open": page(&format!("--model split/fox.gltf {flags}"))},
        {"frames": 1},
        {"shot": split},
        {"open": page(&format!("--model Fox.glb {flags}"))},
        {"frames": 1},
        {"shot": whole},
    ]));
    same_layers(&Image::load(&split), &Image::load(&whole), &[Class::Red, Class::Green, Class::Blue]);
}

/// `text` as web/book.py writes it into HTML.
fn escaped(text: &str) -> String {
    let pairs = [('&', "&amp;"), ('<', "&lt;"), ('>', "&gt;"), ('"', "&quot;"), ('\'', "&#x27;")];
    text.chars().map(|c| pairs.iter().find(|p| p.0 == c).map_or(c.to_string(), |p| p.1.to_string())).collect()
}

#[test]
fn the_books_commands_are_links_to_the_page() {
    let Some(web) = web() else { return };
    let book = std::fs::read_to_string(web.dir.join("book.html")).expect("web/build.sh writes book.html");
    // Every command a chapter's console blocks run, as the book's tests read them, has its link.
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let chapters = std::fs::read_dir(docs).expect("docs/").flatten().map(|e| e.path());
    let texts: Vec<String> = chapters.filter_map(|p| std::fs::read_to_string(p).ok()).collect();
    let commands: Vec<&str> =
        texts.iter().flat_map(|t| t.lines()).filter_map(|l| l.strip_prefix("$ skinning ")).collect();
    assert!(commands.len() > 30, "{} commands in the book's console blocks", commands.len());
    for args in &commands {
        assert!(
            book.contains(&format!("<code>skinning {}</code>", escaped(args))),
            "no link for skinning {args}"
        );
    }
    // A link opens the page with its flags: chapter 16's first mistake, said as the desktop says it.
    let out = common::run(&["--frames", "0"]);
    let line = String::from_utf8_lossy(&out.stderr).trim().to_string();
    let said = web.drive(json!([{"open": "book.html"}, {"eval": "document.querySelector('a[href$=\"args=--frames%200\"]').getAttribute('href')"}]));
    let link = said[1].as_str().expect("a link for skinning --frames 0");
    let said = web.drive(json!([{"open": link}, {"failure": true}]));
    assert_eq!(said[1], line.as_str());
}

#[test]
fn a_request_that_fails_names_its_step_and_the_shared_browser_serves_the_next() {
    let Some(web) = web() else { return };
    // One browser serves every test of this program (`common/web/driver.rs`): a request that fails
    // ends in its test's panic, which names the step, and leaves the browser to the others.
    let failed = std::panic::catch_unwind(|| web.drive(json!([{"eval": "1 + 1"}, {"wave": 1}])));
    let said = failed.expect_err("a step the driver does not know fails");
    let said = said.downcast_ref::<String>().map_or("", String::as_str);
    assert!(said.contains(r#"step {\"wave\":1}: no such step: wave"#), "{said}");
    assert_eq!(web.drive(json!([{"eval": "6 * 7"}])), [json!(42)]);
}
