//! Plain sentences, the worst kept out. Short sentences, one idea each, cannot be tested; their
//! opposites can be flagged: a sentence chained with more than two semicolons, one longer than
//! `MOST_WORDS` words, and the private idioms readers tripped over ("road" for a way the program
//! runs, "door" for a way into a function), where a plain word does. Prose only: code, tables and
//! headings are left out.

use crate::markdown::{Page, pages};

/// Longer than this, a sentence is a paragraph.
const MOST_WORDS: usize = 70;

/// Words a plain word does better.
const IDIOMS: [&str; 4] = ["road", "roads", "door", "doors"];

/// `prose` with each code span read as the one word `Code`, as a sentence may start with one.
fn spans_as_words(prose: &str) -> String {
    let mut out = String::with_capacity(prose.len());
    for (i, part) in prose.split('`').enumerate() {
        out.push_str(if i % 2 == 1 { "Code" } else { part });
    }
    out
}

/// The sentences of a page's prose: paragraphs and list items outside code, tables and headings,
/// each code span read as one word, cut after `.`, `?` or `!` where a capital letter or a number starts the next
/// (after any `*`, `(` or `"`).
pub fn sentences(page: &Page) -> Vec<String> {
    let mut prose = String::new();
    for line in spans_as_words(&page.prose()).lines() {
        let line = line.trim();
        let skip = line.starts_with('|') || line.starts_with('#') || line.starts_with("---");
        // A list's item starts a sentence of its own.
        let number = line.trim_start_matches(|c: char| c.is_ascii_digit());
        if line.starts_with("- ") || (number.len() < line.len() && number.starts_with(". ")) {
            prose.push('\n');
        }
        prose.push_str(if skip { "" } else { line });
        prose.push(if line.is_empty() || skip { '\n' } else { ' ' });
    }
    let mut found = Vec::new();
    for paragraph in prose.split('\n') {
        let words: Vec<&str> = paragraph.split_whitespace().collect();
        let mut sentence: Vec<&str> = Vec::new();
        for (i, word) in words.iter().enumerate() {
            sentence.push(word);
            let ends = word.ends_with(['.', '?', '!']) || word.ends_with(".*") || word.ends_with(".)");
            let next_starts = words.get(i + 1).is_none_or(|n| {
                let n = n.trim_start_matches(['*', '(', '"', '_', '[']);
                n.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit())
            });
            let abbreviation = ["e.g.", "i.e.", "etc.", "vs."].contains(word);
            if ends && next_starts && !abbreviation {
                found.push(sentence.join(" "));
                sentence.clear();
            }
        }
        if !sentence.is_empty() {
            found.push(sentence.join(" "));
        }
    }
    found
}

#[test]
fn no_sentence_is_a_chain_or_an_idiom() {
    let mut problems = Vec::new();
    let mut count = 0;
    for page in pages() {
        for sentence in sentences(&page) {
            count += 1;
            let start: String = sentence.chars().take(70).collect();
            let semicolons = sentence.matches(';').count();
            let words = sentence.split_whitespace().count();
            if semicolons > 2 {
                problems.push(format!(
                    "{}: {semicolons} semicolons in one sentence: \"{start}...\"",
                    page.name()
                ));
            }
            if words > MOST_WORDS {
                problems.push(format!("{}: a sentence of {words} words: \"{start}...\"", page.name()));
            }
            let idiom = sentence
                .split(|c: char| !c.is_alphabetic())
                .find(|w| IDIOMS.contains(&w.to_lowercase().as_str()));
            if let Some(idiom) = idiom {
                problems
                    .push(format!("{}: \"{idiom}\", where a plain word does: \"{start}...\"", page.name()));
            }
        }
    }
    crate::check("sentences to make plainer", problems);
    assert!(count > 500, "only {count} sentences found in the book");
}
