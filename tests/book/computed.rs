//! Figures the book works out, worked out again. A *computed passage* is an HTML comment
//! `<!-- computed: NAME -->` (which a forge does not show) and the text after it up to the next
//! blank line: the rest of a paragraph or an answer, or the table on the lines below it. For each
//! NAME, a function here works the passage's figures out again, from the library's code or from the
//! formula written out in the function, and returns its *facts*: pieces of text the passage must
//! hold as they are, such as `T = 0.5 · 0.708 s + 0.5 · 1.158 s = 0.933 s` or a whole table row.
//! And every number in the passage must lie inside one of its facts, so a changed digit anywhere in
//! it fails, not only in the facts.
//!
//! A function that needs a sample model says so (`Missing`): without `SKINNING_MODELS` the passage
//! is SKIPPED, unless `SKINNING_REQUIRE_MODELS` is set, as in CI, which makes it a failure.
//!
//! The exercises at the end of chapters 1 to 16 (`exercises.rs`) keep their answers' figures in
//! such passages; the chapters use them for a worked example or a table as well.

mod arm;
mod carrying;
mod claims;
mod files;
mod format;
mod looking;
mod mixing;
mod reaching;
mod standing;
mod surface;
mod travel;

use crate::markdown::{Page, pages, place};
use std::ops::Range;
use std::path::PathBuf;

/// The facts a passage must hold, or why they cannot be worked out on this machine.
pub type Facts = Result<Vec<String>, Missing>;

/// What a function needs and this machine lacks: a sample model.
pub struct Missing(pub String);

/// A passage's name and the function that works it out.
pub type Work = (&'static str, fn() -> Facts);

/// Every name the book may give a passage, and the function that works it out.
fn registry() -> Vec<Work> {
    let all = [
        &arm::COMPUTED[..],
        &surface::COMPUTED,
        &files::COMPUTED,
        &mixing::COMPUTED,
        &reaching::COMPUTED,
        &looking::COMPUTED,
        &standing::COMPUTED,
        &claims::COMPUTED,
        &travel::COMPUTED,
        &carrying::COMPUTED,
    ];
    all.concat()
}

/// The facts of passage `name`: None for a name no function works out.
pub fn facts(name: &str) -> Option<Facts> {
    registry().into_iter().find(|(n, _)| *n == name).map(|(_, work)| work())
}

/// A computed passage of a page: its name, the line its marker is on, and its text.
pub struct Passage {
    pub name: String,
    pub line: usize,
    /// Where the text is in the prose it was found in, and the text itself.
    pub span: Range<usize>,
    pub text: String,
}

const MARKER: &str = "<!-- computed: ";

/// Every computed passage of `prose` (a page's prose, or a part of it), in order. `first_line` is
/// the page's line `prose` starts on.
pub fn passages(prose: &str, first_line: usize) -> Vec<Passage> {
    marked(prose, first_line, MARKER)
}

/// Every passage of `prose` after a marker `<!-- KIND: NAME -->` (`marker` is `<!-- KIND: `), in
/// order: the marker's NAME, and its text up to the next blank line.
pub fn marked(prose: &str, first_line: usize, marker: &str) -> Vec<Passage> {
    let mut found = Vec::new();
    for (at, _) in prose.match_indices(marker) {
        // A marker in a code span is shown, not used.
        if prose[..at].ends_with('`') {
            continue;
        }
        let after = &prose[at + marker.len()..];
        let Some(close) = after.find("-->") else { continue };
        let name = after[..close].trim().to_string();
        let start = at + marker.len() + close + "-->".len();
        // Up to the next blank line.
        let rest = &prose[start..];
        let mut end = rest.len();
        let mut offset = 0;
        for (i, line) in rest.split_inclusive('\n').enumerate() {
            if i > 0 && line.trim().is_empty() {
                end = offset;
                break;
            }
            offset += line.len();
        }
        let line = first_line + prose[..at].matches('\n').count();
        found.push(Passage { name, line, span: start..start + end, text: rest[..end].to_string() });
    }
    found
}

/// The numbers of `text`, as byte ranges: runs of digits (with a decimal point between digits),
/// not counting digits that end a word (`bone31`, `Head_4`).
pub fn numbers(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        let in_word = text[..start].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_');
        while i < bytes.len()
            && (bytes[i].is_ascii_digit()
                || (bytes[i] == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)))
        {
            i += 1;
        }
        if !in_word {
            found.push(start..i);
        }
    }
    found
}

