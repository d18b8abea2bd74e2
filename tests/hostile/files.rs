//! Cases 1, 3 and 9: where `--dump` and `--screenshot` write. `-` is standard output; devices,
//! FIFOs and open files are written directly, never replaced; a regular file is replaced whole,
//! keeping its permissions; links are followed; any legal name works; names that can never be
//! files are refused with the command line, and an unwritable screenshot before any drawing; a
//! folder that takes no new file is named as the cause. (Open files: `descriptors.rs`.)

use super::support::{Folder, Guard, fails_cleanly, no_gl, program, run, scratch, skip, stderr};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

fn text(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temp path")
}

fn assert_dump(json: &[u8]) {
    let dump: serde_json::Value = serde_json::from_slice(json).expect("standard output is the JSON dump");
    assert_eq!(dump["clip"], "bend");
}

#[test]
fn dump_dash_is_standard_output_and_only_the_json() {
    let dir = scratch("dash");
    let out = program().args(["--dump", "-"]).current_dir(&dir).output().expect("runs");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_dump(&out.stdout);
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    assert!(Folder::of(&dir).names().is_empty(), "no file named '-': {:?}", Folder::of(&dir).names());
}

#[test]
fn screenshot_dash_is_the_png_alone_and_the_stats_go_to_stderr() {
    let out = run(&["--headless", "--frames", "2", "--size", "32x24", "--screenshot", "-", "--stats"]);
    if no_gl(&out) {
        return;
    }
    assert!(out.status.success(), "{}", stderr(&out));
    let info = png::Decoder::new(std::io::Cursor::new(&out.stdout)).read_info().expect("stdout is a PNG");
    assert_eq!((info.info().width, info.info().height), (32, 24));
    assert!(stderr(&out).contains("stats: 2 frames"), "{}", stderr(&out));
}

