//! Helpers shared by the integration tests: running the `skinning` program and reading its output.

pub mod cpu;
pub mod web;
pub mod window;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The demo program cargo built for these tests. Cargo names it in `CARGO_BIN_EXE_skinning` while
/// it runs a test program (since Rust 1.94); a test program started by hand finds it where cargo
/// puts both, the program one folder above the tests (`target/debug/skinning` beside
/// `target/debug/deps/`).
pub fn program_path() -> PathBuf {
    if let Some(path) = std::env::var_os("CARGO_BIN_EXE_skinning") {
        return PathBuf::from(path);
    }
    let test = std::env::current_exe().expect("a test program knows its own path");
    let beside = test.parent().and_then(Path::parent).expect("a test program lies in target/<profile>/deps");
    beside.join(format!("skinning{}", std::env::consts::EXE_SUFFIX))
}

/// The demo program cargo built for these tests, ready to run.
pub fn program() -> Command {
    Command::new(program_path())
}

/// The top of the repository: the fixtures, the book and `target/` are found from here.
pub fn top() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Runs the program with `args` and returns its output.
pub fn run(args: &[&str]) -> Output {
    program().args(args).output().expect("the test can start the skinning program")
}

/// A fresh, empty folder for one test's files.
pub fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skinning-test-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir is writable");
    dir
}

/// Exit code the program uses when the machine lacks a display, EGL or OpenGL 3.3 / ES 3.0.
pub const NO_GRAPHICS: i32 = 3;

/// Runs an OpenGL-using command. If this machine has no usable EGL / OpenGL, says so and returns
/// None, unless `SKINNING_REQUIRE_GL` is set (as in CI), where it fails the test instead.
pub fn run_gl(args: &[&str]) -> Option<Output> {
    run_gl_with_env(args, &[])
}

/// [`run_gl`] with these environment variables set for the program.
pub fn run_gl_with_env(args: &[&str], env: &[(&str, &str)]) -> Option<Output> {
    let out = program()
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("the test can start the skinning program");
    if out.status.code() == Some(NO_GRAPHICS) {
        let why = String::from_utf8_lossy(&out.stderr);
        if std::env::var_os("SKINNING_REQUIRE_GL").is_some() {
            panic!("SKINNING_REQUIRE_GL is set but OpenGL is not usable here: {why}");
        }
        eprintln!(
            "SKIPPED (no EGL / OpenGL on this machine; set SKINNING_REQUIRE_GL=1 to fail instead): {why}"
        );
        return None;
    }
    assert!(out.status.success(), "skinning {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    Some(out)
}

/// An RGBA image read from a PNG file.
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

impl Image {
    pub fn load(path: &Path) -> Image {
        let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut reader = png::Decoder::new(std::io::BufReader::new(file)).read_info().expect("a PNG");
        let mut buf = vec![0; reader.output_buffer_size().expect("size fits")];
        let info = reader.next_frame(&mut buf).expect("PNG data");
        let channels = match info.color_type {
            png::ColorType::Rgba => 4,
            png::ColorType::Rgb => 3,
            other => panic!("unexpected PNG colour type {other:?}"),
        };
        let rgba = buf[..info.buffer_size()]
            .chunks_exact(channels)
            .flat_map(|p| [p[0], p[1], p[2], if channels == 4 { p[3] } else { 255 }])
            .collect();
        Image { width: info.width, height: info.height, rgba }
    }

    pub fn pixel(&self, x: i64, y: i64) -> Option<[u8; 3]> {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return None;
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        Some([self.rgba[i], self.rgba[i + 1], self.rgba[i + 2]])
    }

    /// Whether any pixel within `radius` of (x, y) has the given colour class.
    pub fn has_near(&self, x: f32, y: f32, radius: i64, class: Class) -> bool {
        self.any_near(x, y, radius, |p| classify(p) == Some(class))
    }

    /// Whether any pixel within `radius` of (x, y) passes `test`.
    pub fn any_near(&self, x: f32, y: f32, radius: i64, test: impl Fn([u8; 3]) -> bool) -> bool {
        let (cx, cy) = (x.round() as i64, y.round() as i64);
        (-radius..=radius)
            .flat_map(|dy| (-radius..=radius).map(move |dx| (cx + dx, cy + dy)))
            .filter_map(|(px, py)| self.pixel(px, py))
            .any(test)
    }

    /// How many pixels of each colour class the image has.
    pub fn count(&self, class: Class) -> usize {
        self.rgba.chunks_exact(4).filter(|p| classify([p[0], p[1], p[2]]) == Some(class)).count()
    }
}

/// A pixel of the demo's words (near-white letters; their shadows are black).
pub fn ink([r, g, b]: [u8; 3]) -> bool {
    r > 200 && g > 200 && b > 200
}

/// Where `text` is written in `image` in the font the demo draws with (font8x8, each font pixel
/// `scale` screen pixels square), its top-left corner somewhere in `x` and `y`: every lit pixel of
/// every glyph passes `is_ink`, and every unlit one does not. None if it is not there.
pub fn find_text(
    image: &Image,
    text: &str,
    scale: i64,
    (x, y): (std::ops::Range<i64>, std::ops::Range<i64>),
    is_ink: impl Fn([u8; 3]) -> bool,
) -> Option<(i64, i64)> {
    let glyphs: Vec<[u8; 8]> =
        text.chars().map(|c| font8x8::legacy::BASIC_LEGACY[c as usize & 0x7F]).collect();
    let matches_at = |left: i64, top: i64| {
        glyphs.iter().enumerate().all(|(i, rows)| {
            (0..8).all(|row| {
                (0..8).all(|bit| {
                    let lit = rows[row as usize] & (1 << bit) != 0;
                    let (px, py) = (left + (i as i64 * 8 + bit) * scale, top + row * scale);
                    (0..scale * scale).all(|k| {
                        image.pixel(px + k % scale, py + k / scale).is_some_and(|p| is_ink(p) == lit)
                    })
                })
            })
        })
    };
    y.flat_map(|top| x.clone().map(move |left| (left, top))).find(|&(left, top)| matches_at(left, top))
}

/// The colours the demo draws with, told apart by their strongest channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Red,
    Green,
    Blue,
    /// The GPU-skinned mesh drawn over the CPU one (`--skinning both`).
    Magenta,
    /// The mesh skinned with dual quaternions (`--method dqs`, or over the red one with `--method both`).
    Orange,
}

