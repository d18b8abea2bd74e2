//! The program in a real window, on a virtual X display (Xvfb) of the test's own, driven by
//! `xdotool`: keys, clicks, drags, and `P` screenshots read back. For `tests/interaction.rs`.
//!
//! Needs `Xvfb` and `xdotool` (Debian: xvfb xdotool) plus Mesa. Without them [`start`] says so and
//! returns None, unless `SKINNING_REQUIRE_GL` is set, as it is in CI, where it fails instead.

use super::{Image, scratch};
use glam::Vec2;
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Kills the child process when dropped, so a failing test leaves nothing running.
pub struct Guard(pub Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn tool_exists(name: &str) -> bool {
    Command::new("sh").args(["-c", &format!("command -v {name}")]).output().is_ok_and(|o| o.status.success())
}

pub fn skip_or_fail(why: &str) {
    if std::env::var_os("SKINNING_REQUIRE_GL").is_some() {
        panic!("SKINNING_REQUIRE_GL is set but this test cannot run: {why}");
    }
    eprintln!("SKIPPED (set SKINNING_REQUIRE_GL=1 to fail instead): {why}");
}

/// Xvfb as every window test starts it, with one screen of `screen` (`640x480x24`): on the first
/// free display number, written to its standard output once it takes clients; no TCP.
///
/// And `-noreset`. By default an X server resets when its last client leaves, and a reset drops
/// every connection still being set up. The tests poll with `xdotool` (connect, look, leave) while
/// the program starts, so now and then xdotool left just as the program connected, and the program
/// said "Failed to open connection to X server" about a server that was running (once in a full
/// `cargo test --release`; with a second client connecting and leaving in a loop, 28 and 47 of 300
/// connections failed, none with `-noreset`: `tests/hostile/display.rs` keeps it so).
/// (Not the socket a killed server leaves in `/tmp/.X11-unix`: `-displayfd` picks a number by
/// binding its abstract socket, which dies with the server, and replaces a stale socket file.)
pub fn xvfb(screen: &str) -> Command {
    let mut command = Command::new("Xvfb");
    command.args(["-displayfd", "1", "-screen", "0", screen, "-nolisten", "tcp", "-noreset"]);
    command
}

/// Starts Xvfb on a free display number and returns it with its guard.
pub fn start_xvfb() -> Option<(String, Guard)> {
    let mut xvfb = xvfb("1024x768x24").stdout(Stdio::piped()).stderr(Stdio::null()).spawn().ok()?;
    let mut number = String::new();
    let mut out = xvfb.stdout.take()?;
    let mut byte = [0u8; 1];
    while out.read(&mut byte).ok()? == 1 && byte[0] != b'\n' {
        number.push(byte[0] as char);
    }
    let guard = Guard(xvfb);
    (!number.trim().is_empty()).then(|| (format!(":{}", number.trim()), guard))
}

pub struct Session {
    pub display: String,
    pub window: String,
    dir: PathBuf,
    lines: Receiver<String>,
    pub app: Guard,
    _xvfb: Guard,
    /// One window at a time per test program: once, with two starting together on a busy machine,
    /// a window could not connect to its display. One at a time rules that out, and the software
    /// renderer does not share two cores between two windows.
    _turn: MutexGuard<'static, ()>,
}

static ONE_WINDOW_AT_A_TIME: Mutex<()> = Mutex::new(());

impl Session {
    pub fn xdotool(&self, args: &[&str]) -> String {
        let out =
            Command::new("xdotool").args(args).env("DISPLAY", &self.display).output().expect("xdotool runs");
        assert!(
            out.status.success(),
            "xdotool {args:?}: {}{}",
            String::from_utf8_lossy(&out.stderr),
            self.program_state()
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Whether the program still runs, and what it said last: for a failure's message, since a
    /// window that is gone is most often a program that ended.
    fn program_state(&self) -> String {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.app.0.id())).unwrap_or_default();
        // The state is the field after the name in brackets: Z for a program that has ended.
        let state = stat.rsplit(')').next().and_then(|rest| rest.split_whitespace().next());
        let running = !matches!(state, None | Some("Z") | Some("X"));
        let said: Vec<String> = self.lines.try_iter().collect();
        let last = &said[said.len().saturating_sub(10)..];
        format!(
            "\n(the program {}; its last lines: {last:?})",
            if running { "still runs" } else { "has ended" }
        )
    }

    pub fn key(&self, key: &str) {
        self.xdotool(&["key", "--window", &self.window, key]);
        std::thread::sleep(Duration::from_millis(150));
    }

    /// Waits for a line of the program's output that contains `text`; returns it. The wait is
    /// long because it costs nothing when the line comes: under a build beside the tests (load
    /// 18 on two cores) a window once took more than the 10 s this used to allow to print its keys.
    pub fn expect_line(&self, text: &str) -> String {
        self.wait_for_line(text, Duration::from_secs(60))
            .unwrap_or_else(|| panic!("the program never printed {text:?}"))
    }

    /// The next line that contains `text`, if one comes within `wait`.
    fn wait_for_line(&self, text: &str, wait: Duration) -> Option<String> {
        let deadline = Instant::now() + wait;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) if line.contains(text) => return Some(line),
                Ok(_) => continue,
                Err(_) => break,
            }
        }
        None
    }

    /// Presses `P` and loads the screenshot the program says it saved.
    pub fn shot(&self) -> Image {
        self.key("p");
        let line = self.expect_line("saved ");
        let name = line.trim_start_matches("saved ").trim();
        Image::load(&self.dir.join(name))
    }

    pub fn title(&self) -> String {
        std::thread::sleep(Duration::from_millis(400)); // the title refreshes a few times a second
        self.xdotool(&["getwindowname", &self.window])
    }

    /// Clicks the left button at `at`, in window pixels.
    pub fn click(&self, at: Vec2) {
        let (x, y) = (at.x.round().to_string(), at.y.round().to_string());
        self.xdotool(&["mousemove", "--window", &self.window, &x, &y]);
        std::thread::sleep(Duration::from_millis(100));
        self.xdotool(&["click", "1"]);
        std::thread::sleep(Duration::from_millis(150));
    }

    /// Drags with `button` from `from` through `via` to `to`, in window pixels.
    pub fn drag(&self, button: &str, from: Vec2, via: Vec2, to: Vec2) {
        let at = |p: Vec2| [p.x.round().to_string(), p.y.round().to_string()];
        let [fx, fy] = at(from);
        self.xdotool(&["mousemove", "--window", &self.window, &fx, &fy]);
        std::thread::sleep(Duration::from_millis(100));
        self.xdotool(&["mousedown", button]);
        for p in [via, to] {
            std::thread::sleep(Duration::from_millis(100));
            let [x, y] = at(p);
            self.xdotool(&["mousemove", "--window", &self.window, &x, &y]);
        }
        std::thread::sleep(Duration::from_millis(100));
        self.xdotool(&["mouseup", button]);
        std::thread::sleep(Duration::from_millis(150));
    }
}

