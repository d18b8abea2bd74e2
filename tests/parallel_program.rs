//! The program blends on all threads or one (`--threads`, `--parallel-from`), and nothing it writes
//! depends on which: a dump is the same file byte for byte, and `--stats` says who blended.

use skinning_fast::parallel::PARALLEL_FROM_VERTICES;

/// The dump of `args`, run with `threads`.
fn dump(test: &str, args: &[&str], threads: &[&str]) -> Vec<u8> {
    let path = common::scratch(test).join("d.json");
    let path_arg = path.to_str().expect("a UTF-8 temp path");
    let out = common::run(&[&["--dump", path_arg], args, threads].concat());
    assert!(out.status.success(), "{args:?} {threads:?}: {}", String::from_utf8_lossy(&out.stderr));
    std::fs::read(&path).expect("the dump was written")
}

#[test]
fn a_dump_is_the_same_file_on_one_thread_or_two() {
    for (i, args) in [
        &["--clip", "seed", "--frames", "40", "--fixed-dt", "0.05"][..],
        &["--clip", "bend", "--frames", "40", "--fixed-dt", "0.05", "--method", "lbs"],
        &["--clip", "twist", "--frames", "40", "--fixed-dt", "0.05", "--method", "dqs"],
    ]
    .into_iter()
    .enumerate()
    {
        let one = dump(&format!("one{i}"), args, &["--threads", "1"]);
        // Forced: all 13 vertices on two threads, in chunks of 2 (13 / (2 threads x 4)).
        let two = dump(&format!("two{i}"), args, &["--threads", "2", "--parallel-from", "0"]);
        assert!(one.len() > 1000, "{args:?}: a real dump");
        assert!(one == two, "{args:?}: the dump blended on two threads differs from one thread's");
    }
}

#[test]
fn stats_say_how_many_threads_blended() {
    let stats = |threads: &[&str]| {
        let args =
            [&["--headless", "--frames", "100", "--fixed-dt", "0.016", "--stats"][..], threads].concat();
        let out = common::run_gl(&args)?;
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        Some(stdout.lines().find(|l| l.starts_with("stats:")).expect("a stats line").to_string())
    };
    // The article's 13 vertices stay on one thread unless told otherwise.
    let Some(default) = stats(&[]) else { return };
    assert!(default.contains("blend on 1 thread (13 vertices)"), "{default}");
    let Some(forced) = stats(&["--threads", "2", "--parallel-from", "0"]) else { return };
    assert!(forced.contains("blend on 2 threads (13 vertices)"), "{forced}");
    // Blended on two threads, the frames still allocate nothing, counted on every thread.
    assert!(forced.contains(" 0 allocations drawing frames 4..100"), "{forced}");
    let Some(one) = stats(&["--threads", "1", "--parallel-from", "0"]) else { return };
    assert!(one.contains("blend on 1 thread (13 vertices)"), "{one}");
}

#[test]
fn beside_a_software_renderer_the_blend_keeps_to_one_thread_unless_told() {
    // Mesa's llvmpipe draws with a thread per core: without --threads the blend stays on one.
    let args = ["--headless", "--frames", "10", "--stats", "--parallel-from", "0"];
    let Some(out) = common::run_gl(&args) else { return };
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let stats = stdout.lines().find(|l| l.starts_with("stats:")).expect("a stats line");
    if stderr.contains("llvmpipe") || stderr.contains("softpipe") {
        assert!(
            stats.contains("blend on 1 thread (13 vertices; the renderer draws on the other cores)"),
            "{stats}"
        );
    } else {
        let all = std::thread::available_parallelism().map_or(1, |n| n.get());
        let expected =
            if all == 1 { "blend on 1 thread".to_string() } else { format!("blend on {all} threads") };
        assert!(stats.contains(&expected), "{stderr}\n{stats}");
    }
    // Asked for, the threads blend whatever draws.
    let Some(out) = common::run_gl(&[&args[..], &["--threads", "2"]].concat()) else { return };
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("blend on 2 threads (13 vertices)"), "{stdout}");
}

#[test]
fn help_gives_the_threshold_the_code_uses() {
    let out = common::run(&["--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("--threads N"), "{help}");
    let default = format!("(default {PARALLEL_FROM_VERTICES}, ");
    assert!(help.contains(&default), "--help should say {default}: {help}");
}

#[test]
fn bad_thread_counts_are_one_line_and_exit_2() {
    for args in [&["--threads", "0"][..], &["--threads", "257"], &["--parallel-from", "some"]] {
        let out = common::run(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(args[0]), "{args:?}: the message names the flag: {err}");
    }
}
