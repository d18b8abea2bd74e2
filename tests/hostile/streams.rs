//! Case 5: standard output and standard error that fail. A closed pipe ends the program quietly,
//! by SIGPIPE, as `cat` would be ended; a full disk is one line and exit 1; a standard error that
//! fails too leaves the exit code to tell. Never a panic (101) or an abort (134).

use super::support::{died_of, fails_cleanly, no_gl, program};
use std::process::{Output, Stdio};

/// Runs `args` with standard output going to a pipe whose reader has already gone.
fn into_closed_pipe(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    program().args(args).stdout(writer).stderr(Stdio::piped()).output().expect("runs")
}

/// Runs `args` with standard output (and standard error too, if `both`) on /dev/full.
fn into_full_disk(args: &[&str], both: bool) -> Output {
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
    let mut command = program();
    command.args(args).stdout(full());
    if both {
        command.stderr(full());
    }
    command.output().expect("runs")
}

#[test]
fn help_into_a_full_disk_is_one_line_and_exit_1() {
    let out = into_full_disk(&["--help"], false);
    let line = fails_cleanly(&out, 1);
    assert!(line.contains("standard output") && line.contains("No space left"), "{line}");
}

#[test]
fn with_stderr_failing_too_the_exit_code_still_tells() {
    let out = into_full_disk(&["--help"], true);
    assert_eq!(out.status.code(), Some(1), "{}", out.status);
    let out = into_full_disk(&["--dump", "-"], true);
    assert_eq!(out.status.code(), Some(1), "{}", out.status);
}

#[test]
fn a_closed_pipe_ends_the_program_quietly() {
    died_of(&into_closed_pipe(&["--help"]), libc::SIGPIPE);
    died_of(&into_closed_pipe(&["--dump", "-", "--frames", "1000"]), libc::SIGPIPE);
    // A picture too, though the PNG encoder hands the pipe's error back as text (`picture.rs`).
    let out = into_closed_pipe(&["--headless", "--size", "64x64", "--screenshot", "-"]);
    if !no_gl(&out) {
        died_of(&out, libc::SIGPIPE);
    }
}

#[test]
fn a_dump_to_standard_output_on_a_full_disk_is_one_line() {
    let line = fails_cleanly(&into_full_disk(&["--dump", "-"], false), 1);
    assert!(line.contains("No space left") && line.contains("free some space"), "{line}");
    assert!(!line.contains("nothing was written"), "standard output keeps what it took: {line}");
}

#[test]
fn a_picture_is_not_poured_onto_a_terminal() {
    // `script` (util-linux) runs the program with a terminal as its standard output.
    let program = program();
    let command = format!(
        "{} --headless --frames 1 --size 8x8 --screenshot -",
        program.get_program().to_str().expect("utf-8")
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(program.get_current_dir().expect("a scratch folder"))
        .stdin(Stdio::null())
        .output()
        .expect("script runs (util-linux)");
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.starts_with("skinning: cannot write standard output: it is a terminal"), "{said}");
    assert!(!said.contains("IHDR") && said.trim_end().lines().count() == 1, "a PNG's bytes: {said}");
}

#[test]
fn stats_into_a_closed_pipe_or_a_full_disk() {
    let args = ["--headless", "--frames", "2", "--size", "8x8", "--stats"];
    let out = into_closed_pipe(&args);
    if no_gl(&out) {
        return;
    }
    died_of(&out, libc::SIGPIPE);
    let line = fails_cleanly(&into_full_disk(&args, false), 1);
    assert!(line.contains("No space left"), "{line}");
}
