//! The book's diagrams (```` ```mermaid ```` blocks) name real code. In a diagram a function is
//! cited as in prose, without the backticks, one name to a citation: `crates/method/src/skin.rs: compute_palette`
//! (after a comma, a plain word may follow). Each cited file must exist and define the name;
//! a name written `Type::name` or `name()` on a line that cites no file defining it is an error,
//! so a diagram cannot keep a name the code has lost.

use crate::defines;
use crate::markdown::{blocks, pages, place, root};

/// Fewer cited names than this in all the diagrams means the reading went wrong.
const AT_LEAST: usize = 20;

/// The citations of one line of a diagram: each `path: name`.
pub fn cited(line: &str) -> Vec<(String, String)> {
    let line = &line.replace("<br/>", " ");
    let mut found = Vec::new();
    for (at, _) in line.match_indices(": ") {
        let path: String =
            line[..at].chars().rev().take_while(|&c| c.is_alphanumeric() || "/._-".contains(c)).collect();
        let path: String = path.chars().rev().collect();
        let is_source = [".rs", ".vert", ".frag"].iter().any(|e| path.ends_with(e)) && path.contains('/');
        let name: String =
            line[at + 2..].chars().take_while(|&c| c.is_alphanumeric() || c == '_' || c == ':').collect();
        if is_source && !name.is_empty() {
            found.push((path, name.trim_end_matches(':').to_string()));
        }
    }
    found
}

/// The paths a line of a diagram names: words that start `src/` or `shaders/`.
pub fn paths(line: &str) -> Vec<String> {
    let line = line.replace("<br/>", " ");
    let words = line.split(|c: char| !(c.is_alphanumeric() || "/._-".contains(c)));
    let named =
        words.filter(|w| w.starts_with("src/") || w.starts_with("crates/") || w.starts_with("shaders/"));
    named.map(|w| w.trim_end_matches('.').to_string()).collect()
}

/// The code-like names of a line: `Type::name` and `name()`.
pub fn code_names(line: &str) -> Vec<String> {
    let words = line.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '(' || c == ')'));
    words
        .flat_map(|w| w.split(['(', ')']).next().map(|n| (n, w.contains("()"))))
        .filter(|(name, call)| {
            let name = name.trim_matches(':');
            (name.contains("::") || *call) && name.chars().next().is_some_and(char::is_alphabetic)
        })
        .map(|(name, _)| name.trim_matches(':').to_string())
        .collect()
}

#[test]
fn every_diagram_names_code_that_is_there() {
    let mut problems = Vec::new();
    let mut count = 0;
    for page in pages() {
        for block in blocks(&page.text).into_iter().filter(|b| b.language == "mermaid") {
            for (i, line) in block.lines.iter().enumerate() {
                let here = place(&page, block.line + i);
                let citations = cited(line);
                for (path, name) in &citations {
                    let Ok(source) = std::fs::read_to_string(root().join(path)) else {
                        problems.push(format!("{here}: {path} does not exist"));
                        continue;
                    };
                    count += 1;
                    for part in name.split("::") {
                        if !defines(&source, part, !path.ends_with(".rs")) {
                            problems.push(format!("{here}: {path} defines no {part}"));
                        }
                    }
                }
                for path in paths(line) {
                    if !root().join(&path).exists() {
                        problems.push(format!("{here}: {path} does not exist"));
                    }
                }
                for name in code_names(line) {
                    if !citations.iter().any(|(_, cited)| *cited == name) {
                        problems.push(format!("{here}: `{name}` is named without its file (`path: {name}`)"));
                    }
                }
            }
        }
    }
    crate::check("diagrams that name what is not there", problems);
    assert!(count >= AT_LEAST, "only {count} names cited in the diagrams: cite them as `path: name`");
}
