//! What the robustness tests share: loading thousands of damaged copies of a file on a thread of
//! their own, judging each load (loaded, or refused with one line; never a panic, a second line or a
//! second of work), noticing a hang, and running the program itself on a damaged file.

use std::fmt::Display;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

/// One damaged file: `Ok(true)` loaded, `Ok(false)` refused with a one-line error, `Err` what went
/// wrong.
pub type Outcome = Result<bool, String>;

/// Loads one damaged copy with `load` and judges it. `copy` names it in a report; `keep` saves the
/// file for reproducing a panic and says where.
pub fn judge<E: Display>(
    copy: &str,
    load: impl FnOnce() -> Result<(), E> + std::panic::UnwindSafe,
    keep: impl FnOnce() -> String,
) -> Outcome {
    // CPU time (`cpu.rs`): a loaded machine does not slow this thread's count. A hang that waits
    // rather than works is caught by the wall clock in `gather`.
    let (result, took, clock) = super::cpu::timed(super::cpu::this_thread, || std::panic::catch_unwind(load));
    match result {
        Err(_) => Err(format!("{copy} panicked (saved as {})", keep())),
        Ok(_) if took > Duration::from_secs(1) => Err(format!("{copy} took {took:?} of {clock} time")),
        Ok(Ok(())) => Ok(true),
        Ok(Err(e)) if e.to_string().contains('\n') => Err(format!("{copy}: two lines: {e}")),
        Ok(Err(_)) => Ok(false),
    }
}

/// Runs `work` on a thread of its own, which sends one [`Outcome`] per damaged file, and gathers
/// them: (files tried, files loaded, what went wrong). A file that takes 10 s is a hang: the test
/// fails there, instead of waiting for ever.
pub fn gather(work: impl FnOnce(mpsc::Sender<Outcome>) + Send + 'static) -> (usize, usize, Vec<String>) {
    let (progress, reports) = mpsc::channel();
    std::thread::spawn(move || work(progress));
    let (mut tried, mut loaded, mut failures) = (0, 0, Vec::new());
    loop {
        match reports.recv_timeout(Duration::from_secs(10)) {
            Ok(report) => {
                tried += 1;
                match report {
                    Ok(true) => loaded += 1,
                    Ok(false) => {}
                    Err(failure) => failures.push(failure),
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                panic!("damaged file {tried} hangs (10 s without an answer)")
            }
        }
    }
    (tried, loaded, failures)
}

/// `skinning --model model --dump out` on a damaged file: it loads (exit 0, the dump is JSON) or
/// is refused (exit 1, one line, no dump), in under 10 s, without a panic. Returns whether it loaded.
pub fn through_the_program(model: &Path, out: &Path, copy: &str) -> bool {
    let _ = std::fs::remove_file(out);
    let args = ["--model", model.to_str().unwrap(), "--dump", out.to_str().unwrap()];
    let (result, took, clock) = super::cpu::timed(super::cpu::children, || super::run(&args));
    let err = String::from_utf8_lossy(&result.stderr);
    assert!(took < Duration::from_secs(10), "{copy} took {took:?} of {clock} time");
    assert!(!err.contains("internal error") && !err.contains("panicked"), "{copy}: {err}");
    match result.status.code() {
        Some(0) => {
            let dump = std::fs::read_to_string(out).expect("a dump");
            serde_json::from_str::<serde_json::Value>(&dump).expect("the dump is JSON");
            true
        }
        Some(1) => {
            assert_eq!(err.trim_end().lines().count(), 1, "{copy}: {err}");
            assert!(!out.exists(), "{copy}: a dump was written");
            false
        }
        other => panic!("{copy}: exit {other:?}: {err}"),
    }
}
