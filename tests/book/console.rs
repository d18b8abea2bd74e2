//! Quoted output stays what the program prints. A ```` ```console ```` block of the book is a
//! session at a terminal: a line `$ skinning ARGS`, then what the program printed, standard output
//! then standard error, with `[..]` for a run-dependent part of a line and a line `...` for lines
//! left out. This test runs every such command again (the debug program `cargo test` built) and
//! compares. The commands of one block run in turn in one scratch folder that holds copies of the
//! sample models from `SKINNING_MODELS`, so `--model Fox.glb` finds the Fox and what a command
//! writes vanishes with the folder. A block that needs a model is SKIPPED without them, and one
//! that needs OpenGL is SKIPPED on a machine without it, unless `SKINNING_REQUIRE_MODELS` or
//! `SKINNING_REQUIRE_GL` is set (as in CI), which makes either a failure.
//!
//! A command that fails (a non-zero exit) must show its one-line failure as the block's last line;
//! one that succeeds may show any part of what it printed. A block may also quote what a test or a
//! benchmark prints, `$ cargo test --test NAME [FILTER] -- --nocapture` and its lines: that is not
//! run (a test inside a test), but checked against the sources (`printed.rs`).
//!
//! Why a runner of our own and not `trycmd`, which reads such blocks from Markdown too: `trycmd`
//! merges standard error into standard output as they come, where the book quotes one then the
//! other; its sandbox is a folder inside the repository, where the sample models may not go; it
//! cannot skip a block for want of the models or OpenGL; and it brings about twenty crates to
//! compile. The whole runner is the three small files `console.rs`, `run.rs` and `matching.rs`.

use crate::markdown::{Block, Page, blocks, pages, place};
use crate::printed::check_printed;
use crate::run::{Outcome, run_block};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Fewer commands than this found in the book means the reading went wrong, not that the book
/// quotes nothing.
const AT_LEAST_RUN: usize = 12;

/// One `$ ...` line of a console block and the lines quoted under it.
pub struct Quoted {
    /// The page's line the command is on.
    pub line: usize,
    /// `NAME=value` words before the program: its environment.
    pub env: Vec<(String, String)>,
    /// The program and its arguments, as a shell splits them.
    pub words: Vec<String>,
    pub output: Vec<String>,
}

/// A command line split into words as a shell would (spaces, and '...' or "..." kept whole), or
/// why the book cannot run it: pipes, redirections and variables belong in a ```` ```sh ```` block.
pub fn words(command: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    for c in command.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, '|' | '>' | '<' | ';' | '&' | '$' | '`' | '*' | '\\') => {
                return Err(format!("`{c}` needs a shell: show this command in a ```sh block"));
            }
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quote.is_some() {
        return Err("a quote is not closed".into());
    }
    words.extend(word);
    Ok(words)
}

/// The commands of a console block, each with the lines quoted under it.
pub fn commands(block: &Block) -> Result<Vec<Quoted>, String> {
    let mut found: Vec<Quoted> = Vec::new();
    for (i, text) in block.lines.iter().enumerate() {
        if let Some(command) = text.strip_prefix("$ ") {
            let mut words = words(command)?;
            let at = words.iter().position(|w| !is_assignment(w)).unwrap_or(words.len());
            let env = words
                .drain(..at)
                .map(|w| w.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())).unwrap_or_default())
                .collect();
            found.push(Quoted { line: block.line + i, env, words, output: Vec::new() });
        } else {
            let Some(last) = found.last_mut() else {
                return Err("a console block starts with a command, `$ skinning ARGS`".into());
            };
            last.output.push(text.clone());
        }
    }
    if found.is_empty() {
        return Err("a console block holds at least one command, `$ skinning ARGS`".into());
    }
    Ok(found)
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    })
}

/// Every console block of the book, with its page.
fn console_blocks() -> Vec<(Page, Block)> {
    let mut found = Vec::new();
    for page in pages() {
        for block in blocks(&page.text) {
            if block.language == "console" {
                found.push((Page { path: page.path.clone(), text: String::new() }, block));
            }
        }
    }
    found
}

#[test]
fn every_quoted_output_is_what_the_program_prints() {
    let started = Instant::now();
    let mut problems = Vec::new();
    let mut to_run = Vec::new();
    let mut printed = 0;
    for (page, block) in console_blocks() {
        let quoted = match commands(&block) {
            Ok(quoted) => quoted,
            Err(why) => {
                problems.push(format!("{}: {why}", place(&page, block.line)));
                continue;
            }
        };
        match quoted[0].words.first().map(String::as_str) {
            Some("skinning") if quoted.iter().all(|q| q.words[0] == "skinning") => {
                to_run.push((page, quoted))
            }
            Some("cargo") => {
                printed += quoted.len();
                for q in &quoted {
                    if let Err(why) = check_printed(q) {
                        problems.push(format!("{}: {why}", place(&page, q.line)));
                    }
                }
            }
            _ => problems.push(format!(
                "{}: a console block runs `skinning ARGS` (or quotes `cargo test`); show other commands \
                 in a ```sh block",
                place(&page, block.line)
            )),
        }
    }
    let commands: usize = to_run.iter().map(|(_, q)| q.len()).sum();
    assert!(
        commands >= AT_LEAST_RUN,
        "only {commands} `$ skinning` commands found in the book's console blocks"
    );

    // The blocks run side by side, a few at a time: most of a run is starting the program.
    let next = AtomicUsize::new(0);
    let outcomes = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(2, 4);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some((page, quoted)) = to_run.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let outcome = run_block(quoted);
                    outcomes
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((place(page, quoted[0].line), outcome));
                }
            });
        }
    });
    let mut outcomes = outcomes.into_inner().unwrap_or_else(|e| e.into_inner());
    outcomes.sort_by(|a, b| a.0.cmp(&b.0));
    let (mut passed, mut skipped) = (0, 0);
    for (place, outcome) in outcomes {
        match outcome {
            Outcome::Passed => passed += 1,
            Outcome::Skipped(why) => {
                skipped += 1;
                eprintln!("SKIPPED {place}: {why}");
            }
            Outcome::Failed(why) => problems.push(format!("{place}: {why}")),
        }
    }
    println!(
        "{passed} console blocks re-run and matched, {skipped} skipped, {printed} test commands checked \
         against their sources, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    crate::check("quoted output that is not what is printed", problems);
}
