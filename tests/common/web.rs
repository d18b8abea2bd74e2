//! The web page in a real browser, for `tests/web.rs`: built once per test program with
//! `web/build.sh` into a scratch folder, served from it on 127.0.0.1 by a small server of the
//! test's own (a thread: it ends with the tests), and opened in headless Chromium, which
//! `tests/web/drive.mjs` drives through `puppeteer-core` (from npm, with no browser of its own):
//! one browser for the test program (`web/driver.rs`).
//!
//! Needs Debian's `chromium` (or `SKINNING_CHROMIUM` naming another), `node`, `puppeteer-core` in
//! `target/npm` (`npm install --prefix target/npm puppeteer-core@24.43.1`), `python3`, the
//! `wasm32-unknown-unknown` target and `wasm-bindgen` at the version Cargo.lock pins (web/build.sh
//! installs those two on a fresh machine, in minutes; the tests do not). Without one of them
//! [`web`] says SKIPPED and why, unless `SKINNING_REQUIRE_WEB` is set (as in CI): then a failure.

mod driver;

use super::{Class, Image};
use driver::Driver;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Mutex, OnceLock, PoisonError};

/// The built page: its folder, and where it is served.
pub struct Web {
    pub dir: PathBuf,
    pub base: String,
    /// The browser, started by the first request (`web/driver.rs`).
    driver: Mutex<Option<Driver>>,
}

fn root() -> &'static Path {
    super::top()
}

fn chromium() -> PathBuf {
    std::env::var_os("SKINNING_CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from)
}

fn runs(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// What this machine lacks to run the page in a browser, if anything.
fn missing() -> Option<String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).unwrap_or_default();
    let version = lock.split("name = \"wasm-bindgen\"\nversion = \"").nth(1)?.split('"').next()?.to_string();
    let sysroot = runs("rustc", &["--print", "sysroot"]).unwrap_or_default();
    let target = Path::new(&sysroot).join("lib/rustlib/wasm32-unknown-unknown");
    [
        (!chromium().is_file())
            .then(|| format!("no Chromium at {} (Debian: apt-get install chromium)", chromium().display())),
        runs("node", &["--version"])
            .is_none()
            .then(|| "no node (Debian: apt-get install nodejs)".to_string()),
        (!root().join("target/npm/node_modules/puppeteer-core").is_dir()).then(|| {
            "no puppeteer-core (npm install --prefix target/npm puppeteer-core@24.43.1)".to_string()
        }),
        runs("python3", &["--version"]).is_none().then(|| "no python3".to_string()),
        (!target.is_dir()).then(|| {
            "no wasm32-unknown-unknown target (rustup target add wasm32-unknown-unknown)".to_string()
        }),
        (runs("wasm-bindgen", &["--version"]) != Some(format!("wasm-bindgen {version}"))).then(|| {
            format!("no wasm-bindgen {version} (cargo install wasm-bindgen-cli --version {version})")
        }),
    ]
    .into_iter()
    .flatten()
    .next()
}

/// The page, built and served (once per test program), or None where this machine cannot run it
/// (SKIPPED, or a failure under `SKINNING_REQUIRE_WEB`).
pub fn web() -> Option<&'static Web> {
    static WEB: OnceLock<Result<Web, String>> = OnceLock::new();
    let built = WEB.get_or_init(|| match missing() {
        Some(why) => Err(why),
        None => Ok(build()),
    });
    match built {
        Ok(web) => Some(web),
        Err(why) if std::env::var_os("SKINNING_REQUIRE_WEB").is_some() => {
            panic!("SKINNING_REQUIRE_WEB is set but the page cannot be tested here: {why}")
        }
        Err(why) => {
            eprintln!("SKIPPED (set SKINNING_REQUIRE_WEB=1 to fail instead): {why}");
            None
        }
    }
}

/// `web/build.sh` into a scratch folder, then a server for it.
fn build() -> Web {
    let dir = super::scratch("web-page");
    let out = Command::new("bash").arg(root().join("web/build.sh")).arg(&dir).output().expect("bash runs");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "web/build.sh failed: {}", &said[said.len().saturating_sub(3000)..]);
    eprintln!("{}", String::from_utf8_lossy(&out.stdout).lines().last().unwrap_or_default());
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port on 127.0.0.1");
    let base = format!("http://{}", listener.local_addr().expect("its address"));
    let served = dir.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let served = served.clone();
            std::thread::spawn(move || serve(stream, &served));
        }
    });
    Web { dir, base, driver: Mutex::new(None) }
}

