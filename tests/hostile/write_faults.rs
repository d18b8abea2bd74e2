//! Every fault of a write ends in one line and leaves no file but those complete before: the
//! file-size limit (`ulimit -f`, RLIMIT_FSIZE: the kernel sends SIGXFSZ, which the program ignores so
//! the write fails with EFBIG and is said), a full disk (a small tmpfs), and a read-only file system
//! (which stops root too, unlike a folder's permission bits: `files.rs` has those). Signals that ask
//! a program to stop are `signals.rs`'s.
//!
//! A full disk and a read-only file system are mounted in a mount namespace of the run's own
//! (`unshare -m` as root, `unshare -rm` for anyone else where user namespaces are allowed); the case
//! says SKIPPED where neither works.

use super::support::{Folder, fails_cleanly, no_gl, program, scratch, skip};
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The runs that write a file: a dump, both exports (a `.glb`, a `.gltf`, an MD5 model into a
/// folder that is not there yet, which is made and removed again), each into `dir`.
fn writes(dir: &Path) -> Vec<Vec<String>> {
    let at = |name: &str| dir.join(name).to_str().expect("utf-8").to_string();
    let frames = ["--frames", "2000"].map(String::from);
    vec![
        [vec!["--dump".to_string(), at("dump.json")], frames.to_vec()].concat(),
        vec!["--export-gltf".to_string(), at("arm.glb")],
        vec!["--export-gltf".to_string(), at("arm.gltf")],
        vec!["--export-md5".to_string(), at("md5/arm.md5mesh")],
    ]
}

/// The program with `args`, its file-size limit set to `bytes` (inherited across `exec`).
fn limited(args: &[String], bytes: u64) -> Output {
    use std::os::unix::process::CommandExt;
    let mut command = program();
    command.args(args).stdin(Stdio::null());
    // SAFETY: between fork and exec only `setrlimit`, which is async-signal-safe, runs.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit { rlim_cur: bytes, rlim_max: bytes };
            match libc::setrlimit(libc::RLIMIT_FSIZE, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    command.output().expect("the skinning program starts")
}

#[test]
fn a_write_past_the_file_size_limit_is_one_line_and_leaves_the_folder_as_it_was() {
    let dir = scratch("fsize");
    // An older, complete file of the same name stays as it was.
    std::fs::write(dir.join("arm.glb"), "the old export").expect("write");
    let before = Folder::of(&dir);
    for args in writes(&dir) {
        let out = limited(&args, 4096);
        let line = fails_cleanly(&out, 1);
        assert!(line.contains("File too large") && line.contains("ulimit -f"), "{args:?}: {line}");
        before.unchanged(&dir);
    }
    assert_eq!(std::fs::read_to_string(dir.join("arm.glb")).expect("read"), "the old export");
    // The same runs under a limit they fit in write their files.
    for args in writes(&dir) {
        assert!(limited(&args, 1 << 30).status.success(), "{args:?}");
    }
}

#[test]
fn a_screenshot_past_the_file_size_limit_says_so_too() {
    // The PNG encoder hands a file's error back as text; the line still says what to do.
    let dir = scratch("fsize-picture");
    let shot = dir.join("shot.png").to_str().expect("utf-8").to_string();
    let args = ["--headless", "--frames", "1", "--size", "256x256", "--screenshot", &shot].map(String::from);
    let out = limited(&args, 1024);
    if no_gl(&out) {
        return;
    }
    let line = fails_cleanly(&out, 1);
    assert!(line.contains("File too large") && line.contains("ulimit -f"), "{line}");
    assert!(Folder::of(&dir).names().is_empty(), "a picture was left: {:?}", Folder::of(&dir).names());
    assert!(limited(&args, 1 << 30).status.success(), "the same picture under a limit it fits in");
}

/// `program` with `args`, run in a mount namespace of its own where a tmpfs (`options`) is
/// mounted on `dir` first, with what it left in `dir` (listed inside the namespace, before the
/// file system goes); None (after SKIPPED) where no mount namespace can be made.
fn on_a_tmpfs(dir: &Path, options: &str, args: &[String]) -> Option<(Output, String)> {
    let works = |flags: &str| {
        let status = Command::new("unshare").args([flags, "true"]).stderr(Stdio::null()).status();
        status.is_ok_and(|s| s.success())
    };
    let Some(flags) = ["-m", "-rm"].into_iter().find(|flags| works(flags)) else {
        skip("a small file system needs `unshare -m` (root) or `unshare -rm` (user namespaces)");
        return None;
    };
    let listing = dir.with_extension("left");
    let script = format!(
        "mount -t tmpfs -o {options} skinning-test '{0}' || exit 99; \"$@\"; code=$?; ls -A '{0}' > '{1}'; exit $code",
        dir.display(),
        listing.display()
    );
    let inner = program();
    let mut command = Command::new("unshare");
    command.args([flags, "sh", "-c", &script, "sh"]).arg(inner.get_program()).args(args);
    command.current_dir(inner.get_current_dir().expect("a scratch folder"));
    let out = command.stdin(Stdio::null()).output().expect("unshare runs");
    assert_ne!(out.status.code(), Some(99), "the tmpfs mounts");
    let left = std::fs::read_to_string(&listing).expect("the listing");
    Some((out, left))
}

#[test]
fn a_full_disk_is_one_line_that_says_so_and_leaves_the_folder_as_it_was() {
    let dir = scratch("full-disk");
    for args in writes(&dir) {
        // 8 KiB of room: every one of these files is larger.
        let Some((out, left)) = on_a_tmpfs(&dir, "size=8k", &args) else { return };
        let line = fails_cleanly(&out, 1);
        assert!(
            line.contains("No space left") && line.contains("disk or your quota is full"),
            "{args:?}: {line}"
        );
        assert_eq!(left, "", "{args:?} left files behind");
    }
}

#[test]
fn a_read_only_file_system_is_one_line_for_root_too() {
    let dir = scratch("read-only");
    for args in writes(&dir) {
        let Some((out, left)) = on_a_tmpfs(&dir, "ro", &args) else { return };
        let line = fails_cleanly(&out, 1);
        assert!(line.contains("read-only"), "{args:?}: {line}");
        assert_eq!(left, "", "{args:?}");
    }
}
