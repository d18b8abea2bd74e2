//! Every figure of chapters 8 to 16 comes from somewhere a reader can check. A number in a
//! chapter's prose must be one of these:
//! - in a computed passage (`<!-- computed: NAME -->`, `computed.rs` works it out again);
//! - in a measured passage: a marker `<!-- measured: COMMAND, MACHINE -->`, then the text up to
//!   the next blank line (a paragraph, or the table on the lines below it). COMMAND is what gave
//!   the figures (`cargo bench --bench blend`, `/usr/bin/time ... skinning ...`) and MACHINE the
//!   build and machine it ran on. A measurement is one run's: the passage says so, and the marker
//!   says how to run it again;
//! - in a passage whose figures come from a file: a marker `<!-- from: PATH -->`, then the text up
//!   to the next blank line, every number of which is a number written in PATH, or in one of
//!   several paths separated by `, ` (a test's bound,
//!   a constant, a worked example's comment): `1e-5`, `28,672` for `28_672`, `2` for `2.0`;
//! - in the output of a `$ skinning ...` command quoted on the same page, which `console.rs` runs
//!   again: the figure is one the program printed (`0.5` for its `5.00e-1`);
//! - in code (a code span or block), a link, a heading, or the chapter's exercises (whose answers
//!   `exercises.rs` checks);
//! - a name rather than a figure: a chapter, an article, an issue, a step, a vertex or a bone by
//!   number, a version (glTF 2.0, Blender 3.4.1, CC BY 4.0, Doom 3), a matrix's shape (`3x3`), or
//!   a numbered list's own numbers.
//!
//! Any other number is listed, and the test fails.

use crate::computed::marked;
use crate::markdown::{Page, blocks, pages, root, without_code};
use std::ops::Range;

/// Words after which a number names a thing rather than gives a figure.
const NAMING: [&str; 26] = [
    "chapter", "chapters", "Chapter", "article", "articles", "Article", "issue", "glTF", "BY", "Blender",
    "Debian", "OpenGL", "ES", "Mesa", "LLVM", "Doom", "step", "Step", "steps", "vertex", "vertices", "bone",
    "joint", "rule", "Rule", "Rules",
];

/// The figures of `text`, as byte ranges: digits, with `.` or `,` between digits and an exponent
/// (`1.06e-8`), not counting digits that end a word (`bone31`, `Head_4`).
pub fn figures(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let digit = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !digit(i) {
            i += 1;
            continue;
        }
        let start = i;
        let in_word = text[..start].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_');
        while digit(i) || (i < bytes.len() && matches!(bytes[i], b'.' | b',') && digit(i + 1)) {
            i += 1;
        }
        let sign = usize::from(matches!(bytes.get(i + 1), Some(b'-' | b'+')));
        if bytes.get(i) == Some(&b'e') && digit(i + 1 + sign) {
            i += 1 + sign;
            while digit(i) {
                i += 1;
            }
        }
        if !in_word {
            found.push(start..i);
        }
    }
    found
}

/// Whether the number at `r` of `line` names a thing rather than gives a figure: a chapter, a
/// vertex, a version, a matrix's shape, a numbered list's own number.
fn is_name(line: &str, r: &Range<usize>) -> bool {
    let word_before = line[..r.start].split_whitespace().next_back().unwrap_or_default();
    let list_marker = line[..r.start].trim().is_empty() && line[r.end..].starts_with(". ");
    let after = &line[r.end..];
    let shape = after.starts_with('x') && after[1..].starts_with(|c: char| c.is_ascii_digit());
    // "chapters 9, 10 and 16", "Rules 3 and 4": the later ones name things too.
    let before = line[..r.start].trim_end();
    let listed = before.ends_with(" and")
        || before.ends_with(',') && word_before.trim_end_matches(',').parse::<u32>().is_ok();
    let chapters = listed && ["chapters ", "Chapters ", "Rules ", "rules "].iter().any(|w| line.contains(w));
    NAMING.contains(&word_before.trim_start_matches('(')) || list_marker || shape || chapters
}

