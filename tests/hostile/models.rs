//! `--model` paths that are not model files: a device that never ends (`/dev/zero`), a FIFO that no
//! one writes, a folder, and a model whose buffer is a FIFO. Each is one line, exit 1, at once:
//! the program asks what the path is before opening it.

use super::support::{Guard, fails_cleanly, program, scratch};
use common::fixture;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::Duration;

/// Runs `--model path --dump -` under a 2 GiB address-space limit, so that a program that reads
/// `/dev/zero` whole fails fast instead of filling the machine's memory, and gives it 20 s.
fn run_model(path: &Path) -> Output {
    let mut command = program();
    command.args(["--model", path.to_str().expect("a UTF-8 temp path"), "--dump", "-"]);
    // SAFETY: between fork and exec only `setrlimit`, which is async-signal-safe, runs.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit { rlim_cur: 2 << 30, rlim_max: 2 << 30 };
            libc::setrlimit(libc::RLIMIT_AS, &limit);
            Ok(())
        });
    }
    let child =
        command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("runs");
    Guard(child).finish(Duration::from_secs(20))
}

fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

#[test]
fn a_model_path_that_is_not_a_regular_file_is_refused_in_one_line() {
    let dir = scratch("model-kinds");
    let fifo = dir.join("pipe.glb");
    mkfifo(&fifo);
    let folder = dir.join("folder.gltf");
    std::fs::create_dir(&folder).expect("mkdir");
    for (path, kind) in [(Path::new("/dev/zero"), "a device"), (&fifo, "a FIFO"), (&folder, "a folder")] {
        let line = fails_cleanly(&run_model(path), 1);
        assert!(
            line.contains(&path.display().to_string())
                && line.contains(&format!("{kind}, not a regular file")),
            "{}: {line}",
            path.display()
        );
        // It names every kind of model file the program reads.
        assert!(line.contains(".gltf") && line.contains(".glb") && line.contains(".md5mesh"), "{line}");
    }
    // And so does a file that is neither glTF nor MD5, and a folder named like an MD5 model.
    let text = dir.join("notes.txt");
    std::fs::write(&text, "not a model\n").expect("written");
    let md5_folder = dir.join("folder.md5mesh");
    std::fs::create_dir(&md5_folder).expect("mkdir");
    for path in [&text, &md5_folder] {
        let line = fails_cleanly(&run_model(path), 1);
        assert!(line.contains(".gltf") && line.contains(".glb") && line.contains(".md5mesh"), "{line}");
    }
}

#[test]
fn a_buffer_that_is_a_fifo_is_refused_in_one_line() {
    let dir = scratch("buffer-fifo");
    let model = fixture::build().external(&dir, "model.gltf", "data.bin");
    std::fs::remove_file(dir.join("data.bin")).expect("rm");
    mkfifo(&dir.join("data.bin"));
    let line = fails_cleanly(&run_model(&model), 1);
    assert!(line.contains("data.bin is not a regular file"), "{line}");
}