pub fn classify([r, g, b]: [u8; 3]) -> Option<Class> {
    let (r, g, b) = (r as i32, g as i32, b as i32);
    // Orange first: its red is strong enough to pass for red. Its green sets it apart, and its low
    // blue keeps the weight view's bright yellows out.
    if r > 200 && (110..190).contains(&g) && b < 70 {
        Some(Class::Orange)
    } else if r > 150 && r > g + 80 && r > b + 80 {
        Some(Class::Red)
    } else if g > 150 && g > r + 80 && g > b + 80 {
        Some(Class::Green)
    } else if b > 150 && b > r + 80 && b > g + 60 {
        Some(Class::Blue)
    } else if r > 150 && b > 150 && r > g + 80 && b > g + 80 {
        Some(Class::Magenta)
    } else {
        None
    }
}

pub mod bob;
pub mod character;
pub mod damage;
pub mod eight;
pub mod face;
pub mod fixture;
pub mod gltf_build;
pub mod horse;
pub mod md5_hand;
pub mod quaternion;
pub mod rigs;
pub mod spec;
pub mod three;

/// A sample model from the folder named by `SKINNING_MODELS` (CI points it at `../shared/assets`,
/// which holds Fox.glb and SimpleSkin.gltf; they are not part of this repository). Without the
/// variable, or without the file, says SKIPPED and returns None, unless `SKINNING_REQUIRE_MODELS`
/// is set, where it fails the test instead.
pub fn sample_model(name: &str) -> Option<PathBuf> {
    let required = std::env::var_os("SKINNING_REQUIRE_MODELS").is_some();
    let Some(dir) = std::env::var_os("SKINNING_MODELS") else {
        assert!(!required, "SKINNING_REQUIRE_MODELS is set but SKINNING_MODELS is not");
        eprintln!("SKIPPED (set SKINNING_MODELS=/path/to/shared/assets to test with {name})");
        return None;
    };
    let path = PathBuf::from(dir).join(name);
    if !path.is_file() {
        assert!(!required, "SKINNING_REQUIRE_MODELS is set but {} is missing", path.display());
        eprintln!("SKIPPED ({} is missing)", path.display());
        return None;
    }
    Some(path)
}

/// `Pose::update` with chapter 8's normals: one frame of `clip` at `time`, blended linearly by the
/// readable loops that move the normals too (`lbs_or_dqs.rs`: `Reference`). The core's own frame
/// moves positions only.
pub fn update_with_normals(
    pose: &mut skinning_method::frame::Pose,
    model: &skinning_method::model::Model,
    clip: &skinning_method::clip::Clip,
    time: f64,
) {
    use skinning_method::frame::{Blending, Frame};
    let blending = Blending::Skin { by: &mut skinning_method::lbs_or_dqs::Reference, normals: true };
    let _linear_blending_takes_any_palette = pose.run(model, Frame { blending, ..Frame::new(clip, time) });
}

/// [`update_with_normals`] with `reshape` as step 4: a mesh with morph targets, morphed as the
/// program morphs it (`morph.rs`: `Morph`).
pub fn update_reshaped_with_normals(
    pose: &mut skinning_method::frame::Pose,
    model: &skinning_method::model::Model,
    reshape: &mut dyn skinning_method::frame::Reshape,
    clip: &skinning_method::clip::Clip,
    time: f64,
) {
    use skinning_method::frame::{Blending, Frame};
    let blending = Blending::Skin { by: &mut skinning_method::lbs_or_dqs::Reference, normals: true };
    let frame = Frame { blending, reshape: Some(reshape), ..Frame::new(clip, time) };
    let _linear_blending_takes_any_palette = pose.run(model, frame);
}
