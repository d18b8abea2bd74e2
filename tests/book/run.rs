//! Running one console block's commands again: in a scratch folder holding copies of the sample
//! models, one after the other, each with a time limit, and comparing what each prints with what
//! the book quotes under it.

use crate::console::Quoted;
use crate::matching::{first_difference, is_ellipsis, line_matches, lines_match};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The exit code of a program that found no display, EGL or OpenGL here.
const NO_GRAPHICS: i32 = 3;

/// Longer than this, a command is stuck (a window waiting for keys?): the book quotes quick ones.
const LIMIT: Duration = Duration::from_secs(60);

pub enum Outcome {
    Passed,
    Skipped(String),
    Failed(String),
}

/// Whether `name` is set, as CI sets `SKINNING_REQUIRE_GL` and `SKINNING_REQUIRE_MODELS`.
fn required(name: &str) -> bool {
    std::env::var_os(name).is_some()
}

/// The files a block reads that no earlier command of it wrote: a model a reader must have.
fn models_read(quoted: &[Quoted]) -> Vec<String> {
    let mut written: Vec<&str> = Vec::new();
    let mut read = Vec::new();
    for q in quoted {
        for (i, word) in q.words.iter().enumerate() {
            let after = q.words.get(i.wrapping_sub(1)).map(String::as_str);
            let output = matches!(after, Some("--export-gltf" | "--export-md5" | "--dump" | "--screenshot"));
            if output {
                written.push(word);
            } else if [".glb", ".gltf", ".md5mesh"].iter().any(|e| word.ends_with(e))
                && !written.contains(&word.as_str())
            {
                read.push(word.clone());
            }
        }
    }
    read
}

/// A fresh folder for one block, with a copy of every sample model when `SKINNING_MODELS` names
/// them; removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> std::io::Result<Scratch> {
        static BLOCKS: AtomicUsize = AtomicUsize::new(0);
        let n = BLOCKS.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("skinning-book-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)?;
        let scratch = Scratch(dir);
        if let Some(models) = std::env::var_os("SKINNING_MODELS") {
            for entry in std::fs::read_dir(models)?.flatten() {
                if entry.path().is_file() {
                    let copy = scratch.0.join(entry.file_name());
                    std::fs::copy(entry.path(), &copy)?;
                    // The samples may be read-only; a copy the program can replace is a reader's copy.
                    let mut permissions = std::fs::metadata(&copy)?.permissions();
                    #[allow(clippy::permissions_set_readonly_false)]
                    permissions.set_readonly(false);
                    std::fs::set_permissions(&copy, permissions)?;
                }
            }
        }
        Ok(scratch)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What one run printed: its exit code (None if a signal ended it), standard output's lines, then
/// standard error's.
struct Printed {
    code: Option<i32>,
    lines: Vec<String>,
    stderr: String,
}

fn run(q: &Quoted, dir: &Path) -> Result<Printed, String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_skinning"))
        .args(&q.words[1..])
        .envs(q.env.iter().map(|(k, v)| (k, v)))
        .current_dir(dir)
        // No window may open: the book's commands draw offscreen or not at all.
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the program: {e}"))?;
    let read = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = read(Box::new(child.stdout.take().expect("piped")));
    let stderr = read(Box::new(child.stderr.take().expect("piped")));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {} s: killed", LIMIT.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let (stdout, stderr) = (stdout.join().unwrap_or_default(), stderr.join().unwrap_or_default());
    let lines = stdout.lines().chain(stderr.lines()).map(str::to_string).collect();
    Ok(Printed { code: status.code(), lines, stderr })
}

/// Runs a block's commands in turn, in one scratch folder, and compares each with its quote.
pub fn run_block(quoted: &[Quoted]) -> Outcome {
    let models = models_read(quoted);
    if !models.is_empty() && std::env::var_os("SKINNING_MODELS").is_none() {
        let why =
            format!("it reads {}: set SKINNING_MODELS to the folder of sample models", models.join(", "));
        return match required("SKINNING_REQUIRE_MODELS") {
            true => Outcome::Failed(format!("SKINNING_REQUIRE_MODELS is set, but {why}")),
            false => Outcome::Skipped(why),
        };
    }
    let scratch = match Scratch::new() {
        Ok(scratch) => scratch,
        Err(e) => return Outcome::Failed(format!("cannot make a scratch folder with the models: {e}")),
    };
    for q in quoted {
        let shown = q.words.join(" ");
        let printed = match run(q, &scratch.0) {
            Ok(printed) => printed,
            Err(why) => return Outcome::Failed(format!("`{shown}`: {why}")),
        };
        if printed.code == Some(NO_GRAPHICS) {
            let why = format!("`{shown}` needs OpenGL: {}", printed.stderr.trim());
            return match required("SKINNING_REQUIRE_GL") {
                true => Outcome::Failed(format!("SKINNING_REQUIRE_GL is set, but {why}")),
                false => Outcome::Skipped(why),
            };
        }
        if !lines_match(&q.output, &printed.lines) {
            return Outcome::Failed(format!(
                "`{shown}`: {}\n--- the book quotes:\n{}\n--- the program printed:\n{}",
                first_difference(&q.output, &printed.lines),
                q.output.join("\n"),
                printed.lines.join("\n")
            ));
        }
        if printed.code != Some(0) {
            // A failure the book means to show: its one line is the block's last.
            let last_quoted = q.output.iter().rev().find(|l| !is_ellipsis(l));
            let last_printed = printed.stderr.lines().last().unwrap_or_default();
            let shown_failure = last_quoted.is_some_and(|l| line_matches(l, last_printed));
            if !shown_failure {
                return Outcome::Failed(format!(
                    "`{shown}` failed ({:?}) and the book does not show its failure as the last line: {}",
                    printed.code,
                    printed.stderr.trim()
                ));
            }
        }
    }
    Outcome::Passed
}
