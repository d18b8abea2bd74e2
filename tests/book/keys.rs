//! The README says the window test presses every key of its table: this keeps it so. Each key in
//! the first column of the README's key table (`` `B` ``, `Space`; of a range `` `1` … `9` ``, the
//! first) must be a key the window tests name to `xdotool` (a string in the source: `"b"`,
//! `"space"`, `"1"`): `tests/interaction.rs`, the chapters' own window tests `tests/*_window.rs`, and
//! their window helper. A key added to the table without a press in a window test fails here.

use crate::markdown::{code_spans, read};
use crate::printed::string_literals;
use std::path::Path;

/// xdotool's name for a key as the README writes it.
fn xdotool_name(key: &str) -> String {
    match key {
        "." => "period".into(),
        "," => "comma".into(),
        "[" => "bracketleft".into(),
        "]" => "bracketright".into(),
        "+" => "plus".into(),
        "-" => "minus".into(),
        "Space" => "space".into(),
        key => key.to_lowercase(),
    }
}

/// The keys of the README's key table: the code spans of each row's first column, and `Space`.
pub fn table_keys(readme: &str) -> Vec<String> {
    let section = readme.split("\n## ").find(|s| s.starts_with("The keys")).unwrap_or_default();
    let mut keys = Vec::new();
    for row in section.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| key ")) {
        let first = row.split('|').nth(1).unwrap_or_default();
        if first.contains("Space") {
            keys.push("Space".to_string());
        }
        // After `…`, a span ends a range whose first key stands for it.
        let mut before = 0;
        for (span, end) in code_spans(first) {
            let start = end - span.len() - 2;
            if !first[before..start].contains('…') {
                keys.push(span);
            }
            before = end;
        }
    }
    keys
}

#[test]
fn the_window_test_presses_every_key_of_the_readme() {
    let keys = table_keys(&read(Path::new("README.md")));
    assert!(keys.len() >= 20, "only {} keys found in the README's table \"The keys, in brief\"", keys.len());
    let mut pressed = string_literals(&read(Path::new("tests/interaction.rs")));
    pressed.extend(string_literals(&read(Path::new("tests/common/window.rs"))));
    let tests = std::fs::read_dir(crate::markdown::root().join("tests")).expect("tests/ is there");
    for entry in tests.map(|e| e.expect("readable")) {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with("_window.rs") {
            pressed.extend(string_literals(&read(&Path::new("tests").join(&name))));
        }
    }
    let missing: Vec<&String> = keys.iter().filter(|k| !pressed.contains(&xdotool_name(k))).collect();
    assert!(
        missing.is_empty(),
        "README.md says the window tests press every key of its table, but neither tests/interaction.rs \
         nor a tests/*_window.rs presses {missing:?}"
    );
}
