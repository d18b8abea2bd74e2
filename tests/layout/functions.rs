//! No function longer than 80 lines, outside tests (chapter 15's house rule): a function is
//! counted from the line of its `fn` to the line of its closing brace, as rustfmt lays it out.
//! Test files (`tests.rs`, `*_tests.rs`), a file's own `mod tests { ... }` and `#[test]` or
//! `#[cfg(test)]` functions are left out.

use std::path::{Path, PathBuf};

/// The longest a function may be, in lines.
const MAX_FUNCTION_LINES: usize = 80;

/// The source folders checked, from the top of the workspace: the program's, the three crates'
/// and the benches'.
const CHECKED: [&str; 5] = ["src", "crates/method/src", "crates/fast/src", "crates/formats/src", "benches"];

/// The text with its comments, string literals and character literals blanked out (each
/// character becomes a space, each line break stays), so that braces count only in code.
pub(crate) fn blank_literals(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // Blanks a part of the text, keeping its line breaks.
    let blank = |out: &mut String, part: &[char]| {
        out.extend(part.iter().map(|&c| if c == '\n' { '\n' } else { ' ' }));
    };
    while i < chars.len() {
        let rest = &chars[i..];
        let starts = |s: &str| rest.iter().take(s.len()).copied().eq(s.chars());
        let after_word = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        let end = if starts("//") {
            i + rest.iter().position(|&c| c == '\n').unwrap_or(rest.len())
        } else if starts("/*") {
            i + 2 + find(&rest[2..], "*/").map_or(rest.len() - 2, |at| at + 2)
        } else if !after_word && (starts("r\"") || starts("r#") || starts("br\"") || starts("br#")) {
            let open = rest.iter().position(|&c| c == '"').unwrap_or(0);
            let hashes = rest[..open].iter().filter(|&&c| c == '#').count();
            let close: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            let body = &rest[open + 1..];
            i + open + 1 + find(body, &close).map_or(body.len(), |at| at + close.len())
        } else if rest[0] == '"' {
            let mut j = 1;
            while j < rest.len() && rest[j] != '"' {
                j += if rest[j] == '\\' { 2 } else { 1 };
            }
            i + (j + 1).min(rest.len())
        } else if rest[0] == '\'' && rest.get(1) == Some(&'\\') {
            i + 2 + rest[2..].iter().position(|&c| c == '\'').map_or(rest.len() - 2, |at| at + 1)
        } else if rest[0] == '\'' && rest.get(2) == Some(&'\'') {
            i + 3
        } else {
            out.push(rest[0]);
            i += 1;
            continue;
        };
        blank(&mut out, &chars[i..end]);
        i = end;
    }
    out
}

/// Where `needle` first starts in `hay`.
fn find(hay: &[char], needle: &str) -> Option<usize> {
    let needle: Vec<char> = needle.chars().collect();
    hay.windows(needle.len()).position(|w| w == needle.as_slice())
}

/// Each function of `code` (blanked by [`blank_literals`]) with a body: its name, the line of its
/// `fn` (1 for the first) and its length in lines. Test modules and test functions are left out.
fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut found = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        if line.trim_start().starts_with("mod tests") {
            break;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(fn_at) = words.iter().position(|&w| w == "fn") else { continue };
        let qualifiers = ["pub", "const", "async", "unsafe", "extern", "default"];
        if !words[..fn_at].iter().all(|w| qualifiers.iter().any(|q| w.starts_with(q))) {
            continue;
        }
        let above = lines[..at].iter().rev().map(|l| l.trim()).take_while(|l| l.starts_with("#["));
        if above.clone().any(|l| l.starts_with("#[test]") || l.starts_with("#[cfg(test)]")) {
            continue;
        }
        let name = words.get(fn_at + 1).map_or("", |w| w.split(['(', '<']).next().unwrap_or(w));
        if let Some(end) = body_end(&lines, at) {
            found.push((name.to_string(), at + 1, end - at + 1));
        }
    }
    found
}

/// The line of the brace that closes the body of the function whose `fn` is on line `start`;
/// None for a declaration without a body (`fn f();` in a trait). A `;` inside the signature's
/// brackets (`[u8; 4]`) ends nothing.
fn body_end(lines: &[&str], start: usize) -> Option<usize> {
    let mut depth = 0;
    let mut brackets = 0;
    for (at, line) in lines.iter().enumerate().skip(start) {
        for c in line.chars() {
            match c {
                '{' => depth += 1,
                '}' if depth == 1 => return Some(at),
                '}' => depth -= 1,
                '(' | '[' => brackets += 1,
                ')' | ']' => brackets -= 1,
                ';' if depth == 0 && brackets == 0 => return None,
                _ => {}
            }
        }
    }
    None
}

/// Every `.rs` file under `dir` that is not a file of tests.
fn non_test_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder can be read") {
        let path = entry.expect("a folder entry").path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if path.is_dir() {
            non_test_sources(&path, out);
        } else if name.ends_with(".rs") && name != "tests.rs" && !name.ends_with("_tests.rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_function_is_longer_than_80_lines() {
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for folder in CHECKED {
        non_test_sources(&top.join(folder), &mut files);
    }
    let mut counted = 0;
    let mut long = Vec::new();
    for file in &files {
        let code = blank_literals(&std::fs::read_to_string(file).expect("a source file"));
        for (name, line, length) in functions(&code) {
            counted += 1;
            if length > MAX_FUNCTION_LINES {
                let file = file.strip_prefix(top).unwrap_or(file).display();
                long.push(format!("{file}:{line}: {name}, {length} lines"));
            }
        }
    }
    assert!(counted > 500, "the functions were found: {counted}");
    assert!(long.is_empty(), "split these along the ideas a learner would name: {long:?}");
}

#[test]
fn a_function_is_counted_from_its_fn_to_its_closing_brace_in_code_only() {
    let code = blank_literals(
        "/// fn not_this() {\npub fn one(a: &str) -> char {\n    let b = \"}{\"; // }\n    let c = '{';\n    \
         let d = r#\"}\"#;\n    'x'\n}\nfn declared();\nfn two() -> [u8; 2] {\n    [1, 2]\n}\n#[test]\nfn a_test() {\n}\n\
         mod tests {\n    fn inner() {}\n}\n",
    );
    assert_eq!(functions(&code), [("one".to_string(), 2, 6), ("two".to_string(), 9, 3)]);
}
