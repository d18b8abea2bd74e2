//! The looking flags (chapter 19): a bone that cannot look, a point that is not one, a limit out of
//! range, a forward with no head to look, each refused in one line with exit 2, nothing written.

use super::support::{Folder, fails_cleanly, run, scratch};

#[test]
fn each_mistake_in_the_looking_flags_is_one_line_and_nothing_is_written() {
    let dir = scratch("looks");
    let dump = dir.join("look.json");
    let dump = dump.to_str().expect("utf-8");
    let before = Folder::of(&dir);
    let cases: [(&[&str], &str); 7] = [
        // The root carries the whole scene: it cannot look.
        (&["--look-at", "root=1,1,1"], "cannot look"),
        (&["--look-at", "bone31=1,1"], "--look-at wants BONE=X,Y,Z"),
        (&["--look-at", "bone31=1,nan,1"], "three finite numbers"),
        (&["--look-at", "claw=1,1,1"], "unknown bone \"claw\" for --look-at"),
        (&["--look-at", "bone31=1,1,1", "--look-limit", "0"], "--look-limit wants the most each joint turns"),
        (&["--look-at", "bone31=1,1,1", "--look-forward", "up"], "--look-forward wants the axis"),
        (&["--look-forward", "y"], "give a --look-at BONE=X,Y,Z too"),
    ];
    for (args, expected) in cases {
        let out = run(&[args, &["--dump", dump]].concat());
        let line = fails_cleanly(&out, 2);
        assert!(line.contains(expected), "{args:?}: {line}");
        before.unchanged(&dir);
    }
}