/// A figure's value: `28,672` and `28_672` are 28672, `2` and `2.0` are 2.
fn value(figure: &str) -> Option<f64> {
    figure.replace([',', '_'], "").parse().ok()
}

/// Whether every figure of `passage` is a number written in `source`: Err names the first that is not.
fn all_in(passage: &str, source: &str) -> Result<(), String> {
    let source = source.replace('_', "");
    let written: Vec<f64> = figures(&source).into_iter().filter_map(|r| value(&source[r])).collect();
    for r in figures(passage).into_iter().filter(|r| !is_name(passage, r)) {
        if !value(&passage[r.clone()]).is_some_and(|v| written.contains(&v)) {
            return Err(passage[r].to_string());
        }
    }
    Ok(())
}

/// The numbers a `$ skinning` command's quoted output holds on `page`: figures it re-runs.
fn printed(page: &Page) -> Vec<String> {
    let mut found = Vec::new();
    for block in blocks(&page.text).iter().filter(|b| b.language == "console") {
        let mut skinning = false;
        for line in &block.lines {
            if let Some(command) = line.strip_prefix("$ ") {
                skinning = command.starts_with("skinning ");
                continue;
            }
            if skinning {
                let line = line.replace("[..]", " ");
                found.extend(figures(&line).into_iter().map(|r| line[r].to_string()));
            }
        }
    }
    found
}

/// Whether the marker of a measured passage gives a command and a machine.
pub fn is_measurement(name: &str) -> bool {
    let (command, machine) = name.rsplit_once(", ").unwrap_or(("", ""));
    let runs = ["cargo ", "skinning ", "/usr/bin/time ", "SKINNING_", "bash ", "blender "];
    runs.iter().any(|r| command.starts_with(r)) && machine.trim().len() > 3
}

/// The numbers of a page's prose that come from nowhere: each as `line: number (in "...")`, and
/// the measured markers that name no command or no machine.
pub fn unmarked(page: &Page) -> Vec<String> {
    let mut prose = page.prose();
    // The exercises, checked by `exercises.rs`, end the chapter.
    if let Some(at) = prose.find("\n## Exercises\n") {
        prose.truncate(at);
    }
    let mut problems = Vec::new();
    // Blanked text keeps its line breaks, so that the paragraphs stay where they were.
    let blank = |prose: &mut String, range: Range<usize>| {
        let kept: String = prose[range.clone()]
            .chars()
            .map(|c| if c == '\n' { "\n".into() } else { " ".repeat(c.len_utf8()) })
            .collect();
        prose.replace_range(range, &kept);
    };
    for marker in ["<!-- computed: ", "<!-- measured: ", "<!-- from: "] {
        for passage in marked(&prose.clone(), 1, marker) {
            if marker.contains("measured") && !is_measurement(&passage.name) {
                problems.push(format!("{}: `{}` names no command and machine", passage.line, passage.name));
            }
            if marker.contains("from") {
                let sources: Result<Vec<String>, String> = passage
                    .name
                    .split(", ")
                    .map(|path| {
                        std::fs::read_to_string(root().join(path)).map_err(|e| format!("{path}: {e}"))
                    })
                    .collect();
                let checked = sources.and_then(|s| {
                    all_in(&without_code(&passage.text), &s.concat())
                        .map_err(|f| format!("{f} is written nowhere in {}", passage.name))
                });
                if let Err(why) = checked {
                    problems.push(format!("{}: {why}", passage.line));
                }
            }
            blank(&mut prose, passage.span);
        }
    }
    while let Some(at) = prose.find("<!--") {
        let end = prose[at..].find("-->").map_or(prose.len(), |e| at + e + 3);
        blank(&mut prose, at..end);
    }
    // Links, their words and where they lead, and addresses: places, not figures.
    for (open, close) in [("](", ")"), ("<http", ">")] {
        let mut from = 0;
        while let Some(at) = prose[from..].find(open).map(|a| from + a) {
            let end = prose[at..].find(close).map_or(prose.len(), |e| at + e + 1);
            let line_start = prose[..at].rfind('\n').map_or(0, |n| n + 1);
            let at = if open == "](" {
                prose[line_start..at].rfind('[').map_or(at, |b| line_start + b)
            } else {
                at
            };
            blank(&mut prose, at..end);
            from = end;
        }
    }
    let prose = without_code(&prose);
    let printed = printed(page);
    for (i, line) in prose.lines().enumerate() {
        if line.starts_with('#') {
            continue;
        }
        for number in figures(line) {
            let figure = &line[number.clone()];
            let quoted = value(figure).is_some_and(|v| printed.iter().any(|p| value(p) == Some(v)));
            if is_name(line, &number) || quoted {
                continue;
            }
            let start = number.start.saturating_sub(40);
            let around = line.get(start..(number.end + 30).min(line.len())).unwrap_or(line);
            problems.push(format!("{}: {figure} (in \"...{}...\")", i + 1, around.trim()));
        }
    }
    problems
}

