//! Shared checks for the hostile cases. Reusable for any new family (bad model files, ...):
//! [`program`] to run the binary, [`fails_cleanly`] for "one line, this code, no panic",
//! [`Folder`] for "the folder is as it was", [`skip`] for cases this machine cannot run.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Read;
use std::os::unix::ffi::OsStringExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The program under test: the build cargo made for these tests, or `SKINNING_TEST_BIN`.
///
/// It runs in a scratch folder of its own (a case may name another): a case that goes wrong, or
/// an older build that takes `--dump -` for a file named `-`, leaves its files there, not in the
/// crate.
///
/// It starts with Ctrl-C, SIGTERM and SIGHUP at their default action, as from a terminal, whatever
/// this test process inherited: a CI runner that starts its script in the background, without job
/// control, hands it SIGINT ignored, and the program rightly keeps an ignored signal ignored.
pub fn program() -> Command {
    use std::os::unix::process::CommandExt;
    let mut command = match std::env::var_os("SKINNING_TEST_BIN") {
        Some(path) => Command::new(path),
        None => Command::new(env!("CARGO_BIN_EXE_skinning")),
    };
    // SAFETY: between fork and exec only `signal`, which is async-signal-safe, runs.
    unsafe {
        command.pre_exec(|| {
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                libc::signal(signal, libc::SIG_DFL);
            }
            Ok(())
        });
    }
    command.current_dir(work_folder());
    command
}

/// The scratch folder every run starts in, made once for this test process.
fn work_folder() -> &'static Path {
    static FOLDER: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    FOLDER.get_or_init(|| scratch("work"))
}

#[test]
fn every_case_runs_in_a_scratch_folder() {
    let cwd = program().get_current_dir().map(Path::to_path_buf);
    assert!(cwd.as_deref().is_some_and(|d| d.starts_with(std::env::temp_dir())), "{cwd:?}");
}

/// Runs the program with `args` (no standard input) and collects what it wrote.
pub fn run(args: &[&str]) -> Output {
    program().args(args).stdin(Stdio::null()).output().expect("the skinning program starts")
}

/// Standard error, as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Lines on standard error that are information, not complaints: which OpenGL was found.
fn is_banner(line: &str) -> bool {
    line.starts_with("skinning: OpenGL") || line.starts_with("skinning: headless, ")
}

/// Asserts a clean failure: exit `code`, exactly one line of complaint on standard error starting
/// "skinning: ", no panic or backtrace, nothing on standard output. Returns the line.
pub fn fails_cleanly(out: &Output, code: i32) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(code), "exit status {}; stderr: {err}", out.status);
    no_panic(&err);
    let lines: Vec<&str> = err.lines().filter(|l| !is_banner(l)).collect();
    assert_eq!(lines.len(), 1, "one line expected on stderr: {err}");
    assert!(lines[0].starts_with("skinning: "), "{err}");
    assert!(out.stdout.is_empty(), "stdout: {}", String::from_utf8_lossy(&out.stdout));
    lines[0].to_string()
}

/// Asserts that the program died of `signal` (as a shell would report 128 + signal) and said
/// nothing but the OpenGL banner.
pub fn died_of(out: &Output, signal: i32) {
    use std::os::unix::process::ExitStatusExt;
    let err = stderr(out);
    assert_eq!(out.status.signal(), Some(signal), "status {}; stderr: {err}", out.status);
    no_panic(&err);
    assert!(err.lines().all(is_banner), "nothing should be said: {err}");
}

pub fn no_panic(err: &str) {
    for text in ["panicked", "internal error", "RUST_BACKTRACE", "memory allocation"] {
        assert!(!err.contains(text), "{text:?} on stderr: {err}");
    }
}

/// A fresh, empty folder for one test's files.
pub fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skinning-hostile-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the temp folder is writable");
    dir
}

/// What a folder holds: each entry's name (any bytes), kind, size and inode, hidden ones too.
#[derive(Debug, PartialEq, Eq)]
pub struct Folder(BTreeMap<OsString, (String, u64, u64)>);

impl Folder {
    pub fn of(dir: &Path) -> Folder {
        let entries = std::fs::read_dir(dir).expect("the folder can be listed");
        Folder(
            entries
                .map(|e| {
                    let e = e.expect("an entry");
                    let meta = std::fs::symlink_metadata(e.path()).expect("metadata");
                    let kind = format!("{:?}", meta.file_type());
                    (e.file_name(), (kind, meta.len(), meta.ino()))
                })
                .collect(),
        )
    }

    pub fn names(&self) -> Vec<String> {
        self.0.keys().map(|n| String::from_utf8_lossy(&n.clone().into_vec()).into_owned()).collect()
    }

    /// Asserts that `dir` still holds exactly what it held when this listing was taken.
    pub fn unchanged(&self, dir: &Path) {
        assert_eq!(&Folder::of(dir), self, "the folder changed: {:?}", Folder::of(dir).names());
    }
}

/// Says why a case cannot run here; fails instead when `SKINNING_REQUIRE_GL` is set (CI).
pub fn skip(why: &str) {
    if std::env::var_os("SKINNING_REQUIRE_GL").is_some() {
        panic!("SKINNING_REQUIRE_GL is set but this case cannot run: {why}");
    }
    eprintln!("SKIPPED (set SKINNING_REQUIRE_GL=1 to fail instead): {why}");
}

