//! Cases 6, 7, 11 and 12: the window's surroundings. A missing system library is named with its
//! Debian package (exit 3); an 8-bit X screen is called that; a stale `WAYLAND_DISPLAY` falls back
//! to X11; closing the window before a requested screenshot says so (exit 1); a display server
//! that dies is one line.
//!
//! Each starts its own Xvfb. Hiding a library needs a mount namespace (`unshare -m` as root, or
//! `unshare -rm` inside a user namespace for anyone else):
//! an empty file is bind-mounted over the library for that one process.

use super::support::{
    Folder, Guard, Xvfb, fails_cleanly, has_tool, no_gl, no_panic, scratch, skip, stderr, wait_for,
};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Where the system keeps a library: the real file behind its name.
fn library_file(name: &str) -> Option<PathBuf> {
    [
        "/usr/lib/x86_64-linux-gnu",
        "/lib/x86_64-linux-gnu",
        "/usr/lib/aarch64-linux-gnu",
        "/usr/lib64",
        "/usr/lib",
    ]
    .iter()
    .map(|dir| Path::new(dir).join(name))
    .find(|p| p.exists())
    .and_then(|p| p.canonicalize().ok())
}

/// `command`, run with the libraries `hidden` replaced by an empty file (which the system's
/// loader refuses), in a mount namespace of its own; None (after SKIPPED) if that is impossible.
fn with_hidden(command: &Command, hidden: &[&str], empty: &Path) -> Option<Command> {
    // As root a mount namespace is enough; any other user needs a user namespace around it too
    // (`-r`: root inside it, which may bind-mount there; Debian allows it unprivileged).
    let works = |flags: &str| {
        let status = Command::new("unshare").args([flags, "true"]).stderr(Stdio::null()).status();
        status.is_ok_and(|s| s.success())
    };
    let Some(flags) = ["-m", "-rm"].into_iter().find(|flags| works(flags)) else {
        skip("hiding a library needs `unshare -m` (root) or `unshare -rm` (user namespaces)");
        return None;
    };
    let mut script = String::new();
    for name in hidden {
        let Some(file) = library_file(name) else {
            skip(&format!("{name} is not installed, so there is nothing to hide"));
            return None;
        };
        script += &format!("mount --bind '{}' '{}' && ", empty.display(), file.display());
    }
    script += "exec \"$@\"";
    let mut wrapped = Command::new("unshare");
    wrapped.args([flags, "sh", "-c", &script, "sh"]).arg(command.get_program()).args(command.get_args());
    if let Some(folder) = command.get_current_dir() {
        wrapped.current_dir(folder);
    }
    for (key, value) in command.get_envs() {
        match value {
            Some(value) => wrapped.env(key, value),
            None => wrapped.env_remove(key),
        };
    }
    Some(wrapped)
}

#[test]
fn each_missing_library_is_named_with_its_package() {
    let Some(x) = Xvfb::start(24) else { return };
    let dir = scratch("libraries");
    let empty = dir.join("empty.so");
    std::fs::write(&empty, b"").expect("write");
    for (hidden, names) in [
        (&["libX11.so.6"][..], ["libX11.so.6", "libx11-6"]),
        (&["libX11-xcb.so.1"], ["libX11-xcb.so.1", "libx11-xcb1"]),
        (&["libXcursor.so.1"], ["libXcursor.so.1", "libxcursor1"]),
        (&["libXi.so.6"], ["libXi.so.6", "libxi6"]),
        (&["libxkbcommon.so.0"], ["libxkbcommon.so.0", "libxkbcommon0"]),
        (&["libxkbcommon-x11.so.0"], ["libxkbcommon-x11.so.0", "libxkbcommon-x11-0"]),
        (&["libEGL.so.1", "libGL.so.1"], ["libEGL.so.1", "libegl1"]),
        // What Mesa's GLX driver needs (glutin's first choice on X11), then its EGL driver's.
        (&["libxcb-randr.so.0"], ["libxcb-randr.so.0", "libxcb-randr0"]),
        (&["libxcb-glx.so.0"], ["libxcb-glx.so.0", "libxcb-glx0"]),
        (&["libxcb-dri3.so.0"], ["libxcb-dri3.so.0", "libxcb-dri3-0"]),
        (&["libGLX_mesa.so.0"], ["libGLX_mesa.so.0", "libglx-mesa0"]),
        (&["libGL.so.1", "libgbm.so.1"], ["libgbm.so.1", "libgbm1"]),
    ] {
        let mut window = x.program();
        window.args(["--frames", "1"]);
        let Some(mut command) = with_hidden(&window, hidden, &empty) else { return };
        let out = command.stdin(Stdio::null()).output().expect("runs");
        let line = fails_cleanly(&out, 3);
        for name in names {
            assert!(line.contains(name), "{hidden:?} hidden: {name} not named: {line}");
        }
        assert!(!line.contains("set DISPLAY"), "DISPLAY is set and fine: {line}");
    }
    // Headless needs only EGL.
    let mut headless = super::support::program();
    headless.args(["--headless", "--frames", "1"]);
    let Some(mut command) = with_hidden(&headless, &["libEGL.so.1"], &empty) else { return };
    let line = fails_cleanly(&command.output().expect("runs"), 3);
    assert!(line.contains("libegl1"), "{line}");
}