/// Starts the program with `args` in a window on a new virtual display, with `env` set, in a fresh
/// folder named after `test`; returns once the window has the focus and has printed its keys.
pub fn start(test: &str, args: &[&str], env: &[(&str, &str)]) -> Option<Session> {
    // A test that failed while holding the turn leaves it poisoned; the next may still go.
    let turn = ONE_WINDOW_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    for tool in ["Xvfb", "xdotool"] {
        if !tool_exists(tool) {
            skip_or_fail(&format!("{tool} is not installed (Debian: apt-get install xvfb xdotool)"));
            return None;
        }
    }
    let Some((display, xvfb)) = start_xvfb() else {
        skip_or_fail("Xvfb did not start");
        return None;
    };
    let dir = scratch(test);
    let mut app = Command::new(super::program_path())
        .args(args)
        .envs(env.iter().copied())
        .current_dir(&dir)
        .env("DISPLAY", &display)
        .env_remove("WAYLAND_DISPLAY")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts");
    let (send, lines) = channel();
    let stdout = app.stdout.take().expect("piped");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = send.send(line);
        }
    });
    let mut app = Guard(app);
    // Find the window; if the program exits first (no OpenGL here), report why.
    let deadline = Instant::now() + Duration::from_secs(60);
    let window = loop {
        if let Ok(Some(status)) = app.0.try_wait() {
            let mut err = String::new();
            let _ = app.0.stderr.take().map(|mut e| e.read_to_string(&mut err));
            if status.code() == Some(super::NO_GRAPHICS) {
                skip_or_fail(&err);
                return None;
            }
            panic!("the program exited early ({status}): {err}");
        }
        let found = Command::new("xdotool")
            .args(["search", "--name", "^skinning"])
            .env("DISPLAY", &display)
            .output()
            .expect("xdotool runs");
        let id = String::from_utf8_lossy(&found.stdout).lines().next().unwrap_or_default().to_string();
        if !id.is_empty() {
            break id;
        }
        assert!(Instant::now() < deadline, "no window appeared");
        std::thread::sleep(Duration::from_millis(100));
    };
    let session = Session { display, window, dir, lines, app, _xvfb: xvfb, _turn: turn };
    // Keys reach a winit window only once it has the focus.
    session.xdotool(&["windowfocus", "--sync", &session.window]);
    session.expect_line("keys:");
    // Having the focus is not yet taking keys: a key sent while winit is still setting the window
    // up can be lost (the first key of a test was, now and then). H reprints the key list, so the
    // first H that gets an answer says the window takes keys.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        session.key("h");
        if session.wait_for_line("keys:", Duration::from_secs(1)).is_some() {
            break;
        }
        assert!(Instant::now() < deadline, "the window never answered a key");
    }
    Some(session)
}