/// Chapters 8 to 16, by their file names' first two digits.
fn chapters_eight_on() -> Vec<Page> {
    let number = |p: &Page| {
        let name = p.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        name.get(..2).and_then(|n| n.parse::<u32>().ok())
    };
    pages().into_iter().filter(|p| number(p).is_some_and(|n| (8..=16).contains(&n))).collect()
}

#[test]
fn every_figure_of_chapters_8_to_16_comes_from_a_source() {
    let chapters = chapters_eight_on();
    let problems: Vec<String> = chapters
        .iter()
        .flat_map(|page| unmarked(page).into_iter().map(|f| format!("{}:{f}", page.name())))
        .collect();
    crate::check(
        "figures from nowhere: mark them computed, measured or from a file, or quote the output",
        problems,
    );
    assert_eq!(chapters.len(), 9, "chapters 8 to 16 not all found");
}

#[test]
fn the_figure_checks_catch_what_they_are_for() {
    let page = |text: &str| Page { path: "docs/99-x.md".into(), text: text.into() };
    assert!(unmarked(&page("# 9. X\n\nIt takes 1.5 s.\n")).len() == 1);
    let measured = "<!-- measured: skinning --stats, release build, a 2-core VM -->\nIt takes 1.5 s.\n";
    assert!(unmarked(&page(measured)).is_empty());
    let nameless = "<!-- measured: one run -->\nIt takes 1.5 s.\n";
    assert_eq!(unmarked(&page(nameless)).len(), 1);
    let quoted = "It prints 1.5:\n\n```console\n$ skinning --x\ntook 1.5 s\n```\n";
    assert!(unmarked(&page(quoted)).is_empty());
    let test_output = "It prints 1.5:\n\n```console\n$ cargo test --test x\ntook 1.5 s\n```\n";
    assert_eq!(unmarked(&page(test_output)).len(), 1);
    let names = "See chapter 10 and chapters 9 and 11, glTF 2.0, a 3x3, `--frames 400`, [12. R](12-r.md).\n\n1. One\n";
    assert!(unmarked(&page(names)).is_empty(), "{:?}", unmarked(&page(names)));
    let from = |n: &str| format!("<!-- from: tests/normal_rules.rs --> It holds them within {n}.\n");
    assert!(unmarked(&page(&from("1e-5"))).is_empty() && unmarked(&page(&from("28,672"))).is_empty());
    assert_eq!(unmarked(&page(&from("3e-9"))).len(), 1);
    let shown = |text: &str| figures(text).into_iter().map(|r| text[r].to_string()).collect::<Vec<_>>();
    assert_eq!(shown("1.06e-8 and 28,672, bone31, 3x3."), ["1.06e-8", "28,672", "3"]);
    let exercises = "Fine.\n\n## Exercises\n\n1. Take 0.5 s.\n";
    assert!(unmarked(&page(exercises)).is_empty());
}