#[test]
fn an_8_bit_x_screen_is_called_that() {
    let Some(x) = Xvfb::start(8) else { return };
    let out = x.program().args(["--frames", "1"]).stdout(Stdio::null()).output().expect("runs");
    let line = fails_cleanly(&out, 3);
    assert!(line.contains("8-bit") && line.contains("24-bit"), "{line}");
    assert!(!line.contains("3001"), "{line}");
}

#[test]
fn a_stale_wayland_display_falls_back_to_x11() {
    let Some(x) = Xvfb::start(24) else { return };
    let dir = scratch("stale-wayland");
    let shot = dir.join("shot.png");
    let args = ["--frames", "2", "--size", "64x48", "--screenshot", shot.to_str().expect("utf-8")];
    // Without WAYLAND_DISPLAY first: a machine without OpenGL skips here, not below.
    if no_gl(&x.program().args(args).stdout(Stdio::null()).output().expect("runs")) {
        return;
    }
    std::fs::remove_file(&shot).expect("the first run took its screenshot");
    let out = x
        .program()
        .args(args)
        .env("WAYLAND_DISPLAY", "wayland-gone")
        .env("XDG_RUNTIME_DIR", &dir)
        .stdout(Stdio::null())
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(shot.exists());
}

/// Starts the program's window on `x` and waits until it is mapped; returns it and the window id.
pub fn open_window(x: &Xvfb, args: &[&str]) -> Option<(Guard, String)> {
    if !has_tool("xdotool") {
        skip("xdotool is not installed (Debian: apt-get install xdotool)");
        return None;
    }
    let child = x.program().args(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().expect("runs");
    let mut app = Guard(child);
    let mut window = String::new();
    wait_for("the window", Duration::from_secs(30), || {
        if let Ok(Some(_)) = app.0.try_wait() {
            return true;
        }
        let found = Command::new("xdotool")
            .args(["search", "--onlyvisible", "--name", "^skinning"])
            .env("DISPLAY", &x.display)
            .output()
            .expect("xdotool runs");
        window = String::from_utf8_lossy(&found.stdout).lines().next().unwrap_or_default().to_string();
        !window.is_empty()
    });
    if window.is_empty() {
        let out = app.finish(Duration::from_secs(5));
        if !no_gl(&out) {
            panic!("the program ended before its window appeared: {}", stderr(&out));
        }
        return None;
    }
    Some((app, window))
}

#[test]
fn closing_the_window_before_the_screenshot_says_so_and_fails() {
    let Some(x) = Xvfb::start(24) else { return };
    let dir = scratch("closed-early");
    let shot = dir.join("shot.png");
    let args = ["--frames", "100000000", "--size", "64x48", "--screenshot", shot.to_str().expect("utf-8")];
    let Some((app, window)) = open_window(&x, &args) else { return };
    let xdotool = |args: &[&str]| {
        let out = Command::new("xdotool").args(args).env("DISPLAY", &x.display).output().expect("xdotool");
        out.status.success().then_some(()).ok_or(format!("xdotool {args:?}: {}", stderr(&out)))
    };
    // Keys reach a winit window only once it has the focus. The key goes through XTEST to the
    // focused window (`key --window` would address a window that Escape has already closed).
    let pressed = xdotool(&["windowfocus", "--sync", &window]).and_then(|()| xdotool(&["key", "Escape"]));
    if let Err(why) = pressed {
        let out = app.finish(Duration::from_secs(5));
        panic!("{why}; the program: {} {}", out.status, stderr(&out));
    }
    let out = app.finish(Duration::from_secs(30));
    let line = fails_cleanly(&out, 1);
    assert!(line.contains("no screenshot was taken") && line.contains("shot.png"), "{line}");
    assert!(Folder::of(&dir).names().is_empty());
}

#[test]
fn a_display_server_that_dies_is_one_line() {
    let Some(mut x) = Xvfb::start(24) else { return };
    let Some((app, _)) = open_window(&x, &["--size", "64x48"]) else { return };
    std::thread::sleep(Duration::from_millis(300));
    x.kill();
    let out = app.finish(Duration::from_secs(30));
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert_ne!(out.status.code(), Some(101), "{err}");
    no_panic(&err);
    let complaints: Vec<&str> = err.lines().filter(|l| !l.starts_with("skinning: OpenGL")).collect();
    assert_eq!(
        complaints,
        ["skinning: the display connection was lost (the display server quit or crashed)"]
    );
}

#[test]
fn a_client_that_connects_while_another_leaves_is_served() {
    // The window tests poll with xdotool while the program connects. An X server that resets when
    // its last client leaves drops the connections still being set up: without `-noreset`, about
    // one in ten of these failed ("Can't open display").
    if !has_tool("xdotool") {
        skip("xdotool is not installed (Debian: apt-get install xdotool)");
        return;
    }
    let Some(x) = Xvfb::start(24) else { return };
    let connect = |display: &str| {
        let out = Command::new("xdotool").arg("getdisplaygeometry").env("DISPLAY", display).output();
        out.is_ok_and(|o| o.status.success())
    };
    let display = x.display.clone();
    let leaving = std::thread::spawn(move || (0..150).filter(|_| !connect(&display)).count());
    let failed = (0..150).filter(|_| !connect(&x.display)).count();
    let failed_meanwhile = leaving.join().expect("the other client's thread");
    assert_eq!((failed, failed_meanwhile), (0, 0), "connections refused while clients came and went");
}

#[test]
fn a_window_destroyed_from_outside_is_one_line_and_exit_1() {
    // A window manager's kill, or `xdotool windowclose`, destroys the window without asking. With
    // the keyboard focus on it, winit's input method then fails to take the focus away from the
    // window that is gone (and panicked, "internal error ... please report it"); without, winit
    // says Destroyed. Either way: one line, exit 1.
    for focused in [true, false] {
        let Some(x) = Xvfb::start(24) else { return };
        let Some((app, window)) = open_window(&x, &["--size", "64x48"]) else { return };
        let xdotool = |args: &[&str]| {
            let out =
                Command::new("xdotool").args(args).env("DISPLAY", &x.display).output().expect("xdotool");
            assert!(out.status.success(), "xdotool {args:?}: {}", stderr(&out));
        };
        if focused {
            xdotool(&["windowfocus", "--sync", &window]);
            std::thread::sleep(Duration::from_millis(300));
        }
        xdotool(&["windowclose", &window]);
        let out = app.finish(Duration::from_secs(30));
        let err = stderr(&out);
        no_panic(&err);
        assert_eq!(out.status.code(), Some(1), "focused {focused}: {err}");
        let complaints: Vec<&str> = err.lines().filter(|l| !l.starts_with("skinning: OpenGL")).collect();
        assert_eq!(
            complaints,
            [
                "skinning: the window was destroyed from outside (by the window manager or another program), not closed"
            ],
            "focused {focused}"
        );
    }
}
