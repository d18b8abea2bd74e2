//! Case 10: names for files that are already open. `/dev/stdout`, `/dev/stderr` and `/dev/fd/N`
//! (what a shell's `>(cmd)` hands over) lead into `/proc/self/fd`: they are written through, never
//! replaced. A name for the file standard output already is counts as `-`: the text meant for
//! standard output goes to standard error.

use super::support::{Folder, fails_cleanly, no_gl, program, run, scratch, stderr};
use common::fixture;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn assert_dump(json: &[u8]) -> serde_json::Value {
    serde_json::from_slice(json).unwrap_or_else(|e| {
        panic!("not the JSON dump alone ({e}): {:?}", String::from_utf8_lossy(&json[..json.len().min(80)]))
    })
}

/// Runs `sh -c script` in `dir`, with `$0` the program under test (`SKINNING_TEST_BIN` too).
fn shell(dir: &Path, script: &str) -> Output {
    let bin = program().get_program().to_owned();
    let mut command = Command::new("sh");
    command.arg("-c").arg(script).arg(bin).current_dir(dir).stdin(Stdio::null());
    command.output().expect("sh runs")
}

#[test]
fn dev_fd_n_is_written_through_whatever_it_is() {
    let dir = scratch("devfd");
    // Descriptor 1 a pipe (ours): `skinning --dump /dev/fd/1 | jq`.
    let out = program().args(["--dump", "/dev/fd/1"]).current_dir(&dir).output().expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_dump(&out.stdout);
    // Descriptor 3 a pipe that is not standard output, as `--dump >(wc -c)` gives.
    let out = shell(&dir, r#""$0" --dump /dev/fd/3 3>&1 >/dev/null"#);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_dump(&out.stdout);
    // Standard error, and a descriptor that is not open: one line, exit 1.
    let out = program().args(["--dump", "/dev/stderr"]).current_dir(&dir).output().expect("runs");
    assert!(out.status.success() && out.stdout.is_empty(), "{}", stderr(&out));
    assert_dump(&out.stderr);
    let out = shell(&dir, r#"exec "$0" --dump /dev/fd/9 9>&-"#);
    let line = fails_cleanly(&out, 1);
    assert!(line.contains("/dev/fd/9") && line.contains("descriptor 9"), "{line}");
    assert!(Folder::of(&dir).names().is_empty(), "{:?}", Folder::of(&dir).names());
}

#[test]
fn a_link_into_proc_self_fd_writes_to_our_own_standard_output() {
    // What `/dev/stdout` is: a link to /proc/self/fd/1. (Through a link of our own, so that the
    // program before this fix, which renamed over the link, damages only this scratch folder.)
    let dir = scratch("devstdout");
    let link = dir.join("stdout");
    std::os::unix::fs::symlink("/proc/self/fd/1", &link).expect("symlink");
    let out = run(&["--dump", link.to_str().expect("a UTF-8 temp path")]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_dump(&out.stdout);
    assert!(std::fs::symlink_metadata(&link).expect("link").file_type().is_symlink());
    if Path::new("/dev/stdout").exists() {
        let out = run(&["--dump", "/dev/stdout"]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_dump(&out.stdout);
        assert!(std::fs::symlink_metadata("/dev/stdout").expect("/dev/stdout").file_type().is_symlink());
    } else {
        eprintln!("SKIPPED: this system has no /dev/stdout");
    }
}

#[test]
fn the_file_a_shell_opened_for_us_is_written_not_replaced() {
    // `{ skinning --dump /dev/fd/1; echo after; } > w.json`: a new w.json renamed over the old one
    // would take the JSON, and "after", written to the shell's descriptor, would be lost.
    let dir = scratch("keep-inode");
    let file = dir.join("w.json");
    std::fs::write(&file, "old").expect("write");
    let inode = std::fs::metadata(&file).expect("meta").ino();
    for name in ["/dev/fd/1", "/dev/stdout", "w.json"] {
        let out = shell(&dir, &format!(r#"{{ "$0" --dump {name} && echo after; }} > w.json"#));
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        assert_eq!(std::fs::metadata(&file).expect("meta").ino(), inode, "{name}: w.json was replaced");
        let written = std::fs::read(&file).expect("read");
        let json = written.strip_suffix(b"after\n").unwrap_or_else(|| panic!("{name}: \"after\" was lost"));
        assert_dump(json);
    }
    assert_eq!(Folder::of(&dir).names(), ["w.json"], "no temporary file left");
}

#[test]
fn a_name_for_standard_output_moves_the_text_to_standard_error() {
    let dir = scratch("stdout-names");
    let model = dir.join("model.glb");
    std::fs::write(&model, fixture::build().glb()).expect("write");
    for name in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
        let out = program()
            .args(["--model", "model.glb", "--stats", "--dump", name])
            .current_dir(&dir)
            .output()
            .expect("runs");
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        assert_dump(&out.stdout);
        assert!(stderr(&out).contains("load: model.glb"), "{name}: {}", stderr(&out));
    }
    // The screenshot and its --stats line, into the file `>` opened.
    let out =
        shell(&dir, r#""$0" --headless --frames 2 --size 8x8 --screenshot /dev/stdout --stats > y.png"#);
    if no_gl(&out) {
        return;
    }
    assert!(out.status.success(), "{}", stderr(&out));
    let png = std::fs::read(dir.join("y.png")).expect("y.png");
    png::Decoder::new(std::io::Cursor::new(&png)).read_info().expect("y.png is a PNG and only that");
    assert!(stderr(&out).contains("stats: 2 frames"), "{}", stderr(&out));
}
