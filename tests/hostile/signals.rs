//! Case 2: Ctrl-C (SIGINT), `kill` (SIGTERM) or a closed terminal (SIGHUP) during a long write
//! leaves the folder exactly as it was, and the program dies of that signal (128 + N to a shell).

use super::support::{Folder, Guard, died_of, no_gl, program, scratch, stderr, wait_for};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

/// Starts `args` in `dir`, waits until its temporary file appears, sends `signal`, and returns
/// the program's output.
fn interrupt(dir: &Path, args: &[&str], signal: i32) -> std::process::Output {
    let before = Folder::of(dir).names().len();
    let child = program().args(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().expect("runs");
    let pid = child.id() as i32;
    let mut guard = Guard(child);
    wait_for("the temporary file", Duration::from_secs(60), || {
        assert!(guard.0.try_wait().expect("wait").is_none(), "the program ended before it was interrupted");
        Folder::of(dir).names().len() > before
    });
    // SAFETY: `pid` is our own child, still running (we have not waited for it).
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    guard.finish(Duration::from_secs(30))
}

#[test]
fn a_stop_signal_during_a_long_dump_leaves_no_file_and_ends_by_that_signal() {
    for (name, signal) in [("int", libc::SIGINT), ("term", libc::SIGTERM), ("hup", libc::SIGHUP)] {
        let dir = scratch(&format!("signal-{name}"));
        let before = Folder::of(&dir);
        let file = dir.join("dump.json");
        let out =
            interrupt(&dir, &["--dump", file.to_str().expect("utf-8"), "--frames", "100000000"], signal);
        died_of(&out, signal);
        before.unchanged(&dir);
    }
}

#[test]
fn an_interrupted_dump_over_a_file_leaves_the_old_file() {
    let dir = scratch("signal-keep");
    let file = dir.join("dump.json");
    std::fs::write(&file, "the old dump").expect("write");
    let before = Folder::of(&dir);
    let out =
        interrupt(&dir, &["--dump", file.to_str().expect("utf-8"), "--frames", "100000000"], libc::SIGINT);
    died_of(&out, libc::SIGINT);
    before.unchanged(&dir);
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "the old dump");
}

#[test]
fn a_signal_that_was_ignored_stays_ignored() {
    // `nohup` starts a program with SIGHUP ignored: the dump must go on through a SIGHUP.
    use std::os::unix::process::CommandExt;
    let dir = scratch("signal-nohup");
    let file = dir.join("dump.json");
    let mut command = program();
    command.args(["--dump", file.to_str().expect("utf-8"), "--frames", "100000000"]);
    // SAFETY: between fork and exec only `signal`, which is async-signal-safe, runs.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGHUP, libc::SIG_IGN);
            Ok(())
        })
    };
    let child = command.stdout(Stdio::null()).stderr(Stdio::piped()).spawn().expect("runs");
    let pid = child.id() as i32;
    let mut guard = Guard(child);
    wait_for("the temporary file", Duration::from_secs(60), || !Folder::of(&dir).names().is_empty());
    // SAFETY: our own running child.
    unsafe { libc::kill(pid, libc::SIGHUP) };
    std::thread::sleep(Duration::from_millis(300));
    assert!(guard.0.try_wait().expect("wait").is_none(), "SIGHUP was ignored when it started, but ended it");
    // SAFETY: as above.
    unsafe { libc::kill(pid, libc::SIGTERM) };
    died_of(&guard.finish(Duration::from_secs(30)), libc::SIGTERM);
    assert!(Folder::of(&dir).names().is_empty());
}

#[test]
fn a_stop_signal_while_a_big_screenshot_is_saved_leaves_no_file() {
    let dir = scratch("signal-png");
    let before = Folder::of(&dir);
    let shot = dir.join("big.png");
    // A picture big enough to take a few seconds to encode.
    let args =
        ["--headless", "--frames", "1", "--size", "4096x4096", "--screenshot", shot.to_str().expect("utf-8")];
    let probe = program().args(["--headless", "--frames", "1", "--size", "8x8"]).output().expect("runs");
    if no_gl(&probe) {
        return;
    }
    let out = interrupt(&dir, &args, libc::SIGTERM);
    died_of(&out, libc::SIGTERM);
    before.unchanged(&dir);
    assert!(stderr(&out).lines().count() <= 1);
}
