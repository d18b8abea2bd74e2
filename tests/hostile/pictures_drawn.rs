//! Pictures the model's budget of pixels draws smaller are decoded smaller: a PNG is made smaller
//! row by row as it is decoded (`crates/formats/src/material/pixels.rs`: `decode_smaller`), so its
//! full size is never held, whatever its header says, and no time goes to halving it again and
//! again. Peak memory and CPU time are the kernel's account of the child (`wait4`): CPU seconds,
//! not the clock's, so the bound holds on a loaded machine.

use super::pictures::{black_png, materials_showing, png, square};
use super::support::{cpu_seconds, no_panic, scratch, usage};
use common::Image;
use serde_json::json;

const MIB: i64 = 1024; // KiB

#[test]
fn pictures_the_budget_draws_smaller_are_decoded_smaller_in_little_memory_and_time() {
    let dir = scratch("drawn-smaller");
    // A black 8192 x 8192 PNG, 256 MiB decoded, the model's whole budget of pixels, and one more
    // picture of one pixel: the large one is drawn at 4096 x 4096. The square shows it, black
    // where its white material alone would be light.
    let names = ["large.png", "one.png"];
    std::fs::write(dir.join(names[0]), black_png(8192, 8192)).expect("written");
    std::fs::write(dir.join(names[1]), png(1, 1, [255, 0, 0, 255])).expect("written");
    let mut g = square();
    materials_showing(&mut g, names.iter().map(|n| json!({ "uri": n })).collect());
    let model = dir.join("large.gltf");
    std::fs::write(&model, g.embedded()).expect("written");
    let shot = dir.join("shot.png");
    let (model, shot) = (model.to_str().expect("utf-8"), shot.to_str().expect("utf-8"));
    let args = ["--model", model, "--headless", "--frames", "1", "--no-text", "--screenshot", shot];
    let (status, used, err) = usage(&args);
    no_panic(&err);
    if status.code() == Some(3) {
        return super::support::skip(&format!("no EGL / OpenGL here: {err}"));
    }
    let (peak, cpu) = (used.ru_maxrss, cpu_seconds(&used));
    println!("an 8192 x 8192 PNG drawn at 4096 x 4096: peak {} MiB, {cpu:.1} s of CPU", peak / MIB);
    assert!(status.success(), "{status}: {err}");
    assert!(err.contains("1 of the largest are drawn at half their width and height"), "{err}");
    let image = Image::load(std::path::Path::new(shot));
    let [r, g, b] = image.pixel(image.width as i64 * 5 / 8, image.height as i64 * 5 / 8).expect("inside");
    assert!(r < 40 && g < 40 && b < 40, "{:?}: the square shows its black picture; {err}", [r, g, b]);
    // Its texture, 64 MiB and its mipmaps, is on llvmpipe's "GPU", in this process; decoded whole
    // first, then halved, the picture would add 320 MiB more for a while.
    // Measured, debug build: 299 MiB and 5.0 s of CPU; decoded whole and then halved (before),
    // 406 MiB and 17.4 s.
    assert!(peak < 350 * MIB, "peak {} MiB", peak / MIB);
    assert!(cpu < 12.0, "{cpu:.1} s of CPU");
}