/// Answers one GET with the file it names in `dir` (nothing outside it), or 404.
fn serve(mut stream: TcpStream, dir: &Path) {
    let mut request = String::new();
    if BufReader::new(&mut stream).read_line(&mut request).is_err() {
        return;
    }
    let path = request.split_whitespace().nth(1).unwrap_or("/").split('?').next().unwrap_or("/");
    let path = percent_decoded(path);
    let body =
        (!path.contains("..")).then(|| dir.join(path.trim_start_matches('/'))).and_then(|f| contents(&f));
    let kind = match path.rsplit('.').next() {
        _ if path.ends_with('/') => "text/html; charset=utf-8",
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript",
        Some("wasm") => "application/wasm",
        Some("json" | "gltf") => "application/json",
        _ => "application/octet-stream",
    };
    let head = match &body {
        // Isolated from other sites, so the page's clock reads to 5 µs, not 100 (the `--stats` line).
        Some(body) => format!(
            "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
             Cross-Origin-Opener-Policy: same-origin\r\nCross-Origin-Embedder-Policy: require-corp\r\n",
            body.len()
        ),
        None => "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n".to_string(),
    };
    let _ = stream.write_all(format!("{head}Connection: close\r\n\r\n").as_bytes());
    let _ = stream.write_all(&body.unwrap_or_default());
}

/// A request's path with its `%20`s and the like decoded (a bad escape is left as it is).
fn percent_decoded(path: &str) -> String {
    let mut bytes = Vec::new();
    let mut rest = path.as_bytes();
    while let [first, tail @ ..] = rest {
        let hex = tail.get(..2).and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok());
        match (first, hex) {
            (b'%', Some(byte)) => {
                bytes.push(byte);
                rest = &tail[2..];
            }
            _ => {
                bytes.push(*first);
                rest = tail;
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A file's bytes; for a folder, its index.html, else a page of links to what it holds, as
/// `python3 -m http.server` gives one (the page finds an MD5 model's animations in it).
fn contents(path: &Path) -> Option<Vec<u8>> {
    if !path.is_dir() {
        return std::fs::read(path).ok();
    }
    if let Ok(index) = std::fs::read(path.join("index.html")) {
        return Some(index);
    }
    let names = std::fs::read_dir(path).ok()?.flatten().map(|e| e.file_name().to_string_lossy().into_owned());
    Some(names.map(|name| format!("<a href=\"{name}\">{name}</a>\n")).collect::<String>().into_bytes())
}

impl Web {
    /// Runs `steps` (see `tests/web/drive.mjs`) in one browser page; what each gave.
    pub fn drive(&self, steps: serde_json::Value) -> Vec<serde_json::Value> {
        let (id, answer, said) = {
            let mut driver = self.driver.lock().unwrap_or_else(PoisonError::into_inner);
            driver.get_or_insert_with(|| Driver::start(root(), &chromium(), &self.base)).send(steps)
        };
        let said = || {
            let said = said.lock().unwrap_or_else(PoisonError::into_inner);
            let mark = format!("request {id}: ");
            said.lines()
                .filter(|l| l.starts_with(&mark) || !l.starts_with("request "))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let answer = answer.recv_timeout(driver::ANSWER_WITHIN).unwrap_or_else(|e| match e {
            RecvTimeoutError::Timeout => {
                panic!("no answer from the browser in {:?}: {}", driver::ANSWER_WITHIN, said())
            }
            RecvTimeoutError::Disconnected => panic!("the browser's driver ended: {}", said()),
        });
        if let Some(error) = answer.get("error") {
            panic!("the browser: {error}; {}", said());
        }
        serde_json::from_value(answer["results"].clone())
            .unwrap_or_else(|e| panic!("the driver's answer: {e}"))
    }

    /// A file written into the page's folder, for the page to fetch (or a test to hand over).
    pub fn put(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.dir.join(name);
        std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        path
    }
}

/// `flags` as the page's address carries them: `index.html?args=...`, %-encoded.
pub fn page(flags: &str) -> String {
    let encoded: String = flags
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b',' | b'=' | b':' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect();
    format!("index.html?args={encoded}")
}

/// How many pixels of `class` a picture has, and where their centre is.
pub fn layer(image: &Image, class: Class) -> (usize, f32, f32) {
    let (mut n, mut x, mut y) = (0, 0.0, 0.0);
    for (i, p) in image.rgba.chunks_exact(4).enumerate() {
        if super::classify([p[0], p[1], p[2]]) == Some(class) {
            n += 1;
            x += (i % image.width as usize) as f32;
            y += (i / image.width as usize) as f32;
        }
    }
    (n, x / n.max(1) as f32, y / n.max(1) as f32)
}

/// The page's picture draws each of `classes` as the desktop's does: about as many pixels (a
/// renderer's lines differ by a pixel here and there), centred within 3 pixels of the same place.
pub fn same_layers(page: &Image, desktop: &Image, classes: &[Class]) {
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
