//! What a test or a benchmark prints, quoted in the book as `$ cargo test --test NAME [FILTER] --
//! --nocapture` and its lines. Running a test inside a test is too slow and too circular, so this
//! checks what can be checked without it: the target exists, the filter names one of its test
//! functions, and each quoted line is one that a string in the target's sources prints, each
//! `{...}` of the string standing for whatever it formats (a figure). The figures themselves are
//! the target's to check: each such test asserts the bound the book states.

use crate::console::Quoted;
use crate::markdown::root;
use crate::matching::{is_ellipsis, line_matches};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir` (or `dir` itself if it is one).
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    if dir.is_file() {
        out.push(dir.to_path_buf());
    } else if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() || path.extension().is_some_and(|e| e == "rs") {
                rust_files(&path, out);
            }
        }
    }
}

/// The sources of the target a `cargo test` or `cargo bench` command names, and the filter.
fn target(words: &[String]) -> Result<(Vec<PathBuf>, Option<String>), String> {
    let (cargo, rest) = words.split_at(2.min(words.len()));
    if !matches!(cargo.get(1).map(String::as_str), Some("test" | "bench")) {
        return Err("the book quotes `cargo test` and `cargo bench` only".into());
    }
    let mut places: Vec<PathBuf> = Vec::new();
    let mut filter = None;
    let mut i = 0;
    while i < rest.len() {
        let value = rest.get(i + 1).cloned().unwrap_or_default();
        match rest[i].as_str() {
            "--" => break,
            "--test" => {
                let file = root().join(format!("tests/{value}.rs"));
                places.push(if file.is_file() { file } else { root().join(format!("tests/{value}")) });
                places.push(root().join("tests/common"));
                i += 1;
            }
            "--bench" => {
                places.push(root().join("benches"));
                if !root().join(format!("benches/{value}.rs")).is_file() {
                    return Err(format!("there is no benches/{value}.rs"));
                }
                i += 1;
            }
            "--bin" | "--lib" => places.push(root().join("src")),
            "--release" => {}
            word if word.starts_with('-') => {
                return Err(format!("the book's test commands do not take `{word}`"));
            }
            word => filter = Some(word.to_string()),
        }
        i += 1;
    }
    if places.is_empty() {
        return Err("name the target: `--test NAME`, `--bin skinning`, `--lib` or `--bench NAME`".into());
    }
    if !places[0].exists() {
        return Err(format!("{} does not exist", places[0].display()));
    }
    let mut files = Vec::new();
    for place in &places {
        rust_files(place, &mut files);
    }
    Ok((files, filter))
}

/// The string literals of Rust source, unescaped (`\n`, `\"`, `\\`, `\t`, `\u{..}`, a line
/// continuation), outside comments and character literals.
pub fn string_literals(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                chars.by_ref().find(|&c| c == '\n');
            }
            // A character literal: '"', '\'', '\\' or any other.
            '\'' => {
                let mut ahead = chars.clone();
                let first = ahead.next();
                let second = if first == Some('\\') { ahead.nth(1) } else { ahead.next() };
                if second == Some('\'') {
                    chars = ahead;
                }
            }
            '"' => {
                let mut text = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => match chars.next() {
                            Some('n') => text.push('\n'),
                            Some('t') => text.push('\t'),
                            Some('u') => {
                                let code: String = chars.by_ref().take_while(|&c| c != '}').collect();
                                let code = u32::from_str_radix(code.trim_start_matches('{'), 16).ok();
                                text.extend(code.and_then(char::from_u32));
                            }
                            Some('\n') => while chars.next_if(|c| c.is_whitespace()).is_some() {},
                            Some(other) => text.push(other),
                            None => {}
                        },
                        c => text.push(c),
                    }
                }
                found.push(text);
            }
            _ => {}
        }
    }
    found
}

/// A format string as a quoted line's pattern: each `{...}` stands for any text (`[..]`), `{{`
/// and `}}` for a brace.
pub fn pattern(format: &str) -> String {
    let mut out = String::new();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => out.push(chars.next().unwrap_or('{')),
            '}' if chars.peek() == Some(&'}') => out.push(chars.next().unwrap_or('}')),
            '{' => {
                chars.by_ref().find(|&c| c == '}');
                out.push_str("[..]");
            }
            c => out.push(c),
        }
    }
    out
}

/// Whether a quoted line is one that `format` (a string of the source, one of its lines) prints:
/// the format needs words of its own, not only holes.
fn prints(format: &str, line: &str) -> bool {
    let pattern = pattern(format);
    let words = pattern.replace("[..]", "").chars().filter(|c| c.is_alphanumeric()).count();
    words >= 4 && line_matches(pattern.trim(), line.trim())
}

/// Checks one quoted test command: see the file's opening comment.
pub fn check_printed(q: &Quoted) -> Result<(), String> {
    let (files, filter) = target(&q.words)?;
    let sources: Vec<String> = files.iter().filter_map(|f| std::fs::read_to_string(f).ok()).collect();
    if let Some(filter) = &filter {
        let names_it = |s: &String| {
            s.match_indices("fn ").any(|(at, _)| {
                let name: String =
                    s[at + 3..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                name.contains(filter.as_str())
            })
        };
        if !sources.iter().any(names_it) {
            return Err(format!(
                "`{}`: no function of its target has `{filter}` in its name",
                q.words.join(" ")
            ));
        }
    }
    let formats: Vec<String> = sources
        .iter()
        .flat_map(|s| string_literals(s))
        .flat_map(|l| l.lines().map(str::to_string).collect::<Vec<_>>())
        .collect();
    let lines: Vec<&String> = q.output.iter().filter(|l| !is_ellipsis(l)).collect();
    if lines.is_empty() {
        return Err(format!("`{}`: quote the lines it prints under it", q.words.join(" ")));
    }
    for line in lines {
        if !formats.iter().any(|f| prints(f, line)) {
            return Err(format!("`{}` prints no line like `{line}`", q.words.join(" ")));
        }
    }
    Ok(())
}