/// Whether the passage holds every fact, and every number of it lies inside one or is `given` (a
/// number the exercise's question gives); Err says which fact is missing or which number no fact
/// covers. A line break in the passage reads as a space.
pub fn check(text: &str, facts: &[String], given: &[String]) -> Result<(), String> {
    let text = &text.replace('\n', " ");
    let mut covered: Vec<Range<usize>> = Vec::new();
    for fact in facts {
        let at: Vec<Range<usize>> = text.match_indices(fact.as_str()).map(|(i, f)| i..i + f.len()).collect();
        if at.is_empty() {
            return Err(format!("the test works out `{fact}`, which the passage does not say"));
        }
        covered.extend(at);
    }
    for number in numbers(text) {
        let is_given = given.iter().any(|g| *g == text[number.clone()]);
        if !is_given && !covered.iter().any(|c| c.start <= number.start && number.end <= c.end) {
            let start = number.start.saturating_sub(30);
            let around = text[start..(number.end + 30).min(text.len())].replace('\n', " ");
            return Err(format!(
                "`{}` (in \"...{around}...\") is in none of the facts the test works out",
                &text[number.clone()]
            ));
        }
    }
    Ok(())
}

/// Whether `name` (`SKINNING_MODELS`, `SKINNING_REQUIRE_MODELS`) is set.
fn set(name: &str) -> bool {
    std::env::var_os(name).is_some()
}

/// The folder of sample models, or the `Missing` that says why a function cannot run.
pub fn models() -> Result<PathBuf, Missing> {
    std::env::var_os("SKINNING_MODELS")
        .map(PathBuf::from)
        .ok_or_else(|| Missing("it reads a sample model: set SKINNING_MODELS to their folder".into()))
}

/// Checks every passage of `page`, adding what is wrong to `problems`; returns the names it found.
fn check_page(page: &Page, problems: &mut Vec<String>) -> Vec<String> {
    let mut names = Vec::new();
    let exercises = crate::exercises::exercises(page).ok();
    for passage in passages(&page.prose(), 1) {
        // In an answer, the numbers its question gives may be said again.
        let given = exercises.as_ref().map(|e| e.given(passage.line)).unwrap_or_default();
        let here = place(page, passage.line);
        names.push(passage.name.clone());
        match facts(&passage.name) {
            None => problems
                .push(format!("{here}: no function in tests/book/computed works out `{}`", passage.name)),
            Some(Err(Missing(why))) if !set("SKINNING_REQUIRE_MODELS") => {
                eprintln!("SKIPPED {here}: {}: {why}", passage.name)
            }
            Some(Err(Missing(why))) => {
                problems.push(format!("{here}: {}: SKINNING_REQUIRE_MODELS is set, but {why}", passage.name))
            }
            Some(Ok(facts)) => {
                if let Err(why) = check(&passage.text, &facts, &given) {
                    problems.push(format!("{here}: {}: {why}", passage.name));
                }
            }
        }
    }
    names
}

#[test]
fn every_computed_passage_is_worked_out_again() {
    let mut problems = Vec::new();
    let mut used = Vec::new();
    for page in pages() {
        used.extend(check_page(&page, &mut problems));
    }
    for (name, _) in registry() {
        if !used.iter().any(|u| u == name) {
            problems.push(format!("tests/book/computed works out `{name}`, which no page holds"));
        }
    }
    crate::check("computed passages that are not what the test works out", problems);
    assert!(used.len() >= 20, "only {} computed passages found: mark them `{MARKER}NAME -->`", used.len());
}

#[test]
fn the_passage_checks_catch_what_they_are_for() {
    let prose =
        "a\nT is <!-- computed: t --> 0.5 · 0.708 = 0.354 s\nand more 2.5\n\nnot 7 `<!-- computed: x -->`\n";
    let found = passages(prose, 10);
    assert_eq!(found.len(), 1);
    assert_eq!((found[0].name.as_str(), found[0].line), ("t", 11));
    assert_eq!(found[0].text, " 0.5 · 0.708 = 0.354 s\nand more 2.5\n");
    let text = &found[0].text;
    let ranges: Vec<&str> = numbers(text).into_iter().map(|r| &text[r]).collect();
    assert_eq!(ranges, ["0.5", "0.708", "0.354", "2.5"]);
    assert!(numbers("bone31 and Head_4 at x²").is_empty());
    let facts = |f: &[&str]| f.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(check(text, &facts(&["0.5 · 0.708 = 0.354 s", "2.5"]), &[]).is_ok());
    // A fact across a line break; a number the question gave.
    assert!(check(text, &facts(&["0.354 s and more", "0.5 · 0.708"]), &["2.5".into()]).is_ok());
    // A changed digit outside the facts, a fact the passage lacks.
    assert!(check(text, &facts(&["0.5 · 0.708 = 0.354 s"]), &[]).is_err());
    assert!(check(text, &facts(&["0.5 · 0.708 = 0.355 s", "2.5"]), &[]).is_err());
}
