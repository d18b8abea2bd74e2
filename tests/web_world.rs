//! A character in a world (chapters 17 to 20) on the web page, from the page's address (`?args=`)
//! as on the desktop: each page's `--dump` is the desktop's, to a rounding, for root motion's
//! travel, another body's clips (both files fetched from beside the page), a head looking at a
//! point and feet on steps; and the canvas draws the ground's lines under the feet. What this
//! needs, and when it says SKIPPED, is `common/web.rs`'s.

use common::web::{page, web};
use common::{Image, program, scratch};
use serde_json::{Value, json};

/// Each lesson's flags, and what its dump's frames carry that a plain run's do not.
const LESSONS: [(&str, &str); 4] = [
    ("--model walker.gltf --root-motion on", "\"root_motion\""),
    ("--model t-pose.gltf --clips-from walker.gltf", "\"clip\": \"Walk\""),
    ("--model t-pose.gltf --look-at Head=0.6,2.2,1.5", "\"solver\":\"look-at\""),
    ("--model walker.gltf --ground steps:0.1", "\"reach\""),
];

const FRAMES: &str = "--frames 4 --fixed-dt 0.2";

#[test]
fn a_character_in_a_world_runs_on_the_page_as_on_the_desktop() {
    let Some(web) = web() else { return };
    let dir = scratch("web-world");
    for name in ["walker.gltf", "t-pose.gltf"] {
        let bytes = std::fs::read(std::path::Path::new("tests").join(name)).expect("a test rig reads");
        web.put(name, &bytes);
        std::fs::write(dir.join(name), &bytes).expect("a copy for the desktop");
    }
    let mut steps = Vec::new();
    let mut desktop = Vec::new();
    for (flags, _) in LESSONS {
        let mut run = program();
        run.args(["--dump", "poses.json"]).args(flags.split_whitespace()).args(FRAMES.split_whitespace());
        let out = run.current_dir(&dir).output().expect("it runs");
        assert!(out.status.success(), "{flags}: {}", String::from_utf8_lossy(&out.stderr));
        desktop.push(std::fs::read_to_string(dir.join("poses.json")).expect("the desktop's dump"));
        steps.push(json!({"open": page(&format!("--dump poses.json {flags} {FRAMES}"))}));
        steps.push(json!({"link": "poses.json"}));
    }
    let said = web.drive(serde_json::Value::Array(steps));
    for (k, ((flags, mark), dumped)) in LESSONS.iter().zip(&desktop).enumerate() {
        assert!(dumped.contains(mark), "{flags}: the desktop's dump has no {mark}");
        let page = said[2 * k + 1]["text"].as_str().expect("the page's dump");
        let (page, dumped): (Value, Value) = (parse(page), parse(dumped));
        if let Some(apart) = differs(&page, &dumped, "") {
            panic!("{flags}: the page's dump is not the desktop's at {apart}");
        }
    }
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("a dump is JSON: {e}"))
}

/// Where two dumps differ, if they do: in anything but a number, or in a number by more than a
/// rounding (the page's blend runs WebAssembly's lanes, the desktop's its own: the same sums in
/// another order can differ in the last bit). The rigs are about 2 units tall.
fn differs(a: &Value, b: &Value, at: &str) -> Option<String> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64()?, y.as_f64()?);
            ((x - y).abs() > 1e-5).then(|| format!("{at}: {x} and {y}"))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().find_map(|(i, (x, y))| differs(x, y, &format!("{at}[{i}]")))
        }
        (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
            x.iter().find_map(|(k, x)| match y.get(k) {
                Some(y) => differs(x, y, &format!("{at}.{k}")),
                None => Some(format!("{at}.{k}: only in one")),
            })
        }
        (x, y) => (x != y).then(|| format!("{at}: {x} and {y}")),
    }
}

/// The ground's grey-blue, as `tests/ground_drawn.rs` finds it.
fn floor_blue([r, g, b]: [u8; 3]) -> bool {
    r.abs_diff(77) <= 3 && g.abs_diff(82) <= 3 && b.abs_diff(102) <= 3
}

#[test]
fn the_page_draws_the_ground_under_the_feet() {
    let Some(web) = web() else { return };
    web.put("t-pose.gltf", &std::fs::read("tests/t-pose.gltf").expect("the rig reads"));
    let shot = web.dir.join("ground.png");
    let flags = "--model t-pose.gltf --ground steps:0.1 --no-text --size 400x300 --fixed-dt 0 --frames 1";
    web.drive(json!([{"open": page(flags)}, {"frames": 1}, {"shot": shot}]));
    let image = Image::load(&shot);
    let floor: Vec<(i64, i64)> = (0..300)
        .flat_map(|y| (0..400).map(move |x| (x, y)))
        .filter(|&(x, y)| image.pixel(x, y).is_some_and(floor_blue))
        .collect();
    assert!(floor.len() > 400, "the page drew {} pixels of the ground's colour", floor.len());
    assert!(floor.iter().all(|&(_, y)| y >= 150), "the ground is drawn above the hips");
}
