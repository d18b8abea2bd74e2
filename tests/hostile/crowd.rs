//! `--crowd N`: a count that is no count (0, past the limit, too big for any integer, not a number,
//! negative, empty) is one line and exit 2, as every other flag's bad value; a crowd with `--dump`,
//! which writes one character's numbers, is refused the same way.

use super::support::{Folder, fails_cleanly, run, scratch};

#[test]
fn a_crowd_of_no_count_is_one_line_and_exit_2() {
    for v in ["0", "10001", "99999999999999999999", "abc", "-3", "", "2.5", "1e3"] {
        let out = run(&["--crowd", v, "--headless", "--frames", "1"]);
        let line = fails_cleanly(&out, 2);
        assert!(line.contains("--crowd wants a whole number of characters from 1 to 10000"), "{v:?}: {line}");
        assert!(line.contains(&format!("{v:?}")), "{v:?}: the value is named: {line}");
    }
    // With no value at all, lexopt's own word for it, in one line too.
    let out = run(&["--crowd"]);
    fails_cleanly(&out, 2);
}

#[test]
fn a_dump_of_a_crowd_is_refused_before_anything_is_written() {
    let dir = scratch("crowd-dump");
    let dump = dir.join("dump.json");
    let out = run(&["--crowd", "4", "--dump", dump.to_str().expect("utf-8")]);
    let line = fails_cleanly(&out, 2);
    assert!(line.contains("--dump writes one character's numbers: run it without --crowd"), "{line}");
    assert!(Folder::of(&dir).names().is_empty());
}