/// Whether the run failed for lack of EGL / OpenGL (exit 3): then the case is skipped.
pub fn no_gl(out: &Output) -> bool {
    let missing = out.status.code() == Some(3);
    if missing {
        skip(&format!("no EGL / OpenGL here: {}", stderr(out)));
    }
    missing
}

/// Whether a command-line tool is installed.
pub fn has_tool(name: &str) -> bool {
    Command::new("sh").args(["-c", &format!("command -v {name}")]).output().is_ok_and(|o| o.status.success())
}

/// A child process that is killed when dropped, so a failing test leaves nothing running.
pub struct Guard(pub Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Guard {
    /// Waits up to `limit` for the child to end, then collects its output (killing it if it is
    /// still running: the test then fails with what it printed).
    pub fn finish(mut self, limit: Duration) -> Output {
        let deadline = Instant::now() + limit;
        while self.0.try_wait().expect("wait works").is_none() {
            if Instant::now() > deadline {
                let _ = self.0.kill();
                let out = self.collect();
                panic!("still running after {limit:?}; stderr: {}", stderr(&out));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        self.collect()
    }

    fn collect(&mut self) -> Output {
        let status = self.0.wait().expect("wait works");
        let mut stdout = Vec::new();
        let mut stderr = Vec::new();
        if let Some(mut out) = self.0.stdout.take() {
            let _ = out.read_to_end(&mut stdout);
        }
        if let Some(mut err) = self.0.stderr.take() {
            let _ = err.read_to_end(&mut stderr);
        }
        Output { status, stdout, stderr }
    }
}

/// Waits until `ready` holds (polling), or panics after `limit`.
pub fn wait_for(what: &str, limit: Duration, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !ready() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A virtual X display of its own (Xvfb), killed when dropped.
///
/// One at a time: these tests kill servers and start new ones on the numbers they freed, and a
/// window once failed to reach its own fresh server while that went on in parallel (CI, once in
/// many runs). Fields drop in order: the server goes before the turn is handed on.
pub struct Xvfb {
    pub display: String,
    _server: Guard,
    _turn: std::sync::MutexGuard<'static, ()>,
}

static ONE_SERVER_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

impl Xvfb {
    /// Starts Xvfb with a screen of `depth` bits on a free display number; None (after saying
    /// SKIPPED) if Xvfb is missing or does not start.
    pub fn start(depth: u32) -> Option<Xvfb> {
        if !has_tool("Xvfb") {
            skip("Xvfb is not installed (Debian: apt-get install xvfb)");
            return None;
        }
        let turn = ONE_SERVER_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let screen = format!("640x480x{depth}");
        let mut server = common::window::xvfb(&screen)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb starts");
        let mut out = server.stdout.take().expect("piped");
        let server = Guard(server);
        // Xvfb writes the display number it took, then a newline, once it accepts clients.
        let (mut number, mut byte) = (String::new(), [0u8; 1]);
        while out.read(&mut byte).unwrap_or(0) == 1 && byte[0] != b'\n' {
            number.push(byte[0] as char);
        }
        if number.trim().is_empty() {
            skip("Xvfb did not start");
            return None;
        }
        Some(Xvfb { display: format!(":{}", number.trim()), _server: server, _turn: turn })
    }

    /// The program, set to open its window on this display (and not on any Wayland compositor).
    pub fn program(&self) -> Command {
        let mut command = program();
        command.env("DISPLAY", &self.display).env_remove("WAYLAND_DISPLAY").env_remove("WAYLAND_SOCKET");
        command
    }

    /// Kills the X server now (as a crash would).
    pub fn kill(&mut self) {
        let _ = self._server.0.kill();
        let _ = self._server.0.wait();
    }
}

/// Runs the program and returns its peak resident memory in KiB, from the kernel's account of
/// that one child (`wait4`, which also reaps it), with its exit status and standard error (read
/// to its end first, so a child with much to say never waits on a full pipe).
pub fn peak_kib(args: &[&str]) -> (std::process::ExitStatus, i64, String) {
    let (status, usage, err) = usage(args);
    (status, usage.ru_maxrss, err)
}

/// The CPU seconds a child spent, in its own code and in the kernel's for it: unlike the time on
/// the clock, the same on a loaded machine as on an idle one.
pub fn cpu_seconds(usage: &libc::rusage) -> f64 {
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Runs the program: its exit status, the kernel's account of what it used (`wait4`: its peak
/// memory, its CPU time), and its standard error.
#[expect(clippy::zombie_processes, reason = "wait4 waits for the child")]
pub fn usage(args: &[&str]) -> (std::process::ExitStatus, libc::rusage, String) {
    let mut child = program().args(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().expect("runs");
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    let pid = child.id() as i32;
    let mut status = 0;
    // SAFETY: a zeroed rusage (plain numbers) is a valid one.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own child, not yet waited for; `status` and `usage` are ours to write.
    assert_eq!(unsafe { libc::wait4(pid, &mut status, 0, &mut usage) }, pid);
    use std::os::unix::process::ExitStatusExt;
    (std::process::ExitStatus::from_raw(status), usage, err)
}