#[test]
fn a_fifo_is_written_to_and_stays_a_fifo() {
    let dir = scratch("fifo");
    let fifo = dir.join("pipe.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    // A reader that is there before the program starts, as `jq < pipe.json &` would be. Opened
    // without waiting for a writer; the dump (a few KiB) fits in the pipe's buffer, so it is read
    // after the program ends, and a program that never opens the FIFO cannot hang the test.
    use std::os::unix::fs::OpenOptionsExt;
    let mut reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .expect("the FIFO opens for reading");
    let out = run(&["--dump", text(&fifo)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut json = Vec::new();
    std::io::Read::read_to_end(&mut reader, &mut json).expect("the FIFO can be read");
    assert_dump(&json);
    assert!(std::fs::symlink_metadata(&fifo).expect("still there").file_type().is_fifo());
    assert_eq!(Folder::of(&dir).names(), ["pipe.json"]);
}

#[test]
fn a_link_to_a_device_is_written_through_and_both_stay() {
    let dir = scratch("device");
    let link = dir.join("null.json");
    std::os::unix::fs::symlink("/dev/null", &link).expect("symlink");
    let out = run(&["--dump", text(&link)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        std::fs::symlink_metadata(&link).expect("link").file_type().is_symlink(),
        "the link was replaced"
    );
    assert!(std::fs::metadata("/dev/null").expect("/dev/null").file_type().is_char_device());
    assert_eq!(Folder::of(&dir).names(), ["null.json"]);

    // A device node itself (making one needs root; skipped quietly otherwise, the link covers it).
    let node = dir.join("node");
    if std::process::Command::new("mknod")
        .arg(&node)
        .args(["c", "1", "3"])
        .status()
        .is_ok_and(|s| s.success())
    {
        let out = run(&["--dump", text(&node)]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(std::fs::symlink_metadata(&node).expect("node").file_type().is_char_device());
    } else {
        eprintln!("SKIPPED: a device node of our own needs root (the link above covers the case)");
    }
}

#[test]
fn a_regular_file_is_replaced_whole_and_keeps_its_permissions() {
    let dir = scratch("regular");
    let file = dir.join("dump.json");
    std::fs::write(&file, "old").expect("write");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let before = std::fs::metadata(&file).expect("meta");
    let out = run(&["--dump", text(&file)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let after = std::fs::metadata(&file).expect("meta");
    assert_eq!(after.mode() & 0o7777, 0o640, "permissions kept");
    assert_ne!(after.ino(), before.ino(), "a new file renamed over the old one, not rewritten in place");
    assert_dump(&std::fs::read(&file).expect("read"));

    // A new file gets what any new file gets here (0666 less the umask), not a temp file's 0600.
    let reference = dir.join("reference");
    std::fs::File::create(&reference).expect("create");
    let fresh = dir.join("fresh.json");
    assert!(run(&["--dump", text(&fresh)]).status.success());
    let mode = |p: &Path| std::fs::metadata(p).expect("meta").mode() & 0o777;
    assert_eq!(mode(&fresh), mode(&reference));
    let mut names = Folder::of(&dir).names();
    names.sort();
    assert_eq!(names, ["dump.json", "fresh.json", "reference"], "no temporary file left");
}

#[test]
fn a_link_to_a_regular_file_replaces_the_target_and_stays_a_link() {
    let dir = scratch("link");
    std::fs::create_dir(dir.join("real")).expect("mkdir");
    let target = dir.join("real").join("dump.json");
    std::fs::write(&target, "old").expect("write");
    let link = dir.join("link.json");
    std::os::unix::fs::symlink("real/dump.json", &link).expect("a relative symlink");
    let out = run(&["--dump", text(&link)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&link).expect("link").file_type().is_symlink());
    assert_dump(&std::fs::read(&target).expect("the target was written"));
    assert_eq!(Folder::of(&dir.join("real")).names(), ["dump.json"]);
}

#[test]
fn the_longest_legal_name_works() {
    let dir = scratch("long");
    for len in [241, 250, 255] {
        let name = format!("{}.json", "n".repeat(len - 5));
        let out = run(&["--dump", text(&dir.join(&name))]);
        assert!(out.status.success(), "{len} bytes: {}", stderr(&out));
        assert_dump(&std::fs::read(dir.join(&name)).expect("written"));
    }
    assert_eq!(Folder::of(&dir).names().len(), 3, "{:?}", Folder::of(&dir).names());
    // The screenshot takes the same road.
    let name = format!("{}.png", "s".repeat(251));
    let out =
        run(&["--headless", "--frames", "1", "--size", "16x16", "--screenshot", text(&dir.join(&name))]);
    if !no_gl(&out) {
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(dir.join(&name).exists());
    }
}

#[test]
fn names_that_can_never_be_files_are_refused_with_the_command_line() {
    let dir = scratch("never");
    for name in ["", ".", "..", "/", "folder/", "folder/."] {
        let out = program().args(["--dump", name]).current_dir(&dir).output().expect("runs");
        let line = fails_cleanly(&out, 2);
        assert!(line.contains("--dump"), "{name:?}: {line}");
        let out = program()
            .args(["--headless", "--frames", "1", "--screenshot", name])
            .current_dir(&dir)
            .output()
            .expect("runs");
        fails_cleanly(&out, 2);
    }
    assert!(Folder::of(&dir).names().is_empty());
}

#[test]
fn an_unwritable_screenshot_is_reported_before_any_frame_is_drawn() {
    let dir = scratch("early");
    let mut places = vec![dir.join("no-such-folder").join("shot.png")];
    // A read-only folder (root writes anywhere, so only for other users).
    let locked = dir.join("locked");
    std::fs::create_dir(&locked).expect("mkdir");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).expect("chmod");
    if std::fs::write(locked.join("probe"), b"").is_err() {
        places.push(locked.join("shot.png"));
    } else {
        eprintln!(
            "SKIPPED: a read-only folder does not stop root (write_faults.rs's read-only file system does)"
        );
    }
    for place in places {
        // Far more frames than a few seconds can draw: the check must come first.
        let args = ["--headless", "--frames", "100000000", "--screenshot", text(&place)];
        let started = Instant::now();
        let child = program().args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("runs");
        let out = Guard(child).finish(Duration::from_secs(30));
        let line = fails_cleanly(&out, 1);
        assert!(line.contains("cannot write") && line.contains("shot.png"), "{line}");
        assert!(started.elapsed() < Duration::from_secs(10), "refused only after {:?}", started.elapsed());
        assert!(!stderr(&out).contains("OpenGL"), "it started drawing: {}", stderr(&out));
    }
    // Nothing was created, not even a probe.
    let mut names = Folder::of(&dir).names();
    names.sort();
    assert_eq!(names, ["locked"]);
}

#[test]
fn a_folder_that_takes_no_new_file_is_named_not_the_temporary_file() {
    // A file is replaced through a temporary file beside it: when that cannot be made, the line
    // names the folder and what is wrong with it, never the temporary file's random name.
    let dir = scratch("folders");
    let out = program().args(["--dump", "d/x/y.json"]).current_dir(&dir).output().expect("runs");
    let line = fails_cleanly(&out, 1);
    assert!(line.contains("the folder d/x does not exist"), "{line}");
    assert!(!line.contains(".skinning-"), "{line}");

    // A writable file in a read-only folder (as another user than root, who writes anywhere).
    let locked = dir.join("rodir");
    std::fs::create_dir(&locked).expect("mkdir");
    let file = locked.join("f.json");
    std::fs::write(&file, "old").expect("write");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o666)).expect("chmod");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).expect("chmod");
    let bin = program().get_program().to_owned();
    // SAFETY: geteuid only reads this process's user id.
    let mut command = if unsafe { libc::geteuid() } != 0 {
        std::process::Command::new(bin)
    } else if super::support::has_tool("setpriv") {
        // `nobody`, with no groups: the folder's "others" bits are what count.
        let mut command = std::process::Command::new("setpriv");
        command.args(["--reuid=65534", "--regid=65534", "--clear-groups"]).arg(bin);
        command
    } else {
        return skip("a read-only folder needs another user than root: setpriv is not installed");
    };
    let out = command.args(["--dump", text(&file)]).current_dir(&dir).output().expect("runs");
    let line = fails_cleanly(&out, 1);
    let folder = format!("the folder {} is not writable", locked.display());
    assert!(line.contains(&folder) && !line.contains(".skinning-"), "{line}");
    assert_eq!(std::fs::read(&file).expect("read"), b"old", "the file is as it was");
    assert_eq!(Folder::of(&locked).names(), ["f.json"]);
}

#[test]
fn a_screenshot_named_for_another_format_is_refused_before_drawing() {
    // The program writes PNG: `x.jpg` would be PNG bytes under a JPEG's name.
    let dir = scratch("not-png");
    for name in ["x.jpg", "x.JPEG", "shot.bmp", "out.txt"] {
        let out = program()
            .args(["--headless", "--frames", "1", "--size", "8x8", "--screenshot", name])
            .current_dir(&dir)
            .output()
            .expect("runs");
        let line = fails_cleanly(&out, 2);
        assert!(line.contains("PNG") && line.contains("FILE.png") && line.contains(name), "{line}");
    }
    assert!(Folder::of(&dir).names().is_empty(), "{:?}", Folder::of(&dir).names());
    // Any letter case of .png is a PNG's name.
    let out =
        run(&["--headless", "--frames", "1", "--size", "8x8", "--screenshot", text(&dir.join("x.PNG"))]);
    if no_gl(&out) {
        return;
    }
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(Folder::of(&dir).names(), ["x.PNG"]);
}
